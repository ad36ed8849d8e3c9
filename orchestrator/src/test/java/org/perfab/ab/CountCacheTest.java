package org.perfab.ab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.exec.Processes;
import org.perfab.model.Side;

class CountCacheTest {
    @TempDir
    Path tmp;

    private final List<String> notes = new ArrayList<>();

    /** A counter of one tool whose version is {@link #version}; it remembers the iterations it was told to prefer. */
    private static final class Counter implements PerBenchmark {
        String version = "go1.19 amd64";
        Map<String, Long> preferred = Map.of();

        @Override
        public String recipe() {
            return "test";
        }

        @Override
        public String toolchain(Path tree, Map<String, String> env, Logs logs, Exec exec) {
            return version;
        }

        @Override
        public void prefer(Map<String, Long> iterations) {
            preferred = iterations;
        }

        @Override
        public void prepare(Path tree, Path out, Map<String, String> env, Logs logs, Exec exec) {}

        @Override
        public List<Benchmark> benchmarks() {
            return List.of();
        }

        @Override
        public Optional<PerOp> count(
                Benchmark b, Path tree, Map<String, String> env, Path counts, Path vlogs, Logs logs, Exec exec) {
            throw new AssertionError("not here");
        }
    }

    private PerBenchmark.Logs logs() {
        return new PerBenchmark.Logs() {
            @Override
            public Path out(String part) {
                return tmp.resolve(part + ".out");
            }

            @Override
            public Path err(String part) {
                return tmp.resolve(part + ".err");
            }
        };
    }

    /** Runs nothing: Valgrind says its version. */
    private final PerBenchmark.Exec exec = c -> {
        try {
            Files.writeString(c.stdout(), "valgrind-3.19.0\n");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return new Processes.Outcome(
                0,
                false,
                "",
                0.01,
                java.util.OptionalDouble.empty(),
                java.util.OptionalLong.empty(),
                "",
                List.of(),
                false,
                Optional.empty());
    };

    private CountCache cache(String baseSources, String headSources) {
        return new CountCache(
                Optional.of(tmp.resolve("cache")),
                List.of(
                        new CountCache.Keyed(SideDir.of(tmp.resolve("work"), Side.BASE, 0), baseSources),
                        new CountCache.Keyed(SideDir.of(tmp.resolve("work"), Side.HEAD, 0), headSources)),
                "a CPU",
                Map.of(),
                notes::add);
    }

    private Path base() {
        return SideDir.of(tmp.resolve("work"), Side.BASE, 0).tree();
    }

    private Path head() {
        return SideDir.of(tmp.resolve("work"), Side.HEAD, 0).tree();
    }

    private static final PerBenchmark.Benchmark SUM = new PerBenchmark.Benchmark("BenchmarkSum", "Sum", 1000);
    private static final PerBenchmark.Benchmark NEW = new PerBenchmark.Benchmark("BenchmarkNew", "New", 50);

    private static Map<PerBenchmark.Benchmark, Optional<PerBenchmark.PerOp>> counted(double instructions) {
        Map<PerBenchmark.Benchmark, Optional<PerBenchmark.PerOp>> m = new LinkedHashMap<>();
        m.put(
                SUM,
                Optional.of(
                        new PerBenchmark.PerOp(instructions, instructions * 1.5, Map.of("sum.go:Sum", instructions))));
        m.put(NEW, Optional.empty());
        return m;
    }

    @Test
    void aTreeCountedByOneRunIsTheNextRunsWhicheverSideItIs() throws Exception {
        CountCache first = cache("tree main", "tree pr1");
        Counter c = new Counter();
        first.open(c, logs(), exec);
        assertEquals(Optional.empty(), first.get(base(), 0, SUM), "an empty cache holds nothing");
        first.put(base(), 0, counted(120.0));
        first.put(base(), 1, counted(120.5));
        first.put(head(), 0, counted(140.0));

        // The next pull request: main's tree is its base; pr1's tree, had it been its base, would be too.
        CountCache next = cache("tree pr1", "tree pr2");
        Counter d = new Counter();
        next.open(d, logs(), exec);
        assertEquals(
                Map.of("BenchmarkSum", 1000L, "BenchmarkNew", 50L),
                d.preferred,
                "the cached iterations are the run's, for both sides");
        CountCache.Count sum = next.get(base(), 0, SUM).orElseThrow();
        assertEquals(140.0, sum.perOp().orElseThrow().instructions(), "pr1's count, counted as a head");
        assertEquals(Optional.empty(), next.get(base(), 0, NEW).orElseThrow().perOp(), "known to be absent");
        assertEquals(Optional.empty(), next.get(base(), 1, SUM), "pr1 was counted once");
        assertEquals(Optional.empty(), next.get(head(), 0, SUM));
        assertEquals(
                Optional.empty(),
                next.get(base(), 0, new PerBenchmark.Benchmark("BenchmarkSum", "Sum", 999)),
                "a count over other iterations is another count");

        CountCache main = cache("tree main", "tree pr2");
        main.open(new Counter(), logs(), exec);
        assertEquals(
                120.5,
                main.get(base(), 1, SUM).orElseThrow().perOp().orElseThrow().instructions());
        assertTrue(notes.isEmpty(), notes.toString());
    }

    @Test
    void anotherToolchainMissesAndAnAaRunReadsNothing() throws Exception {
        CountCache first = cache("tree main", "tree pr1");
        first.open(new Counter(), logs(), exec);
        first.put(base(), 0, counted(120.0));
        Counter newer = new Counter();
        newer.version = "go1.22 amd64";
        CountCache later = cache("tree main", "tree pr1");
        later.open(newer, logs(), exec);
        assertEquals(Optional.empty(), later.get(base(), 0, SUM), "a newer go counts afresh");

        CountCache aa = cache("tree main", "tree main");
        aa.open(new Counter(), logs(), exec);
        assertEquals(Optional.empty(), aa.get(base(), 0, SUM));
        aa.put(base(), 0, counted(1.0));
        assertTrue(notes.get(0).contains("neither read nor written"), notes.toString());
        CountCache after = cache("tree main", "tree pr1");
        after.open(new Counter(), logs(), exec);
        assertEquals(
                120.0,
                after.get(base(), 0, SUM).orElseThrow().perOp().orElseThrow().instructions(),
                "an A/A run wrote nothing");
    }

    @Test
    void aDamagedOrForeignEntryIsSetAsideAndReplaced() throws Exception {
        CountCache first = cache("tree main", "tree pr1");
        first.open(new Counter(), logs(), exec);
        first.put(base(), 0, counted(120.0));
        Path entry;
        try (var files = Files.list(tmp.resolve("cache/counts"))) {
            entry = files.filter(f -> f.toString().endsWith(".json"))
                    .findFirst()
                    .orElseThrow();
        }
        for (String damage : List.of(
                "{\"schema\":\"perfab/counts/v1\",\"key\":\"another\",\"trials\":[]}",
                Files.readString(entry).replace("120.0", "-5"),
                "not json",
                Files.readString(entry).replace("\"iterations\":1000", "\"iterations\":1000,\"extra\":1"))) {
            Files.writeString(entry, damage);
            notes.clear();
            CountCache again = cache("tree main", "tree pr1");
            again.open(new Counter(), logs(), exec);
            assertEquals(Optional.empty(), again.get(base(), 0, SUM), damage);
            assertTrue(notes.size() == 1 && notes.get(0).contains(entry.toString()), notes.toString());
            again.put(base(), 0, counted(121.0));
            assertTrue(Files.readString(entry).contains("121.0"), "replaced");
        }
    }
}
