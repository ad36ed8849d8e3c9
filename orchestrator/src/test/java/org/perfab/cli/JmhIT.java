package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.perfab.report.testing.Tool;
import org.perfab.testing.Comparisons;
import org.perfab.testing.GitFixture;
import org.perfab.testing.Slowdowns;

/**
 * {@code perfab ab} of a Maven project with real JMH benchmarks: each side is built with Maven (JMH
 * comes from Maven Central) and driven by JMH's own runner writing {@code -rf json}. Three trials
 * per side, and rounds of three more while the cell is undecided: with two, Welch's test has one
 * degree of freedom and confirms even a fourfold cost only when both sides barely spread, which a
 * busy machine's trials seldom do.
 */
@ResourceLock(JmhIT.LOCK)
class JmhIT {
    /**
     * JMH's own lock: one JMH runs at a time on a machine ({@code /tmp/jmh.lock}), and a second
     * exits at once; the tests that run JMH hold this.
     */
    static final String LOCK = "jmh";

    @TempDir
    Path tmp;

    private static final String POM = """
            <project xmlns="http://maven.apache.org/POM/4.0.0">
              <modelVersion>4.0.0</modelVersion>
              <groupId>bench</groupId><artifactId>jmh-subject</artifactId><version>1</version>
              <properties>
                <maven.compiler.release>17</maven.compiler.release>
                <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
              </properties>
              <dependencies>
                <dependency><groupId>org.openjdk.jmh</groupId><artifactId>jmh-core</artifactId><version>1.37</version></dependency>
              </dependencies>
              <build><plugins><plugin>
                <groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version>
                <configuration><annotationProcessorPaths><path>
                  <groupId>org.openjdk.jmh</groupId><artifactId>jmh-generator-annprocess</artifactId><version>1.37</version>
                </path></annotationProcessorPaths></configuration>
              </plugin></plugins></build>
            </project>
            """;

    private static final String BENCH = """
            package bench;

            import java.util.concurrent.TimeUnit;
            import org.openjdk.jmh.annotations.*;

            @State(Scope.Thread)
            @BenchmarkMode(Mode.AverageTime)
            @OutputTimeUnit(TimeUnit.NANOSECONDS)
            public class Work {
                static final int ROUNDS = 200;
                int seed = 7;

                @Benchmark
                public long mix() {
                    long s = seed;
                    for (int i = 0; i < ROUNDS; i++) {
                        s = s * 6364136223846793005L + 1442695040888963407L;
                        s ^= s >>> 29;
                    }
                    return s;
                }
            }
            """;

    @Test
    void buildsWithMavenAndRunsJmh() throws IOException {
        Tool.MAVEN.need();
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.write("pom.xml", POM);
        g.write("src/main/java/bench/Work.java", BENCH);
        g.write("perfab.yaml", """
                name: jmh
                trials: 3
                warmup: 0
                build:
                  run: [sh, -c, 'mvn -B -q -DskipTests package dependency:build-classpath -Dmdep.outputFile="$PERFAB_BUILD_DIR/cp.txt" && cp -r target/classes "$PERFAB_BUILD_DIR/classes"']
                  timeout: 10m
                harness:
                  run: [sh, -c, 'java -cp "$PERFAB_BUILD_DIR/classes:$(cat "$PERFAB_BUILD_DIR/cp.txt")" org.openjdk.jmh.Main -f 2 -wi 1 -i 2 -w 100ms -r 100ms -rf json -rff "$PERFAB_RESULT"']
                  format: jmh
                  timeout: 5m
                """);
        g.commit("initial");
        g.git("checkout", "-q", "-b", "feature");
        g.write("src/main/java/bench/Work.java", BENCH.replace("ROUNDS = 200", "ROUNDS = 800"));
        g.commit("four times the work");
        Cli run = Cli.run("ab", "--repo=" + g.dir(), "--base=main", "--head=feature", "--adaptive", "9", "--out",
                tmp.resolve("out").toString());
        assertEquals(0, run.exitCode(), run.err());
        Map<String, JsonNode> rows = Comparisons.of(tmp.resolve("out/results.json"));
        JsonNode c = rows.get("bench.Work.mix:avgt");
        assertNotNull(c, rows.keySet().toString());
        assertEquals("ns/op", c.get("unit").asText());
        Slowdowns.found(c);
    }
}
