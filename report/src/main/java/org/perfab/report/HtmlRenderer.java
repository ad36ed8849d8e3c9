package org.perfab.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.perfab.model.CellComparison;
import org.perfab.model.CellId;
import org.perfab.model.RunResults;
import org.perfab.model.Sharding;
import org.perfab.model.Units;
import org.perfab.stats.Comparison;
import org.perfab.stats.Thresholds;

/**
 * Renders one self-contained HTML file: no network, no script from elsewhere. It opens with a
 * forest plot of every cell's change and its 95% interval against the thresholds (see
 * {@link Forest}), then the summary table, then for each cell (regressions and inconclusive first)
 * an SVG of every trial of both sides in the order they ran, with each side's mean and 95%
 * interval, builds and outliers marked (see {@link Plot}). Untrusted text is HTML-escaped here;
 * the template prints only what this class made.
 */
final class HtmlRenderer implements Renderer<Report> {
    /** One row of the table and its plot, every field escaped. */
    public record Row(
            String id,
            String cell,
            String metric,
            String verdict,
            String verdictClass,
            String base,
            String head,
            String change,
            String p,
            String detects,
            String plot,
            List<String> notes,
            String shard) {}

    /** Everything the template prints. */
    public record View(
            String title,
            String headline,
            String context,
            String forest,
            String forestKey,
            List<String> warnings,
            List<Row> rows,
            String zeros,
            String legend,
            boolean plots,
            String plotKey,
            boolean sharded) {}

    @Override
    public String render(Report report) {
        List<Row> rows = new ArrayList<>();
        Map<CellId, List<Plot.Point>> points = report.run().map(Plot::points).orElse(Map.of());
        Map<CellId, String> shards = ShardWords.shardOfCells(report);
        UnaryOperator<String> names = ShortNames.of(report.table());
        int i = 0;
        for (CellComparison r : report.table().rows()) {
            if (r.allZero()) {
                continue; // one line below the table says them all
            }
            Comparison c = r.comparison();
            String plot = report.run().isEmpty()
                    ? ""
                    : Plot.svg(
                            points.getOrDefault(r.cell().id(), List.of()),
                            r,
                            Untrusted.html(names.apply(r.cell().name())) + " "
                                    + Untrusted.html(r.cell().metric()));
            Units.Display d =
                    Numbers.display(r.cell().unit(), c.base().mean(), c.head().mean());
            rows.add(new Row(
                    "cell-" + i++,
                    Untrusted.html(names.apply(r.cell().name())),
                    Untrusted.html(r.cell().metric()),
                    Untrusted.htmlProse(Words.label(r)),
                    c.verdict().id(),
                    side(c.base().mean(), c.base().cv(), d),
                    side(c.head().mean(), c.head().cv(), d),
                    Untrusted.htmlProse(
                            Numbers.signedPercent(c.pctChange()) + " " + Numbers.interval(c.ciLow(), c.ciHigh())),
                    Untrusted.htmlProse(Numbers.pValue(c.pValue())),
                    Untrusted.htmlProse(Words.detects(r)),
                    plot,
                    Notes.of(r, report.table().thresholds()).stream()
                            .map(n -> Untrusted.htmlProse(Untrusted.plain(n, Untrusted.MAX_PROSE)))
                            .toList(),
                    shards.getOrDefault(r.cell().id(), "")));
        }
        Thresholds t = report.table().thresholds();
        List<CellComparison> shown =
                report.table().rows().stream().filter(r -> !r.allZero()).toList();
        String forest =
                shown.isEmpty() ? "" : Forest.svg(shown, names, t, report.run().isPresent());
        View view = new View(
                Untrusted.htmlProse("perfab · " + report.name()),
                Untrusted.htmlProse(Words.partial(report).map(p -> p + " · ").orElse("")
                        + report.noComparison().orElse(Words.counts(report.table()))
                        + ShardWords.lacking(report).map(l -> " · " + l).orElse("")),
                Untrusted.htmlProse(context(report)
                        + Words.runner(report.table()).map(r -> " · " + r).orElse("")),
                forest,
                Untrusted.htmlProse(forestKey(t)),
                Warnings.of(report).stream().map(Untrusted::htmlProse).toList(),
                rows,
                Zeros.line(report.table().rows(), Untrusted::html),
                Untrusted.htmlProse(Words.rules(report) + ". " + Warnings.gate(report)),
                report.run().isPresent(),
                Untrusted.htmlProse(plotKey(report)),
                !shards.isEmpty());
        return Templates.render("report.html.ftl", Map.of("view", view));
    }

    private static String context(Report report) {
        if (report.run().isEmpty()) {
            return "baseline " + report.table().baseLabel() + " · candidate "
                    + report.table().headLabel();
        }
        RunResults run = report.run().get();
        String start = "baseline " + run.table().baseLabel() + " · candidate "
                + run.table().headLabel() + " · "
                + run.settings().trials() + " trials per side"
                + report.countedBy()
                        .map(by -> ", counted by " + by + " (not timed)")
                        .orElse("") + " · ";
        if (run.sharding().map(Sharding::merged).orElse(false)) {
            return start + ShardWords.measuredBy(report).orElseThrow();
        }
        return start + run.machine().cpu() + ", " + run.machine().cores() + " cores"
                + ShardWords.measuredBy(report).map(by -> " · " + by).orElse("");
    }

    /** Returns what the forest plot's key says: the meaning of its point, line, band and dotted lines. */
    private static String forestKey(Thresholds t) {
        return "Each cell's change of the mean, head against baseline, with its 95% interval; regressions first,"
                + " then inconclusive, improvements and unchanged, the largest change first. The scale is logarithmic"
                + " in the ratio of the means: +100% (×2) and -50% (×½) lie as far from 0; -100% or less, where no"
                + " ratio is, is drawn as an arrow at the left end. Shaded, between the"
                + " dashed lines: within ±" + Numbers.percent(t.minEffect()) + ", never flagged. Dotted: ±"
                + Numbers.percent(t.inconclusive()) + ", past which a move for the worse the test could not confirm"
                + " is inconclusive.";
    }

    /** Returns what the per-trial plots' key says about their markers: the builds, and outliers when there are any. */
    private static String plotKey(Report report) {
        int builds = report.run().map(r -> r.settings().builds()).orElse(1);
        StringBuilder key = new StringBuilder("dashed line: mean · band: its 95% interval");
        if (builds > 1) {
            for (int b = 0; b < Math.min(builds, Plot.BUILD_MARKERS.size()); b++) {
                key.append(b == 0 ? " · " : ", ")
                        .append(Plot.BUILD_MARKERS.get(b))
                        .append(" build ")
                        .append(b);
            }
            if (builds > Plot.BUILD_MARKERS.size()) {
                key.append(", and from build ")
                        .append(Plot.BUILD_MARKERS.size())
                        .append(" on the markers repeat");
            }
        }
        if (report.table().rows().stream().anyMatch(r -> !r.outliers().isEmpty())) {
            key.append(" · ringed: an outlier trial, set aside before the test");
        }
        return key.toString();
    }

    private static String side(double mean, double cv, Units.Display d) {
        if (Double.isNaN(mean)) {
            return Numbers.UNDEFINED;
        }
        return Untrusted.htmlProse(Numbers.shown(mean, d) + (Double.isNaN(cv) ? "" : " ±" + Numbers.percent(cv)));
    }
}
