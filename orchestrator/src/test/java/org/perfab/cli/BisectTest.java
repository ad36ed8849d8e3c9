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
        String parent = null;
        for (int i = 1; i <= 16; i++) {
            g.write("notes/" + i + ".txt", "note " + i + "\n");
            if (i == 11) {
                g.write("level.txt", "105\n");
            }
            String id = g.commit("commit " + i);
            if (i == 10) {
                parent = id;
            }
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
        assertEquals(List.of("check", "search", "search", "search", "search", "confirm"), purposes);
        JsonNode confirm = b.at("/steps/5");
        assertEquals(culprit, confirm.get("commit").asText());
        assertEquals(parent, confirm.get("base").asText(), "the edge is measured against the commit before it");
        assertEquals(1, confirm.get("builds").asInt(), "no build.perturb: no layout to shift, one build per side");
        assertEquals("bad", confirm.get("call").asText());
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
        JsonNode confirm = b.at("/steps/" + (b.get("steps").size() - 1));
        assertEquals("confirm", confirm.get("purpose").asText());
        assertEquals(3, confirm.get("builds").asInt(), "build.perturb: the edge is rebuilt three times per side");
        assertTrue(confirm.get("buildsDiffer").asBoolean(), confirm.toString());
        assertTrue(confirm.get("trials").asInt() >= 9, "three trials per build at least");
        assertTrue(b.get("evidence").toString().contains("code layout, not a commit"), b.get("evidence").toString());
        Cli md = Cli.run("bisect", "--repo=" + g.dir(), "--good", good, "--bad", "main", "--cell", "loop", "--format",
                "markdown", "--out", tmp.resolve("md").toString());
        assertTrue(md.out().contains("**No single commit explains the change.**"), md.out());
        assertTrue(md.out().contains("code layout, not a commit"), md.out());
    }

    @Test
    void anUndecidedStepIsNeverTakenForAGoodOneAndAResumeDecidesIt() throws IOException {
        // A 1.5% slowdown at a spread of 1%: 3 trials per side cannot tell it (p 0.14), which a
        // bisect once read as "no change"; adaptive rounds decide it.
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        Subjects.write(g, 1000, 3, "");
        String good = g.commit("initial");
        List<String> commits = new ArrayList<>();
        for (int i = 1; i <= 4; i++) {
            g.write("notes/" + i + ".txt", "note " + i + "\n");
            if (i == 2) {
                g.write("level.txt", "1015\n");
            }
            commits.add(g.commit("commit " + i));
        }
        String culprit = commits.get(1);
        Cli fixed = bisect(g, good, "--cell", "speed/run");
        assertEquals(0, fixed.exitCode(), fixed.err());
        JsonNode f = JSON.readTree(fixed.out());
        assertEquals("inconclusive", f.get("verdict").asText(), fixed.out());
        assertEquals("undecided", f.at("/steps/0/call").asText());
        assertTrue(f.get("advice").asText().startsWith("rerun with --trials "), fixed.out());
        List<String> candidates = new ArrayList<>();
        f.get("candidates").forEach(c -> candidates.add(c.asText()));
        assertEquals(commits, candidates, "every commit may be the first bad one");
        Cli text = Cli.run("bisect", "--repo=" + g.dir(), "--good", good, "--bad", "main",
                "--trials", "3", "--cell", "speed/run", "--out", tmp.resolve("text").toString());
        assertTrue(text.out().contains("Inconclusive at commit " + commits.get(3).substring(0, 12) + ": rerun with"
                + " --trials"), text.out());

        Cli run = Cli.run("bisect", "--repo=" + g.dir(), "--good", good, "--bad", "main", "--trials", "3",
                "--adaptive", "18", "--resume", "--format", "json", "--out", tmp.resolve("bisect").toString(), "--cell",
                "speed/run");
        assertEquals(0, run.exitCode(), run.err());
        JsonNode b = JSON.readTree(run.out());
        assertEquals("found", b.get("verdict").asText(), b.toString());
        assertEquals(culprit, b.get("firstBad").asText());
        assertTrue(b.at("/steps/0/trials").asInt() > 3, "the undecided check ran again, with more rounds");
        assertTrue(Files.isDirectory(tmp.resolve("bisect/steps/01-check-" + commits.get(3).substring(0, 12) + "-2")),
                "the first run's folder is kept");
        // Evidence is never overruled by less evidence: the confirmation has at least the trials
        // that made the search call the commit bad.
        JsonNode searched = null;
        JsonNode confirm = null;
        for (JsonNode step : b.get("steps")) {
            if (step.get("commit").asText().equals(culprit) && step.get("call").asText().equals("bad")
                    && !step.get("purpose").asText().equals("confirm")) {
                searched = step;
            }
            if (step.get("purpose").asText().equals("confirm")) {
                confirm = step;
            }
        }
        assertTrue(searched != null && confirm != null, b.toString());
        assertTrue(confirm.get("trials").asInt() >= searched.get("trials").asInt(), b.toString());
        assertEquals(commits.get(0), confirm.get("base").asText());
    }

    @Test
    void saysWhenThereIsNothingToBisect() throws IOException {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        Subjects.write(g, 100, 3, "");
        String good = g.commit("initial");
        g.write("notes.txt", "x\n");
        g.commit("docs");
        Cli run = Cli.run("bisect", "--repo=" + g.dir(), "--good", good, "--bad", "main", "--trials", "12", "--cell",
                "speed/run", "--format", "json", "--out", tmp.resolve("bisect").toString());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("no-change", JSON.readTree(run.out()).get("verdict").asText(), run.out());
        Cli bad = Cli.run("bisect", "--repo=" + g.dir(), "--good", "main", "--bad", "main", "--cell", "speed/run",
                "--out", tmp.resolve("none").toString());
        assertEquals(2, bad.exitCode(), bad.err());
        assertTrue(bad.err().contains("are one commit: nothing to bisect"), bad.err());
    }

    @Test
    void skipsCommitsThatCannotBeMeasuredAndStillNamesTheCommit() throws IOException {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        Subjects.write(g, 100, 3, "");
        g.script("build.sh", "#!/bin/sh\nset -e\n[ ! -e broken ] || { echo 'does not compile' >&2; exit 1; }\n"
                + "cp level.txt \"$PERFAB_BUILD_DIR/level\"\n");
        String good = g.commit("initial");
        String culprit = null;
        String broken = null;
        String bare = null;
        for (int i = 1; i <= 8; i++) {
            g.write("notes/" + i + ".txt", "note " + i + "\n");
            if (i == 3) {
                g.write("broken", "x\n"); // does not build
            }
            if (i == 4) {
                g.git("rm", "-q", "broken");
            }
            if (i == 6) {
                g.write("level.txt", "110\n");
            }
            if (i == 5) {
                g.git("mv", "perfab.yaml", "moved.yaml"); // no workload at its path
            }
            if (i == 6) {
                g.git("mv", "moved.yaml", "perfab.yaml");
            }
            String id = g.commit("commit " + i);
            culprit = i == 6 ? id : culprit;
            broken = i == 3 ? id : broken;
            bare = i == 5 ? id : bare;
        }
        Cli run = Cli.run("bisect", "--repo=" + g.dir(), "--good", good, "--bad", "main", "--trials", "6", "--cell",
                "speed/run", "--format", "json", "--out", tmp.resolve("bisect").toString());
        assertEquals(0, run.exitCode(), run.err());
        JsonNode b = JSON.readTree(run.out());
        List<String> skipped = new ArrayList<>();
        for (JsonNode step : b.get("steps")) {
            if (step.get("call").asText().equals("skipped")) {
                skipped.add(step.get("commit").asText());
                assertTrue(!step.get("reason").asText().isEmpty(), step.toString());
            }
        }
        assertTrue(!skipped.isEmpty(), b.toString());
        assertTrue(List.of(broken, bare).containsAll(skipped), b.toString());
        if (skipped.contains(bare)) {
            // commit 5 lies just before the culprit: the change is in 5 or 6, and 5 cannot be measured
            assertEquals("among", b.get("verdict").asText(), b.toString());
            assertEquals(List.of(bare, culprit), List.of(b.at("/candidates/0").asText(), b.at("/candidates/1").asText()));
        } else {
            assertEquals("found", b.get("verdict").asText(), b.toString());
            assertEquals(culprit, b.get("firstBad").asText());
        }
        Cli text = Cli.run("bisect", "--repo=" + g.dir(), "--good", good, "--bad", "main", "--trials", "6", "--cell",
                "speed/run", "--out", tmp.resolve("text").toString());
        assertTrue(text.out().contains("skipped"), text.out());
    }

    @Test
    void aBisectAlreadyInTheFolderIsResumedNotOverwritten() throws IOException {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        Subjects.write(g, 100, 3, "");
        String good = g.commit("initial");
        g.write("level.txt", "110\n");
        g.commit("slower");
        g.write("notes.txt", "x\n");
        g.commit("docs");
        Cli first = bisect(g, good, "--cell", "speed/run");
        assertEquals(0, first.exitCode(), first.err());
        Cli again = bisect(g, good, "--cell", "speed/run");
        assertEquals(2, again.exitCode(), again.err());
        assertTrue(again.err().contains("already holds a bisect: go on with --resume"), again.err());
        Cli other = bisect(g, good, "--cell", "steady/run", "--resume");
        assertEquals(2, other.exitCode(), other.err());
        assertTrue(other.err().contains("--resume: the bisect in"), other.err());
        Cli resumed = bisect(g, good, "--cell", "speed/run", "--resume");
        assertEquals(0, resumed.exitCode(), resumed.err());
        assertEquals(JSON.readTree(first.out()).get("firstBad"), JSON.readTree(resumed.out()).get("firstBad"));
        assertTrue(resumed.err().contains("reused from the earlier run"), resumed.err());
        try (var steps = Files.list(tmp.resolve("bisect/steps"))) {
            assertEquals(JSON.readTree(first.out()).get("steps").size(), steps.count(), "nothing measured twice");
        }
    }
}
