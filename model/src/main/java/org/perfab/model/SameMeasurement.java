package org.perfab.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.perfab.stats.Direction;
import org.perfab.stats.Verdict;

/**
 * Finds the cells that measure one thing twice: a Go benchmark with {@code b.SetBytes} reports
 * its time per operation and a throughput computed from it, a Google Benchmark its time and bytes
 * per second. Two verdicts for one measurement would count one change twice and split a run's
 * false alarms between them, so the second takes the first's verdict.
 *
 * <p>Two cells of one benchmark (one name) are one measurement when one is better lower and the
 * other better higher, they were measured in the same trials, and their logarithms move together
 * in opposite ways: the spread of {@code log(a) + log(b)} over the trials is under
 * {@value #RATIO} of the larger of the two cells' own spreads (and under 0.2% when neither moves).
 * Two independent measurements give about 1.4 times it, and even a strong negative correlation
 * (-0.9) still 0.45; a throughput computed from the time of the same runs gives 0.05 to 0.16 on a
 * busy machine, where a trial's value is the mean of several runs and a mean of reciprocals is not
 * the reciprocal of a mean. The one better lower (the time) is kept; the other follows it.
 */
final class SameMeasurement {
    /** How small the spread of the sum of logarithms must be against either cell's own. */
    static final double RATIO = 0.35;
    /** The spread of the sum of logarithms under which two steady cells are one measurement. */
    static final double FLOOR = 0.002;
    /** The fewest trials in common that can tell. */
    static final int MIN_TRIALS = 3;

    private SameMeasurement() {}

    /**
     * Returns {@code rows} with each cell that measures another again marked as following it (see
     * {@link CellComparison#sameAs}), in the same order.
     *
     * @param values each cell's values
     */
    static List<CellComparison> fold(List<CellComparison> rows, Map<Cell, CellValues> values) {
        // Only a cell where higher is better measures another again: a table of times and costs has none.
        if (values.keySet().stream().noneMatch(c -> c.direction() == Direction.HIGHER_IS_BETTER)) {
            return rows;
        }
        Map<String, List<Cell>> byName = new LinkedHashMap<>();
        for (Cell c : values.keySet()) {
            byName.computeIfAbsent(c.name(), k -> new ArrayList<>()).add(c);
        }
        Map<CellId, CellId> follows = new HashMap<>();
        for (List<Cell> cells : byName.values()) {
            for (Cell primary : cells) {
                if (primary.direction() != Direction.LOWER_IS_BETTER || follows.containsKey(primary.id())) {
                    continue;
                }
                for (Cell other : cells) {
                    if (other.direction() == Direction.HIGHER_IS_BETTER
                            && !follows.containsKey(other.id())
                            && reciprocal(values.get(primary), values.get(other))) {
                        follows.put(other.id(), primary.id());
                    }
                }
            }
        }
        if (follows.isEmpty()) {
            return rows;
        }
        Map<CellId, Verdict> verdicts = new HashMap<>();
        rows.forEach(r -> verdicts.put(r.cell().id(), r.comparison().verdict()));
        List<CellComparison> out = new ArrayList<>(rows.size());
        for (CellComparison r : rows) {
            CellId primary = follows.get(r.cell().id());
            out.add(primary == null ? r : r.sameAs(primary, r.comparison().following(verdicts.get(primary))));
        }
        return out;
    }

    /** Returns {@code rows} with every following row given its cell's verdict in {@code verdicts} again. */
    static List<CellComparison> followAgain(List<CellComparison> rows, Map<CellId, Verdict> verdicts) {
        List<CellComparison> out = new ArrayList<>(rows.size());
        for (CellComparison r : rows) {
            Optional<CellId> primary = r.sameAs();
            Verdict v = primary.map(verdicts::get).orElse(null);
            out.add(v == null ? r : r.sameAs(primary.get(), r.comparison().following(v)));
        }
        return out;
    }

    /**
     * Returns whether two cells' measurements are one quantity and its reciprocal, trial by trial:
     * each value of {@code b} is paired with the value of {@code a} of its side, build and trial (at
     * the same position when both number their trials by position, as a file's values are).
     */
    private static boolean reciprocal(CellValues a, CellValues b) {
        List<double[]> pairs = new ArrayList<>();
        for (Side side : Side.values()) {
            int n = a.size(side);
            Map<Long, Integer> positions = a.numbered() && b.numbered() ? null : positions(a, side);
            if (b.size(side) != n || positions != null && positions.size() != n) {
                return false;
            }
            for (int i = 0; i < n; i++) {
                Integer j =
                        positions == null ? Integer.valueOf(i) : positions.get(key(b.build(side, i), b.trial(side, i)));
                if (j == null || !(a.value(side, j) > 0) || !(b.value(side, i) > 0)) {
                    return false;
                }
                pairs.add(new double[] {Math.log(a.value(side, j)), Math.log(b.value(side, i))});
            }
        }
        if (pairs.size() < MIN_TRIALS) {
            return false;
        }
        double spreadA = spread(pairs, 1, 0);
        double spreadB = spread(pairs, 0, 1);
        double spreadSum = spread(pairs, 1, 1);
        return spreadSum <= Math.max(RATIO * Math.max(spreadA, spreadB), FLOOR);
    }

    /** Returns the position of each build and trial of {@code side} of {@code cell} (the last, when two share one). */
    private static Map<Long, Integer> positions(CellValues cell, Side side) {
        Map<Long, Integer> positions = new HashMap<>();
        for (int i = 0; i < cell.size(side); i++) {
            positions.put(key(cell.build(side, i), cell.trial(side, i)), i);
        }
        return positions;
    }

    private static long key(int build, int trial) {
        return (long) build << 32 | trial & 0xffffffffL;
    }

    /** Returns the standard deviation of {@code wa * log(a) + wb * log(b)} over the pairs. */
    private static double spread(List<double[]> pairs, double wa, double wb) {
        double mean = 0;
        for (double[] p : pairs) {
            mean += wa * p[0] + wb * p[1];
        }
        mean /= pairs.size();
        double squares = 0;
        for (double[] p : pairs) {
            double d = wa * p[0] + wb * p[1] - mean;
            squares += d * d;
        }
        return Math.sqrt(squares / (pairs.size() - 1));
    }
}
