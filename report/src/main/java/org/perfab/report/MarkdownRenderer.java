package org.perfab.report;

import freemarker.template.Configuration;
import freemarker.template.Template;
import freemarker.template.TemplateException;
import freemarker.template.TemplateExceptionHandler;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TimeZone;
import org.perfab.stats.Comparison;
import org.perfab.stats.Summary;
import org.perfab.stats.Verdict;

/**
 * Renders a Markdown table through a Freemarker template. The template sees only text that this
 * class has already formatted and escaped ({@link Untrusted#markdown}), so nothing it prints can
 * carry markup from a cell name.
 */
final class MarkdownRenderer implements Renderer {
    private static final Configuration FREEMARKER = configuration();

    /** One row as the template prints it: every field formatted and escaped. */
    public record Row(String cell, String metric, String base, String head, String change,
            String p, String verdict) {
    }

    /** Everything the template prints. */
    public record View(String base, String head, String counts, String rules, List<String> warnings,
            List<Row> rows, List<String> notes) {
    }

    @Override
    public String render(ComparisonTable table) {
        List<Row> rows = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        for (CellComparison r : table.rows()) {
            Comparison c = r.comparison();
            String unit = r.cell().unit().isEmpty() ? "" : " " + Untrusted.markdown(r.cell().unit());
            String cell = Untrusted.markdown(r.cell().name());
            String metric = Untrusted.markdown(r.cell().metric());
            rows.add(new Row(cell, metric,
                    side(c.base(), unit),
                    side(c.head(), unit),
                    change(c),
                    Numbers.pValue(c.pValue()).replace("<", "&lt;"),
                    verdict(c.verdict())));
            for (String note : Notes.of(c, table.thresholds())) {
                notes.add(cell + " " + metric + ": " + note);
            }
        }
        View view = new View(Untrusted.markdown(table.baseLabel()),
                Untrusted.markdown(table.headLabel()),
                TextRenderer.counts(table.counts()),
                TextRenderer.rules(table.thresholds()),
                table.warnings().stream().map(w -> Untrusted.markdown(w, Untrusted.MAX_PROSE)).toList(), rows, notes);
        try {
            Template template = FREEMARKER.getTemplate("comparison.md.ftl");
            StringWriter out = new StringWriter();
            template.process(Map.of("view", view), out);
            return out.toString();
        } catch (IOException e) {
            throw new UncheckedIOException("the Markdown template is missing from the jar", e);
        } catch (TemplateException e) {
            throw new IllegalStateException("the Markdown template failed: " + e.getMessage(), e);
        }
    }

    /** Returns the verdict with the mark a reviewer scans for. */
    static String verdict(Verdict v) {
        return switch (v) {
            case REGRESSION -> "\uD83D\uDD34 regression";
            case INCONCLUSIVE -> "\u2754 inconclusive";
            case IMPROVEMENT -> "\uD83D\uDFE2 improvement";
            case UNCHANGED -> "\u2705 unchanged";
            case PROFILE -> "\u2139\uFE0F profile";
            case NO_DATA -> "\u26AA no data";
        };
    }

    private static String side(Summary s, String unit) {
        if (s.n() == 0) {
            return Numbers.UNDEFINED;
        }
        String mean = Numbers.value(s.mean()) + unit;
        return Double.isNaN(s.cv()) ? mean : mean + " ±" + Numbers.percent(s.cv());
    }

    private static String change(Comparison c) {
        String pct = Numbers.signedPercent(c.pctChange());
        String ci = Numbers.interval(c.ciLow(), c.ciHigh());
        return ci.equals(Numbers.UNDEFINED) ? pct : pct + " " + ci;
    }

    private static Configuration configuration() {
        Configuration cfg = new Configuration(Configuration.VERSION_2_3_34);
        cfg.setClassForTemplateLoading(MarkdownRenderer.class, "templates");
        cfg.setDefaultEncoding("UTF-8");
        cfg.setLocale(Locale.ROOT);
        cfg.setTimeZone(TimeZone.getTimeZone("UTC"));
        cfg.setNumberFormat("computer");
        cfg.setTemplateExceptionHandler(TemplateExceptionHandler.RETHROW_HANDLER);
        cfg.setLogTemplateExceptions(false);
        cfg.setWrapUncheckedExceptions(true);
        cfg.setFallbackOnNullLoopVariable(false);
        return cfg;
    }
}
