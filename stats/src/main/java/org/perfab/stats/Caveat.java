package org.perfab.stats;

import java.util.Locale;

/**
 * Something a reader should know about a {@link Comparison}: warnings carried as data, never
 * thrown. Renderers turn them into words.
 */
public enum Caveat {
    /** The baseline has fewer than two values. */
    BASE_TOO_FEW,
    /** The candidate has fewer than two values. */
    HEAD_TOO_FEW,
    /**
     * The baseline mean is zero or negative, so there is no percent change (and no interval or
     * minimum detectable effect in percent). The verdict then rests on the direction and p alone.
     */
    NON_POSITIVE_BASE_MEAN,
    /**
     * The baseline mean is so uncertain that the 95% interval of the ratio has no finite bounds
     * (Fieller's {@code g >= 1}).
     */
    UNBOUNDED_INTERVAL,
    /**
     * The verdict is unchanged, but the minimum detectable effect is above the minimum effect: the
     * comparison could have missed a change the rules care about. "Unchanged" then means "too
     * noisy to tell".
     */
    UNDERPOWERED;

    /** Returns the stable machine-readable name, e.g. {@code non-positive-base-mean}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
