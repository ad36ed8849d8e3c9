package org.perfab.ab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.exec.Processes;
import org.perfab.model.CellId;
import org.perfab.model.ResultsJson;
import org.perfab.model.RunResults;
import org.perfab.model.Side;
import org.perfab.report.Format;
import org.perfab.report.Products;
import org.perfab.report.Report;
import org.perfab.stats.Verdict;
import org.perfab.testing.FakeEngine;
import org.perfab.testing.GitFixture;
import org.perfab.testing.Subjects;

/**
 * What a run says of its own length, against what it takes, on the fake engine's clock: the
 * estimate said before the first counted trial is within 30% of the time from that trial to the
 * run's end, for a run decided at its first look, a counted run, and a run that takes every look;
 * a look that leaves cells open writes the table so far, marked partial, and says what it decided.
 * Every time here is simulated: each fake command takes the seconds its program says.
 */
class EstimateTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    /** What a run told its caller, in order. */
    private static final class Heard implements Events {
        final List<String> said = new ArrayList<>();
        final List<Estimate> estimated = new ArrayList<>();
        final List<Estimate> remaining = new ArrayList<>();
        final List<Look> looks = new ArrayList<>();

        @Override
        public void note(String text) {
            said.add("note " + text);
        }

        @Override
        public void planned(int total, int done) {
            said.add("planned " + total);
        }

        @Override
        public void starting(Side side, boolean warmup, int trial, int ofSide) {
            said.add((warmup ? "warm-up " : "trial ") + side.id() + " " + trial);
        }

        @Override
        public void finished(Side side, boolean warmup, int trial, int ofSide, double seconds, String status) {}

        @Override
        public void estimated(Estimate estimate) {
            said.add("estimated");
            estimated.add(estimate);
        }

        @Override
        public void remaining(Estimate estimate) {
            remaining.add(estimate);
        }

        @Override
        public void looked(Look look) {
            said.add("looked " + look.look());
            looks.add(look);
        }
    }

    /** Runs an A/B of feature against main in {@code g}, into {@code out}, adaptive up to 20 trials a side. */
    private RunResults run(Engine engine, GitFixture g, Heard heard) throws IOException, InterruptedException {
        AbRequest request = AbRequest.of(g.dir(), "main", "feature", tmp.resolve("out"))
                .adaptive(Optional.of(20))
                .build();
        AbRun.Context context = new AbRun.Context(
                heard,
                System.getenv(),
                Clock.systemUTC(),
                r -> Products.AB.render(Report.of(r), Format.MARKDOWN),
                r -> Products.AB.render(Report.of(r), Format.HTML),
                engine);
        return AbRun.run(request, context);
    }

    /** Asserts that {@code estimate} is within 30% of {@code actual} seconds. */
    private static void within30Percent(double estimate, double actual, String what) {
        assertTrue(
                actual > 0 && Math.abs(estimate / actual - 1) <= 0.30,
                String.format(Locale.ROOT, "%s: estimated %.1f s, took %.1f s", what, estimate, actual));
    }

    /** Asserts that the run said its estimate once, after the warm-ups and before the first counted trial. */
    private static void saidBeforeTheFirstTrial(Heard heard) {
        assertEquals(1, heard.estimated.size(), heard.said.toString());
        int at = heard.said.indexOf("estimated");
        assertTrue(
                heard.said.get(at - 1).startsWith("warm-up ")
                        && heard.said.get(at + 1).startsWith("trial "),
                heard.said.toString());
    }

    /** The time from the first counted trial's start to the run's end, on {@code fake}'s clock. */
    private static final class Span {
        double first = Double.NaN;

        void starts(FakeEngine fake, Processes.Command c) {
            if (Double.isNaN(first) && "0".equals(c.env().get("PERFAB_WARMUP"))) {
                first = fake.seconds();
            }
        }

        double to(FakeEngine fake) {
            return fake.seconds() - first;
        }
    }

    @Test
    void theEstimateOfARunDecidedAtItsFirstLookIsWithin30PercentOfItsLength() throws Exception {
        // The demo's shape: the head 10% slower, decided at the first look of 5 trials a side.
        // A trial takes 4 s on the base and 4.4 s on the head, give or take 5% by trial, and a
        // warm-up 15% longer (a cold start), as a JIT's does.
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 5, "");
        FakeEngine fake = Subjects.fake();
        FakeEngine.Program bench = fake.named("bench.sh");
        Span span = new Span();
        fake.program("bench.sh", c -> {
            span.starts(fake, c);
            bench.run(c);
            int trial = Integer.parseInt(c.env().get("PERFAB_TRIAL"));
            double seconds = (c.env().get("PERFAB_SIDE").equals("head") ? 4.4 : 4.0)
                    * (1 + 0.05 * (trial * 7 % 3 - 1))
                    * (c.env().get("PERFAB_WARMUP").equals("1") ? 1.15 : 1);
            return FakeEngine.ok(seconds);
        });
        Heard heard = new Heard();
        RunResults results = run(fake.engine(), g, heard);
        double took = span.to(fake);

        assertEquals(5, results.settings().trials(), "decided at the first look");
        saidBeforeTheFirstTrial(heard);
        Events.Estimate e = heard.estimated.get(0);
        assertEquals(List.of(1, 4, 5, 20), List.of(e.look(), e.looks(), e.trials(), e.most()));
        within30Percent(e.lookSeconds(), took, "look 1");
        assertEquals(e.lookSeconds() + 15 * e.pairSeconds(), e.mostSeconds(), 1e-9, "every later look, all open");
        // After each trial, what is left of the look shrinks, to nothing at its end.
        Events.Estimate last = heard.remaining.get(heard.remaining.size() - 1);
        assertEquals(0, last.lookSeconds(), 1e-9);
        assertTrue(heard.looks.isEmpty(), "no look left cells open");
    }

    /**
     * A go module of six benchmarks, counted under (fake) Valgrind: each side's {@code ops.txt} says
     * how many instructions an operation of each executes, and counting benchmark {@code i} takes
     * {@code 1 + 0.1 i} s a run (two runs a count).
     */
    private static final List<String> BENCHMARKS =
            List.of("BenchmarkA", "BenchmarkB", "BenchmarkC", "BenchmarkD", "BenchmarkE", "BenchmarkF");

    private static Processes.Outcome go(Processes.Command c) throws IOException {
        List<String> argv = c.argv();
        if (argv.get(1).equals("list")) {
            Files.writeString(c.stdout(), "example.com/bits\t" + c.dir() + "\t1\t0\n");
            return FakeEngine.ok(0.3);
        }
        Files.writeString(Path.of(argv.get(argv.indexOf("-o") + 1)), "a test binary\n");
        return FakeEngine.ok(2.0);
    }

    /** The test binary run natively, to find the benchmarks. */
    private static Processes.Outcome binary(Processes.Command c) throws IOException {
        StringBuilder out = new StringBuilder();
        for (int run = 0; run < 3; run++) {
            BENCHMARKS.forEach(b -> out.append(b).append(" \t 4000 \t 1250 ns/op\n"));
        }
        Files.writeString(c.stdout(), out + "PASS\n");
        return FakeEngine.ok(0.5);
    }

    /** The test binary under Cachegrind: one benchmark, n iterations, its counts from the side's ops.txt. */
    private static Processes.Outcome valgrind(Processes.Command c) throws IOException {
        List<String> argv = c.argv();
        Path into = null;
        for (String a : argv) {
            if (a.startsWith("--cachegrind-out-file=")) {
                into = Path.of(a.substring("--cachegrind-out-file=".length())).getParent();
            }
        }
        String name = argv.get(argv.indexOf("-test.bench") + 1).replaceAll("[$^\\\\]", "");
        long n = Long.parseLong(argv.get(argv.indexOf("-test.benchtime") + 1).replace("x", ""));
        Map<String, Long> ops = new HashMap<>();
        for (String line : Files.readAllLines(c.dir().resolve("ops.txt"))) {
            ops.put(line.split(" ")[0], Long.parseLong(line.split(" ")[1]));
        }
        long ir = 90_000 + n * ops.get(name);
        String zeros = " 0 0 0 0 0 0 0 0";
        Files.writeString(
                into.resolve("cachegrind.1"),
                "events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw\n"
                        + "fl=" + c.dir().resolve("bits.go") + "\nfn=" + name + "\n1 " + ir + zeros + "\nsummary: " + ir
                        + zeros
                        + "\n");
        Files.writeString(c.stdout(), name + " \t " + n + " \t 1250 ns/op\nPASS\n");
        return FakeEngine.ok(1 + 0.1 * BENCHMARKS.indexOf(name));
    }

    @Test
    void theEstimateOfACountedRunComesFromTheBenchmarkEachWarmUpCounted() throws Exception {
        // The head makes BenchmarkC 10% dearer. A warm-up builds the side's test binary and finds
        // the benchmarks, which says nothing of a counted trial; each counts one benchmark too, A
        // and B, the cheapest to count, so the estimate is low, as a real one may be.
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        StringBuilder ops = new StringBuilder();
        BENCHMARKS.forEach(b -> ops.append(b).append(" 1000\n"));
        g.write(
                        "perfab.yaml",
                        "name: bits\ntrials: 3\nwarmup: 1\nharness:\n  run: [go, test, -run, '^$', -bench, .]\n"
                                + "  format: go\n  measure: [instructions]\n")
                .write("ops.txt", ops.toString());
        g.commit("the suite");
        g.git("checkout", "-q", "-b", "feature");
        g.write("ops.txt", ops.toString().replace("BenchmarkC 1000", "BenchmarkC 1100"));
        g.commit("a dearer C");
        g.git("checkout", "-q", "main");
        Span span = new Span();
        FakeEngine fake = new FakeEngine().program("go", EstimateTest::go).program("0.test", EstimateTest::binary);
        fake.program("valgrind", c -> {
            span.starts(fake, c);
            return valgrind(c);
        });
        // A machine of one core counts one benchmark at a time: the order the fake's threads would
        // take them in is not the machine's.
        RunResults.Machine m = FakeEngine.MACHINE;
        Engine oneCore = new Engine(
                fake.engine().commands(),
                fake.engine().signals(),
                env -> new RunResults.Machine(m.cpu(), 1, m.os(), m.kernel(), m.jvm(), m.runner()));
        Heard heard = new Heard();
        RunResults results = run(oneCore, g, heard);
        double took = span.to(fake);

        Map<String, Verdict> verdicts = new HashMap<>();
        results.table()
                .rows()
                .forEach(r -> verdicts.put(
                        r.cell().name() + " " + r.cell().metric(),
                        r.comparison().verdict()));
        assertEquals(Verdict.REGRESSION, verdicts.get("C instructions/op"), verdicts.toString());
        assertEquals(Verdict.UNCHANGED, verdicts.get("A instructions/op"), verdicts.toString());
        assertEquals(3, results.settings().trials(), "counts decide at the first look");
        assertTrue(
                results.table().rows().stream()
                        .allMatch(r -> r.comparison().base().n() == 3),
                "no warm-up's count entered the table");
        saidBeforeTheFirstTrial(heard);
        Events.Estimate e = heard.estimated.get(0);
        // A and B take 2.0 and 2.2 s to count (two runs each): 2.1 s a benchmark, 12.6 s a trial.
        assertEquals(
                Optional.of(new Events.Counting(6, 1, 2.1)),
                e.counting()
                        .map(c -> new Events.Counting(
                                c.benchmarks(), c.workers(), Math.round(c.benchmarkSeconds() * 1000) / 1000.0)));
        assertEquals(25.2, e.pairSeconds(), 1e-9);
        within30Percent(e.lookSeconds(), took, "look 1 of a counted run");
        // Each warm-up's record holds its benchmark's time, and nothing it counted.
        List<RunResults.TrialRecord> warmups =
                results.trials().stream().filter(RunResults.TrialRecord::warmup).toList();
        assertEquals(2, warmups.size());
        for (RunResults.TrialRecord w : warmups) {
            assertEquals(1, w.seconds().size(), w.toString());
            assertTrue(w.measurements().isEmpty(), w.toString());
        }
    }

    /**
     * A subject with a cell too noisy to decide at any look (a 30% spread, no change) beside a steady
     * one: the run takes all its looks. A trial takes 2 s on either side, a warm-up 2.2 s.
     */
    private static GitFixture noisy(Path dir) throws IOException {
        GitFixture g = GitFixture.init(dir);
        g.write("perfab.yaml", "name: noisy\ntrials: 5\nwarmup: 1\nharness:\n  run: [sh, bench.sh]\n")
                .script("bench.sh", "#!/bin/sh\nexit 1\n");
        g.commit("the suite");
        g.git("checkout", "-q", "-b", "feature");
        g.write("CHANGES", "a change the harness cannot see\n");
        g.commit("the change");
        g.git("checkout", "-q", "main");
        return g;
    }

    private static Processes.Outcome noisyBench(Processes.Command c) throws IOException {
        String side = c.env().get("PERFAB_SIDE");
        int trial = Integer.parseInt(c.env().get("PERFAB_TRIAL"));
        double z = new Random((side + "/" + trial).hashCode()).nextGaussian();
        Files.writeString(
                Path.of(c.env().get("PERFAB_RESULT")),
                String.format(
                        Locale.ROOT,
                        "{\"schema\":"
                                + " \"perfab/measurements/v1\", \"measurements\": [{\"cell\": \"noisy/run\", \"metric\": \"time\","
                                + " \"unit\": \"us\", \"value\": %.3f}, {\"cell\": \"steady/run\", \"metric\": \"time\", \"unit\":"
                                + " \"us\", \"value\": %d}]}",
                        1000 * Math.max(0.2, 1 + 0.3 * z),
                        1000 + trial % 3 - 1));
        return FakeEngine.ok(c.env().get("PERFAB_WARMUP").equals("1") ? 2.2 : 2.0);
    }

    @Test
    void theMostOfARunThatTakesEveryLookIsWithin30PercentOfItsLength() throws Exception {
        GitFixture g = noisy(tmp.resolve("repo"));
        FakeEngine fake = new FakeEngine();
        Span span = new Span();
        fake.program("bench.sh", c -> {
            span.starts(fake, c);
            return noisyBench(c);
        });
        Heard heard = new Heard();
        RunResults results = run(fake.engine(), g, heard);
        double took = span.to(fake);

        assertEquals(20, results.settings().trials(), "every look");
        saidBeforeTheFirstTrial(heard);
        Events.Estimate e = heard.estimated.get(0);
        within30Percent(e.mostSeconds(), took, "every look");
        assertEquals(
                List.of(1, 2, 3), heard.looks.stream().map(Events.Look::look).toList());
        // Each later look says where it stands: what is left of it, and at most.
        Events.Estimate third =
                heard.remaining.stream().filter(r -> r.look() == 3).findFirst().orElseThrow();
        assertEquals(List.of(4, 15, 20), List.of(third.looks(), third.trials(), third.most()));
        assertEquals(third.lookSeconds() + 5 * third.pairSeconds(), third.mostSeconds(), 1e-9);
    }

    @Test
    void aLookThatLeavesACellOpenWritesTheTableSoFarAsPartialAndSaysWhatItDecided() throws Exception {
        GitFixture g = noisy(tmp.resolve("repo"));
        FakeEngine fake = new FakeEngine();
        Path out = tmp.resolve("out");
        Map<String, String> seen = new HashMap<>();
        fake.program("bench.sh", c -> {
            // The first trial of the second look: the files as a reader finds them while it runs.
            if (c.env().get("PERFAB_TRIAL").equals("5") && seen.isEmpty()) {
                for (String file : List.of("results.json", "comment.md", "report.html")) {
                    seen.put(file, Files.readString(out.resolve(file), StandardCharsets.UTF_8));
                }
            }
            return noisyBench(c);
        });
        Heard heard = new Heard();
        RunResults done = run(fake.engine(), g, heard);

        JsonNode partial = JSON.readTree(seen.get("results.json"));
        assertEquals("{\"look\":1,\"looks\":4}", partial.get("partial").toString());
        assertTrue(partial.get("finishedAt").isNull(), partial.toString());
        assertEquals(5, partial.at("/settings/trials").asInt());
        RunResults read = ResultsJson.read(seen.get("results.json"), "results.json");
        assertEquals(Optional.of(new RunResults.Partial(1, 4)), read.partial());
        assertTrue(
                read.table().rows().stream()
                        .anyMatch(r -> r.cell().name().equals("steady/run")
                                && r.comparison().verdict() == Verdict.UNCHANGED),
                "the decided row is there");
        assertTrue(
                seen.get("comment.md").contains(": \u23F3 partial: look 1 of at most 4, the run goes on · "),
                seen.get("comment.md"));
        assertTrue(seen.get("report.html").contains("partial: look 1 of at most 4, the run goes on"));

        // The last write replaces them.
        String last = Files.readString(out.resolve("results.json"), StandardCharsets.UTF_8);
        assertFalse(JSON.readTree(last).has("partial"), last);
        assertEquals(Optional.empty(), done.partial());
        assertFalse(Files.readString(out.resolve("comment.md")).contains("partial"));

        // What the first look decided, and what the next costs: five more trials a side of the
        // whole harness (perfab cannot filter it), 2 s each.
        Events.Look first = heard.looks.get(0);
        assertEquals(
                List.of(1, 4, 2, 1, 5),
                List.of(first.look(), first.looks(), first.cells(), first.benchmarks(), first.trials()));
        assertEquals(Map.of(Verdict.UNCHANGED, 1), first.decided());
        assertEquals(List.of(new CellId("noisy/run", "time")), first.open());
        assertEquals(20.0, first.nextSeconds(), 1e-9);
    }
}
