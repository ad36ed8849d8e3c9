package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.ab.Engine;
import org.perfab.exec.Processes;
import org.perfab.model.RunResults;
import org.perfab.model.Sharding;
import org.perfab.testing.Comparisons;
import org.perfab.testing.FakeEngine;
import org.perfab.testing.GitFixture;
import org.perfab.testing.StartsProcesses;

/**
 * A suite split into shards gives the verdicts one run of the whole suite gives on the same
 * values: a synthetic Go suite of 1,000 benchmark functions of two sub-benchmarks each (2,000
 * benchmarks), run by {@code go test} in process. The values are a function of the side's own code
 * (its {@code slow.txt}: how much slower each function is), the benchmark and the trial, never of
 * the shard that ran them; so a run in which a shard ran the wrong slice, or the merge judged a
 * cell apart from the others, would read otherwise.
 */
class ShardsTest {
    private static final int FUNCTIONS = 1000;
    private static final int SHARDS = 4;
    private static final Pattern BENCH = Pattern.compile("^-(?:test\\.)?bench(?:=(.*))?$");

    @TempDir
    static Path tmp;

    private static final FakeEngine fake = new FakeEngine().program("go", ShardsTest::go);
    private static final FakeEngine failing = new FakeEngine().program("go", c -> {
        // The base's benchmarks crash; listing works.
        if (!c.argv().contains("-list") && c.env().get("PERFAB_SIDE").equals("base")) {
            Files.writeString(c.stdout(), "panic: the base does not run\n");
            return FakeEngine.exited(2, 0.01);
        }
        return go(c);
    });
    private static Path repo;

    /**
     * go test: {@code -list REGEX}, or the benchmarks {@code -bench REGEX} selects (each level of a name
     * by its own part, as go matches them), one trial's values.
     */
    private static Processes.Outcome go(Processes.Command c) throws IOException {
        Path tree = Path.of(c.env().get("PERFAB_SIDE_DIR"));
        List<String> argv = c.argv();
        StringBuilder out = new StringBuilder();
        int list = argv.indexOf("-list");
        if (list >= 0) {
            Pattern p = Pattern.compile(argv.get(list + 1));
            int functions = functions(tree);
            for (int f = 0; f < functions; f++) {
                if (p.matcher(function(f)).find()) {
                    out.append(function(f)).append('\n');
                }
            }
            out.append("ok  \texample.com/suite\t0.004s\n");
        } else {
            String bench = null;
            for (int i = 0; i < argv.size(); i++) {
                Matcher m = BENCH.matcher(argv.get(i));
                if (m.matches()) {
                    bench = m.group(1) != null ? m.group(1) : argv.get(i + 1);
                }
            }
            // go matches each level of a name by its own part of the pattern.
            String[] levels = bench.split("/");
            Pattern p = Pattern.compile(levels[0]);
            Pattern below = levels.length > 1 ? Pattern.compile(levels[1]) : null;
            Map<String, Double> slow = new HashMap<>();
            Map<String, Double> spread = new HashMap<>();
            for (String line : Files.readAllLines(tree.resolve("slow.txt"))) {
                String[] f = line.split(" ");
                slow.put(f[0], Double.parseDouble(f[1]));
                spread.put(f[0], f.length > 2 ? Double.parseDouble(f[2]) : 0.015);
            }
            int functions = functions(tree);
            int trial = Integer.parseInt(c.env().get("PERFAB_TRIAL"));
            // How many times more iterations a function runs (its heavy.txt): a longer benchmark, of
            // the same values.
            Map<String, Long> heavy = new HashMap<>();
            if (Files.exists(tree.resolve("heavy.txt"))) {
                for (String line : Files.readAllLines(tree.resolve("heavy.txt"))) {
                    heavy.put(line.split(" ")[0], Long.parseLong(line.split(" ")[1]));
                }
            }
            // Each function's sub-benchmarks (its subs.txt: a line FUNCTION SUB...), else size=8 and size=64.
            Map<String, List<String>> subs = new HashMap<>();
            if (Files.exists(tree.resolve("subs.txt"))) {
                for (String line : Files.readAllLines(tree.resolve("subs.txt"))) {
                    List<String> f = List.of(line.split(" "));
                    subs.put(f.get(0), f.subList(1, f.size()));
                }
            }
            out.append("goos: linux\ngoarch: amd64\npkg: example.com/suite\n");
            for (int f = 0; f < functions; f++) {
                if (!p.matcher(function(f)).find()) {
                    continue;
                }
                for (String sub : subs.getOrDefault(function(f), List.of("size=8", "size=64"))) {
                    if (below != null && !below.matcher(sub).find()) {
                        continue;
                    }
                    int size = sub.startsWith("size=") ? Integer.parseInt(sub.substring(5)) : 8 * sub.length();
                    String name = function(f) + "/" + sub;
                    double level = 100 + (f % 37) * 10 + size;
                    // A spread of about 1.5%, drawn from the benchmark, the side's code and the trial.
                    double z = new java.util.Random(
                                    (name + "|" + slow.containsKey(function(f)) + "|" + trial).hashCode())
                            .nextGaussian();
                    double ns = level
                            * slow.getOrDefault(function(f), 1.0)
                            * (1 + spread.getOrDefault(function(f), 0.015) * z);
                    out.append(String.format(
                            Locale.ROOT,
                            "%s-8   \t %d\t%10.2f ns/op\n",
                            name,
                            1000000 * heavy.getOrDefault(function(f), 1L),
                            ns));
                }
            }
            out.append("PASS\nok  \texample.com/suite\t1.234s\n");
        }
        Files.writeString(c.stdout(), out.toString(), StandardCharsets.UTF_8);
        return FakeEngine.ok(0.01);
    }

    /**
     * Returns a repository of a suite of {@code functions} functions: main runs {@code workload}
     * with every function as fast as any, feature makes each as {@code slow} says (a line
     * {@code FUNCTION FACTOR [SPREAD]} each).
     */
    static Path suite(Path dir, String workload, int functions, String slow) throws IOException {
        GitFixture g = GitFixture.init(dir);
        g.write("perfab.yaml", workload)
                .write("slow.txt", "BenchmarkF0000 1.0\n")
                .write("functions.txt", functions + "\n");
        g.commit("the suite");
        g.git("checkout", "-q", "-b", "feature");
        g.write("slow.txt", slow);
        g.commit("the change");
        return g.dir();
    }

    /**
     * Measures a suite of {@code functions} functions (one in ten 10% slower on the head) in
     * {@code count} shards, each into {@code out/ARTIFACT-shard-K}, as a matrix's jobs leave their
     * artifacts; in process, for the tests of the scripts that merge them.
     */
    static void shards(Path dir, Path out, String artifact, int count, int functions) throws IOException {
        StringBuilder slow = new StringBuilder();
        for (int f = 0; f < functions; f++) {
            slow.append(function(f)).append(f % 10 == 3 ? " 1.10" : " 1.0").append('\n');
        }
        Path repo = suite(
                dir,
                "name: suite\ntrials: 3\nwarmup: 0\nadaptive: off\nharness:\n"
                        + "  run: [go, test, -bench, .]\n  format: go\n",
                functions,
                slow.toString());
        for (int k = 1; k <= count; k++) {
            Cli run = Cli.ab(fake.engine(), repo, out.resolve(artifact + "-shard-" + k), "--shard", k + "/" + count);
            assertEquals(0, run.exitCode(), run.err());
        }
    }

    /** Returns how many functions the suite in {@code tree} has: its functions.txt, else {@link #FUNCTIONS}. */
    private static int functions(Path tree) throws IOException {
        Path file = tree.resolve("functions.txt");
        return Files.exists(file) ? Integer.parseInt(Files.readString(file).strip()) : FUNCTIONS;
    }

    private static String function(int f) {
        return String.format(Locale.ROOT, "BenchmarkF%04d", f);
    }

    @BeforeAll
    static void measureTheSuite() throws IOException {
        // A tenth of the functions 10% slower, a tenth 2% slower, a twentieth 8% faster.
        StringBuilder slow = new StringBuilder();
        for (int f = 0; f < FUNCTIONS; f++) {
            double by = f % 10 == 3 ? 1.10 : f % 10 == 7 ? 1.02 : f % 20 == 5 ? 0.92 : 1.0;
            slow.append(function(f)).append(' ').append(by).append('\n');
        }
        repo = suite(
                tmp.resolve("repo"),
                "name: suite\ntrials: 5\nwarmup: 0\nadaptive: off\nharness:\n"
                        + "  run: [go, test, -run, '^$', -bench, ., -benchtime, 1000000x]\n  format: go\n",
                FUNCTIONS,
                slow.toString());
        assertEquals(0, ab(fake, "single", "local").exitCode());
        for (int k = 1; k <= SHARDS; k++) {
            Cli run = ab(k == 3 ? failing : fake, "shard-" + k, "runner-" + k, "--shard", k + "/" + SHARDS);
            // Shard 3's base fails: the run says so, and still writes what it has.
            assertEquals(k == 3 ? ExitCode.RUN_FAILED : ExitCode.OK, run.exitCode(), run.err());
            assertTrue(Files.exists(results("shard-" + k)), run.err());
        }
    }

    /** Runs {@code perfab ab} into {@code out} on {@code engine}, its machine named {@code runner}. */
    private static Cli ab(FakeEngine engine, String out, String runner, String... more) {
        Engine e = engine.engine();
        RunResults.Machine m = FakeEngine.MACHINE;
        Engine named = new Engine(
                e.commands(),
                e.signals(),
                env -> new RunResults.Machine(m.cpu(), m.cores(), m.os(), m.kernel(), m.jvm(), runner));
        return Cli.ab(named, repo, tmp.resolve(out), more);
    }

    private static Path results(String run) {
        return tmp.resolve(run).resolve("results.json");
    }

    @Test
    void mergedShardsJudgeEveryCellAsOneRunDoes() throws IOException {
        // Shard 3 failed on the A/B above; an A/B of the same commits measured it again.
        Path again = tmp.resolve("shard-3-again");
        Cli rerun = ab(fake, "shard-3-again", "runner-3", "--shard", "3/" + SHARDS);
        assertEquals(0, rerun.exitCode(), rerun.err());
        Cli merged = Cli.run(
                fake.engine(),
                "report",
                results("shard-1").toString(),
                results("shard-2").toString(),
                again.resolve("results.json").toString(),
                results("shard-4").toString(),
                "--format",
                "json",
                "-o",
                tmp.resolve("merged.json").toString());
        assertEquals(0, merged.exitCode(), merged.err());

        Map<String, JsonNode> one = Comparisons.of(results("single"));
        Map<String, JsonNode> all = Comparisons.of(tmp.resolve("merged.json"));
        assertEquals(2 * FUNCTIONS, one.size());
        assertEquals(one.keySet(), all.keySet());
        int regressions = 0;
        for (Map.Entry<String, JsonNode> e : one.entrySet()) {
            JsonNode a = e.getValue();
            JsonNode b = all.get(e.getKey());
            assertEquals(a.get("verdict").asText(), b.get("verdict").asText(), e.getKey());
            assertEquals(a.get("pValue").asDouble(), b.get("pValue").asDouble(), 1e-12, e.getKey());
            assertEquals(a.path("qValue").asDouble(), b.path("qValue").asDouble(), 1e-12, e.getKey());
            regressions += a.get("verdict").asText().equals("regression") ? 1 : 0;
        }
        // The 10% slower functions are found; the false-discovery control is the whole suite's.
        assertTrue(regressions >= 190, "regressions: " + regressions);
        boolean ownShardDiffers = false;
        for (int k : new int[] {1, 2, 4}) {
            for (Map.Entry<String, JsonNode> e :
                    Comparisons.of(results("shard-" + k)).entrySet()) {
                ownShardDiffers |= Math.abs(e.getValue().path("qValue").asDouble()
                                - one.get(e.getKey()).path("qValue").asDouble())
                        > 1e-9;
            }
        }
        assertTrue(ownShardDiffers, "a shard alone adjusts its p values over fewer cells than the suite");

        // fail-on reads the merged table.
        Cli failing = Cli.run(
                fake.engine(),
                "report",
                results("shard-1").toString(),
                results("shard-2").toString(),
                again.resolve("results.json").toString(),
                results("shard-4").toString(),
                "--format",
                "text",
                "--fail-on",
                "regression");
        assertEquals(ExitCode.VERDICT, failing.exitCode(), failing.err());

        // A runner's shards merged are one runner of a release check's merge.
        Cli runners = Cli.run(
                fake.engine(),
                "runners",
                tmp.resolve("merged.json").toString(),
                results("single").toString(),
                "--format",
                "json");
        assertEquals(0, runners.exitCode(), runners.err());

        // The merged file reads back as the same run.
        Cli reread = Cli.run(fake.engine(), "report", tmp.resolve("merged.json").toString(), "--format", "json");
        assertEquals(0, reread.exitCode(), reread.err());
        Map<String, JsonNode> back = Comparisons.of(reread.out());
        one.forEach((cell, row) -> assertEquals(
                row.get("verdict").asText(), back.get(cell).get("verdict").asText()));

        // What a shard's run knew beside its measurements (a row's noise floor from --noise) stays with
        // the row through the merge.
        ObjectNode first =
                (ObjectNode) new ObjectMapper().readTree(results("shard-1").toFile());
        ObjectNode row = (ObjectNode) first.get("comparisons").get(0);
        row.put("noiseFloor", 2.5);
        Path marked = tmp.resolve("marked-1.json");
        Files.writeString(marked, first.toString());
        Cli withFloor = Cli.run(
                fake.engine(),
                "report",
                marked.toString(),
                results("shard-2").toString(),
                again.resolve("results.json").toString(),
                results("shard-4").toString(),
                "--format",
                "json");
        assertEquals(0, withFloor.exitCode(), withFloor.err());
        JsonNode mergedRow = Comparisons.of(withFloor.out())
                .get(row.get("cell").asText() + ":" + row.get("metric").asText());
        assertEquals(2.5, mergedRow.get("noiseFloor").asDouble(), mergedRow.toString());
    }

    /**
     * With adaptive trials each shard stops at its own look: a shard of plain answers after its
     * first round, a shard with a small change in wide noise after more. Merged, each cell is
     * judged at the looks its own shard took (alone, with no false-discovery control across cells,
     * exactly as its shard judged it), never at the looks of the shard that went furthest.
     */
    @Test
    void mergedAdaptiveShardsJudgeEachCellAtItsOwnShardsLooks() throws IOException {
        int functions = 12;
        List<String> names = new ArrayList<>();
        for (int f = 0; f < functions; f++) {
            names.add(function(f));
        }
        Map<String, Integer> shard = Sharding.assign(names, 2);
        // Shard 1: unchanged in a narrow spread, or 30% slower. Shard 2: one function 4% slower in
        // a spread of 4%, which five trials a side cannot settle.
        StringBuilder slow = new StringBuilder();
        boolean wide = false;
        for (String name : names) {
            if (shard.get(name) == 1) {
                slow.append(name).append(name.endsWith("3") ? " 1.30" : " 1.0").append(" 0.002\n");
            } else if (!wide) {
                slow.append(name).append(" 1.04 0.04\n");
                wide = true;
            } else {
                slow.append(name).append(" 1.0 0.002\n");
            }
        }
        Path adaptive = suite(
                tmp.resolve("adaptive"),
                "name: adaptive\ntrials: 5\nwarmup: 0\nadaptive: 20\n"
                        + "thresholds: {fdr: 'off'}\nharness:\n  run: [go, test, -bench, .]\n  format: go\n",
                functions,
                slow.toString());
        for (int k = 1; k <= 2; k++) {
            Cli run = Cli.run(
                    fake.engine(),
                    "ab",
                    "--repo=" + adaptive,
                    "--base=main",
                    "--head=feature",
                    "--out",
                    tmp.resolve("adaptive-" + k).toString(),
                    "--shard",
                    k + "/2");
            assertEquals(0, run.exitCode(), run.err());
        }
        Cli merged = Cli.run(
                fake.engine(),
                "report",
                tmp.resolve("adaptive-1/results.json").toString(),
                tmp.resolve("adaptive-2/results.json").toString(),
                "--format",
                "json");
        assertEquals(0, merged.exitCode(), merged.err());
        Map<String, JsonNode> all = Comparisons.of(merged.out());
        Map<String, JsonNode> first = Comparisons.of(tmp.resolve("adaptive-1/results.json"));
        Map<String, JsonNode> second = Comparisons.of(tmp.resolve("adaptive-2/results.json"));
        assertEquals(1, first.values().iterator().next().at("/look/looks").asInt(), "shard 1 stops at its first look");
        assertTrue(second.values().iterator().next().at("/look/looks").asInt() > 1, "shard 2 takes more");
        assertEquals(first.size() + second.size(), all.size());
        for (Map<String, JsonNode> own : List.of(first, second)) {
            own.forEach((cell, row) -> {
                JsonNode m = all.get(cell);
                assertEquals(row.get("look").toString(), m.get("look").toString(), cell);
                assertEquals(row.get("verdict").asText(), m.get("verdict").asText(), cell);
                assertEquals(row.get("pValue").asDouble(), m.get("pValue").asDouble(), 1e-12, cell);
            });
        }
    }

    /** Each shard's time: what its harness says its benchmarks took, in its counted trials. */
    private static double harnessSeconds(Path results) throws IOException {
        double sum = 0;
        for (JsonNode t : new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(results.toFile())
                .get("trials")) {
            if (!t.get("warmup").asBoolean()) {
                for (JsonNode s : t.path("seconds")) {
                    sum += s.asDouble();
                }
            }
        }
        return sum;
    }

    /**
     * With an earlier run's times, the shards take equal time, where by count the heavy functions
     * fall where their hashes put them; the verdicts are the same either way (the values do not
     * depend on the shard), shards of the two cuts are refused together, and a shard stopped and
     * resumed keeps its cut.
     */
    @Test
    void shardsCutByAnEarlierRunsTimesTakeEqualTimeAndJudgeAsByCount() throws IOException {
        int functions = 60;
        int count = 3;
        StringBuilder slow = new StringBuilder();
        StringBuilder heavy = new StringBuilder();
        for (int f = 0; f < functions; f++) {
            slow.append(function(f)).append(f % 5 == 1 ? " 1.10" : " 1.0").append('\n');
            if (f % 6 == 0) {
                heavy.append(function(f)).append(" 40\n");
            }
        }
        Path dir = tmp.resolve("timed");
        GitFixture g = GitFixture.init(dir);
        g.write(
                        "perfab.yaml",
                        "name: timed\ntrials: 3\nwarmup: 0\nadaptive: off\nharness:\n"
                                + "  run: [go, test, -bench, .]\n  format: go\n")
                .write("slow.txt", "BenchmarkF0000 1.0\n")
                .write("functions.txt", functions + "\n")
                .write("heavy.txt", heavy.toString());
        g.commit("the suite");
        g.git("checkout", "-q", "-b", "feature");
        g.write("slow.txt", slow.toString());
        g.commit("the change");
        List<String> byCount = new ArrayList<>();
        List<String> byTime = new ArrayList<>();
        for (int k = 1; k <= count; k++) {
            Path out = tmp.resolve("count-" + k);
            Cli run = Cli.ab(fake.engine(), g.dir(), out, "--shard", k + "/" + count);
            assertEquals(0, run.exitCode(), run.err());
            byCount.add(out.resolve("results.json").toString());
        }
        Path earlier = tmp.resolve("count-merged.json");
        List<String> report = new ArrayList<>(List.of("report"));
        report.addAll(byCount);
        report.addAll(List.of("--format", "json", "-o", earlier.toString()));
        Cli merged = Cli.run(fake.engine(), report.toArray(String[]::new));
        assertEquals(0, merged.exitCode(), merged.err());
        for (int k = 1; k <= count; k++) {
            Path out = tmp.resolve("time-" + k);
            Cli run = Cli.ab(
                    fake.engine(), g.dir(), out, "--shard", k + "/" + count, "--shard-times", earlier.toString());
            assertEquals(0, run.exitCode(), run.err());
            assertTrue(
                    run.err().contains("cut at equal time by an earlier run's (" + functions + " of them timed"),
                    run.err());
            byTime.add(out.resolve("results.json").toString());
        }
        double[] countLoad = new double[count];
        double[] timeLoad = new double[count];
        for (int k = 0; k < count; k++) {
            countLoad[k] = harnessSeconds(Path.of(byCount.get(k)));
            timeLoad[k] = harnessSeconds(Path.of(byTime.get(k)));
        }
        double total = java.util.Arrays.stream(timeLoad).sum();
        assertEquals(java.util.Arrays.stream(countLoad).sum(), total, total * 1e-9, "the same suite, cut elsewhere");
        // A heavy function takes 40 x 10^6 iterations of 2 sub-benchmarks of at most 524 ns, 10% more
        // on the head, in 6 trials: at most 262 s of the suite's 1,600; each shard is within one of its third.
        double heaviest = 40 * 1e6 * 2 * 524e-9 * 6 * 1.1;
        double countMost = java.util.Arrays.stream(countLoad).max().orElseThrow();
        double timeMost = java.util.Arrays.stream(timeLoad).max().orElseThrow();
        for (double load : timeLoad) {
            assertTrue(
                    Math.abs(load - total / count) <= heaviest, java.util.Arrays.toString(timeLoad) + " of " + total);
        }
        assertTrue(
                timeMost < countMost,
                "by time " + java.util.Arrays.toString(timeLoad) + ", by count "
                        + java.util.Arrays.toString(countLoad));
        // The same verdict for every cell, either cut.
        report = new ArrayList<>(List.of("report"));
        report.addAll(byTime);
        report.addAll(List.of(
                "--format", "json", "-o", tmp.resolve("time-merged.json").toString()));
        merged = Cli.run(fake.engine(), report.toArray(String[]::new));
        assertEquals(0, merged.exitCode(), merged.err());
        Map<String, JsonNode> cells = Comparisons.of(earlier);
        Map<String, JsonNode> timed = Comparisons.of(tmp.resolve("time-merged.json"));
        assertEquals(2 * functions, timed.size());
        assertEquals(cells.keySet(), timed.keySet());
        cells.forEach((cell, row) -> assertEquals(
                row.get("verdict").asText(), timed.get(cell).get("verdict").asText(), cell));
        List<String> comment = new ArrayList<>(List.of("report"));
        comment.addAll(byTime);
        comment.addAll(List.of("--format", "markdown"));
        Cli shown = Cli.run(fake.engine(), comment.toArray(String[]::new));
        assertTrue(
                shown.out().contains(" · 3 shards, cut at equal time by the times of an earlier run: 1 on "),
                shown.out());
        // Shards of the two cuts do not fit together.
        Cli mixed = Cli.run(fake.engine(), "report", byTime.get(0), byCount.get(1), byCount.get(2));
        assertEquals(ExitCode.BAD_INPUT, mixed.exitCode(), mixed.err());
        assertTrue(mixed.err().contains("give every shard the same --shard-times"), mixed.err());
        // A shard stopped and resumed keeps the earlier run's times (in its plan), so its slice.
        FakeEngine signalling = new FakeEngine();
        signalling.program("go", c -> {
            if (!c.argv().contains("-list") && c.env().get("PERFAB_TRIAL").equals("1")) {
                signalling.signal();
            }
            return go(c);
        });
        Path stopped = tmp.resolve("time-stopped");
        Cli stop = Cli.ab(
                signalling.engine(), g.dir(), stopped, "--shard", "2/" + count, "--shard-times", earlier.toString());
        assertEquals(ExitCode.INTERRUPTED, stop.exitCode(), stop.err());
        Files.delete(earlier);
        Cli resumed = Cli.run(fake.engine(), "ab", "--resume", "--out", stopped.toString());
        assertEquals(0, resumed.exitCode(), resumed.err());
        assertEquals(
                Comparisons.of(Path.of(byTime.get(1))).keySet(),
                Comparisons.of(stopped.resolve("results.json")).keySet());
        Cli whole = Cli.run(
                fake.engine(),
                "report",
                byTime.get(0),
                stopped.resolve("results.json").toString(),
                byTime.get(2));
        assertEquals(0, whole.exitCode(), whole.err());
    }

    @Test
    void shardTimesWithoutShardOrThatCannotBeReadSaySo() throws IOException {
        Cli alone = ab(
                fake, "times-alone", "local", "--shard-times", results("single").toString());
        assertEquals(ExitCode.BAD_INPUT, alone.exitCode(), alone.err());
        assertTrue(alone.err().contains("give --shard K/N too"), alone.err());
        // A file gone, or not perfab's results (a stale cache): said, and cut by count.
        Path garbage = Files.writeString(tmp.resolve("garbage.json"), "{\"schema\": \"perfab/results/v9\"}");
        Cli missing = ab(fake, "times-garbage", "local", "--shard", "1/4", "--shard-times", garbage.toString());
        assertEquals(ExitCode.OK, missing.exitCode(), missing.err());
        assertTrue(
                missing.err().contains("--shard-times: " + garbage)
                        && missing.err().contains("cut by count"),
                missing.err());
        assertEquals(
                Comparisons.of(results("shard-1")).keySet(),
                Comparisons.of(tmp.resolve("times-garbage/results.json")).keySet());
    }

    /**
     * A times file perfab must not read whole (a FIFO nothing writes to, a device that never ends)
     * is refused at once, said, and the suite cut by count: the shard runs.
     */
    @StartsProcesses
    @Test
    void shardTimesOfAFifoOrADeviceCutByCountWithoutWaiting() throws Exception {
        Path fifo = tmp.resolve("times.fifo");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        for (Path times : List.of(fifo, Path.of("/dev/zero"))) {
            String out = "times-" + times.getFileName();
            Cli run = assertTimeoutPreemptively(
                    Duration.ofSeconds(60),
                    () -> ab(fake, out, "local", "--shard", "1/4", "--shard-times", times.toString()));
            assertEquals(ExitCode.OK, run.exitCode(), run.err());
            assertTrue(
                    run.err().contains("--shard-times: " + times + ": cannot read: not a regular file")
                            && run.err().contains("cut by count"),
                    run.err());
            assertEquals(
                    Comparisons.of(results("shard-1")).keySet(),
                    Comparisons.of(tmp.resolve(out + "/results.json")).keySet());
        }
    }

    /** A shard stopped by a signal resumes as the same shard: its slice, its place in the merge. */
    @Test
    void aShardStoppedAndResumedMeasuresItsOwnSlice() throws IOException {
        FakeEngine signalling = new FakeEngine();
        signalling.program("go", c -> {
            if (!c.argv().contains("-list")
                    && c.env().get("PERFAB_SIDE").equals("head")
                    && c.env().get("PERFAB_TRIAL").equals("2")) {
                signalling.signal();
            }
            return go(c);
        });
        Path out = tmp.resolve("stopped-shard");
        Cli stopped = Cli.ab(signalling.engine(), repo, out, "--shard", "2/" + SHARDS);
        assertEquals(ExitCode.INTERRUPTED, stopped.exitCode(), stopped.err());
        Cli resumed = Cli.run(fake.engine(), "ab", "--resume", "--out", out.toString());
        assertEquals(0, resumed.exitCode(), resumed.err());
        JsonNode part = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(out.resolve("results.json").toFile())
                .at("/shards/parts/0");
        assertEquals(2, part.get("index").asInt(), resumed.err());
        assertEquals("measured", part.get("state").asText());
        assertEquals(
                Comparisons.of(results("shard-2")).keySet(),
                Comparisons.of(out.resolve("results.json")).keySet(),
                "the same slice as the shard run straight through");
    }

    @Test
    void eachShardRanItsOwnSliceOfTheFunctions() throws IOException {
        Set<String> seen = new HashSet<>();
        List<String> functions = new ArrayList<>();
        for (int f = 0; f < FUNCTIONS; f++) {
            functions.add(function(f));
        }
        Map<String, Integer> expected = Sharding.assign(functions, SHARDS);
        int total = 0;
        for (int k = 1; k <= SHARDS; k++) {
            JsonNode part = new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(results("shard-" + k).toFile())
                    .get("shards")
                    .get("parts")
                    .get(0);
            assertEquals(k, part.get("index").asInt());
            assertEquals(FUNCTIONS, part.get("listed").asInt());
            for (JsonNode name : part.get("benchmarks")) {
                assertTrue(seen.add(name.asText()), name.asText() + " is in two shards");
                assertEquals(k, expected.get(name.asText()));
                total++;
            }
            if (k != 3) {
                // Its cells are its slice's functions, both sizes of each, and no other.
                Set<String> cells = new HashSet<>();
                Comparisons.of(results("shard-" + k)).keySet().forEach(c -> cells.add("Benchmark" + c.split("/")[0]));
                Set<String> slice = new HashSet<>();
                part.get("benchmarks").forEach(n -> slice.add(n.asText()));
                assertEquals(slice, cells);
            }
        }
        assertEquals(FUNCTIONS, total);
        // Balanced by count: a quarter each.
        for (int k = 1; k <= SHARDS; k++) {
            int n = new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(results("shard-" + k).toFile())
                    .get("shards")
                    .get("parts")
                    .get(0)
                    .get("benchmarks")
                    .size();
            assertEquals(FUNCTIONS / SHARDS, n, "shard " + k);
        }
    }

    /**
     * Commits a suite of {@code base} functions on main and {@code head} on feature, each side's
     * {@code files} beside it, with {@code workload} as perfab.yaml; returns the repository.
     */
    private static Path grown(
            String name,
            String workload,
            int base,
            int head,
            Map<String, String> mainFiles,
            Map<String, String> featureFiles)
            throws IOException {
        GitFixture g = GitFixture.init(tmp.resolve(name));
        g.write("perfab.yaml", workload)
                .write("slow.txt", "BenchmarkF0000 1.0\n")
                .write("functions.txt", base + "\n");
        for (Map.Entry<String, String> f : mainFiles.entrySet()) {
            g.write(f.getKey(), f.getValue());
        }
        g.commit("the suite");
        g.git("checkout", "-q", "-b", "feature");
        g.write("functions.txt", head + "\n");
        for (Map.Entry<String, String> f : featureFiles.entrySet()) {
            g.write(f.getKey(), f.getValue());
        }
        g.commit("the change");
        return g.dir();
    }

    /** Runs {@code count} shards of {@code repo} into {@code name-K}, each to succeed; returns their results. */
    private static List<String> everyShard(Path repo, String name, int count) {
        List<String> files = new ArrayList<>();
        for (int k = 1; k <= count; k++) {
            Path out = tmp.resolve(name + "-" + k);
            Cli run = Cli.ab(fake.engine(), repo, out, "--shard", k + "/" + count);
            assertEquals(0, run.exitCode(), "shard " + k + ": " + run.err());
            files.add(out.resolve("results.json").toString());
        }
        return files;
    }

    /** Returns the merge of the shards' {@code files}, as JSON rows by {@code CELL:METRIC}. */
    private static Map<String, JsonNode> merged(List<String> files) {
        List<String> report = new ArrayList<>(List.of("report"));
        report.addAll(files);
        report.addAll(List.of("--format", "json"));
        Cli merged = Cli.run(fake.engine(), report.toArray(String[]::new));
        assertEquals(0, merged.exitCode(), merged.err());
        return Comparisons.of(merged.out());
    }

    /**
     * A pull request that adds 8 benchmarks to a suite of 6: a slice may hold only benchmarks the
     * base lacks. Each side runs its own benchmarks of the slice, and a side with none of them skips
     * them, as a run of the whole suite does: no shard fails, each new benchmark has all its head's
     * trials, and the one the head slowed (only in its code) is a regression.
     */
    @Test
    void aPullRequestThatAddsBenchmarksFailsNoShard() throws IOException {
        List<String> old = new ArrayList<>();
        List<String> all = new ArrayList<>();
        for (int f = 0; f < 14; f++) {
            (f < 6 ? old : all).add(function(f));
        }
        all.addAll(old);
        Map<String, Integer> shard = Sharding.assign(all, SHARDS);
        assertTrue(
                java.util.stream.IntStream.rangeClosed(1, SHARDS)
                        .anyMatch(k -> old.stream().noneMatch(n -> shard.get(n) == k)),
                "a slice of new benchmarks only: " + shard);
        Path grown = grown(
                "grown",
                "name: grown\ntrials: 4\nwarmup: 1\nadaptive: off\nharness:\n"
                        + "  run: [go, test, -bench, .]\n  format: go\n",
                6,
                14,
                Map.of(),
                Map.of("slow.txt", "BenchmarkF0000 1.0\nBenchmarkF0002 1.30\n"));
        Map<String, JsonNode> rows = merged(everyShard(grown, "grown", SHARDS));
        assertEquals(28, rows.size(), rows.keySet().toString());
        rows.forEach((cell, row) -> {
            boolean added = Integer.parseInt(cell.substring(1, 5)) >= 6;
            assertEquals(added ? 0 : 4, row.at("/base/n").asInt(), cell + " " + row);
            assertEquals(4, row.at("/head/n").asInt(), cell + " " + row);
            assertEquals(
                    cell.startsWith("F0002/") ? "regression" : added ? "no-data" : "unchanged",
                    row.get("verdict").asText(),
                    cell + " " + row);
        });
    }

    /**
     * A pattern of sub-benchmarks ({@code Benchmark.*}, then {@code /fast}) runs the {@code fast}
     * sub-benchmarks of the functions that have one: only those are listed, so no slice holds a
     * function the pattern runs nothing of (no fast, or no sub-benchmarks at all), no shard fails,
     * and the merged run measures every {@code fast} sub-benchmark.
     */
    @Test
    void aSubBenchmarkPatternSlicesOnlyTheFunctionsItRuns() throws IOException {
        StringBuilder subs = new StringBuilder();
        List<String> fast = new ArrayList<>();
        for (int f = 0; f < 12; f++) {
            subs.append(function(f)).append(f % 3 == 0 ? " fast slow\n" : f == 1 ? "\n" : " size=8 size=64\n");
            if (f % 3 == 0) {
                fast.add("F" + function(f).substring("BenchmarkF".length()) + "/fast:time");
            }
        }
        Path repo = grown(
                "fast",
                "name: fast\ntrials: 4\nwarmup: 0\nadaptive: off\nharness:\n"
                        + "  run: [go, test, -run, '^$', -bench, 'Benchmark.*/fast']\n  format: go\n",
                12,
                12,
                Map.of("subs.txt", subs.toString()),
                Map.of("slow.txt", "BenchmarkF0000 1.0\nBenchmarkF0003 1.30\n"));
        List<String> files = everyShard(repo, "fast", SHARDS);
        for (String file : files) {
            JsonNode part = new ObjectMapper().readTree(Path.of(file).toFile()).at("/shards/parts/0");
            assertEquals(fast.size(), part.get("listed").asInt(), "the functions with a fast sub-benchmark: " + part);
        }
        Map<String, JsonNode> rows = merged(files);
        assertEquals(Set.copyOf(fast), rows.keySet());
        rows.forEach((cell, row) -> assertEquals(
                cell.startsWith("F0003/") ? "regression" : "unchanged",
                row.get("verdict").asText(),
                cell + " " + row));
    }

    @Test
    void theCommentNamesEachRunnerAndEveryShardWithoutResults() throws IOException {
        Cli md = Cli.run(
                fake.engine(),
                "report",
                results("shard-1").toString(),
                results("shard-2").toString(),
                results("shard-3").toString(),
                "--format",
                "markdown");
        assertEquals(0, md.exitCode(), md.err());
        String headline =
                md.out().lines().filter(l -> l.startsWith("### ")).findFirst().orElseThrow();
        assertTrue(headline.contains("shard 4 of 4 missing"), headline);
        assertTrue(headline.contains("shard 3 of 4 failed"), headline);
        assertTrue(md.out().contains("4 shards: 1 on runner-1 ("), md.out());
        assertTrue(md.out().contains("2 on runner-2 ("), md.out());
        assertTrue(md.out().contains("4 missing"), md.out());
        assertTrue(md.out().contains("| verdict | shard |"), md.out());
        // Every shard has a base trial 1: a warning says whose failed.
        assertTrue(md.out().contains("base trial 1 of shard 3: the harness exited with code 2"), md.out());
        assertTrue(md.out().contains("base of shard 3 has 0 of the 5 trials asked for"), md.out());
        Cli html = Cli.run(
                fake.engine(),
                "report",
                results("shard-1").toString(),
                results("shard-2").toString(),
                results("shard-3").toString(),
                "--format",
                "html");
        assertTrue(
                html.out().contains("4 shards: 1 on runner-1 (") && html.out().contains("shard 4 of 4 missing"),
                "the HTML report says it too");
        assertTrue(html.out().contains("<th>shard</th>"), "and a shard column");
        // Every row names the shard that measured it.
        Map<String, Integer> shardOf = new HashMap<>();
        for (int k = 1; k <= 3; k++) {
            for (String cell : Comparisons.of(results("shard-" + k)).keySet()) {
                shardOf.put(cell.substring(0, cell.lastIndexOf(':')), k);
            }
        }
        List<String> rows = md.out().lines().filter(l -> l.startsWith("| F")).toList();
        assertTrue(rows.size() > 100, md.out());
        for (String row : rows) {
            String cell = row.substring(2, row.indexOf(' ', 2));
            int shard = shardOf.get(cell);
            // Shard 3's base failed: its rows are not measured, and say how the shard ended.
            assertTrue(row.endsWith(shard == 3 ? "| 3 failed |" : "| " + shard + " |"), row);
            assertEquals(shard == 3, row.contains("not measured"), row);
        }
    }

    @Test
    void shardsOfOtherRunsOrTheSameShardTwiceAreRefused() throws IOException {
        Cli twice = Cli.run(
                fake.engine(),
                "report",
                results("shard-1").toString(),
                results("shard-1").toString());
        assertEquals(2, twice.exitCode());
        assertTrue(twice.err().contains("shard 1 of 4 is " + results("shard-1") + " too"), twice.err());
        Cli mixed = Cli.run(
                fake.engine(),
                "report",
                results("shard-1").toString(),
                results("single").toString());
        assertEquals(2, mixed.exitCode());
        assertTrue(mixed.err().contains(results("single") + " is not a shard's results"), mixed.err());
        Cli merge = Cli.run(
                fake.engine(),
                "runners",
                results("shard-1").toString(),
                results("shard-2").toString());
        assertNotEquals(0, merge.exitCode());
        assertTrue(merge.err().contains("perfab report"), merge.err());
        // Shards whose harness listed other suites cut them elsewhere.
        // (Its listing left out: a listing that is not its digest's makes the file contradict itself.)
        ObjectNode otherSuite =
                (ObjectNode) new ObjectMapper().readTree(results("shard-2").toFile());
        ((ObjectNode) otherSuite.at("/shards/parts/0"))
                .put("suite", "0123456789abcdef")
                .remove("listing");
        Path other = Files.writeString(tmp.resolve("other-suite.json"), otherSuite.toString());
        Cli suites = Cli.run(fake.engine(), "report", results("shard-1").toString(), other.toString());
        assertEquals(2, suites.exitCode());
        assertTrue(
                suites.err().contains(other + ": its harness listed another suite than " + results("shard-1")),
                suites.err());
        Cli bad = Cli.ab(fake.engine(), repo, tmp.resolve("bad"), "--shard", "5/4");
        assertEquals(2, bad.exitCode());
        assertTrue(bad.err().contains("--shard"), bad.err());
        assertFalse(Files.exists(tmp.resolve("bad/results.json")));
    }

    /**
     * Measures a suite of 12 functions in 4 shards, the function {@code slowed} 50% slower on the
     * head and every other as fast, each shard into {@code DIR/shard-K}; returns the shard that
     * holds {@code slowed}.
     */
    private static int slowedSuite(Path dir, String slowed) throws IOException {
        int functions = 12;
        List<String> names = new ArrayList<>();
        StringBuilder slow = new StringBuilder();
        for (int f = 0; f < functions; f++) {
            names.add(function(f));
            slow.append(function(f))
                    .append(function(f).equals(slowed) ? " 1.5" : " 1.0")
                    .append(" 0.002\n");
        }
        Path repo = suite(
                dir.resolve("repo"),
                "name: gate\ntrials: 5\nwarmup: 0\nadaptive: off\nharness:\n"
                        + "  run: [go, test, -bench, .]\n  format: go\n",
                functions,
                slow.toString());
        for (int k = 1; k <= SHARDS; k++) {
            Cli run = Cli.ab(fake.engine(), repo, dir.resolve("shard-" + k), "--shard", k + "/" + SHARDS);
            assertEquals(0, run.exitCode(), run.err());
        }
        return Sharding.assign(names, SHARDS).get(slowed);
    }

    /** Returns the results of the shards of {@code dir} but {@code without}, as arguments. */
    private static List<String> shardsBut(Path dir, int without) {
        List<String> files = new ArrayList<>();
        for (int k = 1; k <= SHARDS; k++) {
            if (k != without) {
                files.add(dir.resolve("shard-" + k).resolve("results.json").toString());
            }
        }
        return files;
    }

    /**
     * The shards of a suite without the one that holds its regression: the merge is no cleaner than
     * what was measured. The missing shard's benchmarks are a row "not measured", counted as
     * inconclusive in the headline and the step outputs, and any --fail-on fails.
     */
    @Test
    void aMissingShardFailsTheGateAndCountsAsInconclusive() throws IOException {
        Path dir = tmp.resolve("gate");
        int holds = slowedSuite(dir, function(5));
        List<String> all = shardsBut(dir, 0);
        List<String> args = new ArrayList<>(List.of("report"));
        args.addAll(all);
        args.addAll(List.of("--format", "text", "--fail-on", "regression"));
        Cli whole = Cli.run(fake.engine(), args.toArray(String[]::new));
        assertEquals(ExitCode.VERDICT, whole.exitCode(), "every shard: the regression is found\n" + whole.out());

        List<String> lacking = shardsBut(dir, holds);
        for (List<String> failOn :
                List.of(List.of("regression"), List.of("regression", "inconclusive"), List.of("inconclusive"))) {
            List<String> gate = new ArrayList<>(List.of("report"));
            gate.addAll(lacking);
            gate.addAll(List.of("--format", "text"));
            failOn.forEach(v -> gate.addAll(List.of("--fail-on", v)));
            Cli run = Cli.run(fake.engine(), gate.toArray(String[]::new));
            assertEquals(ExitCode.VERDICT, run.exitCode(), "--fail-on " + failOn + "\n" + run.out() + run.err());
        }
        List<String> advisory = new ArrayList<>(List.of("report"));
        advisory.addAll(lacking);
        advisory.addAll(List.of("--format", "markdown"));
        Cli md = Cli.run(fake.engine(), advisory.toArray(String[]::new));
        assertEquals(0, md.exitCode(), "without --fail-on the check stays advisory");
        String headline =
                md.out().lines().filter(l -> l.startsWith("### ")).findFirst().orElseThrow();
        assertTrue(headline.contains("shard " + holds + " of 4 missing"), headline);
        // Each benchmark the missing shard's listing gives it is a row of its own.
        List<String> names = java.util.stream.IntStream.range(0, 12)
                .mapToObj(ShardsTest::function)
                .toList();
        long lost = Sharding.assign(names, SHARDS).values().stream()
                .filter(k -> k == holds)
                .count();
        assertTrue(lost > 0, "shard " + holds + " holds benchmarks");
        assertTrue(headline.contains("\u2754 " + lost + " inconclusive"), headline);
        assertTrue(md.out().contains("not measured") && md.out().contains("| " + holds + " missing |"), md.out());

        Path output = Files.createFile(tmp.resolve("gate-output"));
        List<String> github = new ArrayList<>(List.of("report"));
        github.addAll(lacking);
        github.addAll(List.of(
                "--format", "github", "-o", tmp.resolve("gate-comment.md").toString()));
        Cli gh = Cli.run(fake.engine(), Map.of("GITHUB_OUTPUT", output.toString()), github.toArray(String[]::new));
        assertEquals(0, gh.exitCode(), gh.err());
        String outputs = Files.readString(output);
        assertTrue(outputs.contains("regressions=0\n") && outputs.contains("inconclusive=" + lost + "\n"), outputs);
        assertEquals(
                lost,
                gh.out()
                        .lines()
                        .filter(l -> l.contains("not measured, its shard's results lacking"))
                        .count(),
                gh.out());
        assertFalse(md.out().contains("all: not measured on the"), "its label and shard say it once: " + md.out());

        // The merged run reads back as it was written: still not measured, still failing the gate.
        Path merged = tmp.resolve("gate-merged.json");
        List<String> json = new ArrayList<>(List.of("report"));
        json.addAll(lacking);
        json.addAll(List.of("--format", "json", "-o", merged.toString()));
        assertEquals(0, Cli.run(fake.engine(), json.toArray(String[]::new)).exitCode());
        Cli again = Cli.run(fake.engine(), "report", merged.toString(), "--format", "text", "--fail-on", "regression");
        assertEquals(ExitCode.VERDICT, again.exitCode(), again.out());
        Cli retested = Cli.run(
                fake.engine(),
                "report",
                merged.toString(),
                "--test",
                "welch",
                "--format",
                "text",
                "--fail-on",
                "regression");
        assertEquals(ExitCode.VERDICT, retested.exitCode(), retested.out());
    }

    /**
     * A shard whose job failed, or whose file is cut short or garbage, does not refuse the merge of
     * the others: it is named with its reason, its benchmarks are not measured, and the gate fails.
     */
    @Test
    void anUnreadableShardIsNamedAndTheOthersAreMerged() throws IOException {
        Path dir = tmp.resolve("unreadable");
        int holds = slowedSuite(dir, function(7));
        Path shard = dir.resolve("shard-" + holds).resolve("results.json");
        String text = Files.readString(shard);
        Path cut = Files.writeString(dir.resolve("cut.json"), text.substring(0, text.indexOf("\"measurements\"")));
        Path garbage = Files.writeString(dir.resolve("garbage.json"), "\u0000\u0001 not json");
        for (Path bad : List.of(cut, garbage)) {
            List<String> args = new ArrayList<>(List.of("report"));
            args.addAll(shardsBut(dir, holds));
            args.add(bad.toString());
            args.addAll(List.of("--format", "markdown", "--fail-on", "regression"));
            Cli md = Cli.run(fake.engine(), args.toArray(String[]::new));
            assertEquals(ExitCode.VERDICT, md.exitCode(), md.err());
            String headline = md.out()
                    .lines()
                    .filter(l -> l.startsWith("### "))
                    .findFirst()
                    .orElseThrow();
            // The file cut short still says which shard it is; the garbage cannot.
            String state = bad.equals(cut) ? "unreadable" : "missing";
            assertTrue(headline.contains("shard " + holds + " of 4 " + state), headline);
            assertTrue(
                    md.out().contains(bad.getFileName().toString()) && md.out().contains("do not read"), md.out());
            assertTrue(md.out().lines().filter(l -> l.startsWith("| F")).count() >= 9, "the other shards' rows");
        }
        // None that reads: refused, as one file is.
        Cli none = Cli.run(fake.engine(), "report", cut.toString(), garbage.toString());
        assertEquals(ExitCode.BAD_INPUT, none.exitCode(), none.err());
    }

    /**
     * A runner class whose shard was missing did not measure that shard's cells: it has no vote on
     * them, and the consensus says on how many of the runners that measured each. A copy of a run
     * with another start and runner is still that run, and refused.
     */
    @Test
    void aRunnerThatDidNotMeasureACellHasNoVoteOnIt() throws IOException {
        Path lacking = tmp.resolve("runner-lacking.json");
        Cli merged = Cli.run(
                fake.engine(),
                "report",
                results("shard-1").toString(),
                results("shard-2").toString(),
                results("shard-4").toString(),
                "--format",
                "json",
                "-o",
                lacking.toString());
        assertEquals(0, merged.exitCode(), merged.err());
        Cli runners = Cli.run(
                fake.engine(), "runners", lacking.toString(), results("single").toString(), "--format", "json");
        assertEquals(0, runners.exitCode(), runners.err());
        Set<String> ofShard3 = new HashSet<>();
        new ObjectMapper()
                .readTree(results("shard-3").toFile())
                .at("/shards/parts/0/benchmarks")
                .forEach(n -> ofShard3.add(n.asText().substring("Benchmark".length())));
        int seen = 0;
        for (JsonNode row : new ObjectMapper().readTree(runners.out()).get("cells")) {
            String cell = row.get("cell").asText();
            if (cell.equals("(every benchmark of shard 3 of 4)")
                    || row.get("metric").asText().equals("all")) {
                // The missing shard's benchmarks, each a row of the harness's name: no runner measured it.
                assertEquals("measured on no runner", row.get("consensus").asText(), row.toString());
                continue;
            }
            if (!ofShard3.contains(cell.split("/")[0])) {
                assertEquals(2, row.get("measured").asInt(), row.toString());
                continue;
            }
            seen++;
            assertTrue(row.get("byRunner").get(0).isNull(), row.toString());
            assertEquals(1, row.get("measured").asInt(), row.toString());
            String consensus = row.get("consensus").asText();
            assertTrue(consensus.contains(" of 1 that measured it (1 of 2 did not)"), consensus);
            assertFalse(consensus.contains("everywhere") || consensus.matches(".* on [0-9]+ of 2.*"), consensus);
        }
        assertEquals(2 * FUNCTIONS / SHARDS, seen);
        Cli text = Cli.run(
                fake.engine(), "runners", lacking.toString(), results("single").toString(), "--format", "text");
        assertTrue(text.out().contains("not measured"), text.out());

        // The same run with its start and runner edited is one run.
        ObjectNode copy =
                (ObjectNode) new ObjectMapper().readTree(results("single").toFile());
        copy.put("startedAt", "2031-01-01T00:00:00Z");
        ((ObjectNode) copy.get("machine")).put("runner", "another-runner");
        Path forged = Files.writeString(tmp.resolve("forged.json"), copy.toString());
        Cli twice = Cli.run(fake.engine(), "runners", results("single").toString(), forged.toString());
        assertEquals(ExitCode.BAD_INPUT, twice.exitCode(), twice.out());
        assertTrue(
                twice.err().contains(results("single") + " and " + forged + " are one run (the same values measured"),
                twice.err());
    }

    /** Returns a copy of shard {@code k}'s results with {@code edit} applied, as {@code name}. */
    private static Path edited(int k, String name, java.util.function.Consumer<ObjectNode> edit) throws IOException {
        ObjectNode root =
                (ObjectNode) new ObjectMapper().readTree(results("shard-" + k).toFile());
        edit.accept(root);
        return Files.writeString(tmp.resolve(name + ".json"), root.toString());
    }

    /**
     * Every claim a shard file makes is checked against the other shards and against what it
     * measured: its settings, its verdict rules, its slice and its counts. A refusal names the
     * setting and both files.
     */
    @Test
    void aShardsClaimsAreCheckedAgainstTheOthers() throws IOException {
        Map<Path, String> refused = new java.util.LinkedHashMap<>();
        refused.put(
                edited(2, "claims-trials", r -> ((ObjectNode) r.get("settings")).put("trials", 7)),
                "its settings.trials is 7 where " + results("shard-1") + "'s is 5");
        refused.put(
                edited(2, "claims-builds", r -> ((ObjectNode) r.get("settings")).put("builds", 3)),
                "its settings.builds is 3 where " + results("shard-1") + "'s is 1");
        refused.put(
                edited(2, "claims-effect", r -> ((ObjectNode) r.at("/settings/thresholds")).put("minEffect", 9.0)),
                "its thresholds.minEffect is 9.0 where " + results("shard-1") + "'s is");
        refused.put(
                edited(
                        2,
                        "claims-looks",
                        r -> ((ObjectNode) r.at("/settings/thresholds"))
                                .putObject("adaptive")
                                .put("first", 5)
                                .put("max", 20)),
                "its thresholds.adaptive (the looks) is");
        refused.put(
                edited(2, "claims-test", r -> ((ObjectNode) r.at("/settings/thresholds")).put("test", "paired")),
                "its thresholds.test is paired");
        refused.put(
                edited(2, "claims-base", r -> ((ObjectNode) r.at("/refs/base")).put("commit", "0".repeat(40))),
                "its refs.base.commit is " + "0".repeat(40));
        String ofShard1 = new ObjectMapper()
                .readTree(results("shard-1").toFile())
                .at("/shards/parts/0/benchmarks/0")
                .asText();
        // A benchmark of another shard claimed as its own: against its own listing, and, in a file that
        // records no listing (as files before listings did not), against the other shard's claim.
        refused.put(
                edited(
                        2,
                        "claims-overlap",
                        r -> ((com.fasterxml.jackson.databind.node.ArrayNode) r.at("/shards/parts/0/benchmarks"))
                                .set(0, ofShard1)),
                "shard 2 names '" + ofShard1 + "' as its own, which its listing places in shard 1");
        refused.put(
                edited(2, "claims-overlap-unlisted", r -> {
                    ((com.fasterxml.jackson.databind.node.ArrayNode) r.at("/shards/parts/0/benchmarks"))
                            .set(0, ofShard1);
                    ((ObjectNode) r.at("/shards/parts/0")).remove("listing");
                }),
                "benchmark '" + ofShard1 + "' is its own, and " + results("shard-1") + "'s too");
        refused.put(
                edited(2, "claims-count", r -> {
                    ((com.fasterxml.jackson.databind.node.ArrayNode) r.at("/shards/parts/0/benchmarks"))
                            .add("BenchmarkExtra");
                    ((ObjectNode) r.at("/shards/parts/0")).remove("listing");
                }),
                "names 251 benchmarks of its own, where a suite of 1000 cut by count gives it 250");
        refused.put(
                edited(
                        2,
                        "claims-listed",
                        r -> ((ObjectNode) r.at("/shards/parts/0"))
                                .put("listed", 999)
                                .remove("listing")),
                "its harness listed another suite");
        refused.put(
                edited(2, "claims-trials-held", r -> ((ObjectNode) r.at("/shards/parts/0")).put("trials", 3)),
                "its shard says it holds 3 trials");
        for (Map.Entry<Path, String> e : refused.entrySet()) {
            Cli run = Cli.run(
                    fake.engine(),
                    "report",
                    results("shard-1").toString(),
                    e.getKey().toString());
            assertEquals(ExitCode.BAD_INPUT, run.exitCode(), e.getKey() + ": " + run.out());
            assertTrue(
                    run.err().contains(e.getKey().toString()) && run.err().contains(e.getValue()),
                    e.getValue() + "\n" + run.err());
        }
        // The same claims in a file that records its listing contradict the file itself: it does not
        // read, and its shard is not measured.
        Path selfContradicting = edited(
                2,
                "claims-self",
                r -> ((com.fasterxml.jackson.databind.node.ArrayNode) r.at("/shards/parts/0/benchmarks"))
                        .add("BenchmarkExtra"));
        Cli self = Cli.run(
                fake.engine(),
                "report",
                results("shard-1").toString(),
                selfContradicting.toString(),
                "--format",
                "markdown",
                "--fail-on",
                "regression");
        assertEquals(ExitCode.VERDICT, self.exitCode(), self.err());
        assertTrue(self.out().contains("shard 2 of 4 unreadable"), self.out());
        // Every shard given, one slice holding a name the suite never listed: the slices are not the suite.
        Path renamed = edited(4, "claims-renamed", r -> {
            ((com.fasterxml.jackson.databind.node.ArrayNode) r.at("/shards/parts/0/benchmarks"))
                    .set(0, "BenchmarkNeverListed");
            ((ObjectNode) r.at("/shards/parts/0")).remove("listing");
        });
        Cli all = Cli.run(
                fake.engine(),
                "report",
                results("shard-1").toString(),
                results("shard-2").toString(),
                results("shard-3").toString(),
                renamed.toString());
        assertEquals(ExitCode.BAD_INPUT, all.exitCode(), all.out());
        assertTrue(all.err().contains("a shard claims a slice it was not cut"), all.err());
        // A slice of 300,000 names where 1,000 were listed does not read: that shard is not measured.
        Path huge = edited(2, "claims-huge", r -> {
            var names = (com.fasterxml.jackson.databind.node.ArrayNode) r.at("/shards/parts/0/benchmarks");
            for (int i = 0; i < 300_000; i++) {
                names.add("BenchmarkForged" + i);
            }
        });
        Cli big = Cli.run(
                fake.engine(),
                "report",
                results("shard-1").toString(),
                huge.toString(),
                "--format",
                "markdown",
                "--fail-on",
                "regression");
        assertEquals(ExitCode.VERDICT, big.exitCode(), big.err());
        assertTrue(big.out().contains("more than the 1000 its harness listed"), big.out());
        assertTrue(big.out().contains("shard 2 of 4 unreadable"), big.out());
    }

    /**
     * Where the shards record the suite's listing, a missing shard's benchmarks are known: each is a
     * row of its own, not measured, named as the harness lists it, and counted as inconclusive.
     */
    @Test
    void aMissingShardsBenchmarksAreEachARowWhereTheListingIsRecorded() throws IOException {
        List<String> names = new ArrayList<>();
        for (int f = 0; f < FUNCTIONS; f++) {
            names.add(function(f));
        }
        List<String> args = new ArrayList<>(List.of("report"));
        for (int k : new int[] {1, 2, 4}) {
            args.add(edited(k, "listing-" + k, r -> {
                        var listing = ((ObjectNode) r.at("/shards/parts/0")).putArray("listing");
                        names.stream().sorted().forEach(listing::add);
                    })
                    .toString());
        }
        args.addAll(List.of("--format", "json"));
        Cli run = Cli.run(fake.engine(), args.toArray(String[]::new));
        assertEquals(0, run.exitCode(), run.err());
        Map<String, JsonNode> rows = Comparisons.of(run.out());
        Map<String, Integer> shardOf = Sharding.assign(names, SHARDS);
        int notMeasured = 0;
        for (String name : names) {
            JsonNode row = rows.get(name + ":all");
            assertEquals(shardOf.get(name) == 3, row != null, name);
            if (row != null) {
                assertEquals("inconclusive", row.get("verdict").asText(), row.toString());
                assertTrue(row.get("caveats").toString().contains("not-measured"), row.toString());
                notMeasured++;
            }
        }
        assertEquals(FUNCTIONS / SHARDS, notMeasured);
        // A shard whose slice lacks a benchmark the listing places in it is refused.
        Path short1 = edited(1, "listing-short", r -> {
            var listing = ((ObjectNode) r.at("/shards/parts/0")).putArray("listing");
            names.stream().sorted().forEach(listing::add);
            ((com.fasterxml.jackson.databind.node.ArrayNode) r.at("/shards/parts/0/benchmarks"))
                    .set(
                            0,
                            names.stream()
                                    .filter(n -> shardOf.get(n) == 2)
                                    .findFirst()
                                    .orElseThrow());
        });
        Cli refused = Cli.run(
                fake.engine(), "report", short1.toString(), results("shard-4").toString());
        assertEquals(ExitCode.BAD_INPUT, refused.exitCode(), refused.out());
        assertTrue(refused.err().contains("which its listing places in shard 2"), refused.err());
    }
}
