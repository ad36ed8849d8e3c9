package org.perfab.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.perfab.failure.BadInputException;
import org.perfab.ingest.CsvFormat;
import org.perfab.model.Cell;
import org.perfab.model.CellId;
import org.perfab.stats.Direction;
import org.perfab.stats.ThresholdSettings;
import org.perfab.stats.Thresholds;

class WorkloadLoaderTest {
    @Test
    void readsTheShippedExample() throws IOException {
        String yaml;
        try (InputStream in = getClass().getResourceAsStream("/org/perfab/workloads/example.yaml")) {
            yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Workload w = WorkloadLoader.parse(yaml, "example.yaml");
        assertEquals("broker-pr", w.name());
        assertEquals(5, w.trials());
        assertEquals(1, w.warmup());
        assertEquals(List.of("make", "-j2", "bench"), w.build().orElseThrow().run());
        assertEquals(Duration.ofMinutes(20), w.build().orElseThrow().timeout());
        assertEquals(Workload.From.HEAD, w.harness().from());
        assertEquals(List.of(List.of("sh", "scripts/bench.sh")), w.harness().argvs());
        assertEquals(Duration.ofMinutes(5), w.harness().timeout());
        assertTrue(w.isProfile(new Cell("batched/1KiB", "p50", "ms", Direction.LOWER_IS_BETTER)));
        assertFalse(w.isProfile(new Cell("batched/1KiB", "throughput", "msg/s", Direction.HIGHER_IS_BETTER)));
        assertEquals(Optional.of(3.0), w.thresholds().minEffect());
    }

    @Test
    void readsBuildsAndSeedAndRefusesWhatCannotRun() {
        Workload w = WorkloadLoader.parse(
                "name: x\ntrials: 6\nadaptive: off\nbuilds: 3\nseed: 42\nharness: {run: [./bench]}\n", "w.yaml");
        assertEquals(Optional.of(3), w.builds());
        assertEquals(Optional.of(42L), w.seed());
        Workload none = WorkloadLoader.parse("name: x\nharness: {run: [./bench]}\n", "w.yaml");
        assertEquals(Optional.empty(), none.builds());
        assertEquals(Optional.empty(), none.seed());
        BadInputException zero = assertThrows(
                BadInputException.class,
                () -> WorkloadLoader.parse("name: x\nbuilds: 0\nharness: {run: [./bench]}\n", "w.yaml"));
        assertTrue(zero.getMessage().contains("'builds' must be from 1 to 20, got 0"), zero.getMessage());
        BadInputException few = assertThrows(
                BadInputException.class,
                () -> WorkloadLoader.parse(
                        "name: x\ntrials: 2\nadaptive: off\nbuilds: 3\nharness: {run: [./bench]}\n", "w.yaml"));
        assertTrue(few.getMessage().contains("'builds' (3) is more than 'trials' (2)"), few.getMessage());
        BadInputException adaptive = assertThrows(
                BadInputException.class,
                () -> WorkloadLoader.parse(
                        "name: x\ntrials: 6\nadaptive: 20\nbuilds: 3\nharness: {run: [./bench]}\n", "w.yaml"));
        assertTrue(adaptive.getMessage().contains("'adaptive' needs one build per side"), adaptive.getMessage());
    }

    @Test
    void readsWhatToMeasureAndCountsNeedTwoTrials() {
        Workload timed = WorkloadLoader.parse("name: x\nharness:\n  format: time\n  commands: {a: [./a]}\n", "w.yaml");
        assertEquals(Workload.Measure.TIMED, timed.harness().measure());
        assertEquals(Workload.DEFAULT_TRIALS, timed.trials());
        Workload counted = WorkloadLoader.parse(
                "name: x\nharness:\n  format: time\n  measure: [instructions]\n  commands: {a: [./a]}\n", "w.yaml");
        assertEquals(List.of(Workload.Measure.INSTRUCTIONS), counted.harness().measure());
        assertTrue(counted.harness().counted());
        assertEquals(2, counted.trials(), "counts barely vary");
        Workload whole = WorkloadLoader.parse("name: x\nharness: {run: [./bench], measure: [hw-cycles]}\n", "w.yaml");
        assertEquals(List.of(Workload.Measure.HW_CYCLES), whole.harness().measure());
        Workload reported = WorkloadLoader.parse("name: x\nharness: {run: [./bench]}\n", "w.yaml");
        assertEquals(List.of(), reported.harness().measure());
        assertFalse(reported.harness().counted());
        for (String[] bad : new String[][] {
            {
                "harness: {run: [./bench], measure: [wall]}",
                "harness measure 'wall' is a timing perfab takes of 'commands' with format: time"
            },
            {
                "harness: {format: time, commands: {a: [./a]}, measure: [instructions, instructions]}",
                "harness measure 'instructions' is listed twice"
            },
            {
                "harness: {format: time, commands: {a: [./a]}, measure: [ticks]}",
                "harness measure 'ticks' is not known"
                        + " (known: wall, cpu, maxrss, instructions, hw-instructions, hw-cycles)"
            },
            {
                "harness: {format: time, commands: {a: [./a]}, measure: []}",
                "harness 'measure' lists what perfab measures"
            },
            {
                "harness: {run: [./b], shard: {list: [./b, -l], filter: [--only]}}",
                "harness shard 'filter' is the"
                        + " arguments that run a slice of the benchmarks, one of them with {regex}"
            },
            {"harness: {run: [./b], shard: {filter: ['{regex}']}}", "harness shard 'list' must be a non-empty list"},
            {"harness: {run: [./b], shard: {list: [./b], filter: ['{regex}'], only: x}}", "only"},
            {
                "harness: {format: time, commands: {a: [./a]}, shard: {list: [./b], filter: ['{regex}']}}",
                "harness 'shard' lists and filters the benchmarks of a 'run' harness"
            }
        }) {
            BadInputException e = assertThrows(
                    BadInputException.class, () -> WorkloadLoader.parse("name: x\n" + bad[0] + "\n", "w.yaml"));
            assertTrue(e.getMessage().contains(bad[1]), e.getMessage());
        }
    }

    @Test
    void readsWhichGoBenchmarksToCountAndRefusesWhatCannotBeCountedOneAtATime() {
        Workload go = WorkloadLoader.parse(
                "name: x\nharness:\n  run: [go, test, -bench, ., ./hash]\n  format: go\n"
                        + "  measure: [wall, instructions]\n  count: {benchmarks: '^Sum/', budget: 20m}\n",
                "w.yaml");
        assertTrue(go.harness().perBenchmark());
        assertFalse(go.harness().counted(), "go test's own timings too");
        assertEquals("^Sum/", go.harness().count().benchmarks().orElseThrow().pattern());
        assertEquals(
                Optional.of(java.time.Duration.ofMinutes(20)),
                go.harness().count().budget());
        Workload whole = WorkloadLoader.parse("name: x\nharness: {run: [./bench], format: go}\n", "w.yaml");
        assertFalse(whole.harness().perBenchmark(), "timed alone");
        Workload auto = WorkloadLoader.parse(
                "name: x\nharness:\n  run: [go, test, -bench, .]\n  format: go\n"
                        + "  measure: auto\n  count: {benchmarks: '^Sum/'}\n",
                "w.yaml");
        assertTrue(
                auto.harness().perBenchmark() && auto.harness().count().auto(), "timed, counted where it cannot tell");
        assertEquals(
                List.of(Workload.Measure.WALL, Workload.Measure.INSTRUCTIONS),
                auto.harness().measure());
        assertEquals("^Sum/", auto.harness().count().benchmarks().orElseThrow().pattern());
        assertFalse(go.harness().count().auto());
        for (String[] bad : new String[][] {
            {
                "harness: {run: [sh, -c, 'go test -bench .'], format: go, measure: [instructions]}",
                "counting each benchmark of format go needs 'run' to be go test itself"
            },
            {"harness: {run: [go, test, -bench, .], format: go, measure: [wall]}", "list instructions too"},
            {
                "harness: {run: [./bench], count: {benchmarks: x}}",
                "harness 'count' chooses the benchmarks of format go or google-benchmark"
            },
            {
                "harness: {run: [go, test, -bench, .], format: go, measure: [instructions], count: {benchmarks: '('}}",
                "harness count.benchmarks '(' is not a regular expression"
            },
            {"harness: {run: [go, test, -bench, .], format: go, measure: [instructions], count: {bench: x}}", "bench"},
            {
                "harness: {run: [./bench], format: pytest-benchmark, measure: auto}",
                "format pytest-benchmark names no benchmarks perfab can count one at a time"
            },
            {
                "harness: {run: [go, test, -bench, .], format: go, measure: always}",
                "harness 'measure' is a list of what perfab measures (such as [instructions]) or auto, not always"
            }
        }) {
            BadInputException e = assertThrows(
                    BadInputException.class, () -> WorkloadLoader.parse("name: x\n" + bad[0] + "\n", "w.yaml"));
            assertTrue(e.getMessage().contains(bad[1]), e.getMessage());
            assertTrue(e.getMessage().contains("w.yaml"), "names the file: " + e.getMessage());
        }
    }

    @Test
    void readsAFalseDiscoveryRate() {
        Workload w = WorkloadLoader.parse("name: x\nharness: {run: [./bench]}\nthresholds: {fdr: 0.05}\n", "w.yaml");
        assertEquals(Optional.of(0.05), w.thresholds().fdr());
        assertEquals(0.05, w.thresholds().over(Thresholds.DEFAULT).fdr());
    }

    @Test
    void readsTheOutlierFloorAndTheUnderpoweredCut() {
        Workload w = WorkloadLoader.parse(
                "name: x\nharness: {run: [./bench]}\nthresholds: {min_effect: 5,"
                        + " outlier_floor: 2, noisy_above: 8}\n",
                "w.yaml");
        Thresholds t = w.thresholds().over(Thresholds.DEFAULT);
        assertEquals(2.0, t.effectiveOutlierFloor());
        assertEquals(8.0, t.effectiveNoisyAbove());
        BadInputException e = assertThrows(
                BadInputException.class,
                () -> WorkloadLoader.parse(
                        "name: x\nharness: {run: [./bench]}\nthresholds:\n  alpha: 0.05\n  outlier_floor: -3\n",
                        "w.yaml"));
        assertTrue(
                e.getMessage().startsWith("w.yaml:")
                        && e.getMessage().contains("outlier_floor must be a percentage >= 0, got -3.0"),
                e.getMessage());
    }

    @Test
    void readsTheBaselineACellIsARatioOf() {
        Workload w = WorkloadLoader.parse(
                "name: x\nharness: {run: [./bench]}\ncells:\n  - match: 'bpe/*'\n"
                        + "    ratio_to: unigram\n  - match: 'indel/*'\n    ratio_to: 'base:ns'\n",
                "w.yaml");
        assertEquals(
                Optional.of(new CellId("unigram", "time")),
                w.ratioTo(new Cell("bpe/encode", "time", "ns", Direction.LOWER_IS_BETTER)));
        assertEquals(
                Optional.of(new CellId("base", "ns")),
                w.ratioTo(new Cell("indel/512", "time", "ns", Direction.LOWER_IS_BETTER)));
        assertEquals(Optional.empty(), w.ratioTo(new Cell("other", "time", "ns", Direction.LOWER_IS_BETTER)));
        BadInputException e = assertThrows(
                BadInputException.class,
                () -> WorkloadLoader.parse(
                        "name: x\nharness: {run: [./bench]}\ncells:\n  - match: a\n    ratio_to: 'a:b:c'\n", "w.yaml"));
        assertTrue(e.getMessage().contains("w.yaml:5:15: 'ratio_to' is NAME or NAME:METRIC"), e.getMessage());
    }

    @Test
    void fillsDefaults() {
        Workload w = WorkloadLoader.parse("name: x\nharness:\n  run: [./bench]\n", "w.yaml");
        assertEquals(Workload.DEFAULT_TRIALS, w.trials());
        assertEquals(Workload.DEFAULT_WARMUP, w.warmup());
        assertTrue(w.build().isEmpty());
        assertEquals("perfab-json", w.harness().format().id());
        assertEquals(Workload.Harness.DEFAULT_TIMEOUT, w.harness().timeout());
        assertEquals(ThresholdSettings.NONE, w.thresholds());
    }

    @Test
    void readsTimedCommandsInOrder() {
        Workload w = WorkloadLoader.parse("""
                name: cli
                harness:
                  from: self
                  format: time
                  commands:
                    startup: [./app, --version]
                    convert: [./app, convert, in.txt]
                """, "w.yaml");
        assertEquals(Workload.From.SELF, w.harness().from());
        assertEquals(
                List.of("startup", "convert"),
                List.copyOf(((Workload.Timed) w.harness().format()).commands().keySet()));
    }

    @Test
    void readsCsvColumns() {
        Workload w = WorkloadLoader.parse("""
                name: x
                harness:
                  run: [./bench]
                  format: csv
                  csv: {cell: name, value: ns_per_op, unit: ns}
                """, "w.yaml");
        assertEquals(
                new CsvFormat.Columns("name", "ns_per_op", "metric", "ns", "direction"),
                ((CsvFormat) ((Workload.Read) w.harness().format()).format()).columns());
        BadInputException e = assertThrows(
                BadInputException.class,
                () -> WorkloadLoader.parse("name: x\nharness:\n  run: [b]\n  csv: {cell: n}\n", "w.yaml"));
        assertTrue(e.getMessage().contains("harness 'csv' columns are only for format 'csv'"), e.getMessage());
        BadInputException typo = assertThrows(
                BadInputException.class,
                () -> WorkloadLoader.parse(
                        "name: x\nharness:\n  run: [b]\n  format: csv\n  csv: {cel: n}\n", "w.yaml"));
        assertTrue(typo.getMessage().contains("w.yaml:5:9: unknown key 'cel' in harness.csv"), typo.getMessage());
    }

    @Test
    void firstMatchingPolicyWins() {
        Workload w = WorkloadLoader.parse("""
                name: x
                harness: {run: [b]}
                cells:
                  - {match: "batched/*:p50", role: measure}
                  - {match: "batched/**", role: profile}
                """, "w.yaml");
        assertFalse(w.isProfile(new Cell("batched/a", "p50", "ms", Direction.LOWER_IS_BETTER)));
        assertTrue(w.isProfile(new Cell("batched/a", "p99", "ms", Direction.LOWER_IS_BETTER)));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '`',
            value = {
                "unknown top key|`name: x\nharness: {run: [b]}\ntrails: 5\n`|w.yaml:3:1: unknown key 'trails' (expected one of: adaptive, build, builds, cells, harness, name, seed, submodules, test, thresholds, trials, warmup)",
                "unknown nested key|`name: x\nharness:\n  run: [b]\n  fromm: head\n`|w.yaml:4:3: unknown key 'fromm' in harness (expected one of: commands, count, cpus, csv, files, format, from, measure, run, shard, timeout)",
                "missing name|`harness: {run: [b]}\n`|w.yaml:2:1: 'name' is required",
                "missing harness|`name: x\n`|'harness' is required",
                "too few trials|`name: x\ntrials: 1\nharness: {run: [b]}\n`|'trials' must be from 2",
                "too many trials|`name: x\ntrials: 200000000\nharness: {run: [b]}\n`|'trials' must be from 2 (a side needs 2 values to compare) to 1000, got 200000000",
                "too many warm-ups|`name: x\nwarmup: 5000\nharness: {run: [b]}\n`|'warmup' must be from 0 to 100",
                "a huge timeout|`name: x\nharness:\n  run: [b]\n  timeout: 999999999999h\n`|harness timeout '999999999999h' is longer than the most perfab allows (168h)",
                "a timeout past a long|`name: x\nbuild:\n  run: [b]\n  timeout: 99999999999999999999999s\n`|build timeout '99999999999999999999999s' is longer than the most perfab allows",
                "a harness file outside the tree|`name: x\nharness:\n  run: [b]\n  files: [../../etc/passwd]\n`|harness files: '../../etc/passwd' is not a path inside the repository",
                "an absolute harness file|`name: x\nharness:\n  run: [b]\n  files: [/etc/passwd]\n`|harness files: '/etc/passwd' is not a path inside the repository",
                "harness files with self|`name: x\nharness:\n  run: [b]\n  from: self\n  files: [a.sh]\n`|harness 'files' are copied from the head; with 'from: self'",
                "trials not a number|`name: x\ntrials: many\nharness: {run: [b]}\n`|w.yaml:2:9: 'many' is not a valid a whole number (at trials)",
                "bad timeout|`name: x\nharness:\n  run: [b]\n  timeout: 5 minutes\n`|harness timeout '5 minutes' is not a duration",
                "bad from|`name: x\nharness:\n  run: [b]\n  from: base\n`|w.yaml:4:9: 'base' is not a valid value (one of: head, self) (at harness.from)",
                "unknown format|`name: x\nharness: {run: [b], format: jmh-text}\n`|harness format 'jmh-text' is not known (known: perfab-json, hyperfine, go, google-benchmark, jmh, pytest-benchmark, criterion, benchmarkdotnet, libtest, catch2, benchmark.js, csv, time)",
                "run as a string|`name: x\nharness:\n  run: ./bench.sh --all\n`|w.yaml:3:8: expected a list (at harness.run)",
                "empty run|`name: x\nharness: {run: []}\n`|harness 'run' must be a non-empty list",
                "time without commands|`name: x\nharness: {format: time}\n`|harness format 'time' needs 'commands'",
                "bad glob|`name: x\nharness: {run: [b]}\ncells:\n  - match: a:b:c\n`|cell pattern 'a:b:c' has more than one ':'",
                "bad role|`name: x\nharness: {run: [b]}\ncells:\n  - {match: a, role: ignore}\n`|'ignore' is not a valid value (one of: measure, profile)",
                "duplicate key|`name: x\nname: y\nharness: {run: [b]}\n`|w.yaml:2:1: key 'name' appears twice",
                "not yaml|`name: [x\n`|w.yaml:",
                "a list at the root|`- a\n- b\n`|w.yaml:1:1: expected an object",
            })
    void rejectsABadWorkloadNamingLineAndColumn(String what, String yaml, String message) {
        BadInputException e = assertThrows(BadInputException.class, () -> WorkloadLoader.parse(yaml, "w.yaml"));
        assertTrue(e.getMessage().startsWith("w.yaml"), e.getMessage());
        assertTrue(e.getMessage().contains(message), "expected '" + message + "' in: " + e.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '`',
            value = {
                "too few trials|`name: x\ntrials: 1\nharness: {run: [b]}\n`|w.yaml:2:9: 'trials' must be from 2",
                "a bad timeout|`name: x\nharness:\n  run: [b]\n  timeout: 5 minutes\n\n\n`|w.yaml:4:12: harness timeout '5 minutes'",
                "a bad cpu list|`name: x\nharness:\n  run: [b]\n  cpus: zero\n`|w.yaml:4:9: harness cpus 'zero'",
                "a bad cell pattern|`name: x\nharness: {run: [b]}\ncells:\n  - match: a\n  - match: a:b:c\n`|w.yaml:5:12: cell pattern 'a:b:c'",
                "an empty command|`name: x\nharness:\n  format: time\n  commands:\n    app: []\n`|w.yaml:5:10: harness command 'app' must be a non-empty list",
                "a bad build env|`name: x\nbuild:\n  run: [make]\n  env: {'A=B': c}\nharness: {run: [b]}\n`|w.yaml:4:8: build env: 'A=B'",
            })
    void pointsAtTheValueItRefusesNotTheEndOfTheFile(String what, String yaml, String message) {
        BadInputException e = assertThrows(BadInputException.class, () -> WorkloadLoader.parse(yaml, "w.yaml"));
        assertTrue(e.getMessage().startsWith(message), "expected '" + message + "' at the start of: " + e.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '`',
            value = {
                "an alias for a string|`name: &n demo\nharness:\n  run: [*n]\n`|w.yaml:3:9: a YAML alias (*n) is not supported",
                "an alias for an object|`name: x\nharness: &h {run: [b]}\nbuild: *h\n`|w.yaml:3:8: a YAML alias (*h) is not supported",
                "a merge key|`name: x\nbase: &b {run: [b]}\n`|unknown key 'base'",
            })
    void refusesYamlAliasesWhichWouldReadAsTheirNames(String what, String yaml, String message) {
        BadInputException e = assertThrows(BadInputException.class, () -> WorkloadLoader.parse(yaml, "w.yaml"));
        assertTrue(e.getMessage().contains(message), "expected '" + message + "' in: " + e.getMessage());
    }

    @Test
    void rejectsAnEmptyFile() {
        BadInputException e = assertThrows(BadInputException.class, () -> WorkloadLoader.parse("\n", "w.yaml"));
        assertEquals("w.yaml: the workload file is empty", e.getMessage());
    }
}
