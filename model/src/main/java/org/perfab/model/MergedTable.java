package org.perfab.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import org.perfab.stats.Comparison;
import org.perfab.stats.Thresholds;
import org.perfab.stats.Verdict;

/**
 * One A/B measured on several runner classes, as one table: a row per cell, a column per runner.
 * Repeating a check across runners rules out the runner, not the build, and a change below the bar
 * that is significant and points the same way on two runners or more is worth a bisect before a
 * release: such rows are flagged.
 *
 * @param runners the runner class of each column, in the order given
 * @param rows one per cell, by cell
 * @param thresholds the verdict rules' settings (the first run's)
 */
public record MergedTable(List<String> runners, List<Row> rows, Thresholds thresholds) {
    public MergedTable {
        runners = List.copyOf(runners);
        rows = List.copyOf(rows);
        Objects.requireNonNull(thresholds, "thresholds");
    }

    /**
     * One cell across the runners.
     *
     * @param cell the cell (as the first runner that measured it reported it)
     * @param byRunner its comparison on each runner, in the order of the runners; empty where a
     *     runner did not measure it
     * @param worse on how many runners it is significantly worse (p below alpha), whatever its size
     * @param better on how many runners it is significantly better
     * @param bisect whether it is significantly worse on two runners or more: bisect before a
     *     release, even below the bar
     */
    public record Row(Cell cell, List<Optional<Comparison>> byRunner, int worse, int better, boolean bisect) {
        public Row {
            Objects.requireNonNull(cell, "cell");
            byRunner = List.copyOf(byRunner);
        }

        /** Returns how many runners have each verdict. */
        public Map<Verdict, Integer> verdicts() {
            Map<Verdict, Integer> n = new TreeMap<>();
            byRunner.forEach(c -> c.ifPresent(x -> n.merge(x.verdict(), 1, Integer::sum)));
            return n;
        }
    }

    /**
     * Returns the table of {@code runs}, one per runner class, labelled by the runner each recorded
     * (its CPU when it recorded none; a repeated label gets a number).
     *
     * @throws IllegalArgumentException when the runs are not of one A/B (other commits)
     */
    public static MergedTable of(List<RunResults> runs) {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("nothing to merge");
        }
        RunResults first = runs.get(0);
        List<String> runners = new ArrayList<>();
        for (RunResults r : runs) {
            if (!r.provenance().mergeBase().equals(first.provenance().mergeBase())
                    || !r.provenance().head().commit().equals(first.provenance().head().commit())) {
                throw new IllegalArgumentException("the runs are not of one A/B: " + r.provenance().mergeBase()
                        + " against " + r.provenance().head().commit() + " where the first is "
                        + first.provenance().mergeBase() + " against " + first.provenance().head().commit());
            }
            String label = r.machine().runner().isBlank() ? r.machine().cpu() : r.machine().runner();
            String unique = label;
            for (int i = 2; runners.contains(unique); i++) {
                unique = label + " #" + i;
            }
            runners.add(unique);
        }
        Thresholds t = first.table().thresholds();
        Map<CellId, Cell> cells = new TreeMap<>();
        List<Map<CellId, Comparison>> byRunner = new ArrayList<>();
        for (RunResults r : runs) {
            Map<CellId, Comparison> m = new LinkedHashMap<>();
            for (CellComparison row : r.table().rows()) {
                cells.putIfAbsent(row.cell().id(), row.cell());
                m.put(row.cell().id(), row.comparison());
            }
            byRunner.add(m);
        }
        List<Row> rows = new ArrayList<>();
        cells.forEach((id, cell) -> {
            List<Optional<Comparison>> each = new ArrayList<>();
            int worse = 0;
            int better = 0;
            for (Map<CellId, Comparison> m : byRunner) {
                Optional<Comparison> c = Optional.ofNullable(m.get(id));
                each.add(c);
                if (c.isPresent() && c.get().verdict() != Verdict.NO_DATA && c.get().verdict() != Verdict.PROFILE
                        && c.get().pValue() < t.alpha()) {
                    boolean isWorse = cell.direction().isWorse(c.get().base().mean(), c.get().head().mean());
                    worse += isWorse ? 1 : 0;
                    better += isWorse ? 0 : 1;
                }
            }
            rows.add(new Row(cell, each, worse, better, worse >= 2));
        });
        return new MergedTable(runners, rows, t);
    }
}
