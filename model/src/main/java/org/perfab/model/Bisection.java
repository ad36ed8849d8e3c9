package org.perfab.model;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a bisect found: the first commit that made a cell worse, or why no single commit explains
 * the change, or where it could not decide, with every A/B it ran on the way.
 *
 * @param cell the pattern of the cells it followed
 * @param effect the smallest change it counts as bad, in percent
 * @param good the good commit's id
 * @param bad the bad commit's id
 * @param workload the workload file it measured each commit with, as it is in the bad commit: a
 *     bisect goes on ({@code --resume}) only with the same one
 * @param firstBad the first bad commit; empty unless {@code outcome} is {@link Outcome#FOUND}
 * @param outcome how it ended
 * @param steps every A/B it ran, in order
 * @param evidence what the outcome rests on: why no single commit explains the change, why it
 *     could not decide, or, for a commit it names, how much of the whole change that commit makes
 * @param candidates the commits the first bad one may be, oldest first: every commit it could not
 *     tell apart when it ends {@link Outcome#INCONCLUSIVE} or {@link Outcome#AMONG}; empty otherwise
 * @param advice what to run to decide, when it ends {@link Outcome#INCONCLUSIVE}; empty otherwise
 */
public record Bisection(
        String cell,
        double effect,
        String good,
        String bad,
        WorkloadFile workload,
        Optional<String> firstBad,
        Outcome outcome,
        List<Step> steps,
        List<String> evidence,
        List<String> candidates,
        Optional<String> advice) {
    public Bisection {
        Objects.requireNonNull(cell, "cell");
        Objects.requireNonNull(good, "good");
        Objects.requireNonNull(bad, "bad");
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(firstBad, "firstBad");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(advice, "advice");
        steps = List.copyOf(steps);
        evidence = List.copyOf(evidence);
        candidates = List.copyOf(candidates);
    }

    /**
     * A workload file: its path in each commit's tree, and the SHA-256 of its bytes in the bad
     * commit (empty when the bad commit has none there).
     */
    public record WorkloadFile(String path, String sha256) {
        public WorkloadFile {
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(sha256, "sha256");
        }

        @Override
        public String toString() {
            return path + (sha256.isEmpty() ? " (absent)" : " (sha256 " + Ids.shortId(sha256) + ")");
        }
    }

    /** How a bisect ended. */
    public enum Outcome {
        /**
         * One commit made the cell worse: measured again against its parent, with the edge's
         * layout shifted when the workload can shift it, it still shows a real share of the change.
         */
        FOUND("found"),
        /** The bad commit is not worse than the good one: nothing to bisect. */
        NO_CHANGE("no-change"),
        /**
         * The change does not hold to one commit: the commit the search ended at does not show a
         * real share of it against its parent when measured again, because of code layout (its
         * builds spread as far as the change) or because the search's reading was noise, or the
         * change is spread over several commits.
         */
        NO_SINGLE_COMMIT("no-single-commit"),
        /** A step could not tell bad from good, even with more trials: the candidates and what to rerun. */
        INCONCLUSIVE("inconclusive"),
        /**
         * The change lies in a range whose other commits could not be measured (they do not build,
         * have no workload, or their trials failed): the first bad commit is one of the candidates.
         */
        AMONG("among"),
        /** Still running: written after each step. */
        RUNNING("running"),
        /** Stopped by a signal; {@code --resume} goes on from the finished steps. */
        INTERRUPTED("interrupted");

        private final String id;

        Outcome(String id) {
            this.id = id;
        }

        /** The name used in files. */
        public String id() {
            return id;
        }

        /**
         * Returns the outcome named {@code id}.
         *
         * @throws IllegalArgumentException when there is none
         */
        public static Outcome fromId(String id) {
            for (Outcome o : values()) {
                if (o.id.equals(id)) {
                    return o;
                }
            }
            throw new IllegalArgumentException("unknown bisect outcome '" + id + "'");
        }
    }

    /** What a step says of its candidate. */
    public enum Call {
        /**
         * Worse than the commit it was measured against: for the check, by the bisect's effect or
         * more; for a search or confirm step, by a real share of the change the check found (its
         * interval rules out less than half of it, in ratio).
         */
        BAD("bad"),
        /** The trials rule out such a change: the effect for the check, half the change found for a later step. */
        GOOD("good"),
        /** The trials could not tell, even after every round they were allowed. */
        UNDECIDED("undecided"),
        /** The candidate could not be measured (no build, no workload, no trial that worked, no cell). */
        SKIPPED("skipped");

        private final String id;

        Call(String id) {
            this.id = id;
        }

        /** The name used in files. */
        public String id() {
            return id;
        }

        /**
         * Returns the call named {@code id}.
         *
         * @throws IllegalArgumentException when there is none
         */
        public static Call fromId(String id) {
            for (Call c : values()) {
                if (c.id.equals(id)) {
                    return c;
                }
            }
            throw new IllegalArgumentException("unknown bisect call '" + id + "'");
        }
    }

    /**
     * One A/B of a candidate against an earlier commit.
     *
     * @param commit the candidate's id
     * @param subject the first line of its message
     * @param base the id of the commit it was measured against: the good commit, or for a
     *     {@code confirm} step the last good commit before it
     * @param purpose why it ran: {@code check} (the bad commit), {@code search} or {@code confirm}
     *     (the commit the search ended at, against the one before it); a candidate that code layout
     *     could decide has two search steps, of one build per side and of several
     * @param builds builds per side
     * @param trials the trials per side it ran (after its rounds of adaptive trials); 0 for a skipped step
     * @param cell the cell it judged on (the worst of those that match); empty for a skipped step
     * @param verdict the verdict under the bisect's effect; {@code skipped} for a skipped step
     * @param pctChange the change, in percent
     * @param ciLow the low end of its 95% interval
     * @param ciHigh the high end
     * @param pValue its p
     * @param buildSpread with several builds, how far builds of one side spread, in percent; NaN otherwise
     * @param buildsDiffer whether, with several builds per side, every side's builds wrote
     *     different outputs (so code layout was in the test); false with one build
     * @param call what the step says of its candidate
     * @param reason why a step was skipped, why it was measured again with several builds, or a
     *     note on a reused one; empty otherwise
     * @param seconds how long the step took
     */
    public record Step(
            String commit,
            String subject,
            String base,
            String purpose,
            int builds,
            int trials,
            String cell,
            String verdict,
            double pctChange,
            double ciLow,
            double ciHigh,
            double pValue,
            double buildSpread,
            boolean buildsDiffer,
            Call call,
            String reason,
            double seconds) {
        public Step {
            Objects.requireNonNull(commit, "commit");
            Objects.requireNonNull(subject, "subject");
            Objects.requireNonNull(base, "base");
            Objects.requireNonNull(purpose, "purpose");
            Objects.requireNonNull(cell, "cell");
            Objects.requireNonNull(verdict, "verdict");
            Objects.requireNonNull(call, "call");
            Objects.requireNonNull(reason, "reason");
        }

        /** Returns whether the candidate counts as bad. */
        public boolean bad() {
            return call == Call.BAD;
        }
    }
}
