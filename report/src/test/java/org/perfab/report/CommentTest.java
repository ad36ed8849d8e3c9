package org.perfab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.perfab.model.Cell;
import org.perfab.model.ComparisonTable;
import org.perfab.model.Measurement;
import org.perfab.model.ResultsJson;
import org.perfab.model.RunResults;
import org.perfab.model.Side;
import org.perfab.model.Warning;
import org.perfab.stats.Direction;
import org.perfab.stats.Sequential;
import org.perfab.stats.Thresholds;
import org.perfab.stats.Verdict;

/** The pull-request comment, the GitHub annotations and every run rendering, sealed by golden files. */
class CommentTest {
    private static String render(Format format, RunResults run) {
        return Products.AB.render(Report.of(run), format);
    }

    @Test
    void startsWithAMarkerAndTheLineAReviewerReadsFirst() {
        String md = render(Format.MARKDOWN, RunFixture.broker());
        String[] lines = md.split("\n");
        assertEquals("<!-- perfab:broker-pr -->", lines[0]);
        assertTrue(
                lines[1].startsWith(
                        "### perfab · broker-pr: 🔴 1 regression · ❔ 1 inconclusive · 🟢 1 improvement · 🌫️ 2 too noisy · ✅ 3 unchanged"),
                lines[1]);
        assertTrue(
                lines[3].contains("`1111111111aa`")
                        && lines[3].contains("`2222222222bb`")
                        && lines[3].contains("5 trials per side")
                        && lines[3].contains("AMD EPYC 7763"),
                lines[3]);
        assertTrue(md.contains("Advisory: this check never fails the job."));
    }

    @Test
    void listsRegressionsFirstThenInconclusiveImprovementsUnchanged() {
        String md = render(Format.MARKDOWN, RunFixture.broker());
        int regression = md.indexOf("| publish/256B/1sub | throughput |");
        int inconclusive = md.indexOf("| fanout/10sub | p999 |");
        int improvement = md.indexOf("| publish/64KiB/1sub | throughput |");
        int unchanged = md.indexOf("| fanout/1sub | p50 |");
        assertTrue(
                0 < regression && regression < inconclusive && inconclusive < improvement && improvement < unchanged,
                md);
        assertTrue(md.contains("❔ inconclusive"));
        assertFalse(md.contains("✅ inconclusive"));
    }

    @Test
    void warnsOfFailedTrialsNoisyCellsAndTailsOverFewTrials() {
        String md = render(Format.MARKDOWN, RunFixture.broker());
        assertTrue(md.contains("1 trial failed (head trial 3"), md);
        assertTrue(md.contains("Too noisy to tell for"), md);
        assertTrue(md.contains("Tail percentiles over few trials (5 per side): fanout/10sub p999."), md);
    }

    /** {@code run} as though its harness were of {@code format}. */
    private static RunResults as(RunResults run, String format) {
        RunResults.Settings s = run.settings();
        return new RunResults(
                run.name(),
                run.provenance(),
                run.machine(),
                new RunResults.Settings(
                        s.workload(),
                        s.trials(),
                        s.warmup(),
                        s.builds(),
                        s.harnessFrom(),
                        format,
                        s.seed(),
                        s.profiles(),
                        s.harnessFiles(),
                        s.failOn(),
                        s.padding()),
                run.startedAt(),
                run.finishedAt(),
                run.interrupted(),
                run.timing(),
                run.trials(),
                run.table());
    }

    @Test
    void aTimedRunMostlyTooNoisyToTellPointsAtCountingWhereItsHarnessCanBeCounted() {
        // Three benchmarks whose trials swing by a third, one steady: 3 of 4 rows too noisy.
        List<Cell> cells = List.of(
                new Cell("Sum/4B", "time", "ns/op", Direction.LOWER_IS_BETTER),
                new Cell("Sum/16B", "time", "ns/op", Direction.LOWER_IS_BETTER),
                new Cell("Sum/4KB", "time", "ns/op", Direction.LOWER_IS_BETTER),
                new Cell("Steady", "time", "ns/op", Direction.LOWER_IS_BETTER));
        RunResults run = RunFixture.run(
                "busy",
                5,
                cells,
                c -> c.name().equals("Steady")
                        ? new double[][] {{100, 100.1, 99.9, 100, 100.2}, {100, 100.1, 100, 99.9, 100.1}}
                        : new double[][] {{100, 140, 95, 130, 100}, {135, 100, 98, 142, 101}},
                List.of());
        String hint = "add measure: [instructions] to the workload's harness to count each benchmark per operation";
        String text = render(Format.TEXT, as(run, "go"));
        assertTrue(
                text.contains("Most rows (3 of 4) are too noisy to tell on this machine; a count does not move with"
                        + " its load: " + hint),
                text);
        assertTrue(render(Format.MARKDOWN, as(run, "go")).contains("Most rows (3 of 4) are too noisy to tell"));
        assertTrue(render(Format.TEXT, as(run, "time")).contains("to count each command under Valgrind"));
        // A harness perfab cannot count a benchmark at a time is not sent there; nor a run mostly decided.
        assertFalse(render(Format.TEXT, as(run, "perfab-json")).contains("Most rows"));
        assertFalse(render(Format.TEXT, as(RunFixture.broker(), "go")).contains("Most rows"));
    }

    @Test
    void neverLetsAHostileNameOutOfItsCell() {
        String md = render(Format.MARKDOWN, RunFixture.broker());
        assertFalse(md.contains("<script>"));
        assertFalse(md.contains("@everyone"));
        assertFalse(md.contains("#123"));
        assertFalse(md.contains("\u001b"));
        assertFalse(md.contains("x".repeat(Untrusted.MAX_LENGTH + 1)), "a 10,000-character name is bounded");
        for (String line : md.split("\n")) {
            if (line.startsWith("| evil") || line.startsWith("| xxx")) {
                assertEquals(
                        8, line.replace("\\|", "").chars().filter(c -> c == '|').count(), line);
            }
        }
        String html = render(Format.HTML, RunFixture.broker());
        assertFalse(html.contains("<script>alert"));
        assertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        String annotations = render(Format.GITHUB, RunFixture.broker());
        assertEquals(2, annotations.split("\n").length, "one line each: a newline in a name cannot start a command");
    }

    @Test
    void foldsManyUnchangedRowsIntoDetails() {
        List<Cell> cells = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            cells.add(new Cell("steady/" + i, "time", "ns", Direction.LOWER_IS_BETTER));
        }
        cells.add(new Cell("slower", "time", "ns", Direction.LOWER_IS_BETTER));
        RunResults run = RunFixture.run(
                "fold",
                4,
                cells,
                c -> c.name().equals("slower")
                        ? new double[][] {{100, 101, 99, 100}, {120, 121, 119, 120}}
                        : new double[][] {{100, 101, 99, 100}, {100, 99, 101, 100}},
                List.of());
        String md = render(Format.MARKDOWN, run);
        assertTrue(md.contains("<details><summary>12 unchanged</summary>"), md);
        assertTrue(md.indexOf("| slower |") < md.indexOf("<details>"), md);
        // Two rows a benchmark (its time and its allocations): the headline counts benchmarks, and
        // the fold says both.
        List<Cell> twice = new ArrayList<>(cells);
        for (int i = 0; i < 12; i++) {
            twice.add(new Cell("steady/" + i, "allocs", "allocs/op", Direction.LOWER_IS_BETTER));
        }
        String both = render(
                Format.MARKDOWN,
                RunFixture.run(
                        "fold",
                        4,
                        twice,
                        c -> c.name().equals("slower")
                                ? new double[][] {{100, 101, 99, 100}, {120, 121, 119, 120}}
                                : new double[][] {{100, 101, 99, 100}, {100, 99, 101, 100}},
                        List.of()));
        assertTrue(both.contains("✅ 12 unchanged"), both);
        assertTrue(both.contains("<details><summary>24 unchanged rows, of 12 benchmarks</summary>"), both);
    }

    /**
     * A benchmark timed too noisily and counted instead: its time row claims nothing, and folds below
     * the table, which shows the count's row, its verdict.
     */
    @Test
    void foldsTheTimeRowsOfBenchmarksCountedInstead() {
        List<Cell> cells = List.of(
                new Cell("noisy", "time", "ns", Direction.LOWER_IS_BETTER),
                new Cell("noisy", "instructions/op", "instructions", Direction.LOWER_IS_BETTER),
                new Cell("steady", "time", "ns", Direction.LOWER_IS_BETTER));
        RunResults run = RunFixture.run(
                "counted",
                4,
                cells,
                c -> c.name().equals("noisy") && c.metric().equals("time")
                        ? new double[][] {{100, 160, 70, 130}, {150, 80, 140, 90}}
                        : c.name().equals("noisy")
                                ? new double[][] {{1000, 1000, 1000, 1000}, {1200, 1200, 1200, 1200}}
                                : new double[][] {{100, 101, 99, 100}, {100, 99, 101, 100}},
                List.of());
        ComparisonTable table = run.table()
                .countedInstead(r ->
                        r.cell().name().equals("noisy") && r.cell().metric().equals("time"));
        String md = Products.AB.render(new Report(table, Optional.of(run), List.of()), Format.MARKDOWN);
        int fold = md.indexOf("<details><summary>1 timed too noisily to tell, counted instead: each benchmark's count"
                + " is its verdict</summary>");
        assertTrue(fold > 0, md);
        assertTrue(md.indexOf("| noisy | instructions/op |") < fold, md);
        assertTrue(md.indexOf("| noisy | time |") > fold, md);
    }

    @Test
    void staysWithinGithubsLimitDroppingUnchangedRowsFirst() {
        List<Cell> cells = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            cells.add(new Cell("steady/cell/with/a/longish/name/" + i, "time", "ns/op", Direction.LOWER_IS_BETTER));
        }
        cells.add(new Cell("slower", "time", "ns/op", Direction.LOWER_IS_BETTER));
        RunResults run = RunFixture.run(
                "big",
                3,
                cells,
                c -> c.name().equals("slower")
                        ? new double[][] {{100, 101, 99}, {120, 121, 119}}
                        : new double[][] {{100, 101, 99}, {100, 99, 101}},
                List.of());
        String md = render(Format.MARKDOWN, run);
        assertTrue(md.length() <= MarkdownRenderer.MAX_LENGTH, "length " + md.length());
        assertTrue(md.contains("| slower | time |"), "the regression is kept");
        assertTrue(md.contains("3000 rows are left out to stay within GitHub's comment limit"), md);
        assertTrue(
                md.contains("🔴 1 regression") && md.contains("✅ 3000 unchanged"), "the counts still count everything");
    }

    @Test
    void boundsTheWarningsToo() {
        // 3,000 cells whose unit changed, each a warning: once a 621,752-character comment.
        List<Cell> cells = List.of(new Cell("slower", "time", "ns/op", Direction.LOWER_IS_BETTER));
        List<Warning> warnings = new ArrayList<>();
        warnings.add(Warning.of(
                Warning.Kind.FAILED_TRIALS, Collections.nCopies(5000, "x".repeat(400)), Map.of("trials", 5000L)));
        for (int i = 0; i < 3000; i++) {
            warnings.add(Warning.of(
                    Warning.Kind.UNCONVERTIBLE_UNITS,
                    List.of("cell/with/a/longish/name/" + i, "time", "KiB", "ns/op"),
                    Map.of("values", 3L)));
        }
        RunResults run =
                RunFixture.run("warned", 3, cells, c -> new double[][] {{100, 101, 99}, {120, 121, 119}}, warnings);
        String md = render(Format.MARKDOWN, run);
        assertTrue(md.length() <= MarkdownRenderer.MAX_LENGTH, "length " + md.length());
        assertTrue(md.contains("| slower | time |"), md);
        assertTrue(md.contains("2986 more warnings are left out; every warning is in the run's results.json."), md);
        assertTrue(md.contains("5000 trials failed ("), "a warning counts what it does not name");
    }

    @Test
    void showsAsManyRegressionsAsFitAndCountsTheRest() {
        List<Cell> cells = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            cells.add(new Cell("regressed/" + "n".repeat(150) + "/" + i, "time", "ns/op", Direction.LOWER_IS_BETTER));
        }
        RunResults run =
                RunFixture.run("slow", 3, cells, c -> new double[][] {{100, 101, 99}, {120, 121, 119}}, List.of());
        String md = render(Format.MARKDOWN, run);
        assertTrue(md.length() <= MarkdownRenderer.MAX_LENGTH, "length " + md.length());
        long shown = md.lines().filter(l -> l.startsWith("| regressed/")).count();
        assertTrue(shown > 100, "a table of regressions, not none: " + shown);
        assertTrue(md.contains((600 - shown) + " rows are left out to stay within GitHub's comment limit"), md);
        assertTrue(md.contains("🔴 600 regressions"), md);
        // And as many as fit: one more would not.
        assertTrue(md.length() > MarkdownRenderer.MAX_LENGTH - 400, "length " + md.length());
    }

    @Test
    void saysWhenTheCheckCanFailTheJob() {
        Report advisory = Report.of(RunFixture.broker());
        assertTrue(Products.AB.render(advisory, Format.MARKDOWN).contains("Advisory: this check never fails the job."));
        Report gate = advisory.failingOn(List.of(Verdict.REGRESSION));
        String md = Products.AB.render(gate, Format.MARKDOWN);
        assertFalse(md.contains("never fails the job"), md);
        assertTrue(md.contains("This check fails the job when a cell is regression (--fail-on)."), md);
        assertTrue(
                Products.AB.render(gate, Format.HTML).contains("This check fails the job when a cell is regression"));
    }

    @Test
    void headlinesARunWhoseTrialsAllFailed() {
        RunResults ok = RunFixture.broker();
        List<RunResults.TrialRecord> failed = new ArrayList<>();
        for (RunResults.TrialRecord t : ok.trials()) {
            failed.add(
                    t.side() == Side.HEAD
                            ? new RunResults.TrialRecord(
                                    t.seq(),
                                    t.side(),
                                    t.build(),
                                    t.trial(),
                                    t.warmup(),
                                    RunResults.Status.FAILED,
                                    "the harness exited with code 1",
                                    1,
                                    "",
                                    List.of())
                            : t);
        }
        List<Measurement> base =
                ok.measurements().stream().filter(m -> m.side() == Side.BASE).toList();
        RunResults run = new RunResults(
                ok.name(),
                ok.provenance(),
                ok.machine(),
                ok.settings(),
                ok.startedAt(),
                ok.finishedAt(),
                false,
                ok.timing(),
                failed,
                ComparisonTable.of("b", "h", base, ok.table().thresholds(), c -> false));
        String md = render(Format.MARKDOWN, run);
        assertTrue(
                md.contains("### perfab · broker-pr: ❌ no comparison: no trial of the candidate succeeded (5 failed)"),
                md);
        assertFalse(md.contains("0 regressions"), md);
        assertTrue(render(Format.TEXT, run).startsWith("FAILED: no comparison: no trial of the candidate succeeded"));
    }

    @Test
    void annotatesAtMostTenOfATypeAndCountsTheRest() {
        List<Cell> cells = new ArrayList<>();
        for (int i = 0; i < 14; i++) {
            cells.add(new Cell("slow/" + i + "%,:", "time", "ns", Direction.LOWER_IS_BETTER));
        }
        RunResults run =
                RunFixture.run("many", 3, cells, c -> new double[][] {{100, 101, 99}, {120, 121, 119}}, List.of());
        String[] lines = render(Format.GITHUB, run).split("\n");
        assertEquals(Workflow.PER_TYPE, lines.length);
        assertTrue(lines[0].startsWith("::warning title=perfab regression::slow/"), lines[0]);
        assertTrue(lines[0].contains("%25,:"), "a % in the message is escaped: " + lines[0]);
        assertEquals(
                "::warning title=perfab regression::and 5 more regression cells; see the comment or the job summary",
                lines[9]);
    }

    @Test
    void readsBackWhatItWrote() {
        RunResults run = RunFixture.broker();
        RunResults back = ResultsJson.read(ResultsJson.write(run), "results.json");
        assertEquals(ResultsJson.write(run), ResultsJson.write(back));
        assertEquals(render(Format.MARKDOWN, run), render(Format.MARKDOWN, back));
    }

    @Test
    void makesNoLinkOrMathOfAName() {
        String md = Untrusted.markdown("see https://evil.example/fix or www.evil.example for $x^2$");
        assertFalse(md.contains("://"), md);
        assertFalse(md.toLowerCase(Locale.ROOT).contains("www."), md);
        assertFalse(md.matches(".*(?<!\\\\)\\$.*"), md);
    }

    @Test
    void aRunThatGoesOnSaysSoBeforeItsCountsInEveryRendering() {
        List<Cell> cells = List.of(
                new Cell("Sum", "time", "ns/op", Direction.LOWER_IS_BETTER),
                new Cell("Rank", "time", "ns/op", Direction.LOWER_IS_BETTER));
        RunResults ended = RunFixture.run(
                "looks",
                5,
                1,
                Thresholds.DEFAULT.withAdaptive(new Sequential(5, 20)),
                cells,
                (c, side, build, trial) -> 100.0 + trial % 3 + (c.name().equals("Sum") && side == Side.HEAD ? 20 : 0),
                List.of());
        RunResults run = ended.goingOn();
        assertEquals(Optional.of(new RunResults.Partial(1, 4)), run.partial());
        String said = "partial: look 1 of at most 4, the run goes on";
        assertTrue(
                render(Format.MARKDOWN, run)
                        .split("\n")[1]
                        .startsWith("### perfab · looks: \u23F3 " + said + " · \uD83D\uDD34 1 regression · "),
                render(Format.MARKDOWN, run));
        assertTrue(render(Format.HTML, run).contains(said + " · 1 regression, "), render(Format.HTML, run));
        assertTrue(render(Format.TEXT, run).startsWith(said + "\nbase: "), render(Format.TEXT, run));
        String json = render(Format.JSON, run);
        assertTrue(json.contains("\"partial\" : {\n    \"look\" : 1,\n    \"looks\" : 4\n  }"), json);
        assertEquals(run.partial(), ResultsJson.read(json, "results.json").partial());
        for (Format f : List.of(Format.MARKDOWN, Format.HTML, Format.TEXT, Format.JSON)) {
            assertFalse(render(f, ended).contains("partial"), f + " of a run that ended");
        }
    }
}
