package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.ab.Engine;
import org.perfab.model.Snapshot;
import org.perfab.report.testing.Tool;
import org.perfab.testing.GitFixture;

/**
 * {@code perfab baseline} over real {@code go test -bench} output: snapshots of three nights at
 * one commit seed a baseline, and a commit that triples one benchmark's work is caught by the
 * check, its anchor unmoved. Skipped where go is missing, failed there where CI requires it
 * ({@link Tool#GO}); the rest of the baseline is {@link BaselineCommandTest}'s.
 */
class BaselineGoIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    @Test
    void realGoBenchmarksSeedAndCheckAcrossCommits() throws IOException {
        Tool.GO.need();
        GitFixture g = GitFixture.init(tmp.resolve("gorepo"));
        g.write("go.mod", "module example.com/calc\n\ngo 1.19\n");
        String code = """
                package calc

                // Rounds is how many times Work goes over its input.
                const Rounds = %d

                func Loop(xs []int) int {
                	s := 0
                	for _, x := range xs {
                		s += x * x %% 7
                	}
                	return s
                }

                func Work(xs []int) int {
                	s := 0
                	for r := 0; r < Rounds; r++ {
                		s += Loop(xs)
                	}
                	return s
                }
                """;
        g.write("calc.go", String.format(code, 1));
        g.write("calc_test.go", """
                package calc

                import "testing"

                var sink int

                func input() []int {
                	xs := make([]int, 4096)
                	for i := range xs {
                		xs[i] = i
                	}
                	return xs
                }

                func BenchmarkAnchor(b *testing.B) {
                	xs := input()
                	for i := 0; i < b.N; i++ {
                		sink += Loop(xs)
                	}
                }

                func BenchmarkWork(b *testing.B) {
                	xs := input()
                	for i := 0; i < b.N; i++ {
                		sink += Work(xs)
                	}
                }
                """);
        String before = g.commit("calc").strip();
        Path snaps = tmp.resolve("perf-data");
        for (int run = 1; run <= 3; run++) {
            snapshot(g, before, "2026-08-0" + run, snaps);
        }
        seedGo(snaps);
        g.write("calc.go", String.format(code, 3));
        String after = g.commit("three rounds").strip();
        Path tonight = snapshot(g, after, "2026-08-05", tmp.resolve("tonight-go"));
        Cli check = Cli.run(
                Engine.REAL,
                "baseline",
                "check",
                "--baseline",
                tmp.resolve("go.json").toString(),
                "--snapshot",
                tonight.toString(),
                "--format",
                "json");
        assertEquals(0, check.exitCode(), check.err());
        Map<String, JsonNode> rows = BaselineCommandTest.rows(JSON.readTree(check.out()));
        assertEquals("REGRESSED", rows.get("Work").get("status").asText(), check.out());
        // Three rounds instead of one: about +200% against the floor on a quiet machine; a loaded one has shown +69%
        // and +23%. Either way far past the 5% budget: at least three times it.
        assertTrue(rows.get("Work").get("change").asDouble() > 15, "three rounds instead of one: " + rows.get("Work"));
        assertEquals("OK", rows.get("Anchor").get("status").asText());
        Snapshot s = Snapshot.read(Files.readString(tonight), tonight.toString());
        assertEquals(Snapshot.arch(System.getProperty("os.arch")).orElseThrow(), s.arch(), "go's goarch header");
        assertFalse(s.cpu().isBlank());
        assertTrue(s.benchmark("Work").orElseThrow().iterations().getAsLong() >= 1);
    }

    private Path snapshot(GitFixture g, String commit, String date, Path dir) throws IOException {
        // 10000 calls: some 40 ms a benchmark run, long enough that a busy machine's time slices average out.
        ProcessBuilder pb = new ProcessBuilder(
                        "go", "test", "-run", "^$", "-bench", ".", "-count", "3", "-benchtime", "10000x")
                .directory(g.dir().toFile())
                .redirectErrorStream(true);
        pb.environment().put("GOCACHE", tmp.resolve("gocache").toString());
        pb.environment().put("GOPATH", tmp.resolve("gopath").toString());
        String out;
        try {
            Process p = pb.start();
            out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, p.waitFor(), out);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        Path bench = tmp.resolve("bench-" + date + ".txt");
        Files.writeString(bench, out);
        Cli snap = Cli.run(
                Engine.REAL,
                "baseline",
                "snapshot",
                "--from",
                bench.toString(),
                "--machine",
                "ubuntu-latest",
                "--commit",
                commit,
                "--date",
                date,
                "--dir",
                dir.toString());
        assertEquals(0, snap.exitCode(), snap.err() + out);
        return dir.resolve(date + "-" + commit.substring(0, 12) + "-ubuntu-latest.json");
    }

    private void seedGo(Path snaps) {
        Cli seed = Cli.run(
                Engine.REAL,
                "baseline",
                "seed",
                "--snapshots",
                snaps.toString(),
                "--anchor",
                "Anchor",
                "--window",
                "3",
                "-o",
                tmp.resolve("go.json").toString());
        assertEquals(0, seed.exitCode(), seed.err() + seed.out());
    }
}
