package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.ab.Engine;
import org.perfab.report.testing.Tool;
import org.perfab.testing.Comparisons;
import org.perfab.testing.GitFixture;
import org.perfab.testing.Slowdowns;

/**
 * Real benchmark tools (go test -bench, hyperfine, Google Benchmark) as the harness of a
 * {@code perfab ab} whose head multiplies a cost: each must read the tool's own output and find the
 * slowdown, which it would not were both sides running one side's code. Skipped where the tool is
 * missing, failed there where CI requires it ({@link Tool}); the same formats read from fixtures
 * are {@link FormatsEndToEndTest}'s. A tripled go cost found as a regression through the documented recipe
 * is {@link RecipesIT#go}'s.
 */
class RealHarnessesIT {
    @TempDir
    Path tmp;

    @Test
    void goTestBenchInTheTreeMeasuresEachSidesPackage() throws IOException {
        Tool.GO.need();
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.write("go.mod", "module example.com/sum\n\ngo 1.19\n");
        g.write("sum.go", """
                package sum

                // Rounds is how many times Sum goes over its input.
                const Rounds = 1

                func Sum(xs []int) int {
                	s := 0
                	for r := 0; r < Rounds; r++ {
                		for _, x := range xs {
                			s += x * x % 7
                		}
                	}
                	return s
                }
                """);
        g.write("sum_test.go", """
                package sum

                import "testing"

                var sink int

                func BenchmarkSum(b *testing.B) {
                	xs := make([]int, 4096)
                	for i := range xs {
                		xs[i] = i
                	}
                	for i := 0; i < b.N; i++ {
                		sink += Sum(xs)
                	}
                	b.ReportMetric(float64(Rounds), "rounds/op")
                }
                """);
        // The natural set-up: go test in the working directory, the package beside the benchmark.
        g.write("perfab.yaml", """
                name: sum
                trials: 3
                warmup: 1
                harness:
                  run: [go, test, -run, '^$', -bench, ., -benchtime, 20000x, .]
                  format: go
                  timeout: 3m
                """);
        g.commit("initial");
        g.git("checkout", "-q", "-b", "feature");
        g.write("sum.go", Files.readString(g.dir().resolve("sum.go")).replace("Rounds = 1", "Rounds = 3"));
        g.commit("Sum goes over its input three times");
        Cli run = Cli.abOnThisMachine(g.dir(), tmp.resolve("out"));
        assertEquals(0, run.exitCode(), run.err());
        Map<String, JsonNode> rows = Comparisons.of(tmp.resolve("out/results.json"));
        // What each side's own code reports of itself: 1 round in the base, 3 in the head.
        JsonNode rounds = rows.get("Sum:rounds/op");
        assertEquals(1.0, rounds.at("/base/mean").asDouble(), rows.toString());
        assertEquals(3.0, rounds.at("/head/mean").asDouble());
        assertEquals("regression", rounds.get("verdict").asText());
        // And the time it took: three times the work, a tenth of a second of it in the base's trial
        // (three trials: on a busy machine the verdict may be inconclusive, never a pass).
        Slowdowns.foundOrUnconfirmed(rows.get("Sum:time"));
    }

    /** Returns a go file of benchmark functions, each with the sub-benchmarks {@code subs} gives it (none: a leaf). */
    private static String benchmarks(Map<String, List<String>> subs) {
        StringBuilder go = new StringBuilder("""
                package grow

                import "testing"

                var sink int

                var xs = make([]int, 1024)

                func run(b *testing.B, rounds int) {
                	for i := 0; i < b.N; i++ {
                		sink += Work(xs, rounds)
                	}
                	b.ReportMetric(float64(rounds), "rounds/op")
                }
                """);
        subs.forEach((function, names) -> {
            // Sum's rounds are the side's own code's; every other function's are fixed.
            String rounds = function.equals("Sum") ? "Rounds" : "1";
            go.append("\nfunc Benchmark").append(function).append("(b *testing.B) {\n");
            if (names.isEmpty()) {
                go.append("\trun(b, ").append(rounds).append(")\n");
            }
            for (String sub : names) {
                go.append("\tb.Run(\"")
                        .append(sub)
                        .append("\", func(b *testing.B) { run(b, ")
                        .append(rounds)
                        .append(sub.equals("slow") ? " * 2" : "")
                        .append(") })\n");
            }
            go.append("}\n");
        });
        return go.toString();
    }

    /**
     * A pull request that adds 8 benchmark functions to a package of 6 and triples the work of one,
     * measured in 4 shards: the slice of new functions only (Split, Join, Index) runs on the head and
     * is skipped on the base, and no shard fails. The same suite with a pattern of sub-benchmarks
     * ({@code Benchmark.*}, then {@code /fast}), which half the shards' functions have none of: only
     * the functions it runs are listed, and the merge of the shards measures every {@code fast}
     * sub-benchmark. Tripled work is found in what each side's own code reports of itself, and its
     * time is never a pass.
     */
    @Test
    void goShardsOfAGrowingSuiteAndOfSubBenchmarksEachMeasureTheirOwn() throws IOException {
        Tool.GO.need();
        Map<String, List<String>> old = new java.util.LinkedHashMap<>();
        List.of("Sum", "Parse", "Hash").forEach(f -> old.put(f, List.of("fast", "slow")));
        List.of("Encode", "Decode", "Sort").forEach(f -> old.put(f, List.of("slow")));
        Map<String, List<String>> grown = new java.util.LinkedHashMap<>(old);
        List.of("Trim", "Fields").forEach(f -> grown.put(f, List.of("fast", "slow")));
        List.of("Split", "Join", "Index", "Repeat", "Replace").forEach(f -> grown.put(f, List.of("slow")));
        grown.put("Count", List.of());
        String workload = """
                name: grown
                trials: 3
                warmup: 0
                adaptive: off
                harness:
                  run: [go, test, -run, '^$', -bench, 'BENCH', -benchtime, 2000x, .]
                  format: go
                  timeout: 3m
                """;
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.write("go.mod", "module example.com/grow\n\ngo 1.19\n");
        g.write("work.go", """
                package grow

                // Rounds is how many times Sum's benchmarks go over their input.
                const Rounds = 1

                func Work(xs []int, rounds int) int {
                	s := 0
                	for r := 0; r < rounds; r++ {
                		for _, x := range xs {
                			s += x * x % 7
                		}
                	}
                	return s
                }
                """);
        g.write("grow_test.go", benchmarks(old));
        g.write("perfab.yaml", workload.replace("BENCH", "."));
        g.write("fast.yaml", workload.replace("BENCH", "Benchmark.*/fast"));
        g.commit("six benchmark functions");
        g.git("checkout", "-q", "-b", "feature");
        g.write("grow_test.go", benchmarks(grown));
        g.write("work.go", Files.readString(g.dir().resolve("work.go")).replace("Rounds = 1", "Rounds = 3"));
        g.commit("eight more, and Sum three times the work");

        StringBuilder said = new StringBuilder();
        Map<String, JsonNode> all = shards(g, "perfab.yaml", said);
        assertTrue(
                said.toString().contains("shard 2 of 4: base lists none of the slice's 3 benchmarks"), said.toString());
        // 19 benchmarks (Count has no sub-benchmarks), each timed and reporting its rounds.
        assertEquals(2 * 19, all.size(), all.keySet().toString());
        all.forEach((cell, row) -> {
            boolean added = !old.containsKey(cell.split("[/:]")[0]);
            assertEquals(added ? 0 : 3, row.at("/base/n").asInt(), cell + ": " + row);
            assertEquals(3, row.at("/head/n").asInt(), cell + ": every trial of the head: " + row);
            if (added || cell.endsWith(":rounds/op")) {
                assertEquals(
                        added ? "no-data" : cell.startsWith("Sum/") ? "regression" : "unchanged",
                        row.get("verdict").asText(),
                        cell + ": " + row);
            }
        });
        neverAPass(all.get("Sum/fast:time"));

        Map<String, JsonNode> fast = shards(g, "fast.yaml", said);
        assertEquals(
                java.util.Set.of("Sum/fast", "Parse/fast", "Hash/fast", "Trim/fast", "Fields/fast"),
                fast.keySet().stream()
                        .map(k -> k.substring(0, k.indexOf(':')))
                        .collect(java.util.stream.Collectors.toSet()));
        assertEquals("regression", fast.get("Sum/fast:rounds/op").get("verdict").asText());
        neverAPass(fast.get("Sum/fast:time"));
    }

    /**
     * Asserts what a tripled cost timed in three trials a side of microseconds must read on a busy
     * machine: never unchanged, never an improvement (its rounds, which no neighbour moves, are the
     * regression).
     */
    private static void neverAPass(JsonNode row) {
        assertTrue(
                !List.of("unchanged", "improvement").contains(row.get("verdict").asText()), row.toString());
    }

    /**
     * Runs {@code workload} in 4 shards, each of which must succeed, and returns the rows of their
     * merge; what the shards said is added to {@code said}.
     */
    private Map<String, JsonNode> shards(GitFixture g, String workload, StringBuilder said) {
        List<String> report = new java.util.ArrayList<>(List.of("report"));
        for (int k = 1; k <= 4; k++) {
            Path out = tmp.resolve(workload + "-" + k);
            Cli run = Cli.abOnThisMachine(g.dir(), out, "--workload", workload, "--shard", k + "/4");
            assertEquals(0, run.exitCode(), workload + ", shard " + k + ": " + run.err());
            said.append(run.err());
            report.add(out.resolve("results.json").toString());
        }
        report.addAll(List.of("--format", "json"));
        Cli merged = Cli.run(Engine.REAL, report.toArray(String[]::new));
        assertEquals(0, merged.exitCode(), merged.err());
        return Comparisons.of(merged.out());
    }

    @Test
    void drivesRealHyperfineAsTheHarness() throws IOException {
        Tool.HYPERFINE.need();
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.write("nap.txt", "0.02\n");
        g.script("bench.sh", """
                #!/bin/sh
                exec hyperfine -N --runs 3 --export-json "$PERFAB_RESULT" -n nap "sleep $(cat "$PERFAB_SIDE_DIR/nap.txt")"
                """);
        // Of a nap, the CPU times are a sliver of noise: more trials would only chase them.
        g.write(
                "perfab.yaml",
                "name: hf\ntrials: 3\nwarmup: 0\nadaptive: off\nharness:\n  run: [sh, bench.sh]\n"
                        + "  format: hyperfine\n");
        g.commit("initial");
        g.git("checkout", "-q", "-b", "feature");
        g.write("nap.txt", "0.06\n");
        g.commit("a longer nap");
        Cli run = Cli.abOnThisMachine(g.dir(), tmp.resolve("out"));
        assertEquals(0, run.exitCode(), run.err());
        Map<String, JsonNode> rows = Comparisons.of(tmp.resolve("out/results.json"));
        // Three trials of a nap three times as long: a busy machine may leave it unconfirmed.
        Slowdowns.foundOrUnconfirmed(rows.get("nap:wall"));
        // One value a trial: 3, or 4 where a busy machine disturbed a trial and a fourth replaced it.
        long baseTrials = 0;
        for (JsonNode t : new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(tmp.resolve("out/results.json").toFile())
                .get("trials")) {
            if (t.get("side").asText().equals("base")
                    && !t.get("warmup").asBoolean()
                    && t.get("status").asText().equals("ok")) {
                baseTrials++;
            }
        }
        for (String metric : List.of("user", "system")) {
            JsonNode cpu = rows.get("nap:" + metric);
            assertEquals(
                    baseTrials, cpu.at("/base/n").asLong(), "hyperfine's mean of its runs, one value a trial: " + cpu);
            assertEquals("s", cpu.get("unit").asText(), cpu.toString());
        }
    }

    @Test
    void buildsAndDrivesRealGoogleBenchmark() throws IOException {
        Tool.GOOGLE_BENCHMARK.need();
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.write("bm.cc", """
                #include <benchmark/benchmark.h>
                static const int kRounds = 1000;
                static void BM_Work(benchmark::State& state) {
                  for (auto _ : state) {
                    long s = 0;
                    for (int i = 0; i < kRounds; i++) { s += (long) i * i % 7; benchmark::DoNotOptimize(s); }
                  }
                }
                BENCHMARK(BM_Work);
                BENCHMARK_MAIN();
                """);
        g.write("perfab.yaml", """
                name: gbench
                trials: 3
                warmup: 0
                build:
                  run: [sh, -c, 'g++ -O2 bm.cc -o "$PERFAB_BUILD_DIR/bm" -lbenchmark -lpthread']
                harness:
                  run: [sh, -c, '"$PERFAB_BUILD_DIR/bm" --benchmark_repetitions=3 --benchmark_min_time=0.05 --benchmark_out_format=json --benchmark_out="$PERFAB_RESULT"']
                  format: google-benchmark
                """);
        g.commit("initial");
        g.git("checkout", "-q", "-b", "feature");
        g.write("bm.cc", Files.readString(g.dir().resolve("bm.cc")).replace("kRounds = 1000", "kRounds = 3000"));
        g.commit("three times the work");
        Cli run = Cli.abOnThisMachine(g.dir(), tmp.resolve("out"));
        assertEquals(0, run.exitCode(), run.err());
        Map<String, JsonNode> rows = Comparisons.of(tmp.resolve("out/results.json"));
        // The CPU time Google Benchmark counts is the code's, whatever the neighbours do: a regression
        // at three trials. The wall time they share: a busy machine may leave it unconfirmed.
        Slowdowns.found(rows.get("BM_Work:cpu_time"));
        Slowdowns.foundOrUnconfirmed(rows.get("BM_Work:real_time"));
    }
}
