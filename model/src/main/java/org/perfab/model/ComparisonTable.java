package org.perfab.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import org.perfab.stats.Comparison;
import org.perfab.stats.Sample;
import org.perfab.stats.Summary;
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
 * @param warnings what a reader must know about the whole comparison (identical builds, failed
 *     trials), in the order found; every renderer shows them
 */
public record ComparisonTable(String baseLabel, String headLabel, Thresholds thresholds,
        List<CellComparison> rows, List<Warning> warnings) {

    /** The order of rows: by verdict (its declaration order), then by cell. */
    public static final Comparator<CellComparison> ROW_ORDER =
            Comparator.comparing((CellComparison r) -> r.comparison().verdict())
                    .thenComparing(CellComparison::cell, Cell.ORDER);

    public ComparisonTable {
        Objects.requireNonNull(baseLabel, "baseLabel");
        Objects.requireNonNull(headLabel, "headLabel");
        Objects.requireNonNull(thresholds, "thresholds");
        rows = rows.stream().sorted(ROW_ORDER).toList();
        warnings = List.copyOf(warnings);
    }

    /** Returns this table with {@code floor} applied to each row: the noise floor of its cell at this run's size. */
    public ComparisonTable withNoiseFloors(ToDoubleFunction<CellComparison> floor) {
        return new ComparisonTable(baseLabel, headLabel, thresholds,
                rows.stream().map(r -> r.withNoiseFloor(floor.applyAsDouble(r))).toList(), warnings);
    }

    /** Returns this table with {@code more} warnings after its own. */
    public ComparisonTable withWarnings(List<Warning> more) {
        List<Warning> all = new ArrayList<>(warnings);
        all.addAll(more);
        return new ComparisonTable(baseLabel, headLabel, thresholds, rows, all);
    }

    /**
     * Groups {@code measurements} into one baseline and one candidate sample per cell and compares
     * each pair. A cell measured on one side only is kept, with the verdict
     * {@link Verdict#NO_DATA}. When both sides of a cell were measured on two builds or more, the
     * verdict comes from the median of each build (see {@link CellComparison}).
     *
     * @param isProfile which cells are shown but never classified
     * @throws IllegalArgumentException when one cell (name and metric) comes with two different
     *     units or directions
     */
    public static ComparisonTable of(String baseLabel, String headLabel, List<Measurement> measurements,
            Thresholds thresholds, Predicate<Cell> isProfile) {
        Map<CellId, Cell> byId = new HashMap<>();
        Map<Cell, List<Map<Integer, Values>>> values = new LinkedHashMap<>();
        for (Measurement m : measurements) {
            List<Map<Integer, Values>> v = values.get(m.cell());
            if (v == null) {
                Cell known = byId.putIfAbsent(m.cell().id(), m.cell());
                if (known != null) {
                    throw new IllegalArgumentException("cell " + m.cell().id() + " is reported both as "
                            + describe(known) + " and as " + describe(m.cell()));
                }
                v = List.of(new TreeMap<>(), new TreeMap<>());
                values.put(m.cell(), v);
            }
            v.get(m.side().ordinal()).computeIfAbsent(m.build(), b -> new Values()).add(m.value());
        }
        List<CellComparison> rows = new ArrayList<>(values.size());
        for (Map.Entry<Cell, List<Map<Integer, Values>>> e : values.entrySet()) {
            Cell cell = e.getKey();
            Map<Integer, Values> base = e.getValue().get(Side.BASE.ordinal());
            Map<Integer, Values> head = e.getValue().get(Side.HEAD.ordinal());
            boolean profile = isProfile.test(cell);
            Comparison trials = compare(all(base), all(head), cell, thresholds, profile);
            if (base.size() < 2 || head.size() < 2) {
                rows.add(new CellComparison(cell, trials));
                continue;
            }
            Sample baseMedians = medians(base);
            Sample headMedians = medians(head);
            double spread = Math.max(nanToZero(Summary.of(baseMedians).cv()), nanToZero(Summary.of(headMedians).cv()));
            rows.add(new CellComparison(cell, compare(baseMedians, headMedians, cell, thresholds, profile),
                    Optional.of(trials), spread, Double.NaN));
        }
        return new ComparisonTable(baseLabel, headLabel, thresholds, rows, List.of());
    }

    private static Comparison compare(Sample base, Sample head, Cell cell, Thresholds thresholds, boolean profile) {
        return profile ? Comparison.profile(base, head, cell.direction(), thresholds)
                : Comparison.of(base, head, cell.direction(), thresholds);
    }

    /** Returns every value of every build. */
    private static Sample all(Map<Integer, Values> builds) {
        Values all = new Values();
        builds.values().forEach(v -> {
            for (int i = 0; i < v.size; i++) {
                all.add(v.data[i]);
            }
        });
        return all.sample();
    }

    /** Returns the sample of each build's median: one value per build. */
    private static Sample medians(Map<Integer, Values> builds) {
        double[] m = new double[builds.size()];
        int i = 0;
        for (Values v : builds.values()) {
            m[i++] = Summary.of(v.sample()).median();
        }
        return Sample.of(m);
    }

    private static double nanToZero(double v) {
        return Double.isNaN(v) ? 0 : v;
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

    /** A growable list of doubles. */
    private static final class Values {
        private double[] data = new double[8];
        private int size;

        void add(double v) {
            if (size == data.length) {
                data = Arrays.copyOf(data, size * 2);
            }
            data[size++] = v;
        }

        Sample sample() {
            return Sample.of(Arrays.copyOf(data, size));
        }
    }

    private static String describe(Cell cell) {
        return CellUnits.describe(cell);
    }
}
