package org.perfab.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.perfab.model.CellComparison;
import org.perfab.model.ComparisonTable;
import org.perfab.model.Units;
import org.perfab.stats.Comparison;
import org.perfab.stats.Verdict;

/**
 * Renders aligned tables for a terminal, in the manner of benchstat: one table per metric, each
 * value in a unit people read ({@code 37.42 ms/op}, not {@code 37423436 ns/op}), and a geometric
 * mean row under each table of two cells or more.
 */
final class TextRenderer implements Renderer<Report> {
    private static final String[] HEADER = {
        "cell", "base", "±cv", "head", "±cv", "n", "change", "95% CI", "p", "detects", "verdict"
    };
    /** The columns added when the medians of several builds decide: the spread and the trial-level test. */
    private static final String[] BUILD_HEADER = {"builds ±cv", "trials: change", "p"};
    /** Columns aligned to the right: the numbers. */
    private static final boolean[] RIGHT = {
        false, true, true, true, true, true, true, true, true, true, false, true, true, true
    };

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
        String code = Shown.of(v).ansi();
        return colour && !code.isEmpty() ? "\u001b[" + code + "m" + text + "\u001b[0m" : text;
    }

    @Override
    public String render(Report report) {
        ComparisonTable table = report.table();
        StringBuilder out = new StringBuilder();
        heading(out, report);
        boolean builds = table.rows().stream().anyMatch(CellComparison::byBuilds);
        if (builds) {
            out.append(Words.BUILDS_DECIDE).append("\n\n");
        }
        // One table per metric, in the order of each metric's first row (regressions come first).
        Map<String, List<CellComparison>> byMetric = new LinkedHashMap<>();
        table.rows()
                .forEach(r -> byMetric.computeIfAbsent(r.cell().metric(), k -> new ArrayList<>())
                        .add(r));
        List<String> notes = new ArrayList<>();
        for (Map.Entry<String, List<CellComparison>> metric : byMetric.entrySet()) {
            List<CellComparison> all = metric.getValue();
            List<String> units = units(all);
            out.append(Untrusted.plain(metric.getKey()));
            if (!units.equals(List.of(metric.getKey()))) {
                out.append(" (")
                        .append(units.stream().map(Untrusted::plain).collect(Collectors.joining(", ")))
                        .append(')');
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
            // Each row's line is its own: on a table of thousands, the cores share them, in order.
            UnaryOperator<String> names = ShortNames.of(table);
            for (Line line : rows.parallelStream()
                    .map(row -> line(row, names, table, builds))
                    .toList()) {
                lines.add(line.cells());
                notes.addAll(line.notes());
            }
            geomean(rows, units, builds).ifPresent(lines::add);
            out.append(Tables.aligned(lines, RIGHT));
            if (!zeros.isEmpty()) {
                out.append("and ").append(zeros).append('\n');
            }
            out.append('\n');
        }
        out.append(colour ? Words.counts(table, this::paint) : Words.counts(table))
                .append('\n');
        if (!notes.isEmpty()) {
            out.append("\nnotes:\n");
            for (String note : notes) {
                out.append("  ").append(note).append('\n');
            }
        }
        return out.toString();
    }

    /**
     * Appends what comes before the tables: a failure or a partial run, the two sides, who
     * measured and how, the verdict rules, the runner, then the warnings, each on its own line.
     */
    private static void heading(StringBuilder out, Report report) {
        ComparisonTable table = report.table();
        report.noComparison()
                .ifPresent(none -> out.append("FAILED: ").append(none).append("\n"));
        Words.partial(report).ifPresent(p -> out.append(p).append('\n'));
        out.append("base: ")
                .append(Untrusted.plain(table.baseLabel(), Untrusted.MAX_PROSE))
                .append('\n');
        out.append("head: ")
                .append(Untrusted.plain(table.headLabel(), Untrusted.MAX_PROSE))
                .append('\n');
        ShardWords.measuredBy(report)
                .ifPresent(by ->
                        out.append(Untrusted.plain(by, Untrusted.MAX_PROSE)).append('\n'));
        report.countedBy()
                .ifPresent(by -> out.append("counted by ")
                        .append(by)
                        .append(", not timed: a busy machine does not move a count\n"));
        out.append(Words.rules(report)).append('\n');
        Words.runner(table).ifPresent(r -> out.append(r).append('\n'));
        out.append('\n');
        List<String> warnings = Warnings.of(report);
        for (String warning : warnings) {
            out.append("WARNING: ")
                    .append(Untrusted.plain(warning, Untrusted.MAX_PROSE))
                    .append('\n');
        }
        if (!warnings.isEmpty()) {
            out.append('\n');
        }
    }

    /**
     * Returns the units of {@code rows}, each once, in the order first found: a metric's rows nearly
     * always share one, so a row costs one comparison with the row before it.
     */
    private static List<String> units(List<CellComparison> rows) {
        List<String> units = new ArrayList<>();
        String last = null;
        for (CellComparison r : rows) {
            String unit = r.cell().unit();
            if (!unit.equals(last) && !units.contains(unit)) {
                units.add(unit);
            }
            last = unit;
        }
        return units;
    }

    /** A row's cells in the table and its notes, each already prefixed with its cell. */
    private record Line(String[] cells, List<String> notes) {}

    /** Returns the line of {@code row} and its notes. */
    private Line line(CellComparison row, UnaryOperator<String> names, ComparisonTable table, boolean builds) {
        Comparison c = row.comparison();
        String cell = Untrusted.plain(names.apply(row.cell().name()));
        Units.Display d =
                Numbers.display(row.cell().unit(), c.base().mean(), c.head().mean());
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
            Numbers.percent(row.detectable()),
            paint(c.verdict(), Words.label(row)),
        };
        if (builds) {
            Comparison t = row.trialLevel().orElse(c);
            line = concat(line, new String[] {
                Numbers.percent(row.buildSpread()), Numbers.signedPercent(t.pctChange()), Numbers.pValue(t.pValue())
            });
        }
        List<String> notes = new ArrayList<>();
        for (String note : Notes.of(row, table.thresholds())) {
            notes.add(cell + " " + Untrusted.plain(row.cell().metric()) + ": "
                    + Untrusted.plain(note, Untrusted.MAX_PROSE));
        }
        return new Line(line, notes);
    }

    /**
     * Returns the geometric mean row of a metric's table: the geometric means of both sides' means
     * over the rows with both above 0, and their ratio as the change; empty under two such rows.
     * The means are shown only when the rows share one unit. A row counted instead claims nothing,
     * and is left out.
     */
    private static Optional<String[]> geomean(List<CellComparison> rows, List<String> units, boolean builds) {
        double logBase = 0;
        double logHead = 0;
        int n = 0;
        for (CellComparison r : rows) {
            double b = r.comparison().base().mean();
            double h = r.comparison().head().mean();
            if (b > 0 && h > 0 && Double.isFinite(b) && Double.isFinite(h) && !r.countedInstead()) {
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
        String[] line = {
            "geomean",
            oneUnit ? Numbers.shown(base, d) : "",
            "",
            oneUnit ? Numbers.shown(head, d) : "",
            "",
            "",
            Numbers.signedPercent((head / base - 1) * 100),
            "",
            "",
            "",
            ""
        };
        return Optional.of(builds ? concat(line, new String[] {"", "", ""}) : line);
    }

    private static String[] concat(String[] a, String[] b) {
        String[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
