package org.perfab.ab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.perfab.ab.HarnessTool.Slicer;
import org.perfab.failure.BadInputException;
import org.perfab.model.Side;
import org.perfab.testing.StartsProcesses;
import org.perfab.workload.Workload;
import org.perfab.workload.WorkloadLoader;

class SlicesTest {
    private static Slicer slicer(String harness) {
        Workload w = WorkloadLoader.parse("name: s\nharness:\n" + harness, "perfab.yaml");
        return Slices.of(w.harness()).orElseThrow();
    }

    @Test
    void goTestIsListedByItsFunctionsAndRunsTheSliceWithTheSubBenchmarksItChose() {
        Slicer go = slicer("  run: [go, test, -run, '^$', -bench, ., -benchmem, ./...]\n  format: go\n");
        assertEquals(List.of("go", "test", "-list", ".", "-run", "^$", "-bench", ".", "-benchmem", "./..."), go.list());
        assertEquals(
                List.of("BenchmarkA", "BenchmarkB_2"),
                go.names(List.of(
                        "TestA", "BenchmarkA", "ExampleX", "ok  \texample.com/x\t0.003s", "BenchmarkB_2", "PASS")));
        assertEquals(
                List.of("go", "test", "-run", "^$", "-bench", "^(BenchmarkA|BenchmarkC)$", "-benchmem", "./..."),
                go.run(List.of("BenchmarkA", "BenchmarkC"), List.of("BenchmarkA", "BenchmarkB", "BenchmarkC")));
        // A pattern of sub-benchmarks keeps its parts below the functions; a slash in brackets is not one.
        Slicer sub = slicer("  run: [go, test, '-test.bench=Encode[/x]/size=8$', -count, '3']\n  format: go\n");
        assertEquals(
                "-test.bench=^(BenchmarkEncode)$/size=8$",
                sub.run(List.of("BenchmarkEncode"), List.of("BenchmarkEncode")).get(2));
        // It may run nothing of a function, which -list cannot tell: its functions are those whose
        // sub-benchmarks a run of each, once, reports.
        assertEquals(
                List.of(
                        "go",
                        "test",
                        "-test.bench=Encode[/x]/size=8$",
                        "-count",
                        "3",
                        "-run",
                        "^$",
                        "-benchtime",
                        "1x",
                        "-count",
                        "1"),
                sub.list());
        assertEquals(
                List.of("BenchmarkEncode", "BenchmarkEncode_2"),
                sub.names(List.of(
                        "goos: linux",
                        "BenchmarkEncode/size=8-8         \t       1\t       711.0 ns/op",
                        "BenchmarkEncode/size=8/deep",
                        "BenchmarkEncode_2/size=8-8 1 5 ns/op",
                        "BenchmarkLeaf-8 1 5 ns/op",
                        "--- FAIL: BenchmarkX/size=8",
                        "PASS")));
        assertEquals(
                List.of(
                        "go",
                        "test",
                        "-bench",
                        "./x",
                        "-run",
                        "^$",
                        "-benchtime",
                        "1x",
                        "-count",
                        "1",
                        "-args",
                        "-flag"),
                slicer("  run: [go, test, -bench, ./x, -args, -flag]\n  format: go\n")
                        .list(),
                "before the binary's own arguments");
        // go matches A|B/x as either whole: no rewrite of one slice keeps that.
        Slicer either = slicer("  run: [go, test, -bench, 'BenchmarkA|BenchmarkB/x']\n  format: go\n");
        BadInputException e = assertThrows(BadInputException.class, either::list);
        assertTrue(e.getMessage().contains("harness.shard"), e.getMessage());
        Slicer grouped = slicer("  run: [go, test, -bench, '(A|B)/x']\n  format: go\n");
        assertEquals(
                "^(BenchmarkA)$/x",
                grouped.run(List.of("BenchmarkA"), List.of("BenchmarkA")).get(3),
                "an alternation in parentheses is one part");
    }

    private static Workload.Harness harness(String harness) {
        return WorkloadLoader.parse("name: s\nharness:\n" + harness, "perfab.yaml")
                .harness();
    }

    private static List<String> narrowed(Workload.Harness h, List<String> listed, String... open) {
        Slices.Listing listing = new Slices.Listing(
                Slices.of(h).orElseThrow(), listed, java.util.Map.of(Side.BASE, listed, Side.HEAD, listed));
        return Slices.narrowed(h, Optional.of(listing), java.util.Set.of(open))
                .map(n -> n.harness().argvs().get(0))
                .orElse(List.of());
    }

    @Test
    void aLaterLookRunsOnlyTheBenchmarksOfItsOpenCellsSubBenchmarksIncluded() {
        Workload.Harness go = harness("  run: [go, test, -run, '^$', -bench, ., -count, '3']\n  format: go\n");
        List<String> listed = List.of("BenchmarkLeaf", "BenchmarkRank", "BenchmarkSum");
        // Each function narrowed to its own open sub-benchmarks, a choice go takes as whole patterns:
        // Rank/size=8 and Sum/size=64, decided, do not run again.
        assertEquals(
                List.of(
                        "go",
                        "test",
                        "-run",
                        "^$",
                        "-bench",
                        "^(BenchmarkRank)$/^(size=64)$|^(BenchmarkSum)$/^(size=8)$",
                        "-count",
                        "3"),
                narrowed(go, listed, "Rank/size=64", "Sum/size=8", "Sum/size=8/deeper"));
        // Functions with the same open sub-benchmarks share a part.
        assertEquals(
                "^(BenchmarkRank|BenchmarkSum)$/^(size=8)$",
                narrowed(go, listed, "Rank/size=8", "Sum/size=8").get(5));
        // A function without sub-benchmarks runs whole, beside the others narrowed.
        assertEquals(
                "^(BenchmarkLeaf)$|^(BenchmarkRank)$/^(size=64)$",
                narrowed(go, listed, "Leaf", "Rank/size=64").get(5));
        // A pattern with a level of its own keeps it: perfab does not intersect patterns.
        Workload.Harness fast = harness("  run: [go, test, -bench, 'Benchmark.*/fast']\n  format: go\n");
        assertEquals(
                "^(BenchmarkRank)$/fast", narrowed(fast, listed, "Rank/fast").get(3));
        // A cell no listed benchmark owns runs the harness whole, as does a harness of no open cell.
        assertEquals(List.of(), narrowed(go, listed, "Rank/size=64", "Gone"));
        assertEquals(List.of(), narrowed(go, listed));
        // Google Benchmark's filter, by the listed name that owns each cell.
        Workload.Harness gb = harness("  run: [./bench, --benchmark_format=json]\n  format: google-benchmark\n");
        assertEquals(
                "--benchmark_filter=^(BM_Sum/64)$",
                narrowed(gb, List.of("BM_Sum/64", "BM_Sum/8"), "BM_Sum/64").get(2));
    }

    @Test
    void eachSideRunsItsOwnBenchmarksOfASliceAndASideWithNoneRunsNothing() {
        Workload.Harness h = harness("  run: [python3, -m, pytest, benchmarks/]\n  format: pytest-benchmark\n");
        Slicer pytest = Slices.of(h).orElseThrow();
        List<String> base = List.of("a::old", "a::gone");
        List<String> head = List.of("a::new", "a::old", "b::new");
        Slices.Listing listing = new Slices.Listing(
                pytest,
                List.of("a::gone", "a::new", "a::old", "b::new"),
                java.util.Map.of(Side.BASE, base, Side.HEAD, head));
        // Each side deselects its own others only: the base never hears of the head's new nodes.
        Slices.Sided both = listing.filter(h, List.of("a::new", "a::old"), List.of());
        assertEquals(
                List.of("python3", "-m", "pytest", "benchmarks/", "--deselect", "a::gone"),
                both.of(Side.BASE).orElseThrow().argvs().get(0));
        assertEquals(
                List.of("python3", "-m", "pytest", "benchmarks/", "--deselect", "b::new"),
                both.of(Side.HEAD).orElseThrow().argvs().get(0));
        // A slice of the head's new nodes only: the base runs nothing.
        Slices.Sided added = listing.filter(h, List.of("a::new", "b::new"), List.of());
        assertEquals(Optional.empty(), added.of(Side.BASE));
        assertEquals(
                List.of("python3", "-m", "pytest", "benchmarks/", "--deselect", "a::old"),
                added.of(Side.HEAD).orElseThrow().argvs().get(0));
        // A side that could not list runs the slice as it stands for both.
        Slices.Listing headOnly = new Slices.Listing(pytest, head, java.util.Map.of(Side.HEAD, head));
        assertEquals(
                headOnly.filter(h, List.of("a::new"), List.of()).harness(),
                headOnly.filter(h, List.of("a::new"), List.of()).of(Side.BASE).orElseThrow());
    }

    @Test
    void aLaterLookOfTimedCommandsRunsTheOpenOnes() {
        Workload.Harness timed = harness("  format: time\n  commands:\n    a: [./a]\n    b: [./b]\n    c: [./c]\n");
        Workload.Harness only = Slices.narrowed(timed, Optional.empty(), java.util.Set.of("c", "a"))
                .orElseThrow()
                .harness();
        assertEquals(List.of(List.of("./a"), List.of("./c")), only.argvs());
        assertEquals(
                Optional.empty(),
                Slices.narrowed(timed, Optional.empty(), java.util.Set.of("a", "b", "c")),
                "every command open: the harness as it is");
    }

    @Test
    void anEarlierRunsTimesGoToTheBenchmarksListedNowNewOnesTakingTheMedian() {
        Slicer go = slicer("  run: [go, test, -bench, .]\n  format: go\n");
        // A cell of go is its function less Benchmark, with its sub-benchmark: each adds to its function.
        Slices.Times t = Slices.times(
                new java.util.TreeSet<>(List.of("BenchmarkA", "BenchmarkAB", "BenchmarkC", "BenchmarkNew")),
                java.util.Map.of("A/size=8", 1.0, "A/size=64", 3.0, "AB", 2.0, "C", 6.0, "Gone", 50.0),
                go);
        assertEquals(
                java.util.Map.of("BenchmarkA", 4.0, "BenchmarkAB", 2.0, "BenchmarkC", 6.0, "BenchmarkNew", 4.0),
                t.times());
        assertEquals(3, t.timed());
        // Elsewhere a cell is the name listed, or that name and more after a character not of a word.
        Slicer gb = slicer("  run: [./bench]\n  format: google-benchmark\n");
        Slices.Owners owners = new Slices.Owners(java.util.Set.of("BM_Sum", "BM_Sum/64", "bench.B.hash"));
        assertEquals(Optional.of("BM_Sum/64"), owners.of("BM_Sum/64"));
        assertEquals(Optional.of("BM_Sum/64"), owners.of("BM_Sum/64/threads:2"), "the longest");
        assertEquals(Optional.of("bench.B.hash"), owners.of("bench.B.hash/size=16"));
        assertEquals(Optional.empty(), owners.of("bench.B.hashes"));
        assertEquals(Optional.empty(), owners.of("/".repeat(100_000)), "a name of many slashes, quickly");
        // The same times in any order sum alike, to the last bit: every shard, its own process, cuts alike.
        java.util.Map<String, Double> forth = new java.util.LinkedHashMap<>();
        java.util.Map<String, Double> back = new java.util.LinkedHashMap<>();
        List<String> subs = List.of("A/x=1", "A/x=2", "A/x=3");
        double[] seconds = {0.1, 0.2, 0.3};
        for (int i = 0; i < 3; i++) {
            forth.put(subs.get(i), seconds[i]);
            back.put(subs.get(2 - i), seconds[2 - i]);
        }
        java.util.Set<String> one = java.util.Set.of("BenchmarkA", "BenchmarkB");
        assertEquals(
                Slices.times(one, forth, go).times(),
                Slices.times(one, back, go).times());
        assertEquals(
                org.perfab.model.Sharding.cut(Slices.times(one, forth, go).times()),
                org.perfab.model.Sharding.cut(Slices.times(one, back, go).times()));
        // A time past a year is none (a harness's output is the pull request's to write).
        assertEquals(
                java.util.Map.of("BenchmarkA", 4.0, "BenchmarkB", 4.0),
                Slices.times(one, java.util.Map.of("A", 4.0, "B", 1e300), go).times());
        // No time for any benchmark listed: cut by count.
        assertEquals(
                java.util.Map.of(),
                Slices.times(java.util.Set.of("BM_X"), java.util.Map.of("BM_Y", 1.0), gb)
                        .times());
    }

    @Test
    void googleBenchmarkRunAsItsRecipeRunsItTakesTheSliceAsItsFilter() {
        Slicer gb = slicer("  run: [sh, -c, '\"$PERFAB_BUILD_DIR/bench\" --benchmark_out=\"$PERFAB_RESULT\"']\n"
                + "  format: google-benchmark\n");
        assertEquals(
                List.of(
                        "sh",
                        "-c",
                        "\"$PERFAB_BUILD_DIR/bench\" --benchmark_out=\"$PERFAB_RESULT\" \"$@\"",
                        "sh",
                        "--benchmark_list_tests=true"),
                gb.list());
        List<String> run = gb.run(List.of("BM_Copy<int>/8", "BM_Sum/threads:2"), List.of());
        assertEquals("--benchmark_filter=^(BM_Copy<int>/8|BM_Sum/threads:2)$", run.get(run.size() - 1));
        assertTrue(Pattern.compile(HarnessTool.regex(List.of("a.b(c)", "x|y")))
                .matcher("a.b(c)")
                .matches());
        assertTrue(
                !Pattern.compile(HarnessTool.regex(List.of("a.b(c)")))
                        .matcher("axb(c)")
                        .matches(),
                "a dot is a dot");
    }

    @Test
    void pytestLeavesOutTheOtherSlicesNodesAndJmhExcludesThem() {
        Slicer pytest = slicer("  run: [python3, -m, pytest, -q, benchmarks/]\n  format: pytest-benchmark\n");
        assertEquals(
                List.of("python3", "-m", "pytest", "-q", "benchmarks/", "--collect-only", "--verbosity=-1"),
                pytest.list(),
                "its own -q would make -qq, which lists files, not nodes");
        assertEquals(
                List.of("benchmarks/test_a.py::test_x[a b]", "benchmarks/test_a.py::test_y"),
                pytest.names(List.of(
                        "benchmarks/test_a.py::test_x[a b]",
                        "benchmarks/test_a.py::test_y",
                        "",
                        "  warning: see a::b",
                        "2 tests collected in 0.01s")));
        assertEquals(
                List.of("python3", "-m", "pytest", "-q", "benchmarks/", "--deselect", "b::y"),
                pytest.run(List.of("a::x"), List.of("a::x", "b::y")));
        Slicer jmh = slicer("  run: [java, -jar, target/benchmarks.jar, -f, '1']\n  format: jmh\n");
        assertEquals(
                List.of("org.x.A.one", "org.x.B.two"),
                jmh.names(List.of("# JMH version: 1.37", "Benchmarks: ", "org.x.A.one", "org.x.B.two")));
        assertEquals(
                List.of("java", "-jar", "target/benchmarks.jar", "-f", "1", "-e", "^(org\\.x\\.B\\.two)$"),
                jmh.run(List.of("org.x.A.one"), List.of("org.x.A.one", "org.x.B.two")));
    }

    @Test
    void cargoBenchListsAndRunsItsBenchmarksThroughTheBinariesArguments() {
        Slicer cargo = slicer("  run: [cargo, +nightly, bench, -q]\n  format: libtest\n");
        assertEquals(List.of("cargo", "+nightly", "bench", "-q", "--", "--list"), cargo.list());
        assertEquals(
                List.of("tests::bench_large", "tests::bench_small", "old::x"),
                cargo.names(List.of(
                        "tests::bench_large: benchmark",
                        "tests::bench_small: benchmark",
                        "tests::it_works: test",
                        "",
                        "old::x: bench",
                        "2 benchmarks, 1 test")));
        assertEquals(
                List.of("cargo", "+nightly", "bench", "-q", "--", "--exact", "a::b", "c"),
                cargo.run(List.of("a::b", "c"), List.of("a::b", "c", "d")));
        Slicer given = slicer("  run: [cargo, bench, --bench, parse, --, --nocapture]\n  format: libtest\n");
        assertEquals(
                List.of("cargo", "bench", "--bench", "parse", "--", "--nocapture", "--list"),
                given.list(),
                "the command's own -- is the binaries'");
        Workload script = WorkloadLoader.parse(
                "name: s\nharness:\n  run: [sh, -c, 'cargo bench']\n  format: libtest\n", "perfab.yaml");
        assertEquals(Optional.empty(), Slices.of(script.harness()), "a script is not taken apart");
    }

    @Test
    void aWorkloadSaysHowToListAndFilterItsOwnHarness() {
        Slicer own = slicer("  run: [./bench]\n  format: perfab-json\n  shard:\n    list: [./bench, --list]\n"
                + "    filter: [--only, '{regex}', '--name={name}']\n");
        assertEquals(List.of("./bench", "--list"), own.list());
        assertEquals(List.of("a", "b c"), own.names(List.of(" a ", "", "b c")));
        assertEquals(
                List.of("./bench", "--only", "^(a|b)$", "--name=a", "--name=b"),
                own.run(List.of("a", "b"), List.of("a", "b", "c")));
        Workload hyperfine = WorkloadLoader.parse(
                "name: s\nharness:\n  run: [hyperfine, ./app]\n  format: hyperfine\n", "perfab.yaml");
        assertEquals(Optional.empty(), Slices.of(hyperfine.harness()), "perfab does not know how to slice it");
    }

    @Test
    @StartsProcesses
    void aShScriptGetsTheArgumentsAtItsEnd() throws IOException, InterruptedException {
        List<String> argv = HarnessTool.appended(List.of("sh", "-c", "printf '%s\\n' first"), List.of("a b", "$HOME"));
        Process p = new ProcessBuilder(argv).start();
        assertEquals("first\na b\n$HOME\n", new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        assertEquals(0, p.waitFor());
    }
}
