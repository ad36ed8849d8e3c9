package org.perfab.stats;

import java.util.Objects;
import java.util.OptionalDouble;

/**
 * The statistic a test computed of the candidate against the baseline, named by its test, with the
 * degrees of freedom of its distribution where it has them: what a reader needs to check the p
 * against the test's own table. Every {@link ShiftTest} gives one; only the figures every test gives
 * (the change, p, the interval, the caveats) decide a verdict.
 *
 * @param kind which test's statistic this is
 * @param value the statistic; infinite for a t when both sides are constant and differ; NaN when a
 *     side has too few values for the test
 * @param df the degrees of freedom, {@code > 0}; empty for a statistic that has none (Mann-Whitney's
 *     U), and where they are undefined (both sides constant, or too few values)
 */
public record Statistic(Kind kind, double value, OptionalDouble df) {

    public Statistic {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(df, "df");
        if (df.isPresent() && !kind.hasDf()) {
            throw new IllegalArgumentException(kind.id() + " has no degrees of freedom, got " + df.getAsDouble());
        }
        if (df.isPresent() && !(df.getAsDouble() > 0)) {
            throw new IllegalArgumentException("degrees of freedom must be above 0, got " + df.getAsDouble());
        }
    }

    /** Returns the statistic {@code value} of {@code kind} with {@code df} degrees of freedom, none when NaN. */
    static Statistic of(Kind kind, double value, double df) {
        return new Statistic(kind, value, Double.isNaN(df) ? OptionalDouble.empty() : OptionalDouble.of(df));
    }

    /** Which statistic a test computed, with the name that files and messages give it. */
    public enum Kind {
        /**
         * Welch's t, {@code (mean_head - mean_base) / se}, with Welch-Satterthwaite degrees of freedom:
         * the test on every trial, perfab's verdict on the trials, and the medians of builds.
         */
        WELCH_T("welch-t", true),
        /**
         * Mann-Whitney's U of head against base: the pairs with the head's value above the base's,
         * ties counting a half, from 0 to {@code n_base * n_head}. No degrees of freedom.
         */
        MANN_WHITNEY_U("mann-whitney-u", false),
        /**
         * Yuen's t on 20% trimmed means, {@code (trimmed_head - trimmed_base) / se} with winsorized
         * variances, and its Welch-Satterthwaite degrees of freedom from the trimmed counts.
         */
        YUEN_T("yuen-t", true),
        /**
         * The paired t of the interleaved order's pairs, {@code (mean_head - mean_base) / se} with the
         * pairs' covariance in the standard error, and the pairs less one (less two with the slot
         * term) as its degrees of freedom (see {@link PairedTest}).
         */
        PAIRED_T("paired-t", true),
        /**
         * Wilcoxon's signed-rank statistic of the pairs' log ratios: the sum of the ranks of the
         * pairs where the head was higher (see {@link PairedTest#ranked}). No degrees of freedom.
         */
        SIGNED_RANK("signed-rank", false);

        private final String id;
        private final boolean hasDf;

        Kind(String id, boolean hasDf) {
            this.id = id;
            this.hasDf = hasDf;
        }

        /** The name in files, e.g. {@code welch-t}. */
        public String id() {
            return id;
        }

        /** Whether the statistic's distribution has degrees of freedom (the t's do, U does not). */
        public boolean hasDf() {
            return hasDf;
        }
    }
}
