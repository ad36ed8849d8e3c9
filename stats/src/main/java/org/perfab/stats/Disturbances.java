package org.perfab.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The trials a disturbance of the machine spoiled: a trial in which most cells moved together, far
 * beyond their spread, measured the machine (a neighbour's burst, a throttled CPU, a migrated
 * virtual machine), not the code. Such a trial must decide no cell and hide none: it is set aside
 * from every cell of its run and, where the run can, replaced.
 *
 * <p>Each cell's spread is robust and pooled over both sides, on the logarithms of its values (so
 * a cell's move is a ratio, whatever its unit): 1.4826 times the median distance of a value from
 * its own side's median. A cell moved in a trial when its value lies {@value #SPREADS} spreads or
 * more from its side's median. In a trial of {@value #MIN_CELLS} cells or more, at least
 * {@value #SHARE_PERCENT}% of its cells moving the same way (worse, or better) is a trial-wide event:
 * unchanged code gives each cell's noise its own timing.
 *
 * <p>Cells that move together are not enough on their own: a slow path of the candidate's code in
 * one trial of four moves every cell together too. Such a trial is the machine's only when the
 * machine says so, or when trials that moved together fall on both sides (the code of one side
 * cannot slow the other's). The machine says so when the trial itself lost time to it: the
 * hypervisor stole at least {@value #MORE_STEAL_PERCENT}% more of the CPUs' time than in its side's
 * typical trial, or the trial's wall time stretched against its own CPU time by
 * {@value #STRETCH_PERCENT}% or more against the side's typical trial (a trial that waited for a
 * CPU). Neither is the machine's word when the trial's own CPU time grew with its cells' move: a
 * slower path of the code costs CPU time as well as wall time. Other processes kept busier
 * (at least {@value #BUSIER_CORES} of a core more than in the typical trial) are reported, but are
 * not the machine's word on their own: on a machine of several cores a neighbour may slow no trial,
 * and on a busy runner neighbours come and go in every trial, the code's slow ones too.
 * With fewer than {@value #MIN_CELLS} cells, a trial is disturbed only on the machine's word, and
 * when its every cell moved for the worse.
 *
 * <p>A spread of 0 (counts that never vary) is taken as 0.1% of the value, so that one count moving
 * by one does not count as a move of infinitely many spreads.
 */
public final class Disturbances {
    /** How many spreads from its side's median make a cell's value moved. */
    public static final double SPREADS = 3;
    /** The fewest cells a trial needs to be judged by its cells alone. */
    public static final int MIN_CELLS = 3;
    /** The share of a trial's cells, in percent, that must move together. */
    public static final int SHARE_PERCENT = 67;
    /** How many more cores other processes must have kept busy, against the run's median trial. */
    public static final double BUSIER_CORES = 0.5;
    /** How much more of the CPUs' time, in percent, the hypervisor must have stolen, against the run's median trial. */
    public static final int MORE_STEAL_PERCENT = 5;
    /** How much more, in percent, a trial's wall time per second of its own CPU time must be than its side's typical trial's. */
    public static final int STRETCH_PERCENT = 25;
    /** The least growth of a trial's CPU time, in seconds, that is told from the clock's tick. */
    public static final double CPU_TICK_SECONDS = 0.02;
    /** The fewest trials of each side that must have measured a cell for its spread to be known. */
    public static final int MIN_TRIALS = 3;
    /** The least spread, on the logarithm: 0.1%. */
    static final double LEAST_SPREAD = 0.001;

    private Disturbances() {}

    /**
     * A disturbed trial.
     *
     * @param side 0 for the baseline, 1 for the candidate
     * @param trial the trial's position among its side's trials in {@code values}
     * @param moved how many of its cells moved the same way
     * @param cells how many cells it measured
     * @param shift the median move of the cells that moved, in percent of their side's medians,
     *     positive for the worse
     * @param busier how many more cores other processes kept busy than in the run's median trial;
     *     NaN when not known
     * @param evidence what says the trial was the machine's
     */
    public record Found(int side, int trial, int moved, int cells, double shift, double busier, Evidence evidence) {}

    /** What says a trial was the machine's, not the code's. */
    public enum Evidence {
        /** The trial's wall time stretched against its own CPU time: it waited for a CPU. */
        WAITED,
        /** The hypervisor stole more of the CPUs' time than in the side's typical trial. */
        STOLEN,
        /** Trials whose cells moved together fell on both sides. */
        BOTH_SIDES
    }

    /**
     * Returns the disturbed trials, by side and then by trial.
     *
     * @param values {@code values[side][trial][cell]}: each side's trials, each a value per cell,
     *     NaN where the trial did not measure the cell (every value positive, or NaN)
     * @param worseUp {@code worseUp[cell]}: whether a larger value is worse (a time), or a smaller
     *     one (a throughput)
     * @param others {@code others[side][trial]}: the cores other processes kept busy during the
     *     trial; NaN where not known
     * @param steal {@code steal[side][trial]}: the share of the CPUs' time the hypervisor stole
     *     during the trial, from 0 to 1; NaN where not known
     */
    public static List<Found> of(double[][][] values, boolean[] worseUp, double[][] others, double[][] steal) {
        double[][] unknown = new double[2][];
        for (int s = 0; s < 2; s++) {
            unknown[s] = new double[values[s].length];
            Arrays.fill(unknown[s], Double.NaN);
        }
        return of(values, worseUp, others, steal, unknown, unknown);
    }

    /**
     * Returns the disturbed trials, by side and then by trial, as {@link #of(double[][][], boolean[],
     * double[][], double[][])} does, with what each trial's own times say.
     *
     * <p>A trial waited for a CPU when its wall time per second of its own CPU time is
     * {@value #STRETCH_PERCENT}% or more over its side's typical trial's. That, or stolen time, is the
     * machine's word only if the trial's CPU time did not grow with its cells: a trial whose CPU time grew by at
     * least half its cells' median move, and by at least {@value #CPU_TICK_SECONDS} s (the kernel's
     * clock tick, under which CPU times are not told apart), ran more code, whatever else it waited
     * for, and is the code's.
     *
     * @param wall {@code wall[side][trial]}: the trial's wall time in seconds; NaN where not known
     * @param cpu {@code cpu[side][trial]}: the CPU time of the trial's processes in seconds; NaN
     *     where not known
     */
    public static List<Found> of(
            double[][][] values,
            boolean[] worseUp,
            double[][] others,
            double[][] steal,
            double[][] wall,
            double[][] cpu) {
        int cells = worseUp.length;
        Moves m = moves(values, worseUp);
        double[][][] z = m.spreads();
        double[][][] moves = m.percent();
        List<Found> together = new ArrayList<>();
        List<Found> found = new ArrayList<>();
        boolean[] sidesTogether = new boolean[2];
        for (int s = 0; s < 2; s++) {
            double typical = typical(others[s]);
            double typicalSteal = typical(steal[s]);
            double[] stretch = new double[values[s].length];
            for (int t = 0; t < stretch.length; t++) {
                stretch[t] = cpu[s][t] > 0 ? wall[s][t] / cpu[s][t] : Double.NaN;
            }
            double typicalStretch = typical(stretch);
            double typicalCpu = typical(cpu[s]);
            for (int t = 0; t < values[s].length; t++) {
                int measured = 0;
                List<Double> worse = new ArrayList<>();
                List<Double> better = new ArrayList<>();
                for (int c = 0; c < cells; c++) {
                    double zc = z[s][t][c];
                    if (Double.isNaN(zc)) {
                        continue;
                    }
                    measured++;
                    if (zc >= SPREADS) {
                        worse.add(moves[s][t][c]);
                    } else if (zc <= -SPREADS) {
                        better.add(moves[s][t][c]);
                    }
                }
                double busier =
                        Double.isNaN(others[s][t]) || Double.isNaN(typical) ? Double.NaN : others[s][t] - typical;
                boolean stolen = steal[s][t] - typicalSteal >= MORE_STEAL_PERCENT / 100.0;
                List<Double> moved = worse.size() >= better.size() ? worse : better;
                boolean cellsMoved = measured >= MIN_CELLS && moved.size() * 100 >= SHARE_PERCENT * measured;
                boolean busy = measured > 0 && measured < MIN_CELLS && worse.size() == measured;
                if (cellsMoved || busy) {
                    double shift =
                            Sample.median(moved.stream().mapToDouble(d -> d).toArray());
                    double moreCpu = cpu[s][t] - typicalCpu;
                    boolean ranMore = moreCpu >= CPU_TICK_SECONDS && moreCpu >= typicalCpu * Math.abs(shift) / 200;
                    boolean waited = stretch[t] >= typicalStretch * (1 + STRETCH_PERCENT / 100.0);
                    boolean machine = (stolen || waited) && !ranMore;
                    if (machine) {
                        found.add(new Found(
                                s,
                                t,
                                moved.size(),
                                measured,
                                shift,
                                busier,
                                waited ? Evidence.WAITED : Evidence.STOLEN));
                    } else if (cellsMoved) {
                        together.add(new Found(s, t, moved.size(), measured, shift, busier, Evidence.BOTH_SIDES));
                        sidesTogether[s] = true;
                    }
                }
            }
        }
        // Trials whose cells moved together on both sides are the machine's: one side's code cannot
        // slow the other's. On one side only, without the machine's word, they may be the code.
        if (sidesTogether[0] && sidesTogether[1]) {
            found.addAll(together);
        }
        found.sort(java.util.Comparator.comparingInt(Found::side).thenComparingInt(Found::trial));
        return found;
    }

    /**
     * Each trial's move in each cell from its side's median: {@code spreads[side][trial][cell]} in
     * spreads of the cell's trials pooled over both sides, positive for the worse, and
     * {@code percent[side][trial][cell]}, in percent of the median, positive for the worse. NaN in
     * {@code spreads} (and 0 in {@code percent}) where the trial did not measure the cell or too few
     * trials did to know its spread.
     */
    private record Moves(double[][][] spreads, double[][][] percent) {}

    /** Returns each trial's move in each cell from its side's median, for the worse. */
    private static Moves moves(double[][][] values, boolean[] worseUp) {
        int cells = worseUp.length;
        double[][][] z = new double[2][][];
        double[][][] moves = new double[2][][];
        for (int s = 0; s < 2; s++) {
            z[s] = new double[values[s].length][cells];
            moves[s] = new double[values[s].length][cells];
            for (double[] row : z[s]) {
                Arrays.fill(row, Double.NaN);
            }
        }
        for (int c = 0; c < cells; c++) {
            double[] medians = new double[2];
            List<Double> deviations = new ArrayList<>();
            boolean known = true;
            for (int s = 0; s < 2; s++) {
                double[] logs = column(values[s], c);
                known &= logs.length >= MIN_TRIALS;
                medians[s] = Sample.median(logs);
                for (double v : logs) {
                    deviations.add(Math.abs(v - medians[s]));
                }
            }
            if (!known) {
                continue; // too few trials measured the cell to know its spread
            }
            double spread = Math.max(
                    Sample.robustSd(deviations.stream().mapToDouble(d -> d).toArray()), LEAST_SPREAD);
            for (int s = 0; s < 2; s++) {
                for (int t = 0; t < values[s].length; t++) {
                    double v = values[s][t][c];
                    if (v > 0 && !Double.isNaN(medians[s])) {
                        double d = (Math.log(v) - medians[s]) * (worseUp[c] ? 1 : -1);
                        z[s][t][c] = d / spread;
                        moves[s][t][c] = Math.expm1(d) * 100;
                    }
                }
            }
        }
        return new Moves(z, moves);
    }

    /** Returns the median of the known values of one side's trials; NaN when none is known. */
    private static double typical(double[] perTrial) {
        return Sample.median(
                Arrays.stream(perTrial).filter(o -> !Double.isNaN(o)).toArray());
    }

    /** Returns the logarithms of a cell's measured values on one side. */
    private static double[] column(double[][] trials, int cell) {
        return Arrays.stream(trials)
                .mapToDouble(t -> t[cell])
                .filter(v -> v > 0)
                .map(Math::log)
                .toArray();
    }
}
