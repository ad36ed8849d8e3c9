package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.ab.Engine;
import org.perfab.testing.Comparisons;
import org.perfab.testing.GitFixture;
import org.perfab.testing.Slowdowns;
import org.perfab.testing.Subjects;

/**
 * The harness is the head's, the code is each side's own: every trial runs in its own side's
 * tree, with the head's harness files copied there. Each test here would pass with both sides
 * measuring the head, and so fails if the wrong side's code ran.
 */
class EachSideRunsItsOwnCodeIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    private Cli ab(GitFixture g) {
        return Cli.abOnThisMachine(g.dir(), tmp.resolve("out"));
    }

    private JsonNode results() throws IOException {
        return JSON.readTree(tmp.resolve("out/results.json").toFile());
    }

    @Test
    void aTimedCommandRunsTheAppEachSideBuiltIntoItsOwnTree() throws IOException {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.write("nap.txt", "0.1\n");
        g.script("build.sh", """
                #!/bin/sh
                set -e
                printf '#!/bin/sh\\nexec sleep %s\\n' "$(cat nap.txt)" > app
                chmod +x app
                """);
        g.write("perfab.yaml", """
                name: app
                trials: 4
                warmup: 1
                build:
                  run: [sh, build.sh]
                harness:
                  format: time
                  commands:
                    app: [./app]
                """);
        g.commit("initial");
        g.git("checkout", "-q", "-b", "feature");
        g.write("nap.txt", "0.3\n");
        g.commit("the app is three times slower");
        Cli run = ab(g);
        assertEquals(0, run.exitCode(), run.err());
        JsonNode wall = Comparisons.of(tmp.resolve("out/results.json")).get("app:wall");
        Slowdowns.foundOrUnconfirmed(wall);
        // An app that sleeps 0.3 s takes at least that: no base trial ran the head's app, and every
        // head trial did (a busy machine adds milliseconds to starting one, not a fifth of a second).
        assertTrue(wall.at("/base/max").asDouble() < 0.3, wall.toString());
        assertTrue(wall.at("/head/min").asDouble() >= 0.3, wall.toString());
        assertTrue(Files.exists(tmp.resolve("out/work/base-0/tree/app")), "the base built its own app");
    }

    @Test
    void aHarnessTheHeadChangedRunsOnBothSidesOverEachSidesCode() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 130, 3, "");
        g.git("checkout", "-q", "feature");
        // The head's harness measures a new cell, read from the tree it runs in.
        g.script(
                "bench.sh",
                Subjects.HARNESS.replace(
                        "printf '\\n]}\\n'",
                        "printf ',\\n {\"cell\": \"tree/level\", \"metric\": \"time\", \"unit\": \"us\", \"value\": %s}'"
                                + " \"$(cat level.txt)\" >> \"$PERFAB_RESULT\"\nprintf '\\n]}\\n'"));
        g.commit("the harness measures the tree's level too");
        g.git("checkout", "-q", "main");
        Cli run = ab(g);
        assertEquals(0, run.exitCode(), run.err());
        Map<String, JsonNode> rows = Comparisons.of(tmp.resolve("out/results.json"));
        JsonNode level = rows.get("tree/level:time");
        assertEquals(100.0, level.at("/base/mean").asDouble(), "the base ran the head's harness in its own tree");
        assertEquals(130.0, level.at("/head/mean").asDouble());
        assertEquals("regression", level.get("verdict").asText());
        JsonNode files = results().at("/settings/harnessFiles");
        assertEquals(
                "[{\"path\":\"bench.sh\",\"state\":\"changed\"},{\"path\":\"perfab.yaml\",\"state\":\"same\"}]",
                files.toString());
        String comment = Files.readString(tmp.resolve("out/comment.md"));
        assertTrue(
                comment.contains("Harness: the head's, on both sides; the baseline ran the head's `bench.sh`"
                        + " (changed); 1 other file is the same."),
                comment);
        assertTrue(run.err().contains("the base runs the head's harness: copied bench.sh (changed)"), run.err());
        // The base's own checkout holds the head's harness; the head's is untouched.
        assertEquals(
                Files.readString(tmp.resolve("out/work/head-0/tree/bench.sh")),
                Files.readString(tmp.resolve("out/work/base-0/tree/bench.sh")));
    }

    @Test
    void harnessFilesListsFoldersAndGlobs() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 100, 2, "  files: [bench.sh, 'lib/**/*.sh', data]\n");
        g.git("checkout", "-q", "feature");
        g.write("lib/a/helper.sh", "echo head\n")
                .write("lib/top.sh", "echo head\n")
                .write("lib/notes.txt", "x\n")
                .write("data/input.csv", "1,2\n");
        g.commit("harness helpers");
        g.git("checkout", "-q", "main");
        Cli run = ab(g);
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(
                "[{\"path\":\"bench.sh\",\"state\":\"same\"},{\"path\":\"data/input.csv\",\"state\":\"added\"},"
                        + "{\"path\":\"lib/a/helper.sh\",\"state\":\"added\"},{\"path\":\"lib/top.sh\",\"state\":\"added\"},"
                        + "{\"path\":\"perfab.yaml\",\"state\":\"same\"}]",
                results().at("/settings/harnessFiles").toString());
        assertTrue(Files.exists(tmp.resolve("out/work/base-0/tree/lib/a/helper.sh")));
        assertFalse(Files.exists(tmp.resolve("out/work/base-0/tree/lib/notes.txt")), "not a harness file");
    }

    @Test
    void aHarnessFileThatNamesNothingIsAnError() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 100, 2, "  files: [scripts/missing.sh]\n");
        Cli run = ab(g);
        assertEquals(2, run.exitCode(), run.err());
        assertTrue(
                run.err().contains("harness files: 'scripts/missing.sh' names no file in the head's tree"), run.err());
    }

    @Test
    void warnsWhenTheOnlyChangeIsToTheHarness() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 100, 2, "");
        g.git(
                "checkout",
                "-q",
                "-b",
                "harness-only",
                g.git("merge-base", "main", "feature").trim());
        g.script("bench.sh", Subjects.HARNESS + "# a comment\n");
        g.commit("only the harness changes");
        g.git("checkout", "-q", "main");
        Cli run = Cli.run(
                Engine.REAL,
                "ab",
                "--repo=" + g.dir(),
                "--base=main",
                "--head=harness-only",
                "--out",
                tmp.resolve("out").toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(
                run.out()
                        .contains("WARNING: Every file that differs between the baseline and the candidate is a"
                                + " harness file (bench.sh), and the base ran the head's copy"),
                run.out());
        assertFalse(run.out().contains("byte-identical"), run.out());
    }

    @Test
    void warnsWhenBothSidesStartOneProgramOutsideTheirTrees() throws IOException {
        Path shared = tmp.resolve("elsewhere/app");
        Files.createDirectories(shared.getParent());
        Files.writeString(shared, "#!/bin/sh\nexit 0\n");
        shared.toFile().setExecutable(true);
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.write(
                "perfab.yaml",
                "name: shared\ntrials: 2\nwarmup: 0\nharness:\n  format: time\n  commands:\n    app: ['" + shared
                        + "']\n");
        g.write("src.txt", "base\n");
        g.commit("initial");
        g.git("checkout", "-q", "-b", "feature");
        g.write("src.txt", "head\n");
        g.commit("the change");
        Cli run = ab(g);
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(
                run.out()
                        .contains("WARNING: Both sides' trials start the same programs, outside either side's"
                                + " tree (" + shared.toRealPath() + "): this run may be measuring one side twice"),
                run.out());
    }

    @Test
    void aToolFromThePathInEachSidesTreeIsNoCauseForAlarm() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 2, "");
        Cli run = ab(g);
        assertEquals(0, run.exitCode(), run.err());
        assertFalse(run.out().contains("same programs"), run.out());
    }
}
