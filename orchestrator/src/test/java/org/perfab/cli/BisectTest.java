package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.perfab.ab.OutLock;
import org.perfab.exec.Processes;
import org.perfab.testing.FakeEngine;
import org.perfab.testing.GitFixture;
import org.perfab.testing.Subjects;

/** {@code perfab bisect} on real repositories: a real regression is found, code layout is not blamed on a commit. */
class BisectTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    /** Runs the subjects' builds and harnesses in process; a test gives its own scripts programs of their own. */
    private final FakeEngine fake = Subjects.fake();

    private Cli bisect(GitFixture g, String good, String... more) {
        List<String> args = new ArrayList<>(List.of(
                "bisect",
                "--repo=" + g.dir(),
                "--good",
                good,
                "--bad",
                "main",
                "--trials",
                "3",
                "--format",
                "json",
                "--out",
                tmp.resolve("bisect").toString()));
        args.addAll(List.of(more));
        return run(args.toArray(String[]::new));
    }

    /** Runs perfab with {@code args} on the fake engine. */
    private Cli run(String... args) {
        return Cli.run(fake.engine(), args);
    }

    /** Writes one cell's value to the trial's results, as the scripts here do, and returns a trial that worked. */
    private static Processes.Outcome result(Processes.Command c, String cell, String unit, long value)
            throws IOException {
        Files.writeString(
                Path.of(c.env().get("PERFAB_RESULT")),
                "{\"schema\": \"perfab/measurements/v1\","
                        + " \"measurements\": [{\"cell\": \"" + cell + "\", \"metric\": \"time\", \"unit\": \"" + unit
                        + "\", \"value\": " + value + "}]}");
        return FakeEngine.ok(0.02);
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
        assertTrue(Files.isDirectory(tmp.resolve(
                "bisect/steps/01-check-" + b.at("/steps/0/commit").asText().substring(0, 12))));
        Cli text = run(
                "bisect",
                "--repo=" + g.dir(),
                "--good",
                good,
                "--bad",
                "main",
                "--trials",
                "3",
                "--cell",
                "speed/run",
                "--out",
                tmp.resolve("again").toString());
        assertTrue(text.out().contains("First bad commit: " + culprit.substring(0, 12)), text.out());
    }

    /**
     * The layout of the good commit (index 0) and of each of the 16 commits after it, in tenths of a
     * percent (-10 to 10: up to ±1%). Commit 8 lies 1.2% above the good commit: one build per side
     * reads it as a regression under a 1% bar, and a search that took it for bad never reached a
     * commit after it.
     */
    private static final int[] LAYOUT = {-6, 2, -3, 5, 0, -8, 4, -1, 6, -4, 7, -2, 0, 9, -5, 1, 6};

    /**
     * The build of a project whose cell moves with code layout: it keeps the commit's level, and
     * lays the code out by the commit's own {@code layout.txt}, moved by the perturbation perfab
     * applied before it ({@code pad.txt}, which {@code build.perturb} writes with the build's
     * number: build 0, and a workload without {@code perturb}, keep the commit's own layout).
     */
    private static final String LAYOUT_BUILD = """
            #!/bin/sh
            set -e
            cp level.txt "$PERFAB_BUILD_DIR/level"
            k=$(cat pad.txt 2>/dev/null || echo 0)
            echo $(( ($(cat layout.txt) + 10 + 8 * k) % 21 - 10 )) > "$PERFAB_BUILD_DIR/layout"
            """;

    /**
     * Its harness: the level, moved by the build's layout, with a spread of ±0.2% by trial number
     * that every build of three takes whole (trials 0, 3, 6 of build 0 read -0.2%, 0, +0.2%).
     */
    private static final String LAYOUT_HARNESS = """
            #!/bin/sh
            set -e
            level=$(cat "$PERFAB_BUILD_DIR/level")
            layout=$(cat "$PERFAB_BUILD_DIR/layout")
            jitter=$(( (PERFAB_TRIAL + PERFAB_TRIAL / 3) % 3 - 1 ))
            value=$(( level * (1000 + layout) * (1000 + 2 * jitter) / 1000000 ))
            printf '{"schema": "perfab/measurements/v1", "measurements": [{"cell": "speed/run", "metric": "time",'\
            ' "unit": "us", "value": %s}]}' "$value" > "$PERFAB_RESULT"
            """;

    /**
     * Writes a history of 16 commits after a good one, each laid out by {@link #LAYOUT}, whose
     * commit {@code culprit} (from 1; 0 for none) makes the code {@code pct} percent slower; with
     * {@code perturb}, the workload's builds shift layout. Returns the good commit and the 16.
     */
    private List<String> layoutHistory(GitFixture g, int culprit, int pct, boolean perturb) throws IOException {
        fake.program("build.sh", c -> {
                    Path out = Path.of(c.env().get("PERFAB_BUILD_DIR"));
                    Files.copy(c.dir().resolve("level.txt"), out.resolve("level"), StandardCopyOption.REPLACE_EXISTING);
                    Path pad = c.dir().resolve("pad.txt");
                    long k = Files.exists(pad)
                            ? Long.parseLong(Files.readString(pad).strip())
                            : 0;
                    long layout = Long.parseLong(
                            Files.readString(c.dir().resolve("layout.txt")).strip());
                    Files.writeString(out.resolve("layout"), ((layout + 10 + 8 * k) % 21 - 10) + "\n");
                    return FakeEngine.ok(0.01);
                })
                .program("perturb.sh", c -> {
                    Files.writeString(c.dir().resolve("pad.txt"), c.env().get("PERFAB_BUILD") + "\n");
                    return FakeEngine.ok(0.01);
                })
                .program("bench.sh", c -> {
                    Path built = Path.of(c.env().get("PERFAB_BUILD_DIR"));
                    long level = Long.parseLong(
                            Files.readString(built.resolve("level")).strip());
                    long layout = Long.parseLong(
                            Files.readString(built.resolve("layout")).strip());
                    long trial = Long.parseLong(c.env().get("PERFAB_TRIAL"));
                    long jitter = (trial + trial / 3) % 3 - 1;
                    return result(c, "speed/run", "us", level * (1000 + layout) * (1000 + 2 * jitter) / 1000000);
                });
        g.script("build.sh", LAYOUT_BUILD)
                .script("bench.sh", LAYOUT_HARNESS)
                .script("perturb.sh", "#!/bin/sh\necho \"$PERFAB_BUILD\" > pad.txt\n")
                .write(
                        "perfab.yaml",
                        "name: layout\ntrials: 3\nwarmup: 0\nadaptive: off\n"
                                + "build:\n  run: [sh, build.sh]\n" + (perturb ? "  perturb: [sh, perturb.sh]\n" : "")
                                + "harness:\n  run: [sh, bench.sh]\n")
                .write("level.txt", "100000\n")
                .write("layout.txt", LAYOUT[0] + "\n");
        List<String> commits = new ArrayList<>(List.of(g.commit("initial")));
        for (int i = 1; i <= 16; i++) {
            g.write("layout.txt", LAYOUT[i] + "\n");
            if (i == culprit) {
                g.write("level.txt", 1000 * (100 + pct) + "\n");
            }
            commits.add(g.commit("commit " + i));
        }
        return commits;
    }

    /** A bisect of a layout history (see {@link #layoutHistory}): its commits and what it found. */
    private record LayoutBisect(List<String> commits, JsonNode bisection) {}

    private LayoutBisect bisectLayout(int culprit, int change, boolean perturb) throws IOException {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        List<String> c = layoutHistory(g, culprit, change, perturb);
        Cli run = bisect(g, c.get(0), "--cell", "speed/run");
        assertEquals(0, run.exitCode(), run.err());
        return new LayoutBisect(c, JSON.readTree(run.out()));
    }

    @ParameterizedTest(name = "build.perturb: {0}")
    @ValueSource(booleans = {false, true})
    void namesATenPercentCommitAmongCommitsThatEachMoveByLayout(boolean perturb) throws IOException {
        LayoutBisect run = bisectLayout(9, 10, perturb);
        List<String> c = run.commits();
        JsonNode b = run.bisection();
        assertEquals("found", b.get("verdict").asText(), b.toString());
        assertEquals(c.get(9), b.get("firstBad").asText(), b.toString());
        int builds = perturb ? 3 : 1;
        JsonNode check = b.at("/steps/0");
        assertEquals("check", check.get("purpose").asText());
        assertEquals(builds, check.get("builds").asInt(), "the change hunted is measured over shifted layouts");
        for (JsonNode step : b.get("steps")) {
            int commit = c.indexOf(step.get("commit").asText());
            assertTrue(
                    commit >= 9 || !step.get("call").asText().equals("bad"),
                    "commit " + commit + " is only layout, and was called bad: " + b);
            if (step.get("purpose").asText().equals("search")) {
                assertEquals(1, step.get("builds").asInt(), "far from half the change, layout cannot decide: " + b);
            }
        }
        JsonNode confirm = b.at("/steps/" + (b.get("steps").size() - 1));
        assertEquals("confirm", confirm.get("purpose").asText());
        assertEquals(c.get(8), confirm.get("base").asText());
        assertEquals(builds, confirm.get("builds").asInt());
    }

    @Test
    void namesNoCommitWhenTheCommitsMoveOnlyByLayout() throws IOException {
        LayoutBisect run = bisectLayout(0, 0, true);
        List<String> c = run.commits();
        JsonNode b = run.bisection();
        assertTrue(b.get("firstBad").isNull(), b.toString());
        assertTrue(
                List.of("no-change", "no-single-commit", "inconclusive")
                        .contains(b.get("verdict").asText()),
                b.toString());
        assertEquals(3, b.at("/steps/0/builds").asInt(), b.toString());
        assertTrue(b.at("/steps/0/buildsDiffer").asBoolean(), b.toString());
    }

    @Test
    void measuresAStepAgainWithSeveralBuildsWhereLayoutCouldDecideItsCall() throws IOException {
        // A +4% commit: the search hunts +1.9%, and builds of one commit spread by ±0.8% (a reach of
        // ±2.3% one build against another), so commit 8's +1.2% of layout could be read either way.
        LayoutBisect run = bisectLayout(9, 4, true);
        List<String> c = run.commits();
        JsonNode b = run.bisection();
        assertEquals("found", b.get("verdict").asText(), b.toString());
        assertEquals(c.get(9), b.get("firstBad").asText(), b.toString());
        List<JsonNode> eighth = new ArrayList<>();
        b.get("steps").forEach(s -> {
            if (s.get("commit").asText().equals(c.get(8))) {
                eighth.add(s);
            }
        });
        assertEquals(
                List.of("search", "search"),
                eighth.stream().map(s -> s.get("purpose").asText()).toList(),
                "commit 8 is measured with one build, then again with three: " + b);
        assertEquals(1, eighth.get(0).get("builds").asInt());
        assertEquals(3, eighth.get(1).get("builds").asInt());
        assertTrue(eighth.get(1).get("trials").asInt() >= 9, eighth.get(1).toString());
        assertEquals("good", eighth.get(1).get("call").asText(), "over three layouts per side, +1.2% was layout");
        assertTrue(
                eighth.get(1).get("reason").asText().contains("within code layout's reach"),
                eighth.get(1).toString());
    }

    @Test
    void blamesNoCommitForAMoveThatIsCodeLayout() throws IOException {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        Subjects.layoutOnly(g);
        Subjects.layoutOnly(fake);
        g.write(
                "perfab.yaml",
                "name: layout\ntrials: 3\nwarmup: 0\nbuild:\n  run: [sh, build.sh]\n"
                        + "  perturb: [sh, perturb.sh]\nharness:\n  run: [sh, bench.sh]\n");
        String good = g.commit("initial");
        for (int i = 1; i <= 8; i++) {
            g.write("notes/" + i + ".txt", "note " + i + "\n");
            if (i == 5) {
                g.write("src.txt", "x".repeat(900) + "abc"); // a comment: the layout moves, the code does not
            }
            g.commit("commit " + i);
        }
        // One build per side, the bad commit reads 8% slower than the good one; with build.perturb the
        // check shifts their layouts too, and over three builds per side the move is +4.7%, p 0.1:
        // nothing to hunt, and no commit to blame.
        Cli run = bisect(g, good, "--cell", "loop");
        assertEquals(0, run.exitCode(), run.err());
        JsonNode b = JSON.readTree(run.out());
        assertEquals("inconclusive", b.get("verdict").asText(), b.toString());
        assertTrue(b.get("firstBad").isNull());
        assertEquals(1, b.get("steps").size(), "the search hunts no change the check could not find: " + b);
        JsonNode check = b.at("/steps/0");
        assertEquals(3, check.get("builds").asInt(), "build.perturb: the check is built three times per side");
        assertTrue(check.get("buildsDiffer").asBoolean(), check.toString());
        assertTrue(check.get("trials").asInt() >= 9, "three trials per build at least");
        assertEquals("undecided", check.get("call").asText());
        assertTrue(
                b.get("evidence").toString().contains("code layout alone moves one build against another by up to"),
                b.get("evidence").toString());
        assertEquals("rerun with --builds 6 --resume", b.get("advice").asText());
        Cli md = run(
                "bisect",
                "--repo=" + g.dir(),
                "--good",
                good,
                "--bad",
                "main",
                "--cell",
                "loop",
                "--format",
                "markdown",
                "--out",
                tmp.resolve("md").toString());
        assertTrue(
                md.out()
                        .contains("**Inconclusive at commit "
                                + b.get("bad").asText().substring(0, 12)),
                md.out());
        assertTrue(md.out().contains("code layout alone moves"), md.out());
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
        Cli text = run(
                "bisect",
                "--repo=" + g.dir(),
                "--good",
                good,
                "--bad",
                "main",
                "--trials",
                "3",
                "--cell",
                "speed/run",
                "--out",
                tmp.resolve("text").toString());
        assertTrue(
                text.out()
                        .contains("Inconclusive at commit " + commits.get(3).substring(0, 12) + ": rerun with"
                                + " --trials"),
                text.out());

        Cli run = run(
                "bisect",
                "--repo=" + g.dir(),
                "--good",
                good,
                "--bad",
                "main",
                "--trials",
                "3",
                "--adaptive",
                "18",
                "--resume",
                "--format",
                "json",
                "--out",
                tmp.resolve("bisect").toString(),
                "--cell",
                "speed/run");
        assertEquals(0, run.exitCode(), run.err());
        JsonNode b = JSON.readTree(run.out());
        assertEquals("found", b.get("verdict").asText(), b.toString());
        assertEquals(culprit, b.get("firstBad").asText());
        assertTrue(b.at("/steps/0/trials").asInt() > 3, "the undecided check ran again, with more rounds");
        assertTrue(
                Files.isDirectory(
                        tmp.resolve("bisect/steps/01-check-" + commits.get(3).substring(0, 12) + "-2")),
                "the first run's folder is kept");
        // Evidence is never overruled by less evidence: the confirmation has at least the trials
        // that made the search call the commit bad.
        JsonNode searched = null;
        JsonNode confirm = null;
        for (JsonNode step : b.get("steps")) {
            if (step.get("commit").asText().equals(culprit)
                    && step.get("call").asText().equals("bad")
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
        Cli run = run(
                "bisect",
                "--repo=" + g.dir(),
                "--good",
                good,
                "--bad",
                "main",
                "--trials",
                "12",
                "--cell",
                "speed/run",
                "--format",
                "json",
                "--out",
                tmp.resolve("bisect").toString());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("no-change", JSON.readTree(run.out()).get("verdict").asText(), run.out());
        Cli bad = run(
                "bisect",
                "--repo=" + g.dir(),
                "--good",
                "main",
                "--bad",
                "main",
                "--cell",
                "speed/run",
                "--out",
                tmp.resolve("none").toString());
        assertEquals(2, bad.exitCode(), bad.err());
        assertTrue(bad.err().contains("are one commit: nothing to bisect"), bad.err());
    }

    @Test
    void skipsCommitsThatCannotBeMeasuredAndStillNamesTheCommit() throws IOException {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        Subjects.write(g, 100, 3, "");
        fake.program("build.sh", c -> {
            if (Files.exists(c.dir().resolve("broken"))) {
                Files.writeString(c.stderr(), "does not compile\n");
                return FakeEngine.exited(1, 0.01);
            }
            Files.copy(
                    c.dir().resolve("level.txt"),
                    Path.of(c.env().get("PERFAB_BUILD_DIR")).resolve("level"),
                    StandardCopyOption.REPLACE_EXISTING);
            return FakeEngine.ok(0.01);
        });
        g.script(
                "build.sh",
                "#!/bin/sh\nset -e\n[ ! -e broken ] || { echo 'does not compile' >&2; exit 1; }\n"
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
                Files.delete(g.dir().resolve("broken")); // the commit stages deletions too
            }
            if (i == 6) {
                g.write("level.txt", "110\n");
            }
            if (i == 5) {
                Files.move(g.dir().resolve("perfab.yaml"), g.dir().resolve("moved.yaml")); // no workload at its path
            }
            if (i == 6) {
                Files.move(g.dir().resolve("moved.yaml"), g.dir().resolve("perfab.yaml"));
            }
            String id = g.commit("commit " + i);
            culprit = i == 6 ? id : culprit;
            broken = i == 3 ? id : broken;
            bare = i == 5 ? id : bare;
        }
        Cli run = run(
                "bisect",
                "--repo=" + g.dir(),
                "--good",
                good,
                "--bad",
                "main",
                "--trials",
                "6",
                "--cell",
                "speed/run",
                "--format",
                "json",
                "--out",
                tmp.resolve("bisect").toString());
        assertEquals(0, run.exitCode(), run.err());
        JsonNode b = JSON.readTree(run.out());
        List<String> skipped = new ArrayList<>();
        for (JsonNode step : b.get("steps")) {
            if (step.get("call").asText().equals("skipped")) {
                skipped.add(step.get("commit").asText());
                assertTrue(!step.get("reason").asText().isEmpty(), step.toString());
                if (step.get("commit").asText().equals(bare)) {
                    assertEquals(
                            "no perfab.yaml in this commit: each step runs the candidate's own workload and harness,"
                                    + " so a commit from before the workload was added cannot be measured",
                            step.get("reason").asText());
                }
            }
        }
        assertTrue(!skipped.isEmpty(), b.toString());
        assertTrue(List.of(broken, bare).containsAll(skipped), b.toString());
        if (skipped.contains(bare)) {
            // commit 5 lies just before the culprit: the change is in 5 or 6, and 5 cannot be measured
            assertEquals("among", b.get("verdict").asText(), b.toString());
            assertEquals(
                    List.of(bare, culprit),
                    List.of(
                            b.at("/candidates/0").asText(),
                            b.at("/candidates/1").asText()));
        } else {
            assertEquals("found", b.get("verdict").asText(), b.toString());
            assertEquals(culprit, b.get("firstBad").asText());
        }
        Cli text = run(
                "bisect",
                "--repo=" + g.dir(),
                "--good",
                good,
                "--bad",
                "main",
                "--trials",
                "6",
                "--cell",
                "speed/run",
                "--out",
                tmp.resolve("text").toString());
        assertTrue(text.out().contains("skipped"), text.out());
    }

    @Test
    void aBisectAlreadyInTheFolderIsResumedNotOverwritten() throws IOException {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        Subjects.write(g, 100, 3, "");
        g.write("other.yaml", Subjects.workload(4, ""));
        String good = g.commit("initial");
        g.write("level.txt", "110\n");
        g.commit("slower");
        g.write("notes.txt", "x\n");
        g.commit("docs");
        Cli nothing = run(
                "bisect",
                "--repo=" + g.dir(),
                "--good",
                good,
                "--bad",
                "main",
                "--trials",
                "3",
                "--cell",
                "sped/*",
                "--out",
                tmp.resolve("none").toString());
        assertEquals(2, nothing.exitCode(), nothing.err());
        assertTrue(
                nothing.err()
                        .contains("--cell 'sped/*' matches no cell the check measured (speed/run:time,"
                                + " steady/run:time)"),
                nothing.err());
        Cli first = bisect(g, good, "--cell", "speed/run");
        assertEquals(0, first.exitCode(), first.err());
        Cli again = bisect(g, good, "--cell", "speed/run");
        assertEquals(2, again.exitCode(), again.err());
        assertTrue(again.err().contains("already holds a bisect: go on with --resume"), again.err());
        Cli other = bisect(g, good, "--cell", "steady/run", "--resume");
        assertEquals(2, other.exitCode(), other.err());
        assertTrue(other.err().contains("--resume: the bisect in"), other.err());
        Cli otherWorkload = bisect(g, good, "--cell", "speed/run", "--resume", "--workload", "other.yaml");
        assertEquals(2, otherWorkload.exitCode(), otherWorkload.err());
        assertTrue(
                otherWorkload.err().contains("measured with the workload perfab.yaml (sha256 ")
                        && otherWorkload.err().contains("not other.yaml (sha256 ")
                        && otherWorkload.err().contains("would mix two workloads"),
                otherWorkload.err());
        // While a bisect holds the folder, neither another nor a --resume of it may write there.
        try (OutLock held = OutLock.take(tmp.resolve("bisect"), "--out")) {
            Cli beside = bisect(g, good, "--cell", "speed/run", "--resume");
            assertEquals(2, beside.exitCode(), beside.err());
            assertTrue(beside.err().contains("is in use by another perfab run (pid "), beside.err());
        }
        Cli resumed = bisect(g, good, "--cell", "speed/run", "--resume");
        assertEquals(0, resumed.exitCode(), resumed.err());
        assertEquals(
                JSON.readTree(first.out()).get("firstBad"),
                JSON.readTree(resumed.out()).get("firstBad"));
        assertTrue(resumed.err().contains("reused from the earlier run"), resumed.err());
        try (var steps = Files.list(tmp.resolve("bisect/steps"))) {
            assertEquals(JSON.readTree(first.out()).get("steps").size(), steps.count(), "nothing measured twice");
        }
    }
}
