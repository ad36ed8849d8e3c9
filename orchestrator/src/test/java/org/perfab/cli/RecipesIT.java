package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.ab.Engine;
import org.perfab.report.testing.Tool;
import org.perfab.testing.Comparisons;
import org.perfab.testing.GitFixture;
import org.perfab.testing.Slowdowns;

/**
 * The README's recipes, {@code workloads/recipes/*.yaml}, each as a project's perfab.yaml: on a
 * small project of its tool whose head does three times the work, where the tool is on this
 * machine ({@link Tool}: skipped without it, failed where CI requires it). A recipe that ran the
 * wrong side's code would find nothing: each cell must read a regression, or, where a busy machine
 * ({@code scripts/ci-under-load}) spreads four trials too far to confirm it, inconclusive, and
 * either at least half again as slow ({@link Slowdowns}). That every recipe is a valid workload,
 * shown in the docs as it is, is {@link DocsTest}'s.
 */
@Order(1) // see docs/development.md: the longest classes start first
class RecipesIT {
    private static final Path RECIPES = Path.of("../workloads/recipes");

    @TempDir
    Path tmp;

    /** Commits {@code files} on main, then {@code slower} on feature, with the recipe as perfab.yaml. */
    private GitFixture project(String recipe, Map<String, String> files, Map<String, String> slower)
            throws IOException {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.write(
                "perfab.yaml",
                Files.readString(RECIPES.resolve(recipe + ".yaml"))
                        .replace("-count, '3']", "-count, '3', -benchtime, 20000x]"));
        for (Map.Entry<String, String> f : files.entrySet()) {
            g.write(f.getKey(), f.getValue());
        }
        g.commit("the project");
        g.git("checkout", "-q", "-b", "feature");
        for (Map.Entry<String, String> f : slower.entrySet()) {
            g.write(f.getKey(), f.getValue());
        }
        g.commit("three times the work");
        return g;
    }

    /** Returns the one cell whose name starts with {@code name} and whose metric is {@code metric}. */
    private static JsonNode cell(Map<String, JsonNode> rows, String name, String metric) {
        List<String> keys = rows.keySet().stream()
                .filter(k -> k.startsWith(name) && k.endsWith(":" + metric))
                .toList();
        assertEquals(1, keys.size(), "one cell " + name + "...:" + metric + " in " + rows.keySet());
        return rows.get(keys.get(0));
    }

    /**
     * Runs the A/B with four trials per side, judged once at alpha 0.05: a tripled cost whose trials
     * spread by 30% gives Welch's test a t of about 4, past its 3.2 at three degrees of freedom.
     * The recipe, not the adaptive trials, is the subject here, and more rounds would cost most where
     * the machine is busiest, which on two cores is this suite's own other tests.
     */
    private Map<String, JsonNode> ab(GitFixture g) throws IOException {
        Cli run = Cli.run(
                Engine.REAL,
                "ab",
                "--repo=" + g.dir(),
                "--base=main",
                "--head=feature",
                "--trials",
                "4",
                "--adaptive",
                "off",
                "--out",
                tmp.resolve("out").toString());
        assertEquals(0, run.exitCode(), run.err());
        return Comparisons.of(tmp.resolve("out/results.json"));
    }

    /**
     * Asserts that a tripled cost is found: a regression where both sides' trials spread by under
     * 10%, as a quiet machine's do; where they spread further, inconclusive is allowed too. Where a
     * side's wall times spread by more than their mean (a benchmark of microseconds preempted in one
     * of four trials beside stress-ng: a base trial 30 times its median), four trials cannot tell,
     * and too noisy is the honest answer; it is still never a pass.
     */
    private static void found(JsonNode row) {
        if (row != null
                && row.at("/base/cv").asDouble() < 10
                && row.at("/head/cv").asDouble() < 10) {
            Slowdowns.found(row);
        } else if (row != null
                && Math.max(row.at("/base/cv").asDouble(), row.at("/head/cv").asDouble()) > 100) {
            assertTrue(
                    List.of("regression", "inconclusive", "noisy")
                            .contains(row.path("verdict").asText()),
                    row.toString());
        } else {
            Slowdowns.foundOrUnconfirmed(row);
        }
    }

    private static String goCode(int rounds) {
        return """
                package calc

                func Work(xs []int) int {
                	s := 0
                	for r := 0; r < %d; r++ {
                		for _, x := range xs {
                			s += x * x %% 7
                		}
                	}
                	return s
                }
                """.formatted(rounds);
    }

    @Test
    void go() throws IOException {
        Tool.GO.need();
        // The recipe as it is, but for a shorter -benchtime than Go's default second, to keep the suite short.
        GitFixture g = project(
                "go",
                Map.of("go.mod", "module example.com/calc\n\ngo 1.19\n", "calc.go", goCode(1), "calc_test.go", """
                        package calc

                        import "testing"

                        var sink int

                        func BenchmarkWork(b *testing.B) {
                        	xs := make([]int, 2048)
                        	for i := 0; i < b.N; i++ {
                        		sink += Work(xs)
                        	}
                        }
                        """),
                Map.of("calc.go", goCode(3)));
        Map<String, JsonNode> rows = ab(g);
        found(cell(rows, "Work", "time"));
    }

    private static String rustCode(int rounds) {
        return """
                #![feature(test)]
                extern crate test;

                pub fn work(n: u64) -> u64 {
                    let mut s = 0u64;
                    for r in 0..%d {
                        for i in 0..n {
                            s = s.wrapping_add(i * i %% 7 + r);
                        }
                    }
                    s
                }

                #[cfg(test)]
                mod tests {
                    use test::{black_box, Bencher};

                    #[bench]
                    fn bench_work(b: &mut Bencher) {
                        b.iter(|| super::work(black_box(20_000)));
                    }

                    #[bench]
                    fn bench_half(b: &mut Bencher) {
                        b.iter(|| super::work(black_box(10_000)));
                    }
                }
                """.formatted(rounds);
    }

    @Test
    void cargoBench() throws IOException {
        Tool.CARGO_NIGHTLY.need();
        GitFixture g = project(
                "cargo-bench",
                Map.of(
                        "Cargo.toml",
                        "[package]\nname = \"calc\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
                        "src/lib.rs",
                        rustCode(1)),
                Map.of("src/lib.rs", rustCode(3)));
        Map<String, JsonNode> rows = ab(g);
        found(cell(rows, "tests::bench_work", "time"));
        // cargo bench lists its benchmarks (-- --list) and runs a slice of them (-- --exact NAME...):
        // a shard of two measures one.
        Path shard = tmp.resolve("shard");
        Cli run = Cli.run(
                Engine.REAL,
                "ab",
                "--repo=" + g.dir(),
                "--base=main",
                "--head=feature",
                "--trials",
                "2",
                "--adaptive",
                "off",
                "--shard",
                "2/2",
                "--out",
                shard.toString());
        assertEquals(0, run.exitCode(), run.err());
        Map<String, JsonNode> sliced = Comparisons.of(shard.resolve("results.json"));
        assertEquals(
                1,
                sliced.keySet().stream()
                        .map(k -> k.substring(0, k.lastIndexOf(':')))
                        .distinct()
                        .count(),
                sliced.keySet() + "\n" + run.err());
        try (var logs = Files.list(shard.resolve("logs/trials"))) {
            assertTrue(logs.anyMatch(f -> f.getFileName().toString().endsWith(".out")), "the slice's trials ran");
        }
    }

    private static String cppCode(int rounds) {
        return """
                #include <benchmark/benchmark.h>
                static void BM_Work(benchmark::State& state) {
                  for (auto _ : state) {
                    long s = 0;
                    for (int i = 0; i < %d * 1000; i++) { s += (long) i * i %% 7; benchmark::DoNotOptimize(s); }
                  }
                }
                BENCHMARK(BM_Work)->MinTime(0.05);
                BENCHMARK_MAIN();
                """.formatted(rounds);
    }

    @Test
    void googleBenchmark() throws IOException {
        Tool.GOOGLE_BENCHMARK.need();
        GitFixture g =
                project("google-benchmark", Map.of("bench/work.cc", cppCode(1)), Map.of("bench/work.cc", cppCode(3)));
        Map<String, JsonNode> rows = ab(g);
        found(cell(rows, "BM_Work", "cpu_time"));
        found(cell(rows, "BM_Work", "real_time"));
    }

    private static final String JMH_POM = """
            <project xmlns="http://maven.apache.org/POM/4.0.0">
              <modelVersion>4.0.0</modelVersion>
              <groupId>example</groupId>
              <artifactId>calc</artifactId>
              <version>1</version>
              <properties>
                <maven.compiler.release>17</maven.compiler.release>
                <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
              </properties>
              <dependencies>
                <dependency>
                  <groupId>org.openjdk.jmh</groupId>
                  <artifactId>jmh-core</artifactId>
                  <version>1.37</version>
                </dependency>
                <dependency>
                  <groupId>org.openjdk.jmh</groupId>
                  <artifactId>jmh-generator-annprocess</artifactId>
                  <version>1.37</version>
                  <scope>provided</scope>
                </dependency>
              </dependencies>
              <build>
                <plugins>
                  <plugin>
                    <artifactId>maven-compiler-plugin</artifactId>
                    <version>3.13.0</version>
                  </plugin>
                  <plugin>
                    <artifactId>maven-resources-plugin</artifactId>
                    <version>3.3.1</version>
                  </plugin>
                  <plugin>
                    <artifactId>maven-surefire-plugin</artifactId>
                    <version>3.5.2</version>
                  </plugin>
                  <plugin>
                    <artifactId>maven-jar-plugin</artifactId>
                    <version>3.4.1</version>
                  </plugin>
                  <plugin>
                    <artifactId>maven-shade-plugin</artifactId>
                    <version>3.6.0</version>
                    <executions>
                      <execution>
                        <phase>package</phase>
                        <goals><goal>shade</goal></goals>
                        <configuration>
                          <finalName>benchmarks</finalName>
                          <transformers>
                            <transformer implementation="org.apache.maven.plugins.shade.resource.ManifestResourceTransformer">
                              <mainClass>org.openjdk.jmh.Main</mainClass>
                            </transformer>
                            <transformer implementation="org.apache.maven.plugins.shade.resource.ServicesResourceTransformer"/>
                          </transformers>
                        </configuration>
                      </execution>
                    </executions>
                  </plugin>
                </plugins>
              </build>
            </project>
            """;

    private static String javaCode(int rounds) {
        return """
                package calc;

                public final class Calc {
                    public static long work(int[] xs) {
                        long s = 0;
                        for (int r = 0; r < %d; r++) {
                            for (int i = 0; i < xs.length; i++) {
                                s += (long) (xs[i] + i) * (i + r) %% 7;
                            }
                        }
                        return s;
                    }
                }
                """.formatted(rounds);
    }

    @Test
    void jmh() throws IOException {
        Tool.MAVEN.need();
        // The recipe as it is; the benchmark's own annotations shorten JMH's iterations of 10 s each.
        // JMH takes a lock of its java.io.tmpdir and exits at once when another JMH holds it: the
        // recipe gives each side its own, so the A/B runs while another JMH on the machine (this
        // test, holding the lock of the default one) does.
        GitFixture g = project(
                "jmh",
                Map.of(
                        "pom.xml",
                        JMH_POM,
                        "src/main/java/calc/Calc.java",
                        javaCode(1),
                        "src/main/java/calc/WorkBench.java",
                        """
                        package calc;

                        import java.util.concurrent.TimeUnit;
                        import org.openjdk.jmh.annotations.Benchmark;
                        import org.openjdk.jmh.annotations.BenchmarkMode;
                        import org.openjdk.jmh.annotations.Measurement;
                        import org.openjdk.jmh.annotations.Mode;
                        import org.openjdk.jmh.annotations.OutputTimeUnit;
                        import org.openjdk.jmh.annotations.Scope;
                        import org.openjdk.jmh.annotations.State;
                        import org.openjdk.jmh.annotations.Warmup;

                        @State(Scope.Benchmark)
                        @BenchmarkMode(Mode.AverageTime)
                        @OutputTimeUnit(TimeUnit.MICROSECONDS)
                        @Warmup(time = 100, timeUnit = TimeUnit.MILLISECONDS)
                        @Measurement(time = 100, timeUnit = TimeUnit.MILLISECONDS)
                        public class WorkBench {
                            int[] xs = new int[4096];

                            @Benchmark
                            public long work() {
                                return Calc.work(xs);
                            }
                        }
                        """),
                Map.of("src/main/java/calc/Calc.java", javaCode(3)));
        Map<String, JsonNode> rows;
        Path lock = Path.of(System.getProperty("java.io.tmpdir"), "jmh.lock");
        try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(
                        lock, java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE);
                java.nio.channels.FileLock held = channel.tryLock()) {
            assertTrue(held != null, "another JMH holds " + lock + ": this test holds it itself");
            rows = ab(g);
        }
        JsonNode work = cell(rows, "calc.WorkBench.work", "avgt");
        assertEquals("us/op", work.get("unit").asText(), "the score's own unit: " + work);
        found(work);
    }

    /** A project as Apache's keep JMH: its benchmarks in test classes, JMH in the 'benchmark' profile. */
    private static final String JMH_PROFILE_POM = """
            <project xmlns="http://maven.apache.org/POM/4.0.0">
              <modelVersion>4.0.0</modelVersion>
              <groupId>example</groupId>
              <artifactId>calc</artifactId>
              <version>1</version>
              <properties>
                <maven.compiler.release>17</maven.compiler.release>
                <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
              </properties>
              <build>
                <plugins>
                  <plugin>
                    <artifactId>maven-compiler-plugin</artifactId>
                    <version>3.13.0</version>
                  </plugin>
                  <plugin>
                    <artifactId>maven-resources-plugin</artifactId>
                    <version>3.3.1</version>
                  </plugin>
                </plugins>
              </build>
              <profiles>
                <profile>
                  <id>benchmark</id>
                  <dependencies>
                    <dependency>
                      <groupId>org.openjdk.jmh</groupId>
                      <artifactId>jmh-core</artifactId>
                      <version>1.37</version>
                      <scope>test</scope>
                    </dependency>
                    <dependency>
                      <groupId>org.openjdk.jmh</groupId>
                      <artifactId>jmh-generator-annprocess</artifactId>
                      <version>1.37</version>
                      <scope>test</scope>
                    </dependency>
                  </dependencies>
                </profile>
              </profiles>
            </project>
            """;

    @Test
    void jmhTestClasses() throws Exception {
        Tool.MAVEN.need();
        // The recipe as it is, on the layout of commons-text: nothing of JMH outside the profile, no
        // benchmarks jar. Two A/Bs of it run at once, as two jobs on one runner would: each side of
        // each gives JMH its own java.io.tmpdir, so no JMH waits for another's lock.
        GitFixture g = project(
                "jmh-test-classes",
                Map.of(
                        "pom.xml",
                        JMH_PROFILE_POM,
                        "src/main/java/calc/Calc.java",
                        javaCode(1),
                        "src/test/java/calc/WorkBenchmark.java",
                        """
                        package calc;

                        import java.util.concurrent.TimeUnit;
                        import org.openjdk.jmh.annotations.Benchmark;
                        import org.openjdk.jmh.annotations.BenchmarkMode;
                        import org.openjdk.jmh.annotations.Mode;
                        import org.openjdk.jmh.annotations.OutputTimeUnit;
                        import org.openjdk.jmh.annotations.Scope;
                        import org.openjdk.jmh.annotations.State;

                        @State(Scope.Benchmark)
                        @BenchmarkMode(Mode.AverageTime)
                        @OutputTimeUnit(TimeUnit.MICROSECONDS)
                        public class WorkBenchmark {
                            int[] xs = new int[4096];

                            @Benchmark
                            public long work() {
                                return Calc.work(xs);
                            }
                        }
                        """),
                Map.of("src/main/java/calc/Calc.java", javaCode(3)));
        java.util.concurrent.ExecutorService two = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            List<java.util.concurrent.Future<Cli>> runs = List.of("one", "two").stream()
                    .map(out -> two.submit(() -> Cli.run(
                            Engine.REAL,
                            "ab",
                            "--repo=" + g.dir(),
                            "--base=main",
                            "--head=feature",
                            "--trials",
                            "4",
                            "--adaptive",
                            "off",
                            "--out",
                            tmp.resolve(out).toString())))
                    .toList();
            for (int i = 0; i < runs.size(); i++) {
                Cli run = runs.get(i).get();
                assertEquals(0, run.exitCode(), run.err());
                JsonNode work = cell(
                        Comparisons.of(tmp.resolve(i == 0 ? "one" : "two").resolve("results.json")),
                        "calc.WorkBenchmark.work",
                        "avgt");
                assertEquals("us/op", work.get("unit").asText(), "the score's own unit: " + work);
                found(work);
            }
            // The comment's table names it as JMH's own table does, without the package every row shares.
            List<String> table = Files.readAllLines(tmp.resolve("one/comment.md")).stream()
                    .filter(l -> l.startsWith("|"))
                    .toList();
            assertTrue(table.stream().anyMatch(l -> l.startsWith("| WorkBenchmark.work |")), String.join("\n", table));
            assertTrue(table.stream().noneMatch(l -> l.contains("calc.WorkBenchmark")), String.join("\n", table));
        } finally {
            two.shutdownNow();
        }
    }

    private static String cCode(int rounds) {
        return """
                #include <stdio.h>
                int main(void) {
                  volatile unsigned long s = 0;
                  for (unsigned long i = 0; i < %dUL * 20000000UL; i++) s += i * i %% 7;
                  return s == 42;
                }
                """.formatted(rounds);
    }

    @Test
    void hyperfine() throws IOException {
        Tool.HYPERFINE.need();
        Tool.C_COMPILER.need();
        Tool.MAKE.need();
        GitFixture g = project(
                "hyperfine",
                Map.of("Makefile", "app: app.c\n\tcc -O1 -o app app.c\n", "app.c", cCode(1)),
                Map.of("app.c", cCode(3)));
        Map<String, JsonNode> rows = ab(g);
        found(cell(rows, "startup", "wall"));
        found(cell(rows, "startup", "user"));
    }

    /**
     * The project describes neither the machine nor the commit in its results: pytest-benchmark
     * would ask py-cpuinfo (more than a second a trial) and git, and perfab reads neither.
     */
    private static final String CONFTEST = """
            def pytest_benchmark_generate_machine_info(config):
                return {}


            def pytest_benchmark_generate_commit_info(config):
                return {}
            """;

    @Test
    void pytestBenchmark() throws IOException {
        Tool.PYTEST_BENCHMARK.need();
        String test = """
                from calc import work

                def test_work(benchmark):
                    benchmark(work, 3000)
                """;
        String calc =
                "def work(n):\n    s = 0\n    for r in range(%d):\n        for i in range(n):\n            s += i * i %% 7"
                        + "\n    return s\n";
        GitFixture g = project(
                "pytest-benchmark",
                Map.of(
                        "benchmarks/test_work.py",
                        test,
                        "benchmarks/calc.py",
                        calc.formatted(1),
                        "benchmarks/conftest.py",
                        CONFTEST,
                        "pytest.ini",
                        // The project's own settings: short rounds, and no plugin the machine has and the
                        // project does not use (hypothesis's takes seconds to load, every trial).
                        "[pytest]\naddopts = --benchmark-max-time=0.2 --benchmark-min-rounds=5 -p no:hypothesispytest\n"),
                Map.of("benchmarks/calc.py", calc.formatted(3)));
        Map<String, JsonNode> rows = ab(g);
        found(cell(rows, "benchmarks/test_work.py::test_work", "time"));
    }
}
