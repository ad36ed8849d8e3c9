package org.perfab.stats;

/** Welch's unequal-variances t-test (the distribution from {@link Distributions}). */
final class WelchTest {
    private WelchTest() {}

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
    record Result(double t, double df, double p, double se) {}

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
        double df = (vh / nh + vb / nb)
                * (vh / nh + vb / nb)
                / (vh * vh / (nh * nh * (nh - 1)) + vb * vb / (nb * nb * (nb - 1)));
        return new Result(t, df, Distributions.tTwoSided(t, df), se);
    }
}
