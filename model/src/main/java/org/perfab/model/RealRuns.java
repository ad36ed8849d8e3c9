package org.perfab.model;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * The real A/B runs of {@code perfab calibrate}: runs of a subject's commits with known
 * slowdowns, and of an A/A, on this machine.
 *
 * @param dir where the runs, their results and comments are
 * @param runs A/B runs of each commit
 * @param trials trials per side of each run (after one warm-up)
 * @param machine the machine that ran them
 * @param commits the figures of each commit, A/A first
 */
public record RealRuns(Path dir, int runs, int trials, RunResults.Machine machine, List<Commit> commits) {
    public RealRuns {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(machine, "machine");
        commits = List.copyOf(commits);
    }

    /**
     * The figures of one commit, shares in percent.
     *
     * @param effect the slowdown the commit made, in percent (0 for the A/A)
     * @param runs the A/B runs made
     * @param found runs in which {@code target} was a regression; NaN for the A/A
     * @param inconclusive runs in which {@code target} was inconclusive; NaN for the A/A
     * @param falseRegressions of the cells no commit changed (all four in the A/A), the share called
     *     regressions
     * @param falseInconclusive of those cells, the share called inconclusive
     * @param change the median change measured for {@code target}
     * @param cv the median coefficient of variation of a cell's trials
     * @param overhead the share of the runs' time perfab itself took: not building, not in trials
     * @param seconds the mean seconds of a run
     */
    public record Commit(
            int effect,
            int runs,
            double found,
            double inconclusive,
            double falseRegressions,
            double falseInconclusive,
            double change,
            double cv,
            double overhead,
            double seconds) {}
}
