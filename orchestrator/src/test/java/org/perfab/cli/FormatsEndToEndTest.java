package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.Resources;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.perfab.exec.Processes;
import org.perfab.report.testing.Golden;
import org.perfab.testing.Comparisons;
import org.perfab.testing.FakeEngine;
import org.perfab.testing.GitFixture;

/** Other tools' output through {@code perfab compare} and {@code perfab ab}. */
@ResourceLock(Resources.LOCALE)
class FormatsEndToEndTest {
    private static final String DIR = "src/test/resources/formats/";

    /** Returns the {@code level.txt} of the side {@code c} runs in, as each script reads it. */
    private static long level(Processes.Command c) throws IOException {
        return Long.parseLong(
                Files.readString(Path.of(c.env().get("PERFAB_SIDE_DIR")).resolve("level.txt"))
                        .strip());
    }

    @TempDir
    Path tmp;

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "hyperfine, json",
        "go, txt",
        "google-benchmark, json",
        "jmh, json",
        "pytest-benchmark, json",
        "criterion, jsonl",
        "benchmarkdotnet, json",
        "libtest, txt",
        "catch2, xml",
        "benchmark.js, txt"
    })
    void comparesEachToolsOutput(String format, String ext) throws Exception {
        for (Locale locale : Golden.LOCALES) {
            Cli run = Golden.underLocale(
                    locale, () -> Cli.run("compare", DIR + format + "-base." + ext, DIR + format + "-head." + ext));
            assertEquals(0, run.exitCode(), run.err());
            Golden.assertMatches("formats/" + format + ".stdout", run.out());
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "jmh, json",
        "pytest-benchmark, json",
        "criterion, jsonl",
        "benchmarkdotnet, json",
        "google-benchmark, json",
        "hyperfine, json",
        "libtest, txt",
        "catch2, xml",
        "benchmark.js, txt"
    })
    void readsEachFormatFromAHarnessInAnAb(String format, String ext) throws IOException {
        // The harness hands over what the tool wrote: base's file on main, head's on feature.
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.write("out." + ext, Files.readString(Path.of(DIR + format + "-base." + ext)));
        g.script("bench.sh", "#!/bin/sh\ncp \"$PERFAB_SIDE_DIR/out." + ext + "\" \"$PERFAB_RESULT\"\n");
        g.write(
                "perfab.yaml",
                "name: fixture\ntrials: 2\nwarmup: 0\nharness:\n  run: [sh, bench.sh]\n  format: " + format + "\n");
        g.commit("initial");
        g.git("checkout", "-q", "-b", "feature");
        g.write("out." + ext, Files.readString(Path.of(DIR + format + "-head." + ext)));
        g.commit("the other run");
        FakeEngine fake = new FakeEngine().program("bench.sh", c -> {
            Files.copy(
                    Path.of(c.env().get("PERFAB_SIDE_DIR")).resolve("out." + ext),
                    Path.of(c.env().get("PERFAB_RESULT")),
                    StandardCopyOption.REPLACE_EXISTING);
            return FakeEngine.ok(0.01);
        });
        Cli run = Cli.ab(fake.engine(), g.dir(), tmp.resolve("out"));
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
        Cli run = Cli.run(
                "compare",
                "--format",
                "json",
                "--csv-columns",
                "cell=name,value=ns_per_op,metric=time,unit=ns",
                base.toString(),
                head.toString());
        assertEquals(0, run.exitCode(), run.err());
        JsonNode c = new ObjectMapper().readTree(run.out()).get("comparisons").get(0);
        assertEquals(
                "parse:time:ns",
                c.get("cell").asText() + ":" + c.get("metric").asText() + ":"
                        + c.get("unit").asText());
        assertEquals("regression", c.get("verdict").asText());
        Cli bad = Cli.run("compare", "--csv-columns", "cells=name", base.toString(), head.toString());
        assertEquals(2, bad.exitCode());
        assertTrue(
                bad.err().contains("--csv-columns: 'cells' is not one of cell, value, metric, unit, direction"),
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
        Cli run = Cli.run(
                "compare",
                "--format",
                "json",
                "--base",
                DIR + "go-base.txt",
                again.toString(),
                "--head",
                DIR + "go-head.txt");
        assertEquals(0, run.exitCode(), run.err());
        JsonNode first =
                new ObjectMapper().readTree(run.out()).get("comparisons").get(0);
        assertEquals(6, first.at("/base/n").asInt());
        assertEquals(3, first.at("/head/n").asInt());
        Cli wrong = Cli.run("compare", "--format-in", "jmh", DIR + "go-base.txt", DIR + "go-head.txt");
        assertEquals(2, wrong.exitCode());
        assertTrue(wrong.err().contains("go-base.txt:1:1: malformed JSON"), wrong.err());
        Cli unknown = Cli.run("compare", "--format-in", "csv2", DIR + "go-base.txt", DIR + "go-head.txt");
        assertEquals(2, unknown.exitCode());
        assertTrue(
                unknown.err().contains("--format-in: unknown format 'csv2' (known: perfab-json, hyperfine"),
                unknown.err());
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
        FakeEngine fake = new FakeEngine().program("bench.sh", c -> {
            long level = level(c);
            StringBuilder out = new StringBuilder("goos: linux\n");
            for (int i = 1; i <= 3; i++) {
                out.append("BenchmarkWork-2   \t 1000\t ")
                        .append(level + i)
                        .append("  ns/op\t  16 B/op\t  1 allocs/op\n");
            }
            Files.writeString(c.stdout(), out.append("PASS\n"));
            return FakeEngine.ok(0.01);
        });
        Cli run = Cli.ab(fake.engine(), g.dir(), tmp.resolve("out"));
        assertEquals(0, run.exitCode(), run.err());
        JsonNode work = Comparisons.of(tmp.resolve("out/results.json")).get("Work:time");
        assertEquals("Work", work.get("cell").asText());
        assertEquals(
                1002.0, work.at("/base/mean").asDouble(), 1e-9, "one value per trial: the mean of its -count lines");
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
        g.write(
                "perfab.yaml",
                "name: csv\ntrials: 3\nwarmup: 0\nharness:\n  run: [sh, bench.sh]\n  format: csv\n"
                        + "  csv: {cell: benchmark, value: requests_per_s, metric: throughput, unit: req/s}\n");
        g.commit("initial");
        g.git("checkout", "-q", "-b", "feature");
        g.write("level.txt", "40\n");
        g.commit("fewer requests");
        FakeEngine fake = new FakeEngine().program("bench.sh", c -> {
            long value = level(c) * 100 + Long.parseLong(c.env().get("PERFAB_TRIAL")) % 2;
            Files.writeString(c.stdout(), "benchmark,requests_per_s\napi/get," + value + "\n");
            return FakeEngine.ok(0.01);
        });
        Cli run = Cli.ab(fake.engine(), g.dir(), tmp.resolve("out"));
        assertEquals(0, run.exitCode(), run.err());
        JsonNode c = new ObjectMapper()
                .readTree(tmp.resolve("out/results.json").toFile())
                .get("comparisons")
                .get(0);
        assertEquals(
                "api/get:throughput",
                c.get("cell").asText() + ":" + c.get("metric").asText());
        assertEquals("higher", c.get("direction").asText());
        assertEquals("regression", c.get("verdict").asText());
    }
}
