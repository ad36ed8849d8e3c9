package org.perfab.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.perfab.model.CellComparison;
import org.perfab.model.ComparisonTable;
import org.perfab.model.Units;
import org.perfab.stats.Comparison;
import org.perfab.stats.Sequential;
import org.perfab.stats.Thresholds;
import org.perfab.stats.Verdict;

/**
 * Renders aligned tables for a terminal, in the manner of benchstat: one table per metric, each
 * value in a unit people read ({@code 37.42 ms/op}, not {@code 37423436 ns/op}), and a geometric
 * mean row under each table of two cells or more.
 */
final class TextRenderer implements Renderer {
    private static final String[] HEADER = {"cell", "base", "±cv", "head", "±cv", "n", "change", "95% CI", "p",
        "detects", "verdict"};
    /** The columns added when the medians of several builds decide: the spread and the trial-level test. */
    private static final String[] BUILD_HEADER = {"builds ±cv", "trials: change", "p"};
    /** Columns aligned to the right: the numbers. */
    private static final boolean[] RIGHT = {false, true, true, true, true, true, true, true, true, true, false, true,
        true, true};

    @Override
    public String render(Report report) {
        ComparisonTable table = report.table();
        StringBuilder out = new StringBuilder();
        Warnings.noComparison(report).ifPresent(none -> out.append("FAILED: ").append(none).append("\n"));
        out.append("base: ").append(Untrusted.plain(table.baseLabel(), Untrusted.MAX_PROSE)).append('\n');
        out.append("head: ").append(Untrusted.plain(table.headLabel(), Untrusted.MAX_PROSE)).append('\n');
        out.append(rules(table.thresholds())).append("\n\n");
        List<String> warnings = Warnings.of(report);
        for (String warning : warnings) {
            out.append("WARNING: ").append(Untrusted.plain(warning, Untrusted.MAX_PROSE)).append('\n');
        }
        if (!warnings.isEmpty()) {
            out.append('\n');
        }

        boolean builds = table.rows().stream().anyMatch(CellComparison::byBuilds);
        if (builds) {
            out.append(BUILDS_DECIDE).append("\n\n");
        }
        // One table per metric, in the order of each metric's first row (regressions come first).
        Map<String, List<CellComparison>> byMetric = new LinkedHashMap<>();
        table.rows().forEach(r -> byMetric.computeIfAbsent(r.cell().metric(), k -> new ArrayList<>()).add(r));
        List<String> notes = new ArrayList<>();
        for (Map.Entry<String, List<CellComparison>> metric : byMetric.entrySet()) {
            List<CellComparison> rows = metric.getValue();
            List<String> units = rows.stream().map(r -> r.cell().unit()).distinct().toList();
            out.append(Untrusted.plain(metric.getKey()));
            if (!units.equals(List.of(metric.getKey()))) {
                out.append(" (").append(units.stream().map(Untrusted::plain).collect(Collectors.joining(", "))).append(')');
            }
            out.append('\n');
            List<String[]> lines = new ArrayList<>();
            lines.add(builds ? concat(HEADER, BUILD_HEADER) : HEADER);
            for (CellComparison row : rows) {
                Comparison c = row.comparison();
                String cell = Untrusted.plain(row.cell().name());
                Units.Display d = Numbers.display(row.cell().unit(), c.base().mean(), c.head().mean());
                String[] line = new String[] {
                    cell,
                    Numbers.shown(c.base().mean(), d),
                    Numbers.percent(c.base().cv()),
                    Numbers.shown(c.head().mean(), d),
                    Numbers.percent(c.head().cv()),
                    c.base().n() + "/" + c.head().n(),
                    Numbers.signedPercent(c.pctChange()),
                    Numbers.interval(c.ciLow(), c.ciHigh()),
                    Numbers.pValue(c.pValue()),
                    detects(c, table.thresholds()),
                    label(c.verdict()),
                };
                if (builds) {
                    Comparison t = row.trialLevel().orElse(c);
                    line = concat(line, new String[] {Numbers.percent(row.buildSpread()),
                        Numbers.signedPercent(t.pctChange()), Numbers.pValue(t.pValue())});
                }
                lines.add(line);
                for (String note : Notes.of(row)) {
                    notes.add(cell + " " + Untrusted.plain(row.cell().metric()) + ": " + note);
                }
            }
            geomean(rows, units, builds).ifPresent(lines::add);
            out.append(Tables.aligned(lines, RIGHT)).append('\n');
        }
        out.append(counts(table.counts())).append('\n');
        if (!notes.isEmpty()) {
            out.append("\nnotes:\n");
            for (String note : notes) {
                out.append("  ").append(note).append('\n');
            }
        }
        return out.toString();
    }


    /**
     * Returns the geometric mean row of a metric's table: the geometric means of both sides' means
     * over the rows with both above 0, and their ratio as the change; empty under two such rows.
     * The means are shown only when the rows share one unit.
     */
    private static Optional<String[]> geomean(List<CellComparison> rows, List<String> units, boolean builds) {
        double logBase = 0;
        double logHead = 0;
        int n = 0;
        for (CellComparison r : rows) {
            double b = r.comparison().base().mean();
            double h = r.comparison().head().mean();
            if (b > 0 && h > 0 && Double.isFinite(b) && Double.isFinite(h)) {
                logBase += Math.log(b);
                logHead += Math.log(h);
                n++;
            }
        }
        if (n < 2) {
            return Optional.empty();
        }
        double base = Math.exp(logBase / n);
        double head = Math.exp(logHead / n);
        boolean oneUnit = units.size() == 1;
        Units.Display d = Numbers.display(units.get(0), base, head);
        String[] line = {"geomean", oneUnit ? Numbers.shown(base, d) : "", "", oneUnit ? Numbers.shown(head, d) : "", "", "",
            Numbers.signedPercent((head / base - 1) * 100), "", "", "", ""};
        return Optional.of(builds ? concat(line, new String[] {"", "", ""}) : line);
    }

    /** What a table decided by build medians says about itself. */
    static final String BUILDS_DECIDE = "Verdicts from the median of each build (one value per build and side),"
            + " so that how far code layout alone moves a cell is inside the test; the test over every trial is"
            + " shown beside, with the spread between builds.";

    private static String[] concat(String[] a, String[] b) {
        String[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    /** Returns one line stating the rules: {@code alpha 0.05, min effect 3.0%, ...}. */
    static String rules(Thresholds t) {
        return "Welch's t-test, alpha " + Numbers.value(t.alpha()) + "; regression/improvement at "
                + Numbers.percent(t.minEffect()) + " or more; inconclusive at "
                + Numbers.percent(t.inconclusive()) + " or more"
                + (Double.isNaN(t.fdr()) ? "" : "; significant only when the Benjamini-Hochberg adjusted p is under "
                        + Numbers.value(t.fdr()) + " (--fdr)")
                + t.adaptive().map(s -> "; adaptive trials: " + looks(t, s)).orElse("");
    }

    /** Returns the looks of a run with adaptive trials and the alpha of each: "5, 10 trials per side at alpha ...". */
    static String looks(Thresholds t, Sequential s) {
        List<String> alphas = new ArrayList<>();
        for (int k = 1; k <= s.looks().size(); k++) {
            alphas.add(Numbers.value(s.alpha(k, t.alpha())));
        }
        return "looks after " + s.looks().stream().map(String::valueOf).collect(Collectors.joining(", "))
                + " trials per side while a cell is undecided, at alpha " + String.join(", ", alphas) + " (shares of "
                + Numbers.value(t.alpha()) + ")";
    }

    /**
     * Returns the smallest slowdown the rules report with 80% power for this cell (see
     * {@link Comparison#detectable}), or the undefined mark.
     */
    static String detects(Comparison c, Thresholds t) {
        return Numbers.percent(c.detectable(t));
    }

    /** Returns the verdict as a reader sees it in plain text. */
    static String label(Verdict v) {
        return v == Verdict.NO_DATA ? "no data" : v.id();
    }

    /** Returns the line of counts, e.g. {@code 1 regression, 0 inconclusive, ...}. */
    static String counts(Map<Verdict, Integer> counts) {
        StringBuilder s = new StringBuilder();
        for (Verdict v : Verdict.values()) {
            int n = counts.get(v);
            boolean always = v != Verdict.PROFILE && v != Verdict.NO_DATA;
            if (always || n > 0) {
                if (s.length() > 0) {
                    s.append(", ");
                }
                String word = label(v);
                s.append(n).append(' ').append(n == 1 || v == Verdict.INCONCLUSIVE
                        || v == Verdict.UNCHANGED || v == Verdict.NO_DATA ? word : word + "s");
            }
        }
        return s.toString();
    }
}
