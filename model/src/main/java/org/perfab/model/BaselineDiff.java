package org.perfab.model;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Two baselines side by side: for each floor both have (same tier, same benchmark), how far the
 * second's ratio is from the first's, and the share of floors that differ by more than each of
 * {@link #THRESHOLDS}. Seeding from one snapshot against a median of five is what it was made to
 * compare: the share past the check's budget is the share of floors one CI run set.
 *
 * @param first the first baseline's anchor
 * @param second the second's
 * @param rows every floor both have, the largest difference first
 * @param onlyFirst floors only the first has
 * @param onlySecond floors only the second has
 * @param tiers for each tier, and for all ({@code null} key last), how many floors both have and
 *     how many differ past each threshold
 */
public record BaselineDiff(
        String first, String second, List<Row> rows, int onlyFirst, int onlySecond, List<Share> tiers) {
    /** The differences, in percent, whose shares are counted. */
    public static final List<Double> THRESHOLDS = List.of(5.0, 10.0, 25.0);

    public BaselineDiff {
        rows = List.copyOf(rows);
        tiers = List.copyOf(tiers);
    }

    /**
     * One floor in both.
     *
     * @param key its tier
     * @param benchmark the benchmark
     * @param firstRatio the first's ratio
     * @param secondRatio the second's
     * @param change {@code second / first - 1}, in percent
     */
    public record Row(Baseline.Key key, String benchmark, double firstRatio, double secondRatio, double change) {}

    /**
     * The shares of one tier, or of all.
     *
     * @param key the tier; empty for all tiers together
     * @param floors floors both have
     * @param past how many differ by more than each threshold, in the order of {@link #THRESHOLDS}
     */
    public record Share(Optional<Baseline.Key> key, int floors, List<Integer> past) {
        public Share {
            past = List.copyOf(past);
        }
    }

    /**
     * Returns {@code a} and {@code b} side by side.
     *
     * @throws IllegalArgumentException when their anchors differ: their ratios are of two spaces
     */
    public static BaselineDiff of(Baseline a, Baseline b) {
        if (!a.anchor().equals(b.anchor())) {
            throw new IllegalArgumentException(
                    "the anchors differ (" + a.anchor() + " and " + b.anchor() + "): their ratios cannot be compared");
        }
        Map<List<Object>, Baseline.Entry> second = new LinkedHashMap<>();
        b.entries().forEach(e -> second.put(List.of(e.key(), e.benchmark()), e));
        List<Row> rows = new ArrayList<>();
        int onlyFirst = 0;
        for (Baseline.Entry e : a.entries()) {
            Baseline.Entry o = second.remove(List.of(e.key(), e.benchmark()));
            if (o == null) {
                onlyFirst++;
            } else {
                rows.add(new Row(e.key(), e.benchmark(), e.ratio(), o.ratio(), (o.ratio() / e.ratio() - 1) * 100));
            }
        }
        rows.sort(Comparator.comparing((Row r) -> -Math.abs(r.change()))
                .thenComparing(Row::key)
                .thenComparing(Row::benchmark));
        Map<Baseline.Key, List<Row>> byTier = new TreeMap<>();
        rows.forEach(
                r -> byTier.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r));
        List<Share> shares = new ArrayList<>();
        byTier.forEach((k, r) -> shares.add(share(Optional.of(k), r)));
        shares.add(share(Optional.empty(), rows));
        return new BaselineDiff(a.anchor(), b.anchor(), rows, onlyFirst, second.size(), shares);
    }

    private static Share share(Optional<Baseline.Key> key, List<Row> rows) {
        List<Integer> past = THRESHOLDS.stream()
                .map(t -> (int)
                        rows.stream().filter(r -> Math.abs(r.change()) > t).count())
                .toList();
        return new Share(key, rows.size(), past);
    }
}
