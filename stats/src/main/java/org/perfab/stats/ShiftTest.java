package org.perfab.stats;

/**
 * A way of judging whether one cell moved: the test the verdict rules take as a value. Each gives a
 * {@link Comparison} of the candidate's trials against the baseline's, with its verdict under the
 * same {@link Thresholds}, so that perfab's own rule and the tests it is measured against (see
 * {@link Calibration}) go through one door.
 */
public interface ShiftTest {
    /**
     * Judges {@code head} against {@code base}.
     *
     * @param profile whether the cell is shown but never classified ({@link Verdict#PROFILE})
     */
    Comparison.Judged judge(Trials base, Trials head, Direction direction, Thresholds thresholds, boolean profile);

    /** Welch's test on every trial, nothing set aside: the seed's rule ({@link Comparison#of}). */
    static ShiftTest welch() {
        return KnownTests.WELCH;
    }

    /**
     * perfab's verdict on the trials: Welch's test with far trials set aside, on one side read as
     * evidence, groups that swap sides caught ({@link Comparison#judge}).
     */
    static ShiftTest trials() {
        return KnownTests.TRIALS;
    }

    /** Welch's test on the median of each build: one value per build and side. */
    static ShiftTest buildMedians() {
        return KnownTests.BUILD_MEDIANS;
    }

    /** benchstat's: Mann-Whitney's test (exact where it can be), the change between medians. */
    static ShiftTest mannWhitney() {
        return KnownTests.MANN_WHITNEY;
    }

    /** Yuen's test on 20% trimmed means, the change between them. */
    static ShiftTest yuen() {
        return KnownTests.YUEN;
    }

    /**
     * The test perfab's A/B applies: the medians of the builds decide when both sides measured two
     * builds or more ({@link #buildMedians}, with the trials' own comparison and the trials they set
     * aside kept beside it); otherwise the trials do ({@link #trials}).
     */
    static ShiftTest perfab() {
        return KnownTests.PERFAB;
    }
}
