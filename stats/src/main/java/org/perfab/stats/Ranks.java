package org.perfab.stats;

/**
 * The Mann-Whitney test of two samples, as benchstat judges a change: exact without ties and up to
 * {@value Distributions#EXACT_UP_TO} values a side, else the normal approximation (see
 * {@link Distributions#mannWhitney}).
 */
final class Ranks {
    private Ranks() {}

    /**
     * A comparison by ranks.
     *
     * @param u the Mann-Whitney U of head against base: the pairs with head above base, ties counting
     *     a half
     * @param p two-sided p; 1 when every value on both sides is the same
     */
    record Result(double u, double p) {}

    /** Returns the comparison of {@code head} with {@code base}; each side needs a value. */
    static Result of(double[] base, double[] head) {
        if (base.length == 0 || head.length == 0) {
            throw new IllegalArgumentException("a comparison by ranks needs a value on each side");
        }
        double[] up = Distributions.mannWhitney(base, head);
        return new Result(up[0], up[1]);
    }
}
