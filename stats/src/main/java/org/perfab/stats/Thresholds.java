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
 * @param fdr the false-discovery rate under which a cell's Benjamini-Hochberg adjusted p must lie
 *     for it to count as significant when the cells are judged together (see {@link FalseDiscovery}):
 *     in (0, 1) to judge them together whatever their number; {@link #FDR_OFF} (0) to judge each
 *     cell on its own p; NaN for the default, which judges them together at alpha once a run tests
 *     {@value #MANY_CELLS} cells or more
 * @param adaptive the looks of a run with adaptive trials, which share alpha between them (see
 *     {@link Sequential}); empty for a run of a fixed size
 */
public record Thresholds(double alpha, double minEffect, double inconclusive, double fdr,
        Optional<Sequential> adaptive) {

    /**
     * How many tested cells make a run judge them together by default: two, that is every run with
     * more than one. Judged cell by cell, an A/A of 10 cells at 5 trials (CV 3%) headlines a change
     * in 33% of runs, of 20 cells in 53%; together, in 3-4% (perfab calibrate). With adaptive trials
     * (perfab ab's default) judging together costs no power: one cell 10% slower among 5 to 40 is
     * found in 99.6-100% of runs either way.
     */
    public static final int MANY_CELLS = 2;

    /** The {@code fdr} that judges each cell on its own p, however many there are. */
    public static final double FDR_OFF = 0;

    /** alpha 0.05, minimum effect 3%, inconclusive at 10%. */
    public static final Thresholds DEFAULT = new Thresholds(0.05, 3.0, 10.0);

    /** Thresholds that judge the cells of a run together from {@value #MANY_CELLS} tested cells on. */
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
        double share = s.alpha(look, alpha);
        // An explicit rate shrinks with alpha's share; the default (NaN) follows alpha itself.
        double rate = Double.isNaN(fdr) || fdr == FDR_OFF ? fdr : fdr * share / alpha;
        return new Thresholds(share, minEffect, inconclusive, rate, Optional.empty());
    }

    /**
     * Returns whether {@code tested} cells of one run are judged together, by their
     * Benjamini-Hochberg adjusted p (see {@link #fdr}).
     */
    public boolean judgedTogether(int tested) {
        if (fdr == FDR_OFF) {
            return false;
        }
        return !Double.isNaN(fdr) || tested >= MANY_CELLS;
    }

    /** Returns the false-discovery rate the cells are judged at when they are judged together. */
    public double fdrRate() {
        return Double.isNaN(fdr) ? alpha : fdr;
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
        if (!Double.isNaN(fdr) && fdr != FDR_OFF && !(fdr > 0.0 && fdr < 1.0)) {
            throw new IllegalArgumentException("the false-discovery rate must be in (0, 1), or 0 for none, got " + fdr);
        }
        Objects.requireNonNull(adaptive, "adaptive");
    }
}
