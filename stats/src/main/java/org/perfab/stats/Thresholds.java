package org.perfab.stats;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The settings of the verdict rules.
 *
 * @param alpha significance level of the cell's test, in (0, 1); a cell is significant when
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
 * @param outlierFloor the least distance, in percent of its side's median, at which a trial can be
 *     far and set aside (see {@link FarTrials}); {@code >= 0}; NaN for the minimum effect (the
 *     default), so that ordinary noise under the bar is never far
 * @param noisyAbove the minimum detectable effect, in percent, above which an unchanged cell is
 *     underpowered ({@link Caveat#UNDERPOWERED}: its trials could have missed a change of that size);
 *     {@code >= 0}; NaN for the minimum effect (the default)
 * @param adaptive the looks of a run with adaptive trials, which share alpha between them (see
 *     {@link Sequential}); empty for a run of a fixed size
 * @param lookAlpha the level of the one look these thresholds judge, when they judge a look of a
 *     run with adaptive trials (see {@link #atLook}): what a regression or an improvement must pass
 *     there, while a small change and the claim of an unchanged row are judged at {@code alpha};
 *     NaN otherwise
 * @param test which test judges a run's trials where they pair (see {@link TrialTest}); Welch's test
 *     judges wherever they do not, whatever this says
 */
public record Thresholds(
        double alpha,
        double minEffect,
        double inconclusive,
        double fdr,
        double outlierFloor,
        double noisyAbove,
        Optional<Sequential> adaptive,
        double lookAlpha,
        TrialTest test) {

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

    /** Thresholds that judge no one look of an adaptive run, and leave the choice of test to the trials. */
    public Thresholds(
            double alpha,
            double minEffect,
            double inconclusive,
            double fdr,
            double outlierFloor,
            double noisyAbove,
            Optional<Sequential> adaptive) {
        this(alpha, minEffect, inconclusive, fdr, outlierFloor, noisyAbove, adaptive, Double.NaN, TrialTest.AUTO);
    }

    /** Returns these thresholds with {@code t} judging the trials that pair. */
    public Thresholds withTest(TrialTest t) {
        return new Thresholds(alpha, minEffect, inconclusive, fdr, outlierFloor, noisyAbove, adaptive, lookAlpha, t);
    }

    /** Thresholds whose outlier floor and underpowered cut are the minimum effect. */
    public Thresholds(double alpha, double minEffect, double inconclusive, double fdr, Optional<Sequential> adaptive) {
        this(alpha, minEffect, inconclusive, fdr, Double.NaN, Double.NaN, adaptive);
    }

    /** Returns these thresholds with the false-discovery rate {@code rate} (see {@link #fdr}). */
    public Thresholds withFdr(double rate) {
        return new Thresholds(
                alpha, minEffect, inconclusive, rate, outlierFloor, noisyAbove, adaptive, lookAlpha, test);
    }

    /** Returns these thresholds for a run with adaptive trials whose looks are {@code looks}. */
    public Thresholds withAdaptive(Sequential looks) {
        return new Thresholds(
                alpha, minEffect, inconclusive, fdr, outlierFloor, noisyAbove, Optional.of(looks), Double.NaN, test);
    }

    /** Returns the outlier floor in force: {@link #outlierFloor}, or the minimum effect when it is NaN. */
    public double effectiveOutlierFloor() {
        return Double.isNaN(outlierFloor) ? minEffect : outlierFloor;
    }

    /** Returns the underpowered cut in force: {@link #noisyAbove}, or the minimum effect when it is NaN. */
    public double effectiveNoisyAbove() {
        return Double.isNaN(noisyAbove) ? minEffect : noisyAbove;
    }

    /**
     * Returns the thresholds that judge look {@code look} (from 1) of a run with adaptive trials
     * on its own: the look's level for a regression or an improvement (see {@link Sequential}), the
     * nominal alpha for the rest, and no more looks.
     */
    public Thresholds atLook(int look) {
        Sequential s = adaptive.orElseThrow(() -> new IllegalStateException("a run of a fixed size has no looks"));
        return new Thresholds(
                alpha,
                minEffect,
                inconclusive,
                fdr,
                outlierFloor,
                noisyAbove,
                Optional.empty(),
                s.alpha(look, alpha),
                test);
    }

    /**
     * Returns the level a regression or an improvement must pass: the look's (see {@link #lookAlpha})
     * when these thresholds judge one look of an adaptive run, else {@link #alpha}.
     */
    public double testAlpha() {
        return Double.isNaN(lookAlpha) ? alpha : lookAlpha;
    }

    /** Returns whether these thresholds judge one look of an adaptive run at a level under alpha. */
    public boolean atALook() {
        return !Double.isNaN(lookAlpha) && lookAlpha < alpha;
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

    /**
     * Returns the false-discovery rate a regression or an improvement is judged at when the cells
     * are judged together: the rate asked ({@code alpha} by default), shrunk at a look in proportion
     * to the look's level.
     */
    public double fdrRate() {
        return Double.isNaN(lookAlpha) ? nominalFdrRate() : nominalFdrRate() * lookAlpha / alpha;
    }

    /**
     * Returns the false-discovery rate a small change is judged at when the cells are judged
     * together: the rate asked, {@code alpha} by default, whatever the look.
     */
    public double nominalFdrRate() {
        return Double.isNaN(fdr) ? alpha : fdr;
    }

    public Thresholds {
        check(Setting.ALPHA, alpha);
        check(Setting.MIN_EFFECT, minEffect);
        check(Setting.INCONCLUSIVE, inconclusive);
        if (!(inconclusive >= minEffect)) {
            throw new Invalid(
                    Setting.INCONCLUSIVE, Setting.MIN_EFFECT, "must be >= %s (" + minEffect + "), got " + inconclusive);
        }
        if (!Double.isNaN(fdr)) {
            check(Setting.FDR, fdr);
        }
        if (!Double.isNaN(outlierFloor)) {
            check(Setting.OUTLIER_FLOOR, outlierFloor);
        }
        if (!Double.isNaN(noisyAbove)) {
            check(Setting.NOISY_ABOVE, noisyAbove);
        }
        Objects.requireNonNull(adaptive, "adaptive");
        Objects.requireNonNull(test, "test");
        if (!Double.isNaN(lookAlpha) && !(lookAlpha > 0 && lookAlpha <= alpha)) {
            throw new IllegalArgumentException("a look's alpha must be above 0 and at most alpha, got " + lookAlpha);
        }
    }

    /**
     * A setting of the verdict rules, with its key in a workload's {@code thresholds:} map and its
     * command-line option: the range of each is checked here, once (see {@link #check}).
     */
    public enum Setting {
        /** Significance level, in (0, 1). */
        ALPHA("alpha", "--alpha"),
        /** Minimum effect, a finite percentage {@code >= 0}. */
        MIN_EFFECT("min_effect", "--min-effect"),
        /** Inconclusive threshold, a finite percentage {@code >= 0}, and at least the minimum effect. */
        INCONCLUSIVE("inconclusive", "--inconclusive"),
        /** False-discovery rate, in (0, 1), or 0 for none. */
        FDR("fdr", "--fdr"),
        /** Outlier floor, a finite percentage {@code >= 0}. */
        OUTLIER_FLOOR("outlier_floor", "--outlier-floor"),
        /** Underpowered cut, a finite percentage {@code >= 0}. */
        NOISY_ABOVE("noisy_above", "--noisy-above");

        private final String key;
        private final String option;

        Setting(String key, String option) {
            this.key = key;
            this.option = option;
        }

        /** The key in a workload's {@code thresholds:} map, e.g. {@code min_effect}. */
        public String key() {
            return key;
        }

        /** The command-line option, e.g. {@code --min-effect}. */
        public String option() {
            return option;
        }
    }

    /**
     * A setting out of its range. The message names the settings by their workload keys;
     * {@link #byOption} by their command-line options.
     */
    public static final class Invalid extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;
        private final transient Setting setting;
        private final transient Setting other;
        private final String reason;

        Invalid(Setting setting, String reason) {
            this(setting, null, reason);
        }

        /** A setting out of range against {@code other}, which {@code reason} names where it has {@code %s}. */
        Invalid(Setting setting, Setting other, String reason) {
            super(setting.key() + " " + (other == null ? reason : String.format(Locale.ROOT, reason, other.key())));
            this.setting = setting;
            this.other = other;
            this.reason = reason;
        }

        /** The setting out of range. */
        public Setting setting() {
            return setting;
        }

        /** Returns the message with each setting named by its option, e.g. {@code --alpha must be ...}. */
        public String byOption() {
            return setting.option() + " "
                    + (other == null ? reason : String.format(Locale.ROOT, reason, other.option()));
        }
    }

    /**
     * Checks {@code value} of {@code setting} on its own: the one place each range is written.
     *
     * @throws Invalid when it is out of range
     */
    public static void check(Setting setting, double value) {
        switch (setting) {
            case ALPHA -> {
                if (!(value > 0.0 && value < 1.0)) {
                    throw new Invalid(setting, "must be between 0 and 1 (exclusive), got " + value);
                }
            }
            case FDR -> {
                if (value != FDR_OFF && !(value > 0.0 && value < 1.0)) {
                    throw new Invalid(setting, "must be between 0 and 1 (exclusive), or off, got " + value);
                }
            }
            default -> {
                if (!(value >= 0.0) || Double.isInfinite(value)) {
                    throw new Invalid(setting, "must be a percentage >= 0, got " + value);
                }
            }
        }
    }
}
