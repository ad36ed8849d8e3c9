package org.perfab.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
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

    private final boolean colour;

    /** A renderer of plain text. */
    TextRenderer() {
        this(false);
    }

    /**
     * A renderer whose verdicts are coloured with ANSI escapes when {@code colour} (for a terminal
     * that shows them): red regressions, yellow inconclusive and small, green improvements,
     * magenta too noisy; the text is the same either way.
     */
    TextRenderer(boolean colour) {
        this.colour = colour;
    }

    /** Returns {@code text} in the colour of {@code v}, when this renderer colours. */
    private String paint(Verdict v, String text) {
        String code = switch (v) {
            case REGRESSION -> "31";
            case INCONCLUSIVE, SMALL -> "33";
            case IMPROVEMENT -> "32";
            case NOISY -> "35";
            default -> "";
        };
        return colour && !code.isEmpty() ? "\u001b[" + code + "m" + text + "\u001b[0m" : text;
    }

    @Override
    public String render(Report report) {
        ComparisonTable table = report.table();
        StringBuilder out = new StringBuilder();
        Warnings.noComparison(report).ifPresent(none -> out.append("FAILED: ").append(none).append("\n"));
        out.append("base: ").append(Untrusted.plain(table.baseLabel(), Untrusted.MAX_PROSE)).append('\n');
        out.append("head: ").append(Untrusted.plain(table.headLabel(), Untrusted.MAX_PROSE)).append('\n');
        report.countedBy().ifPresent(by -> out.append("counted by ").append(by)
                .append(", not timed: a busy machine does not move a count\n"));
        out.append(rules(table)).append("\n\n");
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
            List<CellComparison> all = metric.getValue();
            List<String> units = all.stream().map(r -> r.cell().unit()).distinct().toList();
            out.append(Untrusted.plain(metric.getKey()));
            if (!units.equals(List.of(metric.getKey()))) {
                out.append(" (").append(units.stream().map(Untrusted::plain).collect(Collectors.joining(", "))).append(')');
            }
            // Cells that are 0 on both sides in every trial (allocations of code that allocates
            // nothing) say one thing between them: one line.
            List<CellComparison> rows = all.stream().filter(r -> !r.allZero()).toList();
            String zeros = Zeros.line(all, Untrusted::plain);
            if (rows.isEmpty()) {
                out.append(": ").append(zeros).append("\n\n");
                continue;
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
                    paint(c.verdict(), label(row)),
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
            out.append(Tables.aligned(lines, RIGHT));
            if (!zeros.isEmpty()) {
                out.append("and ").append(zeros).append('\n');
            }
            out.append('\n');
        }
        out.append(colour ? counts(table, this::paint) : counts(table)).append('\n');
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
    static String rules(ComparisonTable table) {
        return rules(table.thresholds(), together(table));
    }

    /** Returns one line stating the rules of {@code t}, with what judging many cells together does. */
    static String rules(Thresholds t) {
        return rules(t, Optional.empty());
    }

    private static String rules(Thresholds t, Optional<String> together) {
        return "Welch's t-test (far trials set aside on both sides), alpha " + Numbers.value(t.alpha())
                + "; regression/improvement at " + Numbers.percent(t.minEffect()) + " or more; inconclusive at "
                + Numbers.percent(t.inconclusive()) + " or more; too noisy when a slowdown past "
                + Numbers.percent(t.inconclusive()) + " could go unseen"
                + together.map(s -> "; " + s).orElse("")
                + t.adaptive().map(s -> "; adaptive trials: " + looks(t, s)).orElse("");
    }

    /**
     * Returns what a table judged together says about it: "the 24 tested cells judged together:
     * significant only when the Benjamini-Hochberg adjusted p is under 0.05"; empty when each cell
     * was judged on its own.
     */
    static Optional<String> together(ComparisonTable table) {
        Thresholds t = table.thresholds();
        int tested = table.tested();
        if (!t.judgedTogether(tested)) {
            return Optional.empty();
        }
        return Optional.of("the " + tested + " tested cells judged together: significant only when the"
                + " Benjamini-Hochberg adjusted p is under " + Numbers.value(t.fdrRate())
                + (Double.isNaN(t.fdr()) ? " (the default; --fdr off judges each alone)" : " (--fdr)"));
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
        return switch (v) {
            case NO_DATA -> "no data";
            case NOISY -> "too noisy";
            default -> v.id();
        };
    }

    /**
     * Returns the verdict of a row as a reader sees it: a row that measures another cell again says
     * whose verdict it takes ("regression, as time").
     */
    static String label(CellComparison row) {
        String v = label(row.comparison().verdict());
        return row.sameAs().map(p -> v + ", as " + Untrusted.plain(p.metric())).orElse(v);
    }

    /** The verdicts a line of counts always shows, even at 0. */
    static final List<Verdict> ALWAYS_COUNTED = List.of(Verdict.REGRESSION, Verdict.INCONCLUSIVE,
            Verdict.IMPROVEMENT, Verdict.NOISY, Verdict.UNCHANGED);

    /**
     * Returns the line of counts, e.g. {@code 1 regression, 0 inconclusive, ...}: of benchmarks, each
     * counted once whatever its metrics (see {@link ComparisonTable#benchmarks}), and saying so when a
     * benchmark has several.
     */
    static String counts(ComparisonTable table) {
        return counts(table, (v, text) -> text);
    }

    /** Returns the line of counts with each count that is not 0 passed through {@code paint}. */
    private static String counts(ComparisonTable table, BiFunction<Verdict, String, String> paint) {
        Map<Verdict, Integer> counts = table.benchmarks();
        Map<Verdict, Integer> cells = table.counts();
        int benchmarks = counts.values().stream().mapToInt(Integer::intValue).sum();
        int rows = cells.values().stream().mapToInt(Integer::intValue).sum();
        StringBuilder s = new StringBuilder();
        if (benchmarks != rows) {
            s.append(benchmarks).append(benchmarks == 1 ? " benchmark: " : " benchmarks: ");
        }
        for (Verdict v : Verdict.values()) {
            int n = counts.get(v);
            if (ALWAYS_COUNTED.contains(v) || n > 0) {
                if (s.length() > 0 && !s.toString().endsWith(": ")) {
                    s.append(", ");
                }
                String count = n + " " + word(v, n);
                s.append(n > 0 ? paint.apply(v, count) : count);
            }
        }
        return s.toString();
    }

    /** Returns how a count of {@code n} names its verdict: "2 regressions", "1 inconclusive". */
    static String word(Verdict v, int n) {
        String word = label(v);
        boolean plural = n != 1 && (v == Verdict.REGRESSION || v == Verdict.IMPROVEMENT);
        return plural ? word + "s" : word;
    }
}
