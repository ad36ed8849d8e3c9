package org.perfab.ab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.perfab.ingest.Formats;
import org.perfab.ingest.MeasurementFormat;

/**
 * What counting one benchmark at a time makes of a harness's command and of a benchmark's name, and
 * which tools count.
 */
class PerBenchmarkTest {
    private static Optional<PerBenchmark> go(String... argv) {
        return new GoTool().counter(List.of(argv), Optional.empty(), Duration.ofMinutes(1), note -> {});
    }

    @Test
    void aBenchmarksFilterSelectsItAloneAtEveryLevel() {
        assertEquals("^BenchmarkSum64$/^4B$", GoCounts.filter("BenchmarkSum64/4B"));
        assertEquals("^BenchmarkParse$/^a\\.b\\(1\\)\\[x\\]\\+$", GoCounts.filter("BenchmarkParse/a.b(1)[x]+"));
        String name = "BM_memcpy/8<int>.*|x";
        assertTrue(Pattern.compile("^" + PerBenchmark.quote(name) + "$")
                .matcher(name)
                .matches());
        assertTrue(
                !Pattern.compile("^" + PerBenchmark.quote("BM_a.c") + "$")
                        .matcher("BM_abc")
                        .matches(),
                "a dot is a dot");
    }

    @Test
    void goTestsFlagsAreCarriedOrRefusedByName() {
        assertEquals(Optional.empty(), go("sh", "-c", "go test -bench ."), "not go test itself");
        assertTrue(go(
                        "/usr/local/go/bin/go",
                        "test",
                        "-run",
                        "^$",
                        "-bench=.",
                        "-benchmem",
                        "-count",
                        "3",
                        "-tags",
                        "purego",
                        "-trimpath",
                        "./...")
                .isPresent());
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class, () -> go("go", "test", "."));
        assertTrue(none.getMessage().contains("go test needs -bench PATTERN"), none.getMessage());
        IllegalArgumentException unknown =
                assertThrows(IllegalArgumentException.class, () -> go("go", "test", "-bench", ".", "-frobnicate"));
        assertTrue(
                unknown.getMessage().contains("go test flag -frobnicate is not one perfab knows"),
                unknown.getMessage());
        IllegalArgumentException dangling =
                assertThrows(IllegalArgumentException.class, () -> go("go", "test", "-bench"));
        assertTrue(dangling.getMessage().contains("go test flag -bench needs a value"), dangling.getMessage());
    }

    @Test
    void aFormatsBenchmarksAreCountedOneAtATimeExactlyWhereItsToolHasACounter() {
        List<String> run = List.of("go", "test", "-bench", ".");
        for (MeasurementFormat f : Formats.ALL) {
            Optional<PerBenchmark> counter = HarnessTools.of(f)
                    .flatMap(t -> t.counter(run, Optional.empty(), Duration.ofMinutes(1), note -> {}));
            assertEquals(f.countsEachBenchmark(), counter.isPresent(), f.id());
            assertEquals(Optional.empty(), f.countingNeeds(run), f.id());
        }
        assertTrue(Formats.GO
                .countingNeeds(List.of("sh", "-c", "go test -bench ."))
                .isPresent());
        assertEquals(
                HarnessTools.ALL.size(),
                HarnessTools.ALL.stream().map(HarnessTool::format).distinct().count(),
                "one tool a format");
    }
}
