package org.perfab.stats;

import java.util.Optional;

/**
 * Verdict settings as a workload or a command line gives them: each may be absent, and falls
 * back to another layer (the command line over the workload, the workload over the default).
 * Percentages in percent. Each present value is checked on its own when the settings are made
 * (see {@link Thresholds#check}); how they fit together, when they become {@link Thresholds}.
 */
public record ThresholdSettings(
        Optional<Double> alpha,
        Optional<Double> minEffect,
        Optional<Double> inconclusive,
        Optional<Double> fdr,
        Optional<Double> outlierFloor,
        Optional<Double> noisyAbove,
        Optional<TrialTest> test) {
    /** No settings: everything falls back. */
    public static final ThresholdSettings NONE = new ThresholdSettings(
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty());

    /**
     * Checks each present value.
     *
     * @throws Thresholds.Invalid naming the first setting out of range
     */
    public ThresholdSettings {
        alpha.ifPresent(v -> Thresholds.check(Thresholds.Setting.ALPHA, v));
        minEffect.ifPresent(v -> Thresholds.check(Thresholds.Setting.MIN_EFFECT, v));
        inconclusive.ifPresent(v -> Thresholds.check(Thresholds.Setting.INCONCLUSIVE, v));
        fdr.ifPresent(v -> Thresholds.check(Thresholds.Setting.FDR, v));
        outlierFloor.ifPresent(v -> Thresholds.check(Thresholds.Setting.OUTLIER_FLOOR, v));
        noisyAbove.ifPresent(v -> Thresholds.check(Thresholds.Setting.NOISY_ABOVE, v));
        java.util.Objects.requireNonNull(test, "test");
    }

    /** Settings without a test of their own. */
    public ThresholdSettings(
            Optional<Double> alpha,
            Optional<Double> minEffect,
            Optional<Double> inconclusive,
            Optional<Double> fdr,
            Optional<Double> outlierFloor,
            Optional<Double> noisyAbove) {
        this(alpha, minEffect, inconclusive, fdr, outlierFloor, noisyAbove, Optional.empty());
    }

    /** Returns these settings with {@code t} as their test, absent when empty. */
    public ThresholdSettings withTest(Optional<TrialTest> t) {
        return new ThresholdSettings(alpha, minEffect, inconclusive, fdr, outlierFloor, noisyAbove, t);
    }

    /** Settings of the first three only. */
    public ThresholdSettings(Optional<Double> alpha, Optional<Double> minEffect, Optional<Double> inconclusive) {
        this(alpha, minEffect, inconclusive, Optional.empty());
    }

    /** Settings without an outlier floor or underpowered cut of their own. */
    public ThresholdSettings(
            Optional<Double> alpha, Optional<Double> minEffect, Optional<Double> inconclusive, Optional<Double> fdr) {
        this(alpha, minEffect, inconclusive, fdr, Optional.empty(), Optional.empty());
    }

    /** Returns these settings, each absent one taken from {@code fallback}. */
    public ThresholdSettings or(ThresholdSettings fallback) {
        return new ThresholdSettings(
                alpha.or(fallback::alpha),
                minEffect.or(fallback::minEffect),
                inconclusive.or(fallback::inconclusive),
                fdr.or(fallback::fdr),
                outlierFloor.or(fallback::outlierFloor),
                noisyAbove.or(fallback::noisyAbove),
                test.or(fallback::test));
    }

    /**
     * Returns the thresholds these settings give, each absent one taken from {@code base}. An
     * outlier floor or underpowered cut that {@code base} leaves to the minimum effect follows the
     * minimum effect these settings give.
     *
     * @throws Thresholds.Invalid when the result is not valid (see {@link Thresholds})
     */
    public Thresholds over(Thresholds base) {
        return new Thresholds(
                        alpha.orElse(base.alpha()),
                        minEffect.orElse(base.minEffect()),
                        inconclusive.orElse(base.inconclusive()),
                        fdr.orElse(base.fdr()),
                        outlierFloor.orElse(base.outlierFloor()),
                        noisyAbove.orElse(base.noisyAbove()),
                        base.adaptive())
                .withTest(test.orElse(base.test()));
    }
}
