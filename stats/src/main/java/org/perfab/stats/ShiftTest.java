package org.perfab.stats;

/**
 * A way of judging whether one cell moved: the test the verdict rules take as a value. Each gives a
 * {@link Comparison} of the candidate's trials against the baseline's, with its verdict under the
 * same {@link Thresholds}, so that perfab's own rule and the tests it is measured against (see
 * {@link Calibration}) go through one door. The tests perfab knows are the values of
 * {@link KnownTests}; each names its statistic ({@link Comparison#statistic}).
 */
public interface ShiftTest {
    /**
     * Judges {@code head} against {@code base}.
     *
     * @param profile whether the cell is shown but never classified ({@link Verdict#PROFILE})
     */
    Comparison.Judged judge(Trials base, Trials head, Direction direction, Thresholds thresholds, boolean profile);
}
