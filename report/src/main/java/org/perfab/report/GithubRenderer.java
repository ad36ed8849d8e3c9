package org.perfab.report;

import java.util.ArrayList;
import java.util.List;
import org.perfab.model.CellComparison;
import org.perfab.stats.Comparison;
import org.perfab.stats.Verdict;

/**
 * Renders GitHub Actions workflow commands: a {@code ::warning} when the report compares nothing
 * (see {@link Report#noComparison}), one {@code ::warning} per regression and one
 * {@code ::notice} per inconclusive cell and per small slowdown; a row that measures another cell
 * again has none of its own. GitHub shows at most ten annotations of a type per step, so past nine
 * the tenth counts the rest.
 */
final class GithubRenderer implements Renderer {
    /** GitHub's limit of annotations of one type per step. */
    static final int PER_TYPE = 10;

    @Override
    public String render(Report report) {
        StringBuilder out = new StringBuilder();
        Warnings.noComparison(report).ifPresent(none -> out.append("::warning title=").append(property("perfab"))
                .append("::").append(data(Untrusted.plain(none, Untrusted.MAX_PROSE))).append('\n'));
        annotate(out, report, Verdict.REGRESSION, "warning", "perfab regression", PER_TYPE);
        int notices = annotate(out, report, Verdict.INCONCLUSIVE, "notice", "perfab inconclusive", PER_TYPE);
        annotate(out, report, Verdict.SMALL, "notice", "perfab small slowdown", PER_TYPE - notices);
        return out.toString();
    }

    /** Appends the annotations of {@code verdict}'s rows, at most {@code limit} of them, and returns how many. */
    private static int annotate(StringBuilder out, Report report, Verdict verdict, String command, String title,
            int limit) {
        List<CellComparison> rows = new ArrayList<>();
        for (CellComparison r : report.table().rows()) {
            if (r.comparison().verdict() == verdict && r.sameAs().isEmpty()) {
                rows.add(r);
            }
        }
        if (limit <= 0 || rows.isEmpty()) {
            return 0;
        }
        int shown = rows.size() <= limit ? rows.size() : limit - 1;
        for (CellComparison r : rows.subList(0, shown)) {
            Comparison c = r.comparison();
            String message = Untrusted.plain(r.cell().name()) + " " + Untrusted.plain(r.cell().metric()) + ": "
                    + Numbers.signedPercent(c.pctChange()) + " " + Numbers.interval(c.ciLow(), c.ciHigh())
                    + ", p " + Numbers.pValue(c.pValue()) + ", CV " + Numbers.percent(c.base().cv()) + " / "
                    + Numbers.percent(c.head().cv());
            out.append("::").append(command).append(" title=").append(property(title)).append("::")
                    .append(data(message)).append('\n');
        }
        if (rows.size() > shown) {
            out.append("::").append(command).append(" title=").append(property(title)).append("::")
                    .append(data("and " + (rows.size() - shown) + " more " + TextRenderer.label(verdict)
                            + " cells; see the comment or the job summary")).append('\n');
        }
        return Math.min(rows.size(), limit);
    }

    /** Escapes the message of a workflow command. */
    static String data(String s) {
        return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A");
    }

    /** Escapes a property value of a workflow command. */
    static String property(String s) {
        return data(s).replace(":", "%3A").replace(",", "%2C");
    }
}
