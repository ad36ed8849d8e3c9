package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.testing.GitFixture;
import org.perfab.testing.Subjects;

/** {@code perfab bisect} on real repositories: a real regression is found, code layout is not blamed on a commit. */
class BisectTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    private Cli bisect(GitFixture g, String good, String... more) {
        List<String> args = new ArrayList<>(List.of("bisect", "--repo=" + g.dir(), "--good", good, "--bad", "main",
                "--trials", "3", "--format", "json", "--out", tmp.resolve("bisect").toString()));
        args.addAll(List.of(more));
        return Cli.run(args.toArray(String[]::new));
    }

    @Test
    void findsTheOneCommitOfSixteenThatMadeACellSlower() throws IOException {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        Subjects.write(g, 100, 3, "");
        String good = g.commit("initial");
        String culprit = null;
        for (int i = 1; i <= 16; i++) {
            g.write("notes/" + i + ".txt", "note " + i + "\n");
            if (i == 11) {
                g.write("level.txt", "105\n");
            }
            String id = g.commit("commit " + i);
            if (i == 11) {
                culprit = id;
            }
        }
        Cli run = bisect(g, good, "--cell", "speed/run");
        assertEquals(0, run.exitCode(), run.err());
        JsonNode b = JSON.readTree(run.out());
        assertEquals("found", b.get("verdict").asText(), b.toString());
        assertEquals(culprit, b.get("firstBad").asText());
        List<String> purposes = new ArrayList<>();
        b.get("steps").forEach(s -> purposes.add(s.get("purpose").asText()));
        assertEquals(List.of("check", "search", "search", "search", "search", "confirm", "confirm"), purposes);
        JsonNode confirm = b.at("/steps/5");
        assertEquals(culprit, confirm.get("commit").asText());
        assertEquals(3, confirm.get("builds").asInt(), "the edge is rebuilt");
        assertTrue(confirm.get("bad").asBoolean());
        assertEquals(5.0, confirm.get("pctChange").asDouble(), 1e-9);
        assertEquals(run.out(), Files.readString(tmp.resolve("bisect/bisect.json")));
        assertTrue(Files.isDirectory(tmp.resolve("bisect/steps/01-check-" + b.at("/steps/0/commit").asText()
                .substring(0, 12))));
        Cli text = Cli.run("bisect", "--repo=" + g.dir(), "--good", good, "--bad", "main", "--trials", "3", "--cell",
                "speed/run", "--out", tmp.resolve("again").toString());
        assertTrue(text.out().contains("First bad commit: " + culprit.substring(0, 12)), text.out());
    }

    @Test
    void blamesNoCommitForAMoveThatIsCodeLayout() throws IOException {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.write("src.txt", "x".repeat(900));
        g.script("build.sh", """
                #!/bin/sh
                set -e
                cp src.txt "$PERFAB_BUILD_DIR/prog"
                size=$(wc -c < src.txt)
                set -- -4 -1 2 4 2 5 0 0 0
                shift $(( size % 9 ))
                echo "$1" > "$PERFAB_BUILD_DIR/offset"
                """);
        g.script("perturb.sh", "#!/bin/sh\nprintf '%*s' \"$PERFAB_BUILD\" '' >> src.txt\n");
        g.script("bench.sh", """
                #!/bin/sh
                value=$(( 10000 + $(cat "$PERFAB_BUILD_DIR/offset") * 100 + PERFAB_TRIAL % 3 - 1 ))
                printf '{"schema": "perfab/measurements/v1", "measurements": [{"cell": "loop", "metric": "time",'\
                ' "unit": "ns", "value": %s}]}' "$value" > "$PERFAB_RESULT"
                """);
        g.write("perfab.yaml", "name: layout\ntrials: 3\nwarmup: 0\nbuild:\n  run: [sh, build.sh]\n"
                + "  perturb: [sh, perturb.sh]\nharness:\n  run: [sh, bench.sh]\n");
        String good = g.commit("initial");
        for (int i = 1; i <= 8; i++) {
            g.write("notes/" + i + ".txt", "note " + i + "\n");
            if (i == 5) {
                g.write("src.txt", "x".repeat(900) + "abc"); // a comment: the layout moves, the code does not
            }
            g.commit("commit " + i);
        }
        Cli run = bisect(g, good, "--cell", "loop");
        assertEquals(0, run.exitCode(), run.err());
        JsonNode b = JSON.readTree(run.out());
        assertEquals("no-single-commit", b.get("verdict").asText(), b.toString());
        assertTrue(b.get("firstBad").isNull());
        assertTrue(b.at("/steps/0/bad").asBoolean(), "one build per side: the bad commit looks 8% slower");
        assertTrue(b.get("evidence").toString().contains("was bad with one build per side, but not with 3 builds whose"
                + " layouts differ"), b.get("evidence").toString());
        Cli md = Cli.run("bisect", "--repo=" + g.dir(), "--good", good, "--bad", "main", "--cell", "loop", "--format",
                "markdown", "--out", tmp.resolve("md").toString());
        assertTrue(md.out().contains("**No single commit explains the change: code layout or noise, not a commit.**"),
                md.out());
    }

    @Test
    void adaptiveTrialsGiveAnUndecidedStepMoreRounds() throws IOException {
        // A 1.5% slowdown at a spread of 1%: 3 trials per side leave it undecided (p 0.14), so a
        // bisect of a fixed size finds nothing; rounds up to 9 trials per side decide it.
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        Subjects.write(g, 1000, 3, "");
        // The spread by trial number, reordered so that each of the edge's 3 builds, which take
        // trials in turn, also sees the whole spread: every build's median is then the same.
        String harness = Subjects.HARNESS.replace("jitter=$(( PERFAB_TRIAL % 3 - 1 ))",
                "jitter=$(( (PERFAB_TRIAL + PERFAB_TRIAL / 3) % 3 - 1 ))");
        assertTrue(!harness.equals(Subjects.HARNESS));
        g.script("bench.sh", harness);
        String good = g.commit("initial");
        String culprit = null;
        for (int i = 1; i <= 4; i++) {
            g.write("notes/" + i + ".txt", "note " + i + "\n");
            if (i == 2) {
                g.write("level.txt", "1015\n");
            }
            String id = g.commit("commit " + i);
            culprit = i == 2 ? id : culprit;
        }
        Cli fixed = bisect(g, good, "--cell", "speed/run");
        assertEquals("no-change", JSON.readTree(fixed.out()).get("verdict").asText(), fixed.out());
        Cli run = Cli.run("bisect", "--repo=" + g.dir(), "--good", good, "--bad", "main", "--trials", "3",
                "--adaptive", "9", "--format", "json", "--out", tmp.resolve("adaptive").toString(), "--cell",
                "speed/run");
        assertEquals(0, run.exitCode(), run.err());
        JsonNode b = JSON.readTree(run.out());
        assertEquals("found", b.get("verdict").asText(), b.toString());
        assertEquals(culprit, b.get("firstBad").asText());
        Path check = Files.list(tmp.resolve("adaptive/steps")).filter(p -> p.getFileName().toString()
                .startsWith("01-check")).findFirst().orElseThrow();
        JsonNode results = JSON.readTree(check.resolve("results.json").toFile());
        // p is 0.14 after 3 trials, 0.016 after 6 (short of that look's 0.0157) and 0.002 after 9.
        assertEquals(9, results.at("/settings/trials").asInt(), "the check took three rounds");
        assertEquals(9, results.at("/settings/thresholds/adaptive/max").asInt());
    }

    @Test
    void saysWhenThereIsNothingToBisect() throws IOException {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        Subjects.write(g, 100, 3, "");
        String good = g.commit("initial");
        g.write("notes.txt", "x\n");
        g.commit("docs");
        Cli run = bisect(g, good, "--cell", "speed/run");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("no-change", JSON.readTree(run.out()).get("verdict").asText());
        Cli bad = Cli.run("bisect", "--repo=" + g.dir(), "--good", "main", "--bad", "main", "--cell", "speed/run",
                "--out", tmp.resolve("none").toString());
        assertEquals(2, bad.exitCode(), bad.err());
        assertTrue(bad.err().contains("are one commit: nothing to bisect"), bad.err());
    }
}
