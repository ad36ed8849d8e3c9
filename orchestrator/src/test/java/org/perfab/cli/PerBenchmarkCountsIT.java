package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.perfab.ab.Engine;
import org.perfab.report.testing.Tool;
import org.perfab.testing.GitFixture;

/**
 * Benchmarks counted one at a time, per operation, under Valgrind, end to end: go test's in a small Go
 * module, Google Benchmark's in a small C++ program, whose heads give one function more mixing rounds.
 * Each side's binary is built from its own tree, so every verdict here fails if the wrong side's code
 * ran. Skipped where a tool is missing, failed there where CI requires them ({@link Tool}).
 */
@Execution(ExecutionMode.CONCURRENT)
@Order(Integer.MAX_VALUE) // see docs/development.md: the longest classes start first
class PerBenchmarkCountsIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    @BeforeEach
    void tools() {
        Tool.VALGRIND.need();
    }

    /** The package: {@code Sum} mixes each byte {@code rounds} times; {@code Xor} folds bytes, untouched by the change. */
    private static String code(int rounds) {
        return """
                package hash

                //go:noinline
                func mix(x uint64) uint64 {
                	for i := 0; i < %d; i++ {
                		x ^= x >> 29
                		x *= 0x9E3779B97F4A7C15
                	}
                	return x
                }

                // Sum hashes b.
                func Sum(b []byte) uint64 {
                	var h uint64
                	for _, c := range b {
                		h = mix(h ^ uint64(c))
                	}
                	return h
                }

                // Xor folds b.
                func Xor(b []byte) uint64 {
                	var h uint64
                	for _, c := range b {
                		h = h<<1 ^ uint64(c)
                	}
                	return h
                }
                """.formatted(rounds);
    }

    private static final String BENCHMARKS = """
            package hash

            import (
            	"fmt"
            	"testing"
            )

            var sink uint64

            func BenchmarkSum(b *testing.B) {
            	for _, n := range []int{16, 256} {
            		data := make([]byte, n)
            		b.Run(fmt.Sprint(n), func(b *testing.B) {
            			for i := 0; i < b.N; i++ {
            				sink += Sum(data)
            			}
            		})
            	}
            }

            func BenchmarkXor(b *testing.B) {
            	data := make([]byte, 64)
            	for i := 0; i < b.N; i++ {
            		sink += Xor(data)
            	}
            }
            """;

    /**
     * A module whose main mixes twice a byte and whose feature three times, with a benchmark of its
     * own, under {@code workload}.
     */
    private GitFixture module(String workload) throws IOException {
        Tool.GO.need();
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.write("go.mod", "module example.com/hash\n\ngo 1.19\n");
        g.write("hash.go", code(2));
        g.write("bench_test.go", BENCHMARKS);
        g.write("perfab.yaml", workload);
        g.commit("the hash");
        g.git("checkout", "-q", "-b", "feature");
        g.write("hash.go", code(3));
        g.write("new_test.go", """
                package hash

                import "testing"

                func BenchmarkNew(b *testing.B) {
                	for i := 0; i < b.N; i++ {
                		sink += mix(uint64(i))
                	}
                }
                """);
        g.commit("a third mixing round, and a benchmark of it");
        g.git("checkout", "-q", "main");
        return g;
    }

    private Cli ab(GitFixture g, String... more) {
        return Cli.abOnThisMachine(g.dir(), tmp.resolve("out"), more);
    }

    private static <T> List<T> iterable(java.util.Iterator<T> each) {
        List<T> all = new java.util.ArrayList<>();
        each.forEachRemaining(all::add);
        return all;
    }

    private Map<String, JsonNode> rows() throws IOException {
        Map<String, JsonNode> rows = new HashMap<>();
        for (JsonNode row :
                JSON.readTree(tmp.resolve("out/results.json").toFile()).get("comparisons")) {
            rows.put(row.get("cell").asText() + ":" + row.get("metric").asText(), row);
        }
        return rows;
    }

    @Test
    void eachBenchmarkIsCountedPerOperationAndTheCommentNamesTheFunctionThatGrew() throws IOException {
        GitFixture g = module("""
                name: go-counted
                trials: 2
                warmup: 0
                adaptive: off
                harness:
                  run: [go, test, -run, '^$', -bench, ., -benchmem, -count, '3', -benchtime, 2000x]
                  format: go
                  measure: [instructions]
                """);
        // Two trials a side, the default for counts (CountsIT), judged once at alpha 0.05: adaptive
        // trials would look first at alpha 0.001, where Welch's test with about one degree of freedom
        // confirms a change only when the counts spread by some hundredths of a percent, and a second
        // look costs the test half as much again under Valgrind. The harness's -count and -benchtime
        // are go's own, for timings: counting sizes each benchmark's runs itself.
        Path cache = tmp.resolve("cache");
        Cli run = ab(g, "--cache", cache.toString());
        assertEquals(0, run.exitCode(), run.err());
        Map<String, JsonNode> rows = rows();
        assertEquals(
                new TreeSet<>(List.of(
                        "Sum/16:instructions/op",
                        "Sum/16:est-cycles/op",
                        "Sum/256:instructions/op",
                        "Sum/256:est-cycles/op",
                        "Xor:instructions/op",
                        "Xor:est-cycles/op",
                        "New:instructions/op",
                        "New:est-cycles/op")),
                new TreeSet<>(rows.keySet()));
        // The benchmark the pull request adds is counted where it is: on the head alone.
        JsonNode added = rows.get("New:instructions/op");
        assertEquals(0, added.at("/base/n").asInt(), added.toString());
        assertEquals(2, added.at("/head/n").asInt(), "every trial of the head: " + added + "\n" + run.err());
        // Per operation: Sum/256 does sixteen times Sum/16's bytes, so about sixteen times its count.
        double small = rows.get("Sum/16:instructions/op").at("/base/mean").asDouble();
        double large = rows.get("Sum/256:instructions/op").at("/base/mean").asDouble();
        assertTrue(large / small > 12 && large / small < 17, small + " and " + large + " instructions an operation");
        for (String sum : List.of("Sum/16", "Sum/256")) {
            JsonNode row = rows.get(sum + ":instructions/op");
            assertEquals("regression", row.get("verdict").asText(), row.toString());
            assertTrue(row.get("pctChange").asDouble() > 15, row.toString());
            // The coefficient of variation is in percent: timings on this kind of runner spread by some
            // percent, a count per operation by a tenth of one (go's runtime, allocation and the
            // scheduler's work inside the counted process).
            assertTrue(
                    row.at("/base/cv").asDouble() < 0.5 && row.at("/head/cv").asDouble() < 0.5,
                    "a count per operation barely varies: " + row);
        }
        JsonNode xor = rows.get("Xor:instructions/op");
        // Go's runtime works inside the counted process (the scheduler, the network poller, stack
        // walks), more on a busy machine: some hundredths to tenths of a percent, which two trials
        // whose counts agree can tell apart (small), far under any verdict's bar.
        assertTrue(List.of("unchanged", "small").contains(xor.get("verdict").asText()), xor.toString());
        assertEquals(0, xor.get("pctChange").asDouble(), 0.5, xor.toString());
        JsonNode first = rows.get("Sum/256:instructions/op").get("functions").get(0);
        assertTrue(first.get("function").asText().endsWith("hash.go:example.com/hash.mix"), first.toString());
        String comment = Files.readString(tmp.resolve("out/comment.md"));
        assertTrue(comment.contains("counted by Valgrind (not timed)"), comment);
        assertTrue(comment.contains("moved most in example.com/hash.mix (hash.go)"), comment);
        assertFalse(comment.contains("count cache"), "an empty cache gave nothing: " + comment);
        // What counting each benchmark took: what a later run's shards are cut by.
        for (JsonNode t :
                JSON.readTree(tmp.resolve("out/results.json").toFile()).get("trials")) {
            if (!t.get("warmup").asBoolean() && t.get("side").asText().equals("base")) {
                assertEquals(
                        new TreeSet<>(List.of("Sum/16", "Sum/256", "Xor")),
                        new TreeSet<>(iterable(t.get("seconds").fieldNames())),
                        t.toString());
            }
        }

        // The next pull request on the same main: its base is counted once, in the run before. The
        // head changes a comment only, and is counted here over the iterations the cache holds.
        g.git("checkout", "-q", "-b", "comment", "main");
        g.write("hash.go", "// Package hash mixes.\n" + code(2));
        g.commit("a comment");
        g.git("checkout", "-q", "main");
        Path again = tmp.resolve("again");
        Cli warm = Cli.run(
                Engine.REAL,
                "ab",
                "--repo=" + g.dir(),
                "--base=main",
                "--head=comment",
                "--out",
                again.toString(),
                "--cache",
                cache.toString());
        assertEquals(0, warm.exitCode(), warm.err());
        JsonNode results = JSON.readTree(again.resolve("results.json").toFile());
        for (JsonNode t : results.get("trials")) {
            if (!t.get("warmup").asBoolean()) {
                assertEquals(
                        t.get("side").asText().equals("base") ? 3 : 0,
                        t.path("cached").size(),
                        "the base's three benchmarks came from the cache, the head's were counted: " + t);
            }
        }
        for (JsonNode row : results.get("comparisons")) {
            if (row.get("metric").asText().equals("instructions/op")) {
                assertFalse(
                        List.of("regression", "improvement")
                                .contains(row.get("verdict").asText()),
                        row.toString());
                // Counted over the cache's iterations: the same count per operation as the base's.
                assertEquals(0, row.get("pctChange").asDouble(), 0.5, row.toString());
            }
        }
        String said = Files.readString(again.resolve("comment.md"));
        assertTrue(said.contains("count cache (an earlier run counted the same tree"), said);
    }

    /**
     * measure: auto, on a machine whose timings of Sum cannot tell: each process's Sum reports its
     * time scaled by 1 to 3 (drawn from the clock), as a runner shared with other jobs would; Xor
     * reports a steady one. Look 1 times both; Xor is decided, Sum is counted from the next round on,
     * in the same run, and its verdict comes from its counts: a third mixing round, +50% instructions.
     */
    @Test
    void timingsThatCannotTellAreCountedInTheSameRun() throws IOException {
        Tool.GO.need();
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.write("go.mod", "module example.com/hash\n\ngo 1.19\n");
        g.write("hash.go", code(2));
        g.write("bench_test.go", """
                package hash

                import (
                	"testing"
                	"time"
                )

                var sink uint64

                // jitter scales this process's timings: a runner far noisier than the change.
                var jitter = 1 + float64(time.Now().UnixNano()%1000)/500

                func BenchmarkSum(b *testing.B) {
                	data := make([]byte, 64)
                	start := time.Now()
                	for i := 0; i < b.N; i++ {
                		sink += Sum(data)
                	}
                	b.ReportMetric(float64(time.Since(start).Nanoseconds())/float64(b.N)*jitter, "ns/op")
                }

                func BenchmarkXor(b *testing.B) {
                	data := make([]byte, 64)
                	for i := 0; i < b.N; i++ {
                		sink += Xor(data)
                	}
                	b.ReportMetric(100*(1+(jitter-2)/10000), "ns/op")
                }
                """);
        g.write("perfab.yaml", """
                name: go-auto
                trials: 3
                warmup: 0
                harness:
                  run: [go, test, -run, '^$', -bench, ., -count, '2', -benchtime, 2000x]
                  format: go
                  measure: auto
                """);
        g.commit("the hash");
        g.git("checkout", "-q", "-b", "feature");
        g.write("hash.go", code(3));
        g.commit("a third mixing round");
        g.git("checkout", "-q", "main");
        Cli run = ab(g);
        assertEquals(0, run.exitCode(), run.err());
        Map<String, JsonNode> rows = rows();
        assertEquals(
                new TreeSet<>(List.of("Sum:time", "Sum:instructions/op", "Sum:est-cycles/op", "Xor:time")),
                new TreeSet<>(rows.keySet()),
                "Xor, decided by its time, is never counted\n" + run.err());
        JsonNode time = rows.get("Sum:time");
        assertTrue(time.get("caveats").toString().contains("counted-instead"), time.toString());
        assertTrue(List.of("noisy", "inconclusive").contains(time.get("verdict").asText()), time.toString());
        JsonNode counted = rows.get("Sum:instructions/op");
        assertEquals("regression", counted.get("verdict").asText(), counted.toString());
        assertTrue(counted.get("pctChange").asDouble() > 15, counted.toString());
        assertEquals(3, time.at("/base/n").asInt(), "timed at look 1 only: " + time);
        assertEquals(
                0,
                counted.at("/base/n").asInt() % 2,
                "two counts a side a round, whatever the round's size (3 trials): " + counted);
        assertEquals(
                "unchanged",
                rows.get("Xor:time").get("verdict").asText(),
                rows.get("Xor:time").toString());
        String comment = Files.readString(tmp.resolve("out/comment.md"));
        assertTrue(comment.lines().findFirst().orElse("").isEmpty() || comment.contains("🔴 1 regression"), comment);
        assertTrue(comment.contains("counted instead"), comment);
        assertTrue(comment.contains("Timed too noisily to tell on this machine, so counted instead"), comment);
        assertTrue(run.err().contains("too noisy to time on this machine even at 20 trials a side (Sum)"), run.err());
    }

    @Test
    void timingsAndCountsTogetherEachJudgedAndTheCountsChosenByName() throws IOException {
        GitFixture g = module("""
                name: go-both
                trials: 2
                warmup: 0
                adaptive: off
                harness:
                  run: [go, test, -run, '^$', -bench, ., -benchtime, 1000x]
                  format: go
                  measure: [wall, instructions]
                  count:
                    benchmarks: ^Sum/16$
                """);
        Cli run = ab(g);
        assertEquals(0, run.exitCode(), run.err());
        Map<String, JsonNode> rows = rows();
        assertEquals(
                new TreeSet<>(List.of(
                        "Sum/16:time",
                        "Sum/256:time",
                        "Xor:time",
                        "New:time",
                        "Sum/16:instructions/op",
                        "Sum/16:est-cycles/op")),
                new TreeSet<>(rows.keySet()),
                "go's own timings, and the count asked for");
        assertEquals(
                "regression", rows.get("Sum/16:instructions/op").get("verdict").asText());
        assertFalse(Files.readString(tmp.resolve("out/comment.md")).contains("not timed"));
    }

    /** A Google Benchmark program: {@code BM_Sum} mixes each byte {@code rounds} times; {@code BM_Xor} folds bytes. */
    private static String program(int rounds) {
        return """
                #include <benchmark/benchmark.h>
                #include <cstdint>
                #include <vector>

                __attribute__((noinline)) static uint64_t mix(uint64_t x) {
                  for (int i = 0; i < %d; i++) { x ^= x >> 29; x *= 0x9E3779B97F4A7C15ULL; }
                  return x;
                }

                static void BM_Sum(benchmark::State& state) {
                  std::vector<uint8_t> data(state.range(0));
                  for (auto _ : state) {
                    uint64_t h = 0;
                    for (uint8_t c : data) h = mix(h ^ c);
                    benchmark::DoNotOptimize(h);
                  }
                }
                BENCHMARK(BM_Sum)->Arg(16)->Arg(256);

                static void BM_Xor(benchmark::State& state) {
                  std::vector<uint8_t> data(64);
                  for (auto _ : state) {
                    uint64_t h = 0;
                    for (uint8_t c : data) h = (h << 1) ^ c;
                    benchmark::DoNotOptimize(h);
                  }
                }
                BENCHMARK(BM_Xor);
                BENCHMARK_MAIN();
                """.formatted(rounds);
    }

    @Test
    void googleBenchmarksAreCountedPerOperationThroughTheRecipesOwnCommand() throws IOException {
        Tool.GOOGLE_BENCHMARK.need();
        // The recipe as it ships, counting every benchmark: they are chosen through the environment.
        String recipe = Files.readString(Path.of("../workloads/recipes/google-benchmark.yaml"));
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.write("bench/bench.cc", program(2));
        // Two trials a side and one look, as in the go test above.
        g.write(
                "perfab.yaml",
                recipe.replace("trials: 5\n", "trials: 2\nadaptive: off\n")
                        .replace("  measure: auto\n", "  measure: [instructions]\n"));
        g.commit("the benchmarks");
        g.git("checkout", "-q", "-b", "feature");
        g.write("bench/bench.cc", program(3) + """
                static void BM_New(benchmark::State& state) {
                  for (auto _ : state) benchmark::DoNotOptimize(mix(7));
                }
                BENCHMARK(BM_New);
                """);
        g.commit("a third mixing round, and a benchmark of it");
        g.git("checkout", "-q", "main");
        Cli run = ab(g);
        assertEquals(0, run.exitCode(), run.err());
        Map<String, JsonNode> rows = rows();
        assertEquals(
                new TreeSet<>(List.of(
                        "BM_Sum/16:instructions/op",
                        "BM_Sum/16:est-cycles/op",
                        "BM_Sum/256:instructions/op",
                        "BM_Sum/256:est-cycles/op",
                        "BM_Xor:instructions/op",
                        "BM_Xor:est-cycles/op",
                        "BM_New:instructions/op",
                        "BM_New:est-cycles/op")),
                new TreeSet<>(rows.keySet()));
        // The benchmark the pull request adds is counted where it is: on the head alone.
        JsonNode added = rows.get("BM_New:instructions/op");
        assertEquals(0, added.at("/base/n").asInt(), added.toString());
        assertEquals(2, added.at("/head/n").asInt(), "every trial of the head: " + added + "\n" + run.err());
        for (String sum : List.of("BM_Sum/16", "BM_Sum/256")) {
            JsonNode row = rows.get(sum + ":instructions/op");
            assertEquals("regression", row.get("verdict").asText(), row.toString());
            assertEquals(0, row.at("/base/cv").asDouble(), 0.01, "the loop's count alone, per operation: " + row);
        }
        // Sixteen bytes of two rounds: a whole number of instructions an operation, whatever the
        // iterations Google Benchmark chose, since the loop's part holds nothing else.
        double small = rows.get("BM_Sum/16:instructions/op").at("/base/mean").asDouble();
        assertEquals(Math.rint(small), small, 0.01, "per operation, exactly");
        // Google Benchmark picks each run's iterations by the clock, and the count of its own loop
        // around them is shared among them: two trials that happened to pick alike can tell a
        // difference of hundredths of a percent apart (small), never one past the bar.
        JsonNode xor = rows.get("BM_Xor:instructions/op");
        assertTrue(List.of("unchanged", "small").contains(xor.get("verdict").asText()), xor.toString());
        assertEquals(0, xor.get("pctChange").asDouble(), 0.5, xor.toString());
        String comment = Files.readString(tmp.resolve("out/comment.md"));
        assertTrue(comment.contains("moved most in mix(unsigned long)"), comment);
    }

    @Test
    void aTrialThatPassesItsBudgetStopsAndSaysHowFarItGot() throws IOException {
        Tool.GOOGLE_BENCHMARK.need();
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.write("bench/bench.cc", program(2));
        g.write("perfab.yaml", """
                name: budget
                warmup: 0
                build:
                  run: [sh, -c, 'g++ -O1 bench/*.cc -o "$PERFAB_BUILD_DIR/bench" -lbenchmark -lpthread']
                harness:
                  run: [sh, -c, '"$PERFAB_BUILD_DIR/bench"']
                  format: google-benchmark
                  measure: [instructions]
                  count: {budget: 100ms}
                """);
        g.commit("the benchmarks");
        g.git("checkout", "-q", "-b", "feature");
        g.write("x", "y");
        g.commit("nothing");
        g.git("checkout", "-q", "main");
        Cli run = ab(g);
        assertTrue(run.exitCode() != 0, run.err());
        JsonNode trial = JSON.readTree(tmp.resolve("out/results.json").toFile())
                .get("trials")
                .get(0);
        assertEquals("failed", trial.get("status").asText(), trial.toString());
        assertTrue(
                trial.get("reason")
                        .asText()
                        .matches("counting took \\d+ s, past count.budget \\(0\\.1s\\), with 1"
                                + " of 3 benchmarks counted: choose fewer with count.benchmarks, or give it more"),
                trial.toString());
    }
}
