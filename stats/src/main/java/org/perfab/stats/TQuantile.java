package org.perfab.stats;

import java.util.Arrays;

/**
 * Student's t quantiles, fast and to about fourteen digits: the interval, the detectable change and
 * the plan of a run all need them, each many times a table (the distributions from
 * {@link Distributions}).
 */
final class TQuantile {
    /** Absolute accuracy of t quantiles; they are of order 1 to 100, so this is near-relative. */
    private static final double QUANTILE_ACCURACY = 1e-14;

    /** The least degrees of freedom Newton's method starts well enough on; below, the bracketing solver. */
    private static final double NEWTON_DF = 3;

    private TQuantile() {
    }

    /**
     * Returns the {@code probability} quantile of Student's t with {@code df} degrees of freedom.
     *
     * @param probability in (0, 1)
     * @param df degrees of freedom, {@code > 0}
     */
    static double of(double probability, double df) {
        double[] recent = RECENT.get();
        for (int i = 0; i < recent.length; i += 3) {
            if (recent[i] == probability && recent[i + 1] == df) {
                return recent[i + 2];
            }
        }
        double q = compute(probability, df);
        // The oldest of the entries makes room: each moves down one, the new one goes first.
        System.arraycopy(recent, 0, recent, 3, recent.length - 3);
        recent[0] = probability;
        recent[1] = df;
        recent[2] = q;
        return q;
    }

    /**
     * The last quantiles this thread computed, as (probability, df, quantile) triples, newest first:
     * judging a cell asks for the same two or three of its degrees of freedom up to five times (the
     * interval, the detectable effect twice), each a few evaluations of the distribution function.
     */
    private static final ThreadLocal<double[]> RECENT = ThreadLocal.withInitial(() -> {
        double[] none = new double[3 * 4];
        Arrays.fill(none, Double.NaN);
        return none;
    });

    private static double compute(double probability, double df) {
        Distributions.StudentT t = Distributions.t(df);
        if (probability > 0 && probability < 1 && df >= NEWTON_DF && !Double.isInfinite(df)) {
            // Newton's method from the Cornish-Fisher expansion (Abramowitz and Stegun 26.7.5): three
            // or four steps where a bracketing solver takes dozens of evaluations of the distribution
            // function, which a table of 10,000 cells asks for five times a row.
            double z = Distributions.normalQuantile(probability);
            double z2 = z * z;
            double x = z + (z2 + 1) * z / 4 / df + ((5 * z2 + 16) * z2 + 3) * z / 96 / (df * df)
                    + (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384 / (df * df * df);
            for (int i = 0; i < 20 && Double.isFinite(x); i++) {
                double step = (t.cdf(x) - probability) / t.density(x);
                x -= step;
                if (Math.abs(step) <= QUANTILE_ACCURACY * Math.max(1, Math.abs(x))) {
                    return x;
                }
            }
        }
        return t.quantile(probability);
    }
}
