package org.perfab.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import org.perfab.stats.Comparison;
import org.perfab.stats.Sample;
import org.perfab.stats.Thresholds;
import org.perfab.stats.Verdict;

/**
 * Every cell of a comparison, classified: the data every renderer draws.
 *
 * @param baseLabel what the baseline is, for a reader (file names, a ref)
 * @param headLabel what the candidate is
 * @param thresholds the verdict rules' settings
 * @param rows one per cell, regressions first, then inconclusive, improvements, unchanged, profiles
 *     and cells without data; within a verdict by cell name and metric
 */
public record ComparisonTable(String baseLabel, String headLabel, Thresholds thresholds,
        List<CellComparison> rows) {

    /** The order of rows: by verdict (its declaration order), then by cell. */
    public static final Comparator<CellComparison> ROW_ORDER =
            Comparator.comparing((CellComparison r) -> r.comparison().verdict())
                    .thenComparing(CellComparison::cell, Cell.ORDER);

    public ComparisonTable {
        Objects.requireNonNull(baseLabel, "baseLabel");
        Objects.requireNonNull(headLabel, "headLabel");
        Objects.requireNonNull(thresholds, "thresholds");
        rows = rows.stream().sorted(ROW_ORDER).toList();
    }

    /**
     * Groups {@code measurements} into one baseline and one candidate sample per cell and compares
     * each pair. A cell measured on one side only is kept, with the verdict
     * {@link Verdict#NO_DATA}.
     *
     * @param isProfile which cells are shown but never classified
     * @throws IllegalArgumentException when one cell (name and metric) comes with two different
     *     units or directions
     */
    public static ComparisonTable of(String baseLabel, String headLabel, List<Measurement> measurements,
            Thresholds thresholds, Predicate<Cell> isProfile) {
        Map<String, Cell> cells = new LinkedHashMap<>();
        Map<String, double[][]> values = new LinkedHashMap<>();
        Map<String, int[]> counts = new LinkedHashMap<>();
        for (Measurement m : measurements) {
            String key = m.cell().key();
            Cell known = cells.putIfAbsent(key, m.cell());
            if (known != null && !known.equals(m.cell())) {
                throw new IllegalArgumentException("cell '" + key + "' is reported both as "
                        + describe(known) + " and as " + describe(m.cell()));
            }
            double[][] v = values.computeIfAbsent(key, k -> new double[][] {new double[4], new double[4]});
            int[] n = counts.computeIfAbsent(key, k -> new int[2]);
            int s = m.side().ordinal();
            if (n[s] == v[s].length) {
                v[s] = Arrays.copyOf(v[s], n[s] * 2);
            }
            v[s][n[s]++] = m.value();
        }
        List<CellComparison> rows = new ArrayList<>(cells.size());
        for (Map.Entry<String, Cell> e : cells.entrySet()) {
            Cell cell = e.getValue();
            double[][] v = values.get(e.getKey());
            int[] n = counts.get(e.getKey());
            Sample base = Sample.of(Arrays.copyOf(v[0], n[0]));
            Sample head = Sample.of(Arrays.copyOf(v[1], n[1]));
            Comparison c = isProfile.test(cell)
                    ? Comparison.profile(base, head, cell.direction(), thresholds)
                    : Comparison.of(base, head, cell.direction(), thresholds);
            rows.add(new CellComparison(cell, c));
        }
        return new ComparisonTable(baseLabel, headLabel, thresholds, rows);
    }

    /** Returns how many rows have each verdict, every verdict present (zero counts included). */
    public Map<Verdict, Integer> counts() {
        Map<Verdict, Integer> counts = new EnumMap<>(Verdict.class);
        for (Verdict v : Verdict.values()) {
            counts.put(v, 0);
        }
        for (CellComparison r : rows) {
            counts.merge(r.comparison().verdict(), 1, Integer::sum);
        }
        return counts;
    }

    private static String describe(Cell cell) {
        return "unit '" + cell.unit() + "' (" + cell.direction().id() + " is better)";
    }
}
