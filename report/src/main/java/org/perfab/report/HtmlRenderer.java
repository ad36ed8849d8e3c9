package org.perfab.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.perfab.model.CellComparison;
import org.perfab.model.CellId;
import org.perfab.model.RunResults;
import org.perfab.stats.Comparison;

/**
 * Renders one self-contained HTML file: no network, no script from elsewhere. The summary table,
 * then for each cell (regressions and inconclusive first) an SVG of every trial of both sides in
 * the order they ran, with each side's mean and 95% interval. Untrusted text is HTML-escaped here;
 * the template prints only what this class made.
 */
final class HtmlRenderer implements Renderer {
    /** One row of the table and its plot, every field escaped. */
    public record Row(String id, String cell, String metric, String verdict, String verdictClass, String base,
            String head, String change, String p, String detects, String plot) {
    }

    /** Everything the template prints. */
    public record View(String title, String headline, String context, List<String> warnings, List<Row> rows,
            String legend, boolean plots) {
    }

    @Override
    public String render(Report report) {
        List<Row> rows = new ArrayList<>();
        Map<CellId, List<Plot.Point>> points = report.run().map(Plot::points).orElse(Map.of());
        int i = 0;
        for (CellComparison r : report.table().rows()) {
            Comparison c = r.comparison();
            String unit = r.cell().unit();
            String plot = report.run().isEmpty() ? "" : Plot.svg(points.getOrDefault(r.cell().id(), List.of()), c,
                    html(unit), name(r.cell().name()) + " " + name(r.cell().metric()));
            rows.add(new Row("cell-" + i++, name(r.cell().name()), name(r.cell().metric()),
                    html(TextRenderer.label(c.verdict())), c.verdict().id(),
                    side(c.base().mean(), c.base().cv(), unit), side(c.head().mean(), c.head().cv(), unit),
                    html(Numbers.signedPercent(c.pctChange()) + " " + Numbers.interval(c.ciLow(), c.ciHigh())),
                    html(Numbers.pValue(c.pValue())), html(TextRenderer.detects(c, report.table().thresholds())), plot));
        }
        View view = new View(html("perfab · " + report.name()), html(Warnings.noComparison(report)
                .orElse(TextRenderer.counts(report.table().counts()))),
                html(context(report)), Warnings.of(report).stream().map(HtmlRenderer::html).toList(), rows,
                html(TextRenderer.rules(report.table().thresholds()) + ". " + Warnings.gate(report)),
                report.run().isPresent());
        return Templates.render("report.html.ftl", Map.of("view", view));
    }

    private static String context(Report report) {
        if (report.run().isEmpty()) {
            return "baseline " + report.table().baseLabel() + " · candidate " + report.table().headLabel();
        }
        RunResults run = report.run().get();
        return "baseline " + run.table().baseLabel() + " · candidate " + run.table().headLabel() + " · "
                + run.settings().trials() + " trials per side · " + run.machine().cpu() + ", "
                + run.machine().cores() + " cores";
    }

    private static String side(double mean, double cv, String unit) {
        if (Double.isNaN(mean)) {
            return Numbers.UNDEFINED;
        }
        return html(Numbers.value(mean) + (unit.isEmpty() ? "" : " " + Untrusted.plain(unit))
                + (Double.isNaN(cv) ? "" : " ±" + Numbers.percent(cv)));
    }

    /** Returns a cell's name or metric safe as HTML, bounded like every shown name. */
    static String name(String s) {
        return Untrusted.html(s, Untrusted.MAX_LENGTH);
    }

    /** Returns prose (which may quote untrusted names) safe as HTML. */
    static String html(String s) {
        return Untrusted.html(s, Untrusted.MAX_PROSE);
    }
}
