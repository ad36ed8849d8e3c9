package org.perfab.model;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a bisect found: the first commit that made a cell worse, or why no single commit explains
 * the change, with every A/B it ran on the way.
 *
 * @param cell the pattern of the cells it followed
 * @param effect the smallest change it counts as bad, in percent
 * @param firstBad the first bad commit; empty unless {@code outcome} is {@link Outcome#FOUND}
 * @param outcome how it ended
 * @param steps every A/B it ran, in order
 * @param evidence when no single commit explains the change, why not; empty otherwise
 */
public record Bisection(String cell, double effect, Optional<String> firstBad, Outcome outcome, List<Step> steps,
        List<String> evidence) {
    public Bisection {
        Objects.requireNonNull(cell, "cell");
        Objects.requireNonNull(firstBad, "firstBad");
        Objects.requireNonNull(outcome, "outcome");
        steps = List.copyOf(steps);
        evidence = List.copyOf(evidence);
    }

    /** How a bisect ended. */
    public enum Outcome {
        /** One commit made the cell worse, and rebuilt with its layout shifted it still does. */
        FOUND("found"),
        /** The bad commit is not worse than the good one: nothing to bisect. */
        NO_CHANGE("no-change"),
        /**
         * The change does not hold to one commit: neighbours out of order, a result that flips when
         * rebuilt, or a spread between builds as large as the change. Code layout or noise.
         */
        NO_SINGLE_COMMIT("no-single-commit");

        private final String id;

        Outcome(String id) {
            this.id = id;
        }

        /** The name used in files. */
        public String id() {
            return id;
        }
    }

    /**
     * One A/B of the good commit against a candidate.
     *
     * @param commit the candidate's id
     * @param subject the first line of its message
     * @param purpose why it ran: {@code check} (the bad commit), {@code search} or {@code confirm}
     *     (an edge commit rebuilt with perturbed layouts)
     * @param builds builds per side
     * @param cell the cell it judged on (the worst of those that match)
     * @param verdict the verdict under the bisect's effect
     * @param pctChange the change, in percent
     * @param ciLow the low end of its 95% interval
     * @param ciHigh the high end
     * @param pValue its p
     * @param buildSpread with several builds, how far builds of one side spread, in percent; NaN otherwise
     * @param bad whether the candidate counts as bad
     */
    public record Step(String commit, String subject, String purpose, int builds, String cell, String verdict,
            double pctChange, double ciLow, double ciHigh, double pValue, double buildSpread, boolean bad) {
    }
}
