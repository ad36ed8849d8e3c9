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

    /** The most Newton steps before the library's solver takes over. */
    private static final int MAX_STEPS = 60;

    private TQuantile() {}

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

    /**
     * Solves P(T > y) = r for y > 0, r the smaller tail of {@code probability}, by Newton's method
     * kept inside a bracket, and returns y with the probability's sign. On y > 0 the tail is
     * decreasing and convex, so a step from below the root never passes it and a step from above
     * that falls below 0 is replaced by a bisection: it converges from any start, in three to six
     * steps from Cornish-Fisher's (Abramowitz and Stegun 26.7.5), where a bracketing solver takes
     * dozens of evaluations of the distribution function. Below 3 degrees of freedom (Welch's test
     * of 2 or 3 trials a side) the start is the exact quantile at 2. The tail, not the distribution
     * function, is solved for: 1 - p is exact in double arithmetic for p of at least a half, so a
     * quantile far in the upper tail keeps its digits.
     */
    private static double compute(double probability, double df) {
        double q = newton(probability, df);
        return Double.isNaN(q) ? Distributions.t(df).quantile(probability) : q;
    }

    /** Returns the quantile by Newton's method (see {@link #compute}), or NaN where it did not converge. */
    static double newton(double probability, double df) {
        if (!(probability > 0 && probability < 1) || !(df > 0) || Double.isInfinite(df)) {
            return Double.NaN;
        }
        Distributions.StudentT t = Distributions.t(df);
        if (probability == 0.5) {
            return 0;
        }
        double r = Math.min(probability, 1 - probability);
        double y;
        if (df >= 3) {
            double z = -Distributions.normalQuantile(r);
            double z2 = z * z;
            y = z
                    + (z2 + 1) * z / 4 / df
                    + ((5 * z2 + 16) * z2 + 3) * z / 96 / (df * df)
                    + (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384 / (df * df * df);
        } else {
            y = (1 - 2 * r) / Math.sqrt(2 * r * (1 - r));
        }
        double below = 0;
        for (int i = 0; i < MAX_STEPS && Double.isFinite(y) && y > 0; i++) {
            double excess = t.survival(y) - r;
            if (excess > 0) {
                below = y;
            }
            double next = y + excess / t.density(y);
            if (!(next > below)) {
                next = (below + y) / 2;
            }
            if (Math.abs(next - y) <= QUANTILE_ACCURACY * Math.max(1, y)) {
                return Math.copySign(next, probability - 0.5);
            }
            y = next;
        }
        return Double.NaN;
    }
}
