package org.perfab.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import org.perfab.stats.SeriesNoise;
import org.perfab.stats.SeriesRules;

/**
 * The noise of a nightly series, per key and over every key: the percentiles of each reading's
 * relative deviation from the median of its key's previous {@code window} readings (see
 * {@link SeriesNoise}), the figures the step and drift thresholds are chosen from, and each key's
 * noise as the step rule judged its latest reading with.
 *
 * @param window how many earlier readings of a key make the median a reading is measured against
 * @param runs the runs of the series
 * @param percentiles the percentiles shown, in percent, ascending
 * @param overall the figures of every key's deviations pooled; its key is empty and its noise NaN
 * @param keys one per key, in the order the keys first appear in the series
 */
public record SeriesNoiseTable(int window, int runs, List<Double> percentiles, Row overall, List<Row> keys) {
    public SeriesNoiseTable {
        percentiles = List.copyOf(percentiles);
        Objects.requireNonNull(overall, "overall");
        keys = List.copyOf(keys);
    }

    /**
     * The figures of a key, or of every key.
     *
     * @param key the key; empty for every key
     * @param readings its readings
     * @param deviations its readings with a deviation (all but each key's first)
     * @param values the percentiles of its deviations, as fractions, one per percentile of the
     *     table; NaN when it has no deviation
     * @param noise the noise the step rule judged its latest reading with ({@link SeriesRules#noise}),
     *     a fraction; NaN for every key
     */
    public record Row(String key, int readings, int deviations, List<Double> values, double noise) {
        public Row {
            Objects.requireNonNull(key, "key");
            values = List.copyOf(values);
        }
    }

    /**
     * Returns the noise of the keys of {@code series} that {@code keys} accepts, each reading
     * measured against the median of its key's previous {@code window} readings.
     *
     * @throws IllegalArgumentException when {@code window} is below 1
     */
    public static SeriesNoiseTable of(Series series, int window, Predicate<String> keys) {
        List<Row> rows = new ArrayList<>();
        List<double[]> all = new ArrayList<>();
        int readings = 0;
        for (Map.Entry<String, List<Series.Reading>> e : series.byKey().entrySet()) {
            if (!keys.test(e.getKey())) {
                continue;
            }
            List<SeriesRules.Point> h = Series.points(e.getValue());
            double[] d = SeriesRules.deviations(h, window);
            all.add(d);
            readings += h.size();
            rows.add(new Row(
                    e.getKey(),
                    h.size(),
                    d.length,
                    boxed(SeriesNoise.percentiles(d, SeriesNoise.PERCENTILES)),
                    SeriesRules.noise(h, h.size() - 1, window)));
        }
        double[] pooled = all.stream().flatMapToDouble(Arrays::stream).toArray();
        Row overall = new Row(
                "",
                readings,
                pooled.length,
                boxed(SeriesNoise.percentiles(pooled, SeriesNoise.PERCENTILES)),
                Double.NaN);
        return new SeriesNoiseTable(window, series.runs().size(), SeriesNoise.PERCENTILES, overall, rows);
    }

    /** Returns every key's deviations (see {@link SeriesRules#deviations}), as fractions, in one array. */
    public static double[] deviations(Series series, int window) {
        return series.byKey().values().stream()
                .flatMapToDouble(h -> Arrays.stream(SeriesRules.deviations(Series.points(h), window)))
                .toArray();
    }

    private static List<Double> boxed(double[] values) {
        return Arrays.stream(values).boxed().toList();
    }
}
