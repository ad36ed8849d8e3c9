package org.perfab.report;

import java.util.Optional;
import org.perfab.stats.Verdict;

/**
 * How a verdict shows, in every format, in one place: its words, its mark, its colour in a terminal,
 * its outcome as a JUnit test case, and the annotation a GitHub step gives it. Filled by one switch
 * over every verdict, with no default: a verdict added to {@link Verdict} does not compile until it
 * says here how it shows. The HTML report's CSS class of a verdict is its {@link Verdict#id}.
 *
 * @param label the verdict as a reader sees it in plain text: {@code too noisy}, {@code no data}
 * @param mark the mark a reviewer scans for: inconclusive is a grey question mark, never a tick
 * @param ansi the SGR colour code of its label in a terminal; empty for none
 * @param junit its outcome as a JUnit test case, unless {@code --fail-on} names it
 * @param annotation the GitHub annotation its rows get; empty for none
 */
record Shown(String label, String mark, String ansi, Junit junit, Optional<Annotation> annotation) {
    /** A JUnit test case's outcome. */
    enum Junit {
        PASSED,
        FAILED,
        SKIPPED
    }

    /**
     * A GitHub annotation: its workflow command ({@code warning}, {@code notice}) and its title.
     * Verdicts of one command share GitHub's ten annotations of a type per step, in the order of
     * {@link Verdict}.
     */
    record Annotation(String command, String title) {}

    /** Returns how {@code v} shows. */
    static Shown of(Verdict v) {
        return switch (v) {
            case REGRESSION ->
                new Shown(
                        "regression",
                        "\uD83D\uDD34",
                        "31",
                        Junit.FAILED,
                        Optional.of(new Annotation("warning", "perfab regression")));
            case INCONCLUSIVE ->
                new Shown(
                        "inconclusive",
                        "\u2754",
                        "33",
                        Junit.SKIPPED,
                        Optional.of(new Annotation("notice", "perfab inconclusive")));
            case SMALL ->
                new Shown(
                        "small",
                        "\uD83D\uDD38",
                        "33",
                        Junit.PASSED,
                        Optional.of(new Annotation("notice", "perfab small slowdown")));
            case IMPROVEMENT -> new Shown("improvement", "\uD83D\uDFE2", "32", Junit.PASSED, Optional.empty());
            case NOISY -> new Shown("too noisy", "\uD83C\uDF2B\uFE0F", "35", Junit.SKIPPED, Optional.empty());
            case UNCHANGED -> new Shown("unchanged", "\u2705", "", Junit.PASSED, Optional.empty());
            case PROFILE -> new Shown("profile", "\u2139\uFE0F", "", Junit.SKIPPED, Optional.empty());
            case NO_DATA -> new Shown("no data", "\u26AA", "", Junit.SKIPPED, Optional.empty());
        };
    }
}
