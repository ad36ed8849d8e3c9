package org.perfab.stats;

import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.descriptive.StatisticalSummaryValues;
import org.apache.commons.math3.stat.inference.TTest;

/**
 * Welch's unequal-variances t-test, and the Student t quantiles the interval and power arithmetic
 * need: the one place Commons Math's inference code is touched.
 */
final class WelchTest extends TTest {
    /** Absolute accuracy of t quantiles; they are of order 1 to 100, so this is near-relative. */
    private static final double QUANTILE_ACCURACY = 1e-14;

    private static final WelchTest INSTANCE = new WelchTest();

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
        StatisticalSummaryValues b = new StatisticalSummaryValues(base.mean(), vb, base.n(),
                base.max(), base.min(), base.mean() * base.n());
        StatisticalSummaryValues h = new StatisticalSummaryValues(head.mean(), vh, head.n(),
                head.max(), head.min(), head.mean() * head.n());
        double t = INSTANCE.t(h, b);
        double p = INSTANCE.tTest(h, b);
        double df = INSTANCE.df(vh, vb, head.n(), base.n());
        return new Result(t, df, p, se);
    }

    /**
     * Returns the {@code probability} quantile of Student's t with {@code df} degrees of freedom.
     *
     * @param probability in (0, 1)
     * @param df degrees of freedom, {@code > 0}
     */
    static double quantile(double probability, double df) {
        return new TDistribution(null, df, QUANTILE_ACCURACY).inverseCumulativeProbability(probability);
    }
}
