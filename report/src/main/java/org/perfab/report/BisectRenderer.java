package org.perfab.report;

import java.util.ArrayList;
import java.util.List;
import org.perfab.model.Bisection;
import org.perfab.model.Ids;

/**
 * Renders what a bisect found: its end, the evidence, and every step it ran. Its JSON is the
 * bisect's own file ({@link org.perfab.model.BisectionJson}).
 */
final class BisectRenderer {

    private BisectRenderer() {}

    /** Returns the end of a bisect in one sentence. */
    static String end(Bisection b) {
        return switch (b.outcome()) {
            case FOUND -> {
                String id = b.firstBad().orElseThrow();
                boolean shifted = b.steps().stream()
                        .anyMatch(s -> s.commit().equals(id) && s.purpose().equals("confirm") && s.buildsDiffer());
                yield "First bad commit: " + shortId(id) + ", still worse than the commit before it when measured"
                        + " again" + (shifted ? " with its layout shifted." : ".");
            }
            case NO_CHANGE ->
                "The bad commit is not worse than the good one by " + Numbers.percent(b.effect())
                        + " or more: nothing to bisect.";
            case NO_SINGLE_COMMIT -> "No single commit explains the change.";
            case INCONCLUSIVE ->
                "Inconclusive at commit " + shortId(undecided(b)) + ": "
                        + b.advice().orElse("the trials could not tell bad from good") + ".";
            case AMONG ->
                "The first bad commit is one of " + b.candidates().size() + " commits; the others could not"
                        + " be measured.";
            case RUNNING ->
                "Running: " + b.steps().size() + " step" + (b.steps().size() == 1 ? "" : "s") + " done.";
            case INTERRUPTED ->
                "Interrupted after " + b.steps().size() + " finished step"
                        + (b.steps().size() == 1 ? "" : "s") + ": continue with --resume.";
        };
    }

    /** Returns the commit of the last step that could not decide (or could not run), or the bad commit. */
    private static String undecided(Bisection b) {
        String id = b.bad();
        for (Bisection.Step s : b.steps()) {
            if (s.call() == Bisection.Call.UNDECIDED || s.call() == Bisection.Call.SKIPPED) {
                id = s.commit();
            }
        }
        return id;
    }

    private static String shortId(String id) {
        return Ids.shortId(id);
    }

    private static List<String[]> rows(Bisection b, boolean markdown) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {
            "step",
            "commit",
            "against",
            "purpose",
            "builds",
            "trials",
            "cell",
            "change [95% CI]",
            "p",
            "between builds",
            "verdict",
            "call"
        });
        int i = 1;
        for (Bisection.Step s : b.steps()) {
            String subject = Untrusted.plain(s.subject(), 60);
            boolean skipped = s.call() == Bisection.Call.SKIPPED;
            rows.add(new String[] {
                Integer.toString(i++),
                shortId(s.commit()) + " " + (markdown ? Untrusted.markdown(subject, 60) : subject),
                shortId(s.base()),
                s.purpose(),
                Integer.toString(s.builds()),
                skipped ? Numbers.UNDEFINED : Integer.toString(s.trials()),
                skipped ? Numbers.UNDEFINED : markdown ? Untrusted.markdown(s.cell()) : Untrusted.plain(s.cell()),
                skipped
                        ? Numbers.UNDEFINED
                        : Numbers.signedPercent(s.pctChange()) + " " + Numbers.interval(s.ciLow(), s.ciHigh()),
                skipped ? Numbers.UNDEFINED : Numbers.pValue(s.pValue()).replace("<", markdown ? "&lt;" : "<"),
                Double.isNaN(s.buildSpread()) ? Numbers.UNDEFINED : "±" + Numbers.percent(s.buildSpread()),
                s.verdict(),
                s.call().id()
            });
        }
        return rows;
    }

    /** Returns the lines under the end: the evidence, the candidates, and each skipped step's reason. */
    private static List<String> notes(Bisection b) {
        List<String> notes = new ArrayList<>(b.evidence());
        if (!b.candidates().isEmpty()) {
            notes.add("candidates: "
                    + String.join(
                            ", ",
                            b.candidates().stream().map(BisectRenderer::shortId).toList()));
        }
        int i = 1;
        for (Bisection.Step s : b.steps()) {
            if (!s.reason().isEmpty()) {
                notes.add("step " + i + " (" + shortId(s.commit()) + "): " + s.reason());
            }
            i++;
        }
        return notes;
    }

    /** Returns the steps and the end, for a terminal. */
    static String text(Bisection b) {
        StringBuilder out = new StringBuilder(Tables.aligned(rows(b, false)));
        out.append('\n').append(end(b)).append('\n');
        for (String e : notes(b)) {
            out.append("  - ").append(Untrusted.plain(e, Untrusted.MAX_PROSE)).append('\n');
        }
        return out.toString();
    }

    /** Returns the end and the steps in Markdown, for a job summary. */
    static String markdown(Bisection b) {
        StringBuilder out =
                new StringBuilder("### perfab bisect · " + Untrusted.markdown(b.cell()) + "\n\n**" + end(b) + "**\n");
        for (String e : notes(b)) {
            out.append("\n- ").append(Untrusted.markdown(e, Untrusted.MAX_PROSE));
        }
        out.append("\n\n");
        List<String[]> rows = rows(b, true);
        for (int r = 0; r < rows.size(); r++) {
            out.append("| ").append(String.join(" | ", rows.get(r))).append(" |\n");
            if (r == 0) {
                out.append("|--:|:--|:--|:--|--:|--:|:--|--:|--:|--:|:--|:--|\n");
            }
        }
        return out.toString();
    }

    /** Returns a line per step: its commit, what it measured and how it was called. */
    static String csv(Bisection b) {
        Csv out = new Csv(
                "step",
                "commit",
                "against",
                "purpose",
                "builds",
                "trials",
                "cell",
                "change %",
                "ci low %",
                "ci high %",
                "p",
                "between builds %",
                "verdict",
                "call",
                "subject");
        int i = 1;
        for (Bisection.Step s : b.steps()) {
            out.line(
                    Integer.toString(i++),
                    s.commit(),
                    s.base(),
                    s.purpose(),
                    Integer.toString(s.builds()),
                    Integer.toString(s.trials()),
                    s.cell(),
                    Csv.number(s.pctChange()),
                    Csv.number(s.ciLow()),
                    Csv.number(s.ciHigh()),
                    Csv.number(s.pValue()),
                    Csv.number(s.buildSpread()),
                    s.verdict(),
                    s.call().id(),
                    s.subject());
        }
        return out.text();
    }
}
