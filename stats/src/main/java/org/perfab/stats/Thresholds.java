package org.perfab.stats;

/**
 * The settings of the verdict rules.
 *
 * @param alpha significance level of Welch's test, in (0, 1); a cell is significant when
 *     {@code p < alpha}
 * @param minEffect smallest change, in percent of the baseline mean, that a regression or an
 *     improvement must reach; {@code >= 0}
 * @param inconclusive change in percent at or past which a move for the worse that the test could
 *     not confirm is reported as inconclusive instead of unchanged; {@code >= minEffect}
 * @param fdr with many cells, the false-discovery rate in (0, 1) under which a cell's
 *     Benjamini-Hochberg adjusted p must lie for it to count as significant (see
 *     {@link FalseDiscovery}); NaN to judge each cell on its own p
 */
public record Thresholds(double alpha, double minEffect, double inconclusive, double fdr) {

    /** alpha 0.05, minimum effect 3%, inconclusive at 10%. */
    public static final Thresholds DEFAULT = new Thresholds(0.05, 3.0, 10.0);

    /** Thresholds that judge each cell on its own p. */
    public Thresholds(double alpha, double minEffect, double inconclusive) {
        this(alpha, minEffect, inconclusive, Double.NaN);
    }

    public Thresholds {
        if (!(alpha > 0.0 && alpha < 1.0)) {
            throw new IllegalArgumentException("alpha must be in (0, 1), got " + alpha);
        }
        if (!(minEffect >= 0.0) || Double.isInfinite(minEffect)) {
            throw new IllegalArgumentException(
                    "min effect must be a finite percentage >= 0, got " + minEffect);
        }
        if (!(inconclusive >= minEffect) || Double.isInfinite(inconclusive)) {
            throw new IllegalArgumentException("inconclusive threshold must be finite and >= the min"
                    + " effect (" + minEffect + "%), got " + inconclusive);
        }
        if (!Double.isNaN(fdr) && !(fdr > 0.0 && fdr < 1.0)) {
            throw new IllegalArgumentException("the false-discovery rate must be in (0, 1), got " + fdr);
        }
    }
}
