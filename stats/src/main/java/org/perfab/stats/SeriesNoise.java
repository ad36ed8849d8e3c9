package org.perfab.stats;

import java.util.List;

/**
 * The noise of a nightly series of ratios, as the figures the step and drift thresholds are chosen
 * from: each reading's relative deviation from the median of its key's previous readings, and the
 * percentiles of those deviations.
 *
 * <p>A reading's deviation is {@code |ratio / m - 1|}, with {@code m} the median of the (up to
 * {@code window}) readings of its key before it on the same base; a key's first reading, and the
 * first after a re-basing, have none ({@link SeriesRules#deviations}). These are the deviations
 * whose median {@link SeriesRules#noise} takes as a key's noise. A percentile is
 * interpolated linearly between the order statistics ({@link Sample#quantile}: numpy's default,
 * R's type 7).
 */
public final class SeriesNoise {
    /** The percentiles a noise table shows, in percent: those the thresholds were chosen from. */
    public static final List<Double> PERCENTILES = List.of(50.0, 75.0, 90.0, 95.0, 99.0);

    private SeriesNoise() {}

    /**
     * Returns the {@code percentiles} (each from 0 to 100) of {@code values}, interpolated linearly
     * between the order statistics, in the order given; NaN for each when {@code values} is empty.
     *
     * @throws IllegalArgumentException when a percentile is not from 0 to 100
     */
    public static double[] percentiles(double[] values, List<Double> percentiles) {
        Sample s = Sample.of(values);
        double[] out = new double[percentiles.size()];
        for (int i = 0; i < out.length; i++) {
            double p = percentiles.get(i);
            if (!(p >= 0 && p <= 100)) {
                throw new IllegalArgumentException("a percentile is from 0 to 100, got " + p);
            }
            out[i] = s.quantile(p / 100);
        }
        return out;
    }
}
