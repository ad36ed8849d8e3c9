package org.perfab.stats;

import java.util.Objects;
import java.util.Optional;

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
 * @param adaptive the looks of a run with adaptive trials, which share alpha between them (see
 *     {@link Sequential}); empty for a run of a fixed size. Not together with {@code fdr}.
 */
public record Thresholds(double alpha, double minEffect, double inconclusive, double fdr,
        Optional<Sequential> adaptive) {

    /** alpha 0.05, minimum effect 3%, inconclusive at 10%. */
    public static final Thresholds DEFAULT = new Thresholds(0.05, 3.0, 10.0);

    /** Thresholds that judge each cell on its own p. */
    public Thresholds(double alpha, double minEffect, double inconclusive) {
        this(alpha, minEffect, inconclusive, Double.NaN);
    }

    /** Thresholds of a run of a fixed size. */
    public Thresholds(double alpha, double minEffect, double inconclusive, double fdr) {
        this(alpha, minEffect, inconclusive, fdr, Optional.empty());
    }

    /** Returns these thresholds for a run with adaptive trials whose looks are {@code looks}. */
    public Thresholds withAdaptive(Sequential looks) {
        return new Thresholds(alpha, minEffect, inconclusive, fdr, Optional.of(looks));
    }

    /**
     * Returns the thresholds that judge look {@code look} (from 1) of a run with adaptive trials
     * on its own: this alpha's share for that look, and no more looks.
     */
    public Thresholds atLook(int look) {
        Sequential s = adaptive.orElseThrow(() -> new IllegalStateException("a run of a fixed size has no looks"));
        return new Thresholds(s.alpha(look, alpha), minEffect, inconclusive, fdr, Optional.empty());
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
        Objects.requireNonNull(adaptive, "adaptive");
        if (!Double.isNaN(fdr) && adaptive.isPresent()) {
            throw new IllegalArgumentException("adaptive trials and a false-discovery rate do not go together:"
                    + " each spends alpha its own way; choose one");
        }
    }
}
