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
     * The verdict is unchanged, but the minimum detectable effect is above the underpowered cut
     * ({@link Thresholds#effectiveNoisyAbove}, the minimum effect by default): the comparison could
     * have missed a change the rules care about. "Unchanged" then means "too
     * noisy to tell".
     */
    UNDERPOWERED,
    /**
     * One side had far trials (see {@link FarTrials}) and the other none: a hiccup of the machine,
     * or a change that hits only some trials. The row cannot say "no change".
     */
    ONE_SIDED,
    /**
     * The trials fall into groups the two sides share in other proportions (far trials of one
     * side lie among the other side's; see {@link FarTrials#mixed}): each side's main group
     * decides, and a regression or improvement stands only when the change is larger than the
     * distance between the groups and the bar.
     */
    SPLIT,
    /**
     * Significant on its own, but not among the run's many cells: its Benjamini-Hochberg adjusted
     * p (its q value) is not under the false-discovery rate.
     */
    NOT_AMONG_MANY;

    /** Returns the stable machine-readable name, e.g. {@code non-positive-base-mean}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
