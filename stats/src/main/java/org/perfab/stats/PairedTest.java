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

    private PairedTest() {}

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
     * @param se the standard error of the head's mean less the base's, in the values' unit
     * @param baseMean the base's mean (its intercept, with the slot term)
     */
    public record Result(
            int n,
            double pctChange,
            double ciLow,
            double ciHigh,
            double t,
            double df,
            double p,
            double slot,
            double se,
            double baseMean) {}

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
            throw new IllegalArgumentException(
                    n + " pairs cannot be tested with " + parameters + " parameter" + (parameters == 1 ? "" : "s"));
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
        double t =
                v > 0 ? (mh - mb) / Math.sqrt(c * v) : mh == mb ? 0 : Math.copySign(Double.POSITIVE_INFINITY, mh - mb);
        double p = Double.isInfinite(t) ? 0 : Distributions.tTwoSided(t, df);
        // The head ran second where s is +1, the base where it is -1: their slopes differ by the effect.
        double slot = slotTerm ? (h[1] - b[1]) / mb * 100 : Double.NaN;
        return new Result(n, (mh / mb - 1) * 100, low, high, t, df, p, slot, Math.sqrt(c * Math.max(0, v)), mb);
    }

    /**
     * What the pairs' ranks say, for pairs of which a few straddle a change of the machine's state:
     * Wilcoxon's signed-rank test of the pairs' log ratios, and Hodges and Lehmann's estimate of the
     * change with its interval.
     *
     * @param n the pairs (those whose two values are equal count, and add nothing to the test)
     * @param pctChange the change of the median of the pairs' Walsh averages of log ratios, in percent
     * @param ciLow the low end of its 95% interval, from the signed-rank statistic's distribution
     *     (exact up to {@value #EXACT_UP_TO} pairs, normal beyond); NaN when too few pairs bound it
     * @param ciHigh its high end; NaN when too few pairs bound it
     * @param statistic the sum of the ranks of the pairs where the head was slower
     * @param p the two-sided p of the signed-rank test
     */
    public record Ranked(int n, double pctChange, double ciLow, double ciHigh, double statistic, double p) {}

    /** Up to this many pairs, the interval comes from the signed-rank statistic's exact distribution. */
    static final int EXACT_UP_TO = 50;

    /**
     * Returns the rank form of the paired test of {@code pairs}.
     *
     * @throws IllegalArgumentException with fewer than 2 pairs, or a value that is not above 0 (a log
     *     ratio needs both)
     */
    public static Ranked ranked(Pairs pairs) {
        int n = pairs.n();
        if (n < 2) {
            throw new IllegalArgumentException(n + " pairs cannot be ranked");
        }
        double[] d = new double[n];
        for (int i = 0; i < n; i++) {
            if (!(pairs.base()[i] > 0) || !(pairs.head()[i] > 0)) {
                throw new IllegalArgumentException("pair " + (i + 1) + " has a value that is not above 0: "
                        + pairs.base()[i] + " and " + pairs.head()[i]);
            }
            d[i] = Math.log(pairs.head()[i] / pairs.base()[i]);
        }
        double[] walsh = new double[n * (n + 1) / 2];
        int w = 0;
        for (int i = 0; i < n; i++) {
            for (int j = i; j < n; j++) {
                walsh[w++] = (d[i] + d[j]) / 2;
            }
        }
        java.util.Arrays.sort(walsh);
        int m = walsh.length;
        double median = m % 2 == 1 ? walsh[m / 2] : (walsh[m / 2 - 1] + walsh[m / 2]) / 2;
        int k = lowerRank(n, 1 - CONFIDENCE);
        double low = k >= 1 ? (Math.exp(walsh[k - 1]) - 1) * 100 : Double.NaN;
        double high = k >= 1 ? (Math.exp(walsh[m - k]) - 1) * 100 : Double.NaN;
        double[] test = Distributions.signedRank(d);
        return new Ranked(n, (Math.exp(median) - 1) * 100, low, high, test[0], test[1]);
    }

    /**
     * Returns the rank {@code k} (from 1) of the Walsh average that bounds the interval from below
     * at level {@code alpha}: the largest for which the signed-rank statistic of {@code n} pairs is
     * below {@code k} with probability {@code alpha / 2} at most; 0 when none is.
     */
    static int lowerRank(int n, double alpha) {
        if (n > EXACT_UP_TO) {
            double mean = n * (n + 1) / 4.0;
            double sd = Math.sqrt(n * (n + 1) * (2.0 * n + 1) / 24);
            return Math.max(0, (int) Math.floor(mean - Distributions.normalQuantile(1 - alpha / 2) * sd));
        }
        // The number of subsets of the ranks 1..n with each sum: the statistic's distribution, times 2^n.
        int top = n * (n + 1) / 2;
        double[] ways = new double[top + 1];
        ways[0] = 1;
        for (int r = 1; r <= n; r++) {
            for (int s = top; s >= r; s--) {
                ways[s] += ways[s - r];
            }
        }
        double all = Math.pow(2, n);
        double below = 0; // P(T <= k - 1)
        int k = 0;
        for (int s = 0; s <= top; s++) {
            below += ways[s] / all;
            if (below > alpha / 2) {
                break;
            }
            k = s + 1;
        }
        return k;
    }

    /** The level under which the pairs' evidence of a slot effect puts the slot term in. */
    static final double SLOT_LEVEL = 0.01;

    /**
     * Returns whether the second trial of a pair was systematically faster or slower than the first
     * in {@code pairs}: the slot term takes out significantly more of the differences' spread than
     * it costs (an F test of one degree of freedom, at {@value #SLOT_LEVEL}). It needs 6 pairs, 2 of
     * each order. The difference of the two kinds of pairs says nothing of the change itself, which
     * is their mean: in a balanced order the two are independent.
     */
    static boolean slotMatters(Pairs pairs) {
        int n = pairs.n();
        int baseFirst = 0;
        for (boolean f : pairs.baseFirst()) {
            baseFirst += f ? 1 : 0;
        }
        if (n < 6 || baseFirst < 2 || n - baseFirst < 2) {
            return false;
        }
        double[] d = new double[n];
        double[] s = new double[n];
        for (int i = 0; i < n; i++) {
            d[i] = pairs.head()[i] - pairs.base()[i];
            s[i] = pairs.baseFirst()[i] ? 1 : -1;
        }
        double[] fit = fit(d, s, true);
        double mean = 0;
        for (double x : d) {
            mean += x / n;
        }
        double withSlot = 0;
        double without = 0;
        for (int i = 0; i < n; i++) {
            withSlot += Math.pow(d[i] - fit[0] - fit[1] * s[i], 2);
            without += Math.pow(d[i] - mean, 2);
        }
        if (!(withSlot > 0)) {
            return without > 0;
        }
        double f = (without - withSlot) / (withSlot / (n - 2));
        return Distributions.fUpper(f, 1, n - 2) < SLOT_LEVEL;
    }

    /** How many times the differences' root mean square may exceed their robust spread before ranks judge. */
    static final double STRADDLE_RATIO = 1.3;

    /**
     * Returns whether a few of {@code pairs} straddle a change of the machine's state: the root mean
     * square of the pairs' log ratios exceeds {@value #STRADDLE_RATIO} times their robust spread
     * (1.4826 times the median of their sizes), with 8 pairs or more, every value above 0. It reads
     * only the sizes of the log ratios, never their signs: given the sizes, which way each pair went
     * is a coin under no change, so the signed-rank test keeps its level whatever this says.
     */
    static boolean straddled(Pairs pairs) {
        int n = pairs.n();
        if (n < 8) {
            return false;
        }
        double[] size = new double[n];
        double squares = 0;
        for (int i = 0; i < n; i++) {
            if (!(pairs.base()[i] > 0) || !(pairs.head()[i] > 0)) {
                return false;
            }
            size[i] = Math.abs(Math.log(pairs.head()[i] / pairs.base()[i]));
            squares += size[i] * size[i];
        }
        java.util.Arrays.sort(size);
        double median = n % 2 == 1 ? size[n / 2] : (size[n / 2 - 1] + size[n / 2]) / 2;
        return Math.sqrt(squares / n) > STRADDLE_RATIO * 1.4826 * median;
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
