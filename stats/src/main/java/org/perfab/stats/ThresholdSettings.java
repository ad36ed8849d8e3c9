package org.perfab.stats;

import java.util.Optional;

/**
 * Verdict settings as a workload or a command line gives them: each may be absent, and falls
 * back to another layer (the command line over the workload, the workload over the default).
 * Percentages in percent.
 */
public record ThresholdSettings(Optional<Double> alpha, Optional<Double> minEffect,
        Optional<Double> inconclusive, Optional<Double> fdr) {
    /** No settings: everything falls back. */
    public static final ThresholdSettings NONE =
            new ThresholdSettings(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());

    /** Settings without a false-discovery rate. */
    public ThresholdSettings(Optional<Double> alpha, Optional<Double> minEffect, Optional<Double> inconclusive) {
        this(alpha, minEffect, inconclusive, Optional.empty());
    }

    /** Returns these settings, each absent one taken from {@code fallback}. */
    public ThresholdSettings or(ThresholdSettings fallback) {
        return new ThresholdSettings(alpha.or(fallback::alpha), minEffect.or(fallback::minEffect),
                inconclusive.or(fallback::inconclusive), fdr.or(fallback::fdr));
    }

    /**
     * Returns the thresholds these settings give, each absent one taken from {@code base}.
     *
     * @throws IllegalArgumentException when the result is not valid (see {@link Thresholds})
     */
    public Thresholds over(Thresholds base) {
        return new Thresholds(alpha.orElse(base.alpha()), minEffect.orElse(base.minEffect()),
                inconclusive.orElse(base.inconclusive()), fdr.orElse(base.fdr()), base.adaptive());
    }
}
