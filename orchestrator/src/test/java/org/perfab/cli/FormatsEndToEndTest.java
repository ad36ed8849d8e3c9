package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.perfab.report.testing.Golden;
import org.perfab.testing.Comparisons;
import org.perfab.testing.GitFixture;
import org.perfab.testing.Programs;
import org.perfab.testing.Slowdowns;

/** Other tools' output through {@code perfab compare} and {@code perfab ab}. */
class FormatsEndToEndTest {
    private static final String DIR = "src/test/resources/formats/";

    @TempDir
    Path tmp;

    @ParameterizedTest(name = "{0}")
    @CsvSource({"hyperfine, json", "go, txt", "google-benchmark, json", "jmh, json", "pytest-benchmark, json",
        "criterion, jsonl", "benchmarkdotnet, json", "libtest, txt", "catch2, xml", "benchmark.js, txt"})
    void comparesEachToolsOutput(String format, String ext) throws Exception {
        for (Locale locale : Golden.LOCALES) {
            Cli run = Golden.underLocale(locale, () -> Cli.run("compare", DIR + format + "-base." + ext,
                    DIR + format + "-head." + ext));
            assertEquals(0, run.exitCode(), run.err());
            Golden.assertMatches("formats/" + format + ".stdout", run.out());
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"jmh, json", "pytest-benchmark, json", "criterion, jsonl", "benchmarkdotnet, json",
        "google-benchmark, json", "hyperfine, json", "libtest, txt", "catch2, xml", "benchmark.js, txt"})
    void readsEachFormatFromAHarnessInAnAb(String format, String ext) throws IOException {
        // The harness hands over what the tool wrote: base's file on main, head's on feature.
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.write("out." + ext, Files.readString(Path.of(DIR + format + "-base." + ext)));
        g.script("bench.sh", "#!/bin/sh\ncp \"$PERFAB_SIDE_DIR/out." + ext + "\" \"$PERFAB_RESULT\"\n");
        g.write("perfab.yaml", "name: fixture\ntrials: 2\nwarmup: 0\nharness:\n  run: [sh, bench.sh]\n  format: "
                + format + "\n");
        g.commit("initial");
        g.git("checkout", "-q", "-b", "feature");
        g.write("out." + ext, Files.readString(Path.of(DIR + format + "-head." + ext)));
        g.commit("the other run");
        Cli run = Cli.run("ab", "--repo=" + g.dir(), "--base=main", "--head=feature", "--out", tmp.resolve("out").toString());
        assertEquals(0, run.exitCode(), run.err());
        JsonNode r = new ObjectMapper().readTree(tmp.resolve("out/results.json").toFile());
        assertEquals(format, r.at("/settings/format").asText());
        for (JsonNode c : r.get("comparisons")) {
            assertEquals(2, c.at("/base/n").asInt(), "one value per trial, whatever the tool repeated: " + c);
        }
        for (JsonNode t : r.get("trials")) {
            assertEquals("ok", t.get("status").asText(), t.toString());
        }
    }

    @Test
    void comparesCsvWithNamedColumns() throws IOException {
        Path base = tmp.resolve("base.csv");
        Path head = tmp.resolve("head.csv");
        Files.writeString(base, "name,ns_per_op\nparse,100\nparse,101\nparse,99\n");
        Files.writeString(head, "name,ns_per_op\nparse,120\nparse,121\nparse,119\n");
        Cli run = Cli.run("compare", "--format", "json", "--csv-columns", "cell=name,value=ns_per_op,metric=time,unit=ns",
                base.toString(), head.toString());
        assertEquals(0, run.exitCode(), run.err());
        JsonNode c = new ObjectMapper().readTree(run.out()).get("comparisons").get(0);
        assertEquals("parse:time:ns", c.get("cell").asText() + ":" + c.get("metric").asText() + ":" + c.get("unit").asText());
        assertEquals("regression", c.get("verdict").asText());
        Cli bad = Cli.run("compare", "--csv-columns", "cells=name", base.toString(), head.toString());
        assertEquals(2, bad.exitCode());
        assertTrue(bad.err().contains("--csv-columns: 'cells' is not one of cell, value, metric, unit, direction"),
                bad.err());
    }

    @Test
    void findsTheRegressionsTheFixturesHold() throws IOException {
        assertEquals("regression", verdict("hyperfine", "json", "startup:wall"));
        assertEquals("regression", verdict("pytest-benchmark", "json", "tests/test_perf.py::test_parse:time"));
        assertEquals("unchanged", verdict("pytest-benchmark", "json", "tests/test_perf.py::test_render:time"));
        assertEquals("regression", verdict("criterion", "jsonl", "parse/small:time"));
        assertEquals("regression", verdict("benchmarkdotnet", "json", "Bench.Hashing.Md5:time"));
    }

    private String verdict(String format, String ext, String key) throws IOException {
        Cli run = Cli.run("compare", "--format", "json", DIR + format + "-base." + ext, DIR + format + "-head." + ext);
        return Comparisons.of(run.out()).get(key).get("verdict").asText();
    }

    @Test
    void takesSeveralFilesPerSideAsMoreRepetitions() throws IOException {
        // A second run's file: one file given twice is refused (its values would count twice).
        Path again = tmp.resolve("go-base-2.txt");
        Files.copy(Path.of(DIR + "go-base.txt"), again);
        Cli run = Cli.run("compare", "--format", "json", "--base", DIR + "go-base.txt", again.toString(),
                "--head", DIR + "go-head.txt");
        assertEquals(0, run.exitCode(), run.err());
        JsonNode first = new ObjectMapper().readTree(run.out()).get("comparisons").get(0);
        assertEquals(6, first.at("/base/n").asInt());
        assertEquals(3, first.at("/head/n").asInt());
        Cli wrong = Cli.run("compare", "--format-in", "jmh", DIR + "go-base.txt", DIR + "go-head.txt");
        assertEquals(2, wrong.exitCode());
        assertTrue(wrong.err().contains("go-base.txt:1:1: malformed JSON"), wrong.err());
        Cli unknown = Cli.run("compare", "--format-in", "csv2", DIR + "go-base.txt", DIR + "go-head.txt");
        assertEquals(2, unknown.exitCode());
        assertTrue(unknown.err().contains("--format-in: unknown format 'csv2' (known: perfab-json, hyperfine"), unknown.err());
    }

    @Test
    void readsAHarnessThatPrintsGoBenchmarkLines() throws IOException {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.write("level.txt", "1000\n");
        g.script("bench.sh", """
                #!/bin/sh
                level=$(cat "$PERFAB_SIDE_DIR/level.txt")
                echo "goos: linux"
                for i in 1 2 3; do
                  echo "BenchmarkWork-2   	 1000	 $(( level + i ))  ns/op	  16 B/op	  1 allocs/op"
                done
                echo PASS
                """);
        g.write("perfab.yaml", "name: gobench\ntrials: 3\nwarmup: 0\nharness:\n  run: [sh, bench.sh]\n  format: go\n");
        g.commit("initial");
        g.git("checkout", "-q", "-b", "feature");
        g.write("level.txt", "1200\n");
        g.commit("slower");
        Cli run = Cli.run("ab", "--repo=" + g.dir(), "--base=main", "--head=feature", "--out", tmp.resolve("out").toString());
        assertEquals(0, run.exitCode(), run.err());
        JsonNode work = Comparisons.of(tmp.resolve("out/results.json")).get("Work:time");
        assertEquals("Work", work.get("cell").asText());
        assertEquals(1002.0, work.at("/base/mean").asDouble(), 1e-9, "one value per trial: the mean of its -count lines");
        assertEquals(3, work.at("/base/n").asInt());
        assertEquals("regression", work.get("verdict").asText());
    }

    @Test
    void readsAHarnessThatPrintsCsvWithTheWorkloadsColumns() throws IOException {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.write("level.txt", "50\n");
        g.script("bench.sh", """
                #!/bin/sh
                level=$(cat "$PERFAB_SIDE_DIR/level.txt")
                echo "benchmark,requests_per_s"
                echo "api/get,$(( level * 100 + PERFAB_TRIAL % 2 ))"
                """);
        g.write("perfab.yaml", "name: csv\ntrials: 3\nwarmup: 0\nharness:\n  run: [sh, bench.sh]\n  format: csv\n"
                + "  csv: {cell: benchmark, value: requests_per_s, metric: throughput, unit: req/s}\n");
        g.commit("initial");
        g.git("checkout", "-q", "-b", "feature");
        g.write("level.txt", "40\n");
        g.commit("fewer requests");
        Cli run = Cli.run("ab", "--repo=" + g.dir(), "--base=main", "--head=feature", "--out", tmp.resolve("out").toString());
        assertEquals(0, run.exitCode(), run.err());
        JsonNode c = new ObjectMapper().readTree(tmp.resolve("out/results.json").toFile()).get("comparisons").get(0);
        assertEquals("api/get:throughput", c.get("cell").asText() + ":" + c.get("metric").asText());
        assertEquals("higher", c.get("direction").asText());
        assertEquals("regression", c.get("verdict").asText());
    }

    @Test
    void drivesRealHyperfineAsTheHarness() throws IOException {
        assumeTrue(Programs.onPath("hyperfine"), "hyperfine is not installed");
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.write("nap.txt", "0.02\n");
        g.script("bench.sh", """
                #!/bin/sh
                exec hyperfine -N --runs 3 --export-json "$PERFAB_RESULT" -n nap "sleep $(cat "$PERFAB_SIDE_DIR/nap.txt")"
                """);
        // Of a nap, the CPU times are a sliver of noise: more trials would only chase them.
        g.write("perfab.yaml", "name: hf\ntrials: 3\nwarmup: 0\nadaptive: off\nharness:\n  run: [sh, bench.sh]\n"
                + "  format: hyperfine\n");
        g.commit("initial");
        g.git("checkout", "-q", "-b", "feature");
        g.write("nap.txt", "0.06\n");
        g.commit("a longer nap");
        Cli run = Cli.run("ab", "--repo=" + g.dir(), "--base=main", "--head=feature", "--out", tmp.resolve("out").toString());
        assertEquals(0, run.exitCode(), run.err());
        Map<String, JsonNode> rows = Comparisons.of(tmp.resolve("out/results.json"));
        // Three trials of a nap three times as long: a busy machine may leave it unconfirmed.
        Slowdowns.foundOrUnconfirmed(rows.get("nap:wall"));
        for (String metric : List.of("user", "system")) {
            JsonNode cpu = rows.get("nap:" + metric);
            assertEquals(3, cpu.at("/base/n").asInt(), "hyperfine's mean of its runs, one value a trial: " + cpu);
            assertEquals("s", cpu.get("unit").asText(), cpu.toString());
        }
    }

    @Test
    void drivesRealGoTestBench() throws IOException {
        assumeTrue(Programs.onPath("go"), "go is not installed");
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.write("go.mod", "module example.com/w\n\ngo 1.19\n");
        g.write("work.go", "package w\n\nconst rounds = 2000\n\nfunc Work() int {\n\ts := 0\n"
                + "\tfor i := 0; i < rounds; i++ {\n\t\ts += i * i % 7\n\t}\n\treturn s\n}\n");
        g.write("work_test.go", "package w\n\nimport \"testing\"\n\nvar sink int\n\n"
                + "func BenchmarkWork(b *testing.B) {\n\tfor i := 0; i < b.N; i++ {\n\t\tsink += Work()\n\t}\n}\n");
        g.script("bench.sh", """
                #!/bin/sh
                export GOCACHE="$TMPDIR/gocache" GOPATH="$TMPDIR/gopath" GOFLAGS=-mod=mod HOME="$TMPDIR"
                cd "$PERFAB_SIDE_DIR" && exec go test -run '^$' -bench . -benchtime 20000x -count 2 .
                """);
        g.write("perfab.yaml", "name: go\ntrials: 5\nwarmup: 1\nharness:\n  run: [sh, bench.sh]\n  format: go\n"
                + "  timeout: 2m\n");
        g.commit("initial");
        g.git("checkout", "-q", "-b", "feature");
        g.write("work.go", Files.readString(g.dir().resolve("work.go")).replace("2000", "6000"));
        g.commit("three times the work");
        // Rounds of five more trials while the cell is undecided: a loaded machine's slow trials can
        // leave five of them short of confirming a tripled cost, never fifteen.
        Cli run = Cli.run("ab", "--repo=" + g.dir(), "--base=main", "--head=feature", "--adaptive", "15", "--out",
                tmp.resolve("out").toString());
        assertEquals(0, run.exitCode(), run.err());
        Map<String, JsonNode> rows = Comparisons.of(tmp.resolve("out/results.json"));
        Slowdowns.found(rows.get("Work:time"));
    }

    @Test
    void buildsAndDrivesRealGoogleBenchmark() throws IOException {
        assumeTrue(Programs.onPath("g++") && Files.exists(Path.of("/usr/include/benchmark/benchmark.h")),
                "g++ or Google Benchmark is not installed");
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
        Cli run = Cli.run("ab", "--repo=" + g.dir(), "--base=main", "--head=feature", "--out", tmp.resolve("out").toString());
        assertEquals(0, run.exitCode(), run.err());
        Map<String, JsonNode> rows = Comparisons.of(tmp.resolve("out/results.json"));
        // The CPU time Google Benchmark counts is the code's, whatever the neighbours do: a regression
        // at three trials. The wall time they share: a busy machine may leave it unconfirmed.
        Slowdowns.found(rows.get("BM_Work:cpu_time"));
        Slowdowns.foundOrUnconfirmed(rows.get("BM_Work:real_time"));
    }
}
