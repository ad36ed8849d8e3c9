package org.perfab.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToIntFunction;
import org.perfab.stats.Trials;

/**
 * The values of one cell on both sides, as {@link ComparisonTable} judges them: each side's in the
 * order measured, with the build and trial of each.
 *
 * <p>The values are held in primitive arrays, not as {@link Measurement}s: a comparison of 10,000
 * benchmarks of 20 runs a side holds 400,000 values, and an object for each costs five times the
 * memory of its number and a regrouping by cell. A reader that knows each value's cell and side as it
 * reads hands them over grouped ({@link #of(Cell, double[], double[])}).
 */
public final class CellValues {
    private final Cell cell;
    /** Each side's values, by {@link Side#ordinal}. */
    private final double[][] values;
    /**
     * Each side's builds and trials, by {@link Side#ordinal}; null when every value is of build 0 and
     * its trial is its position, so that such a side holds nothing but its numbers.
     */
    private final int[][] builds;

    private final int[][] trials;
    /**
     * Each side's places in the run's order, by {@link Side#ordinal}; null when the values do not
     * pair (values read from files of measurements, a trial of unknown place, a trial that measured
     * the cell twice).
     */
    private final int[][] places;

    /** The place of a value whose place in a run's order is not known. */
    static final int NO_PLACE = -1;

    private CellValues(Cell cell, double[][] values, int[][] builds, int[][] trials, int[][] places) {
        this.cell = Objects.requireNonNull(cell, "cell");
        this.values = values;
        this.builds = builds;
        this.trials = trials;
        this.places = places;
    }

    /**
     * Returns the values of {@code cell}: each side's of one build, the trial of each its position.
     * The arrays are kept, not copied: the caller hands them over.
     */
    public static CellValues of(Cell cell, double[] base, double[] head) {
        return new CellValues(cell, new double[][] {base, head}, null, null, null);
    }

    /**
     * Returns the values of {@code measurements} grouped by cell, cells in the order of their first
     * value, each side's values in the order given.
     *
     * @throws IllegalArgumentException when one cell (name and metric) comes with two different
     *     units or directions
     */
    static Map<Cell, CellValues> grouped(List<Measurement> measurements) {
        return grouped(measurements, m -> NO_PLACE);
    }

    /**
     * Returns {@link #grouped(List)} with each value at {@code place} in its run's order: the values
     * of a cell pair when every one has a place and no trial measured the cell twice on a side.
     */
    static Map<Cell, CellValues> grouped(List<Measurement> measurements, ToIntFunction<Measurement> place) {
        Map<CellId, Cell> byId = new HashMap<>();
        Map<Cell, List<List<Measurement>>> bySide = new LinkedHashMap<>();
        for (Measurement m : measurements) {
            List<List<Measurement>> v = bySide.get(m.cell());
            if (v == null) {
                Cell known = byId.putIfAbsent(m.cell().id(), m.cell());
                if (known != null) {
                    throw new IllegalArgumentException("cell " + m.cell().id() + " is reported both as "
                            + CellUnits.describe(known) + " and as " + CellUnits.describe(m.cell()));
                }
                v = List.of(new ArrayList<>(), new ArrayList<>());
                bySide.put(m.cell(), v);
            }
            v.get(m.side().ordinal()).add(m);
        }
        Map<Cell, CellValues> grouped = new LinkedHashMap<>();
        bySide.forEach((cell, sides) -> {
            double[][] values = new double[2][];
            int[][] builds = new int[2][];
            int[][] trials = new int[2][];
            int[][] places = new int[2][];
            boolean pairs = true;
            for (int s = 0; s < 2; s++) {
                List<Measurement> side = sides.get(s);
                values[s] = side.stream().mapToDouble(Measurement::value).toArray();
                builds[s] = side.stream().mapToInt(Measurement::build).toArray();
                trials[s] = side.stream().mapToInt(Measurement::trial).toArray();
                places[s] = side.stream().mapToInt(place).toArray();
                pairs &= Arrays.stream(places[s]).allMatch(p -> p != NO_PLACE)
                        && Arrays.stream(trials[s]).distinct().count() == trials[s].length;
            }
            grouped.put(cell, new CellValues(cell, values, builds, trials, pairs ? places : null));
        });
        return grouped;
    }

    /** Returns whether every value is of build 0, its trial its position on its side. */
    boolean numbered() {
        return builds == null;
    }

    /** Returns the cell. */
    public Cell cell() {
        return cell;
    }

    /** Returns how many values {@code side} has. */
    public int size(Side side) {
        return values[side.ordinal()].length;
    }

    /** Returns the value at {@code i} of {@code side}. */
    public double value(Side side, int i) {
        return values[side.ordinal()][i];
    }

    /** Returns the build of the value at {@code i} of {@code side}. */
    public int build(Side side, int i) {
        return builds == null ? 0 : builds[side.ordinal()][i];
    }

    /** Returns the trial of the value at {@code i} of {@code side}. */
    public int trial(Side side, int i) {
        return trials == null ? i : trials[side.ordinal()][i];
    }

    /**
     * Returns the values of {@code side} as the trials a test judges, each with its build, and with
     * its pair (its trial) and place in the run's order where the values pair.
     */
    public Trials trials(Side side) {
        double[] v = values[side.ordinal()];
        if (places != null) {
            return Trials.inPairs(v, builds[side.ordinal()], trials[side.ordinal()], places[side.ordinal()]);
        }
        return builds == null ? Trials.of(v) : Trials.of(v, builds[side.ordinal()]);
    }

    /** Returns the values of {@code side}, not copied: callers in this package must not write to them. */
    double[] values(Side side) {
        return values[side.ordinal()];
    }
}
