package org.perfab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.perfab.model.CellComparison;
import org.perfab.model.ComparisonTable;
import org.perfab.model.Outlier;
import org.perfab.model.RunResults;
import org.perfab.model.Side;
import org.perfab.model.Warning;
import org.perfab.stats.Comparison;
import org.perfab.stats.Sequential;
import org.perfab.stats.Thresholds;
import org.perfab.stats.Verdict;

/**
 * The check that every figure the words of an A/B report quote (its notes, its warnings, its header
 * lines) comes from what the table shows or from the run: a note quotes its own row's p, q, change,
 * interval ends, spreads, trials or detectable change, each named as what it is, and sits beside its
 * own row; a warning that names cells quotes each cell's own figures beside its name; every count of
 * trials per side or of cells is the run's; the zero-cells line names each cell once, with its
 * metric; and advice never names an option the run already used to its end. The runs are the golden
 * files', a Go suite's like the one whose comment contradicted its table (29 benchmarks, 5 trials
 * a side of adaptive trials to 20, stopped by its budget at the first look), and a Google
 * Benchmark suite's like crc32c's (real time, CPU time and bytes per second of each).
 */
class QuotedFiguresTest {
    static Stream<Arguments> reports() {
        return Stream.of(
                Arguments.of("broker", Report.of(RunFixture.broker())),
                Arguments.of("builds", Report.of(RunFixture.builds())),
                Arguments.of("spread", Report.of(RunFixture.spread())),
                Arguments.of("drifting", Report.of(RunFixture.drifting())),
                Arguments.of("many", Report.of(RunFixture.many(30))),
                Arguments.of("bitset", Report.of(RunFixture.bitset())),
                Arguments.of("bitset stopped, read back from an older file", Report.of(RunFixture.bitset(5))),
                Arguments.of("bitset at its most trials", Report.of(RunFixture.bitset(20))),
                Arguments.of("bitset going on", Report.of(RunFixture.bitset(5).goingOn())),
                Arguments.of("crc32c", Report.of(RunFixture.crc32c())),
                Arguments.of("files", Report.of(RenderersTest.fixture())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("reports")
    void everyNoteQuotesOnlyItsOwnRowsFiguresNamedAsWhatTheyAre(String name, Report report) {
        Run run = runFigures(report);
        List<String> wrong = new ArrayList<>();
        for (CellComparison r : report.table().rows()) {
            for (String note : Notes.of(r, report.table().thresholds())) {
                String text = stripped(note, report, r);
                wrong.addAll(check(text, rowFigures(r, report.table().thresholds()), run, r, note));
                Comparison c = r.comparison();
                if (!Double.isNaN(c.qValue())
                        && note.contains("significant at alpha")
                        && !(c.qValue() < report.table().thresholds().nominalFdrRate())) {
                    wrong.add("calls a cell significant at alpha whose q (" + Numbers.pValue(c.qValue())
                            + ") is not under it: " + note);
                }
            }
        }
        assertEquals(List.of(), wrong);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("reports")
    void everyRowsDetectableChangeIsTheOneItsVerdictClaims(String name, Report report) {
        // Every format shows the row's figure: it must be its comparison's as the table judged it.
        for (CellComparison r : report.table().rows()) {
            assertEquals(
                    Numbers.percent(r.comparison().detectable(report.table().thresholds())),
                    Numbers.percent(r.detectable()),
                    named(r));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("reports")
    void everyRenderedNoteSitsBesideItsOwnRow(String name, Report report) {
        String text = Products.AB.render(report, Format.TEXT);
        int at = text.indexOf("\nnotes:\n");
        if (at < 0) {
            return;
        }
        List<CellComparison> byLength = new ArrayList<>(report.table().rows());
        byLength.sort(Comparator.comparingInt((CellComparison r) -> -named(r).length()));
        for (String line : text.substring(at + "\nnotes:\n".length()).split("\n")) {
            String note = line.strip();
            CellComparison row = byLength.stream()
                    .filter(r -> note.startsWith(named(r) + ": "))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("a note of no row: " + note));
            List<String> own = Notes.of(row, report.table().thresholds()).stream()
                    .map(n -> Untrusted.plain(n, Untrusted.MAX_PROSE))
                    .toList();
            assertTrue(own.contains(note.substring(named(row).length() + 2)), "a note beside another row's: " + note);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("reports")
    void everyWarningQuotesEachCellsOwnFiguresBesideItsNameAndTheRunsCounts(String name, Report report) {
        Run run = runFigures(report);
        Set<String> ofTheRun = new HashSet<>();
        report.table().warnings().forEach(w -> ofTheRun.add(Warnings.words(w)));
        List<CellComparison> byLength = new ArrayList<>(report.table().rows());
        byLength.sort(Comparator.comparingInt((CellComparison r) -> -named(r).length()));
        List<String> wrong = new ArrayList<>();
        for (String warning : Warnings.of(report)) {
            if (ofTheRun.contains(warning)) {
                continue; // a warning of the run's own data (failed trials, busy machine) quotes its own figures
            }
            String rest = warning;
            int listed = 0;
            for (CellComparison r : byLength) {
                String named = named(r);
                int at;
                while ((at = rest.indexOf(named)) >= 0) {
                    listed++;
                    int end = at + named.length();
                    if (rest.startsWith(" (", end)) {
                        int close = closing(rest, end + 1);
                        String figures = rest.substring(end + 2, close);
                        wrong.addAll(check(
                                stripped(figures, report, r),
                                rowFigures(r, report.table().thresholds()),
                                run,
                                r,
                                warning));
                        end = close + 1;
                    }
                    rest = rest.substring(0, at) + " " + rest.substring(end);
                }
            }
            // A warning counts the cells it lists: those it names, and those it leaves unnamed.
            Matcher more = Pattern.compile(" and (\\d+) more").matcher(rest);
            Set<String> counted = new HashSet<>(run.cells());
            int unnamed = more.find() ? Integer.parseInt(more.group(1)) : 0;
            counted.add(Integer.toString(listed + unnamed));
            Set<String> all = new HashSet<>(run.all());
            all.addAll(counted);
            all.add(Integer.toString(unnamed));
            wrong.addAll(
                    check(stripped(rest, report, null), Set.of(), new Run(all, run.trials(), counted), null, warning));
        }
        assertEquals(List.of(), wrong);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("reports")
    void everyHeaderQuotesTheRunsTrialsAndCells(String name, Report report) {
        Run run = runFigures(report);
        List<String> headers = new ArrayList<>();
        ComparisonTable table = report.table();
        headers.add(Words.rules(report));
        Words.runner(table).ifPresent(headers::add);
        Words.together(report).ifPresent(headers::add);
        headers.add(Words.counts(table));
        Words.partial(report).ifPresent(headers::add);
        String md = Products.AB.render(report, Format.MARKDOWN);
        md.lines()
                .filter(l -> l.startsWith("### perfab") || l.startsWith("Baseline ") || l.startsWith("<sub>"))
                .forEach(headers::add);
        List<String> wrong = new ArrayList<>();
        for (String header : headers) {
            wrong.addAll(check(stripped(header, report, null), Set.of(), run, null, header));
        }
        assertEquals(List.of(), wrong);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("reports")
    void theZeroCellsLineNamesEachCellOnceWithItsMetric(String name, Report report) {
        List<CellComparison> zeros =
                report.table().rows().stream().filter(CellComparison::allZero).toList();
        String line = Zeros.line(report.table().rows(), Untrusted::plain);
        if (zeros.isEmpty()) {
            assertEquals("", line);
            return;
        }
        assertTrue(line.startsWith(zeros.size() + (zeros.size() == 1 ? " cell " : " cells ")), line);
        Set<String> names = new LinkedHashSet<>();
        for (CellComparison r : zeros) {
            names.add(Untrusted.plain(r.cell().name()));
            assertTrue(
                    line.contains(Untrusted.plain(r.cell().metric())), "names the metric of " + named(r) + ": " + line);
        }
        for (String n : names) {
            int first = line.indexOf(n);
            if (first >= 0) {
                assertEquals(-1, line.indexOf(n + ",", first + n.length()), "names " + n + " once: " + line);
                assertEquals(-1, line.indexOf(n + " ", first + n.length()), "names " + n + " once: " + line);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("reports")
    void adviceFitsTheRunsOwnSettings(String name, Report report) {
        List<String> said = new ArrayList<>(Warnings.of(report));
        Words.together(report).ifPresent(said::add);
        report.table()
                .rows()
                .forEach(r -> said.addAll(Notes.of(r, report.table().thresholds())));
        List<String> advice =
                said.stream().filter(s -> s.contains("more trials (")).toList();
        if (report.run().isEmpty()) {
            assertEquals(List.of(), advice, "a comparison of files has no run to take more trials");
            return;
        }
        RunResults run = report.run().get();
        Optional<Sequential> adaptive = report.table().thresholds().adaptive();
        Matcher m = Pattern.compile("--adaptive (\\d+)").matcher(String.join("\n", said));
        while (m.find()) {
            assertEquals(1, run.settings().builds(), "adaptive trials take one build a side: " + said);
            assertTrue(
                    Integer.parseInt(m.group(1))
                            > adaptive.map(Sequential::max)
                                    .orElse(run.settings().trials()),
                    "--adaptive " + m.group(1) + " on a run that already had it: " + said);
        }
        Optional<Warning> stop = report.table().warnings().stream()
                .filter(w -> w.kind() == Warning.Kind.BUDGET_STOP)
                .findFirst();
        boolean atItsMost = adaptive.map(s -> run.settings().trials() >= s.max())
                .orElse(run.settings().builds() > 1 || run.settings().trials() >= Advice.ADAPTIVE);
        boolean shortOfItsLooks =
                adaptive.isPresent() && !atItsMost && run.finishedAt().isPresent() && !run.interrupted();
        for (String a : advice) {
            if (stop.isPresent()) {
                String enough =
                        Spans.option(java.time.Duration.ofMillis(stop.get().figure("enoughMillis")));
                assertTrue(
                        a.contains("--budget " + enough) || a.contains("perfab plan"),
                        "a run its budget stopped names the budget that lets it go on: " + a);
            } else if (shortOfItsLooks) {
                assertTrue(
                        a.contains("--budget") || a.contains("perfab plan"),
                        "a run stopped short of its looks names --budget: " + a);
            } else if (atItsMost) {
                assertTrue(a.contains("perfab plan"), "a run at its most trials names perfab plan: " + a);
            }
        }
    }

    /**
     * The figures of a run: every one a sentence may quote, and those a count of trials per side or
     * of cells may be.
     */
    private record Run(Set<String> all, Set<String> trials, Set<String> cells) {}

    /** Returns a row's cell as warnings name it. */
    private static String named(CellComparison r) {
        return Untrusted.plain(r.cell().name()) + " " + Untrusted.plain(r.cell().metric());
    }

    /** Returns the index of the parenthesis that closes the one at {@code open}. */
    private static int closing(String s, int open) {
        int depth = 0;
        for (int i = open; i < s.length(); i++) {
            if (s.charAt(i) == '(') {
                depth++;
            } else if (s.charAt(i) == ')' && --depth == 0) {
                return i;
            }
        }
        return s.length();
    }

    /** A figure as a sentence writes it: a sign, a less-than, digits, a decimal part, a percent or times sign. */
    private static final Pattern FIGURE = Pattern.compile("(?<![\\w.])[-+]?<?\\d+(?:\\.\\d+)?(?:e[-+]?\\d+)?[%x]?");

    /**
     * Returns {@code text} without what quotes no figure of a run: the names of the cells (which a
     * pull request chose, digits and all), code and options, HTML entities, tail metrics named in
     * prose, and the constants of the method (95% intervals, 80% power).
     */
    private static String stripped(String text, Report report, CellComparison row) {
        String s = text;
        List<CellComparison> byLength = new ArrayList<>(report.table().rows());
        byLength.sort(
                Comparator.comparingInt((CellComparison r) -> -r.cell().name().length()));
        for (CellComparison r : byLength) {
            s = s.replace(Untrusted.plain(r.cell().name()), " ")
                    .replace(Untrusted.markdown(r.cell().name()), " ");
        }
        for (CellComparison r : byLength) {
            s = s.replaceAll(
                    "(?<![\\w/])" + Pattern.quote(Untrusted.plain(r.cell().metric())) + "(?![\\w/])", " ");
        }
        if (row != null) {
            for (var f : row.functions()) {
                s = s.replace(Notes.moved(f), " ");
            }
        }
        if (report.run().isPresent()) {
            RunResults run = report.run().get();
            s = s.replace(run.machine().cpu(), " ").replace(run.machine().runner(), " ");
        }
        s = s.replaceAll("`[^`]*`", " ")
                .replaceAll("&#?\\w+;", " ")
                .replaceAll("--[a-z][a-z-]*(?: [^\\s,;)]+)?", " ")
                .replaceAll("\\bp\\d+(?:\\.\\d+)?\\b", " ")
                .replaceAll("\\b[A-Z]/[A-Z]\\b", " ")
                .replace("95% interval", " ")
                .replace("95% CI", " ")
                .replace("80% power", " ")
                .replace("4 times in 5", " ")
                .replace("at least 2", " ")
                .replace("two trials a side", " ");
        return s;
    }

    /** Labelled figures: what each label must name. */
    private static final Pattern P = Pattern.compile("\\bp (<?\\d[\\d.]*)");

    private static final Pattern Q = Pattern.compile("\\bq\\)? (?:is )?(<?\\d[\\d.]*)");
    private static final Pattern CV = Pattern.compile("\\bCV (\\d[\\d.]*%)");
    private static final Pattern TRIALS = Pattern.compile("(\\d+) (?:trials? )?(?:per|a) side");
    private static final Pattern CELLS = Pattern.compile("(\\d+) (?:tested )?cells?\\b");

    /**
     * Returns what is wrong with the figures of {@code text}: a labelled figure that is not what its
     * label names, or a figure that is neither of {@code row}'s nor of the run's.
     */
    private static List<String> check(String text, Set<String> row, Run run, CellComparison r, String sentence) {
        List<String> wrong = new ArrayList<>();
        String where = (r == null ? "" : named(r) + ": ") + sentence;
        if (r != null) {
            Comparison c = r.comparison();
            labelled(P, text, Set.of(Numbers.pValue(c.pValue())), "p", where, wrong);
            labelled(Q, text, Set.of(Numbers.pValue(c.qValue())), "q", where, wrong);
            labelled(
                    CV,
                    text,
                    new HashSet<>(List.of(
                            Numbers.percent(c.base().cv()),
                            Numbers.percent(c.head().cv()))),
                    "CV",
                    where,
                    wrong);
        }
        labelled(TRIALS, text, run.trials(), "trials per side", where, wrong);
        labelled(CELLS, text, run.cells(), "cells", where, wrong);
        Matcher m = FIGURE.matcher(text);
        while (m.find()) {
            String figure = m.group();
            if (!row.contains(figure)
                    && !run.all().contains(figure)
                    && !row.contains(unsigned(figure))
                    && !run.all().contains(unsigned(figure))) {
                wrong.add("quotes " + figure + ", neither the row's nor the run's: " + where);
            }
        }
        return wrong;
    }

    private static void labelled(
            Pattern label, String text, Set<String> allowed, String what, String where, List<String> wrong) {
        Matcher m = label.matcher(text);
        while (m.find()) {
            if (!allowed.contains(m.group(1))) {
                wrong.add("quotes " + m.group(1) + " as " + what + ", which is not: " + where);
            }
        }
    }

    private static String unsigned(String figure) {
        return figure.startsWith("+") || figure.startsWith("-") ? figure.substring(1) : figure;
    }

    /** Returns every figure of {@code r} as the table shows it, or as its notes may quote it. */
    private static Set<String> rowFigures(CellComparison r, Thresholds t) {
        Set<String> f = new HashSet<>();
        Comparison c = r.comparison();
        f.add(Numbers.pValue(c.pValue()));
        f.add(Numbers.pValue(c.qValue()));
        f.add(Numbers.signedPercent(c.pctChange()));
        f.add(Numbers.percent(Math.abs(c.pctChange())));
        f.add(Numbers.signedPercent(c.ciLow()));
        f.add(Numbers.signedPercent(c.ciHigh()));
        f.add(Numbers.percent(c.base().cv()));
        f.add(Numbers.percent(c.head().cv()));
        f.add(Integer.toString(c.base().n()));
        f.add(Integer.toString(c.head().n()));
        f.add(Numbers.value(c.base().mean()));
        f.add(Numbers.value(c.head().mean()));
        f.add(Numbers.percent(r.detectable()));
        f.add(Numbers.percent(r.noiseFloor()));
        f.add(Numbers.percent(r.buildSpread()));
        r.trialLevel().ifPresent(l -> {
            f.add(Numbers.pValue(l.pValue()));
            f.add(Numbers.signedPercent(l.pctChange()));
        });
        f.add(Integer.toString(r.outliers().size()));
        for (Outlier o : r.outliers()) {
            f.add(Integer.toString(o.trial() + 1));
            f.add(Numbers.signedPercent(o.deviation()));
        }
        if (r.outliers().size() > 3) {
            f.add(Integer.toString(r.outliers().size() - 3));
        }
        r.look().ifPresent(l -> {
            f.add(Integer.toString(l.look()));
            f.add(Integer.toString(l.looks()));
            f.add(Integer.toString(l.trials()));
            f.add(Numbers.value(l.alpha()));
            f.add(Numbers.value(t.nominalFdrRate() * l.alpha() / t.alpha()));
        });
        return f;
    }

    /**
     * Returns every figure of the run as a sentence may quote it: its trials per side (at each look
     * of adaptive trials), builds and warm-ups, its cells and benchmarks as the table counts them,
     * its thresholds, what the runner did, and the machine's cores. A comparison of files has the
     * trials per side each of its rows measured.
     */
    private static Run runFigures(Report report) {
        Set<String> f = new HashSet<>();
        Set<String> trials = new HashSet<>();
        Set<String> cells = new HashSet<>();
        ComparisonTable table = report.table();
        Thresholds t = table.thresholds();
        report.run().ifPresent(run -> {
            trials.add(Integer.toString(run.settings().trials()));
            f.add(Integer.toString(run.settings().builds()));
            f.add(Integer.toString(run.settings().warmup()));
            f.add(Integer.toString(run.machine().cores()));
        });
        if (report.run().isEmpty()) {
            for (CellComparison r : table.rows()) {
                for (Side side : Side.values()) {
                    var s = side == Side.BASE
                            ? r.comparison().base()
                            : r.comparison().head();
                    trials.add(Integer.toString(s.n()
                            + (int) r.outliers().stream()
                                    .filter(o -> o.side() == side)
                                    .count()));
                }
            }
        }
        t.adaptive().ifPresent(s -> {
            List<Integer> looks = s.looks();
            for (int k = 1; k <= looks.size(); k++) {
                trials.add(Integer.toString(looks.get(k - 1)));
                f.add(Numbers.value(s.alpha(k, t.alpha())));
                f.add(Integer.toString(k));
            }
        });
        cells.add(Integer.toString(table.tested()));
        cells.add(Integer.toString(table.rows().size()));
        cells.add(Integer.toString(
                (int) table.rows().stream().filter(CellComparison::allZero).count()));
        cells.add(Integer.toString(
                table.counts().values().stream().mapToInt(Integer::intValue).sum()));
        f.add(Integer.toString(
                table.benchmarks().values().stream().mapToInt(Integer::intValue).sum()));
        for (Verdict v : Verdict.values()) {
            f.add(Integer.toString(table.counts().get(v)));
            f.add(Integer.toString(table.benchmarks().get(v)));
        }
        f.add(Numbers.value(t.alpha()));
        f.add(Numbers.value(t.nominalFdrRate()));
        f.add(Numbers.percent(t.alpha() * 100));
        f.add(Numbers.percent(t.minEffect()));
        f.add(Numbers.percent(t.inconclusive()));
        f.add(Long.toString(Math.round(table.tested() * t.alpha())));
        var p = table.pairing();
        f.add(Numbers.percent(p.moved()));
        f.add(Numbers.pValue(p.p()));
        cells.add(Integer.toString(p.cells()));
        f.add(Numbers.ratio(p.narrower()));
        for (Warning w : table.warnings()) {
            f.add(Integer.toString(w.count()));
            w.figures().values().forEach(v -> f.add(Long.toString(v)));
        }
        f.addAll(trials);
        f.addAll(cells);
        f.remove(Numbers.UNDEFINED);
        return new Run(f, trials, cells);
    }
}
