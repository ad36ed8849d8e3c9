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
 * more from its side's median. A trial of {@value #MIN_CELLS} cells or more is disturbed when at
 * least {@value #SHARE_PERCENT}% of its cells moved the same way (worse, or better): unchanged code
 * gives each cell's noise its own timing, and two thirds of them far out together is the machine.
 *
 * <p>With fewer cells the values alone cannot tell a disturbance from a slow trial of the code, so
 * the machine must say it: a trial whose other processes kept at least {@value #BUSIER_CORES} of a
 * core more busy than in the run's typical trial, or whose hypervisor stole at least
 * {@value #MORE_STEAL_PERCENT}% more of the CPUs' time (see the load each trial records), and whose
 * every cell moved for the worse, is disturbed too.
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
    /** The fewest trials of each side that must have measured a cell for its spread to be known. */
    public static final int MIN_TRIALS = 3;
    /** The least spread, on the logarithm: 0.1%. */
    static final double LEAST_SPREAD = 0.001;

    private Disturbances() {
    }

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
     */
    public record Found(int side, int trial, int moved, int cells, double shift, double busier) {
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
        int cells = worseUp.length;
        // z[side][trial][cell]: the move in spreads, positive for the worse; NaN where unmeasured.
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
            double spread = Math.max(1.4826 * Sample.median(deviations.stream().mapToDouble(d -> d).toArray()),
                    LEAST_SPREAD);
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
        List<Found> found = new ArrayList<>();
        for (int s = 0; s < 2; s++) {
            double typical = Sample.median(Arrays.stream(others[s]).filter(o -> !Double.isNaN(o)).toArray());
            double typicalSteal = Sample.median(Arrays.stream(steal[s]).filter(o -> !Double.isNaN(o)).toArray());
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
                double busier = Double.isNaN(others[s][t]) || Double.isNaN(typical) ? Double.NaN
                        : others[s][t] - typical;
                boolean stolen = steal[s][t] - typicalSteal >= MORE_STEAL_PERCENT / 100.0;
                List<Double> moved = worse.size() >= better.size() ? worse : better;
                boolean together = measured >= MIN_CELLS && moved.size() * 100 >= SHARE_PERCENT * measured;
                boolean busy = measured > 0 && measured < MIN_CELLS && worse.size() == measured
                        && (busier >= BUSIER_CORES || stolen);
                if (together || busy) {
                    found.add(new Found(s, t, moved.size(), measured,
                            Sample.median(moved.stream().mapToDouble(d -> d).toArray()), busier));
                }
            }
        }
        return found;
    }

    /** Returns the logarithms of a cell's measured values on one side. */
    private static double[] column(double[][] trials, int cell) {
        return Arrays.stream(trials).mapToDouble(t -> t[cell]).filter(v -> v > 0).map(Math::log).toArray();
    }
}
