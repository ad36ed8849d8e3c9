package org.perfab.report;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.perfab.model.CellComparison;
import org.perfab.stats.Caveat;
import org.perfab.stats.Comparison;
import org.perfab.stats.Verdict;

/**
 * Renders GitHub Actions workflow commands: a {@code ::warning} when the report compares nothing
 * (see {@link Report#noComparison}), one {@code ::warning} per regression and one
 * {@code ::notice} per inconclusive cell and per small slowdown; a row that measures another cell
 * again has none of its own. GitHub shows at most ten annotations of a type per step, so past nine
 * the tenth counts the rest.
 */
final class GithubRenderer implements Renderer<Report> {
    @Override
    public String render(Report report) {
        StringBuilder out = new StringBuilder();
        report.noComparison()
                .ifPresent(none ->
                        out.append(Workflow.command("warning", "perfab", Untrusted.plain(none, Untrusted.MAX_PROSE))));
        // Verdicts of one command share its annotations per step, the first verdict first.
        Map<String, Integer> left = new HashMap<>();
        for (Verdict v : Verdict.values()) {
            Optional<Shown.Annotation> a = Shown.of(v).annotation();
            if (a.isPresent()) {
                int limit = left.getOrDefault(a.get().command(), Workflow.PER_TYPE);
                left.put(
                        a.get().command(),
                        limit
                                - annotate(
                                        out,
                                        report,
                                        v,
                                        a.get().command(),
                                        a.get().title(),
                                        limit));
            }
        }
        return out.toString();
    }

    /** Appends the annotations of {@code verdict}'s rows, at most {@code limit} of them, and returns how many. */
    private static int annotate(
            StringBuilder out, Report report, Verdict verdict, String command, String title, int limit) {
        List<String> messages = report.table().rows().stream()
                .filter(r -> r.comparison().verdict() == verdict && r.sameAs().isEmpty())
                .map(GithubRenderer::message)
                .toList();
        return Workflow.annotate(
                out,
                command,
                title,
                messages,
                limit,
                more -> "and " + more + " more " + Words.label(verdict) + " cells; see the comment or the job summary");
    }

    private static String message(CellComparison r) {
        Comparison c = r.comparison();
        if (c.caveats().contains(Caveat.NOT_MEASURED)) {
            return Untrusted.plain(r.cell().name()) + " "
                    + Untrusted.plain(r.cell().metric()) + ": not measured, its"
                    + " shard's results lacking: it may hold a change";
        }
        return Untrusted.plain(r.cell().name()) + " " + Untrusted.plain(r.cell().metric()) + ": "
                + Numbers.signedPercent(c.pctChange()) + " " + Numbers.interval(c.ciLow(), c.ciHigh())
                + ", p " + Numbers.pValue(c.pValue()) + ", CV "
                + Numbers.percent(c.base().cv()) + " / "
                + Numbers.percent(c.head().cv());
    }
}
