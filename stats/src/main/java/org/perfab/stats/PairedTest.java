package org.perfab.stats;

/**
 * The test of a cell's trials in the pairs of the interleaved order: trial {@code i} of the base and
 * trial {@code i} of the head ran one after the other, so whatever the machine did over several
 * trials (a drift, a burst of load, a slow mode it stayed in) moved both alike, and the pairs'
 * covariance takes it out of the standard error that Welch's test leaves it in.
 *
 * <p>The estimate is the ratio of the two sides' means, as Welch's row gives it. Its interval is
 * Fieller's, with the pairs' covariance: every ratio {@code R} for which the mean of
 * {@code head - R base} over the pairs is within {@code t(0.975, df)} standard errors of 0, the
 * standard error taken from the pairs' own spread of {@code head - R base}. The test of no change is
 * the same at {@code R = 1}, the paired t-test of the differences, so the interval holds 0% exactly
 * when p is at least 0.05.
 *
 * <p>With the slot term, each pair's quantities are regressed on which side ran first ({@code +1} for
 * the base, {@code -1} for the head) beside the intercept: where the second trial of a pair is
 * systematically faster or slower (a cache the first warms, a clock that settles), that effect is
 * taken out, at the cost of a degree of freedom. In a balanced order (as many pairs of each kind)
 * the intercepts are the sides' means, and the estimate is Welch's again.
 */
public final class PairedTest {
    /** The confidence of the interval. */
    static final double CONFIDENCE = 0.95;

    private PairedTest() {
    }

    /**
     * The trials of one cell in their pairs.
     *
     * @param base the base's value in each pair
     * @param head the head's value in the same pair
     * @param baseFirst whether the base ran first in that pair
     */
    public record Pairs(double[] base, double[] head, boolean[] baseFirst) {
        public Pairs {
            if (base.length != head.length || base.length != baseFirst.length) {
                throw new IllegalArgumentException("a pair is one value a side: " + base.length + " base, "
                        + head.length + " head, " + baseFirst.length + " orders");
            }
            base = base.clone();
            head = head.clone();
            baseFirst = baseFirst.clone();
        }

        /** Returns how many pairs there are. */
        public int n() {
            return base.length;
        }
    }

    /**
     * What the pairs say.
     *
     * @param n the pairs
     * @param pctChange the change of the head's mean (intercept, with the slot term) over the base's,
     *     in percent
     * @param ciLow the low end of Fieller's 95% interval of that change, in percent; NaN when the
     *     interval is unbounded (the base's mean is not told from 0)
     * @param ciHigh its high end; NaN when unbounded
     * @param t the paired t statistic of the head's mean against the base's
     * @param df its degrees of freedom: the pairs less one, less one more with the slot term
     * @param p the two-sided p of {@code t}
     * @param slot with the slot term, how much the second trial of a pair differed from the first on
     *     average, in percent of the base's mean; NaN without it
     */
    public record Result(int n, double pctChange, double ciLow, double ciHigh, double t, double df, double p,
            double slot) {
    }

    /**
     * Returns the paired test of {@code pairs}, with the slot term when {@code slotTerm}.
     *
     * @throws IllegalArgumentException with fewer pairs than the test has parameters and one more
     *     (2, or 3 with the slot term), or a slot term where every pair ran in one order
     */
    public static Result of(Pairs pairs, boolean slotTerm) {
        int n = pairs.n();
        int parameters = slotTerm ? 2 : 1;
        if (n < parameters + 1) {
            throw new IllegalArgumentException(n + " pairs cannot be tested with " + parameters + " parameter"
                    + (parameters == 1 ? "" : "s"));
        }
        double[] s = new double[n];
        double sumS = 0;
        for (int i = 0; i < n; i++) {
            s[i] = pairs.baseFirst()[i] ? 1 : -1;
            sumS += s[i];
        }
        if (slotTerm && Math.abs(sumS) == n) {
            throw new IllegalArgumentException("every pair ran in one order: no slot term can be told from the change");
        }
        // Least squares on [1, s] (or [1]): the intercepts, the slopes, and the residuals' cross-products.
        double[] b = fit(pairs.base(), s, slotTerm);
        double[] h = fit(pairs.head(), s, slotTerm);
        double sbb = 0;
        double shh = 0;
        double shb = 0;
        for (int i = 0; i < n; i++) {
            double rb = pairs.base()[i] - b[0] - b[1] * s[i];
            double rh = pairs.head()[i] - h[0] - h[1] * s[i];
            sbb += rb * rb;
            shh += rh * rh;
            shb += rh * rb;
        }
        double df = n - parameters;
        // The variance of an intercept, in units of the residual variance: 1/n, or with the slot term
        // the first diagonal entry of the inverse of [[n, sum s], [sum s, n]].
        double c = slotTerm ? n / ((double) n * n - sumS * sumS) : 1.0 / n;
        double mb = b[0];
        double mh = h[0];
        double tq = TQuantile.of(1.0 - (1.0 - CONFIDENCE) / 2.0, df);
        double k = tq * tq * c / df;
        // (mh - R mb)^2 <= k (shh - 2 R shb + R^2 sbb): a quadratic in R, bounded when its R^2
        // coefficient is positive.
        double a = mb * mb - k * sbb;
        double bq = mh * mb - k * shb;
        double cq = mh * mh - k * shh;
        double low = Double.NaN;
        double high = Double.NaN;
        if (a > 0) {
            double root = Math.sqrt(Math.max(0, bq * bq - a * cq));
            low = ((bq - root) / a - 1) * 100;
            high = ((bq + root) / a - 1) * 100;
        }
        double v = (shh - 2 * shb + sbb) / df; // the residual variance of head - base
        double t = v > 0 ? (mh - mb) / Math.sqrt(c * v) : mh == mb ? 0 : Math.copySign(Double.POSITIVE_INFINITY, mh - mb);
        double p = Double.isInfinite(t) ? 0 : Distributions.tTwoSided(t, df);
        // The head ran second where s is +1, the base where it is -1: their slopes differ by the effect.
        double slot = slotTerm ? (h[1] - b[1]) / mb * 100 : Double.NaN;
        return new Result(n, (mh / mb - 1) * 100, low, high, t, df, p, slot);
    }

    /** Returns the least-squares intercept and slope of {@code y} on {@code s} (slope 0 without the slot term). */
    private static double[] fit(double[] y, double[] s, boolean slotTerm) {
        int n = y.length;
        double sy = 0;
        double ss = 0;
        double sys = 0;
        for (int i = 0; i < n; i++) {
            sy += y[i];
            ss += s[i];
            sys += y[i] * s[i];
        }
        if (!slotTerm) {
            return new double[] {sy / n, 0};
        }
        // s is +-1, so the sum of its squares is n.
        double det = (double) n * n - ss * ss;
        return new double[] {(n * sy - ss * sys) / det, (n * sys - ss * sy) / det};
    }
}
