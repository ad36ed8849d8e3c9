package org.perfab.stats;

import java.util.Arrays;

/**
 * Welch's unequal-variances t-test, and the Student t quantiles the interval and power arithmetic
 * need (the distributions from {@link Distributions}).
 */
final class WelchTest {
    /** Absolute accuracy of t quantiles; they are of order 1 to 100, so this is near-relative. */
    private static final double QUANTILE_ACCURACY = 1e-14;

    private WelchTest() {
    }

    /**
     * The outcome of a test of candidate against baseline.
     *
     * @param t {@code (mean_head - mean_base) / se}; infinite when both sides are constant and
     *     differ, 0 when both are constant and equal, NaN when a side has fewer than 2 values
     * @param df Welch-Satterthwaite degrees of freedom; NaN when undefined (a side with fewer than 2
     *     values, or both sides constant)
     * @param p two-sided p; 0 when both sides are constant and differ, 1 when both are constant and
     *     equal, NaN when a side has fewer than 2 values
     * @param se standard error of the difference of means, {@code sqrt(vb/nb + vh/nh)}
     */
    record Result(double t, double df, double p, double se) {
    }

    /** Returns Welch's test of {@code head} against {@code base}. */
    static Result test(Summary base, Summary head) {
        if (base.n() < 2 || head.n() < 2) {
            return new Result(Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        }
        double vb = base.variance();
        double vh = head.variance();
        double se = Math.sqrt(vb / base.n() + vh / head.n());
        if (se == 0.0) {
            boolean equal = base.mean() == head.mean();
            double t = equal ? 0.0 : Math.copySign(Double.POSITIVE_INFINITY, head.mean() - base.mean());
            return new Result(t, Double.NaN, equal ? 1.0 : 0.0, 0.0);
        }
        double t = (head.mean() - base.mean()) / se;
        double nh = head.n();
        double nb = base.n();
        double df = (vh / nh + vb / nb) * (vh / nh + vb / nb)
                / (vh * vh / (nh * nh * (nh - 1)) + vb * vb / (nb * nb * (nb - 1)));
        return new Result(t, df, Distributions.tTwoSided(t, df), se);
    }

    /**
     * Returns the {@code probability} quantile of Student's t with {@code df} degrees of freedom.
     *
     * @param probability in (0, 1)
     * @param df degrees of freedom, {@code > 0}
     */
    static double quantile(double probability, double df) {
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

    /** The least degrees of freedom Newton's method starts well enough on; below, the bracketing solver. */
    private static final double NEWTON_DF = 3;
}
