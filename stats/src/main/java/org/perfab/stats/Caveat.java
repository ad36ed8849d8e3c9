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
     * One side had far trials (see {@link FarTrials}) that make the candidate look worse, and the
     * other none: evidence of the code (a change that hits some trials) until the machine says
     * otherwise, so every trial is judged, far ones included, unless the rest already show a
     * regression or an improvement.
     */
    ONE_SIDED,
    /**
     * The trials fall into two groups (a busy machine's two speeds; see {@link FarTrials#twoGroups}),
     * which the sides share in other proportions: like is compared with like, the same group on
     * both sides, and where the groups would disagree, or no group has trials of both sides, every
     * trial decides.
     */
    SPLIT,
    /**
     * Significant at alpha, but not at the level of the look it was judged at (a run with adaptive
     * trials spends alpha across its looks, and early looks test at a small level): more trials
     * settle it.
     */
    NOT_AT_LOOK,
    /**
     * Significant on its own, but not among the run's many cells: its Benjamini-Hochberg adjusted
     * p (its q value) is not under the false-discovery rate.
     */
    NOT_AMONG_MANY,
    /**
     * Too noisy to time on this machine (its spread would hide a slowdown past the inconclusive
     * threshold even at the most trials), so the benchmark was counted instead, in the same run:
     * its verdict is its counts' rows, and this row claims nothing.
     */
    COUNTED_INSTEAD,
    /**
     * The part of the run that should have measured it left nothing to judge (a shard of the suite
     * missing, failed, stopped early or unreadable): inconclusive, never a pass, whatever the
     * values beside it say.
     */
    NOT_MEASURED;

    /** Returns the stable machine-readable name, e.g. {@code non-positive-base-mean}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
