package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.ab.Engine;
import org.perfab.testing.GitFixture;
import org.perfab.testing.Subjects;

/**
 * A developer's own clone, where they stand: {@code perfab ab} run from a subfolder finds the
 * repository, measures HEAD by default, and measures the working tree (an uncommitted change) when
 * asked to. Each verdict here depends on which side's code ran.
 */
class WorkInProgressIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    /** A repository on branch feature, which is main's first commit (level 100) plus an unrelated file. */
    private GitFixture developersClone() throws IOException {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        Subjects.write(g, 100, 3, "");
        g.write("src/deeper/code.txt", "the code\n");
        g.commit("initial");
        g.git("checkout", "-q", "-b", "feature");
        g.write("README", "a feature\n");
        g.commit("the feature, no change of speed");
        return g;
    }

    private JsonNode results() throws IOException {
        return JSON.readTree(tmp.resolve("out/results.json").toFile());
    }

    private String verdict(String cell) throws IOException {
        for (JsonNode row : results().path("comparisons")) {
            if (row.path("cell").asText().equals(cell)) {
                return row.path("verdict").asText();
            }
        }
        throw new AssertionError("no row " + cell + " in " + results());
    }

    @Test
    void fromASubfolderTheHeadIsHeadByDefault() throws IOException {
        GitFixture g = developersClone();
        g.write("level.txt", "130\n");
        String head = g.commit("slower");
        Cli c = Cli.run(
                Engine.REAL,
                "ab",
                "--repo=" + g.dir().resolve("src/deeper"),
                "--base=main",
                "--out",
                tmp.resolve("out").toString());
        assertEquals(0, c.exitCode(), c.err());
        assertEquals(head, results().path("refs").path("head").path("commit").asText(), c.err());
        assertEquals("regression", verdict("speed/run"), c.out());
    }

    @Test
    void theWorkingTreeIsMeasuredWhenAskedAndNothingOfTheCloneChanges() throws IOException {
        GitFixture g = developersClone();
        String head = g.git("rev-parse", "HEAD").strip();
        g.write("level.txt", "130\n");
        g.write("notes/new-file.txt", "untracked, not ignored\n");
        g.write(".gitignore", "ignored.bin\n");
        g.write("ignored.bin", "left out\n");

        // An earlier run's folder in the clone, as the default --out leaves it: never part of the head.
        Files.createDirectories(g.dir().resolve("perfab-out/earlier"));
        Files.writeString(g.dir().resolve("perfab-out/earlier/level.txt"), "1\n");
        Files.createDirectories(g.dir().resolve("build-cache/x"));
        Files.writeString(g.dir().resolve("build-cache/x/a"), "cached\n");
        String status = g.git("status", "--porcelain", "--", ".", ":!perfab-out");
        Cli c = Cli.run(
                Engine.REAL,
                "ab",
                "--repo=" + g.dir(),
                "--base=main",
                "--head=WORKTREE",
                "--out",
                g.dir().resolve("perfab-out").toString(),
                "--force",
                "--cache",
                g.dir().resolve("build-cache").toString());
        assertEquals(0, c.exitCode(), c.err());
        Files.createDirectories(tmp.resolve("out"));
        Files.copy(g.dir().resolve("perfab-out/results.json"), tmp.resolve("out/results.json"));
        Files.copy(g.dir().resolve("perfab-out/comment.md"), tmp.resolve("out/comment.md"));
        assertEquals("regression", verdict("speed/run"), c.out());
        JsonNode h = results().path("refs").path("head");
        assertEquals("WORKTREE", h.path("typed").asText(), h.toString());
        String snapshot = h.path("commit").asText();
        assertEquals(head, g.git("rev-parse", snapshot + "^").strip(), "the snapshot sits on HEAD");
        String files = g.git("ls-tree", "-r", "--name-only", snapshot);
        assertTrue(files.contains("notes/new-file.txt") && files.contains(".gitignore"), files);
        assertTrue(
                !files.contains("ignored.bin") && !files.contains("perfab-out") && !files.contains("build-cache"),
                "neither ignored files nor the run's own folders: " + files);
        String comment = Files.readString(tmp.resolve("out/comment.md"));
        assertTrue(comment.contains("WORKTREE") && comment.contains("not committed"), comment);
        // No ref, index or file of the clone moved.
        assertEquals(head, g.git("rev-parse", "HEAD").strip());
        assertEquals(status, g.git("status", "--porcelain"));
        assertTrue(
                g.git("check-ignore", "perfab-out/results.json").contains("perfab-out"), "a run's folder is ignored");
        assertEquals("", g.git("stash", "list").strip());

        // The same clone measured at HEAD: the uncommitted change is not in it.
        Cli committed = Cli.run(
                Engine.REAL,
                "ab",
                "--repo=" + g.dir(),
                "--base=main",
                "--out",
                tmp.resolve("out2").toString());
        assertEquals(0, committed.exitCode(), committed.err());
        JsonNode rows = JSON.readTree(tmp.resolve("out2/results.json").toFile()).path("comparisons");
        for (JsonNode row : rows) {
            assertTrue(!row.path("verdict").asText().equals("regression"), row.toString());
        }
    }

    /**
     * The code that sets the speed lives in a submodule, changed but not committed there: the
     * working tree's head measures the change (it used to measure HEAD again and call it an A/A).
     */
    @Test
    void anUncommittedChangeInsideASubmoduleIsMeasured() throws IOException {
        GitFixture lib = GitFixture.init(tmp.resolve("lib"));
        lib.write("level.txt", "100\n");
        lib.commit("the library");
        GitFixture g = developersClone();
        g.git("submodule", "add", "-q", lib.dir().toString(), "vendor/lib");
        g.script("build.sh", "#!/bin/sh\nset -e\ncp vendor/lib/level.txt \"$PERFAB_BUILD_DIR/level\"\n");
        g.commit("the speed comes from the library");
        g.git("branch", "-f", "main", "HEAD");
        Files.writeString(g.dir().resolve("vendor/lib/level.txt"), "130\n");
        Cli c = Cli.run(
                Engine.REAL,
                "ab",
                "--repo=" + g.dir(),
                "--base=main",
                "--head=WORKTREE",
                "--out",
                tmp.resolve("out").toString());
        assertEquals(0, c.exitCode(), c.err());
        assertTrue(c.err().contains("the submodule vendor/lib has uncommitted changes"), c.err());
        assertEquals("regression", verdict("speed/run"), c.out());
    }

    @Test
    void aWorkloadInTheWorkingTreeButNotInTheHeadIsSaidSo() throws IOException {
        GitFixture g = developersClone();
        g.write("perf/next.yaml", Subjects.workload(3, ""));
        Cli c = Cli.run(
                Engine.REAL,
                "ab",
                "--repo=" + g.dir().resolve("perf"),
                "--base=main",
                "--workload=next.yaml",
                "--out",
                tmp.resolve("out").toString());
        assertEquals(ExitCode.BAD_INPUT, c.exitCode(), c.err());
        assertTrue(
                c.err().contains("perf/next.yaml at HEAD")
                        && c.err().contains("is not in that commit")
                        && c.err().contains("--head WORKTREE"),
                c.err());

        // Measured as the working tree, the same path is found.
        Cli worktree = Cli.run(
                Engine.REAL,
                "ab",
                "--repo=" + g.dir().resolve("perf"),
                "--base=main",
                "--head=WORKTREE",
                "--workload=next.yaml",
                "--out",
                tmp.resolve("out").toString());
        assertEquals(0, worktree.exitCode(), worktree.err());
        assertEquals(
                "perf/next.yaml",
                results().path("settings").path("workload").asText(),
                results().toString());
    }

    @Test
    void aFolderOutsideAnyRepositoryIsSaidSo() throws IOException {
        Path plain = Files.createDirectories(tmp.resolve("plain/sub"));
        Cli c = Cli.run(
                Engine.REAL,
                "ab",
                "--repo=" + plain,
                "--base=main",
                "--out",
                tmp.resolve("out").toString());
        assertEquals(ExitCode.BAD_INPUT, c.exitCode(), c.err());
        assertTrue(c.err().contains("not a git repository (nor is any folder above it)"), c.err());
    }
}
