package org.perfab.git;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.failure.BadInputException;
import org.perfab.failure.RunFailedException;
import org.perfab.testing.GitFixture;
import org.perfab.testing.StartsProcesses;

class GitRepoTest {
    @TempDir
    Path tmp;

    @Test
    void writesATreeWithExecutableBitsAndLinks() throws IOException {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.write("src/a.txt", "a\n").script("run.sh", "#!/bin/sh\necho hi\n");
        Files.createSymbolicLink(g.dir().resolve("link"), Path.of("src/a.txt"));
        g.commit("initial");
        try (GitRepo repo = GitRepo.open(g.dir())) {
            Commit head = repo.resolve("HEAD");
            Path dest = tmp.resolve("out/tree");
            List<String> written = repo.checkout(head, dest);
            assertEquals(
                    List.of("link", "run.sh", "src/a.txt"),
                    written.stream().sorted().toList());
            assertEquals("a\n", Files.readString(dest.resolve("src/a.txt")));
            assertTrue(Files.isExecutable(dest.resolve("run.sh")));
            assertTrue(Files.isSymbolicLink(dest.resolve("link")));
            assertEquals(Path.of("src/a.txt"), Files.readSymbolicLink(dest.resolve("link")));
        }
    }

    @StartsProcesses
    @Test
    void checksOutSubmodulesFromTheRepositorysOwnCopy() throws IOException {
        GitFixture lib = GitFixture.init(tmp.resolve("lib"));
        lib.write("lib.txt", "library\n");
        lib.commit("lib");
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.write("main.txt", "main\n");
        g.git("submodule", "add", "-q", lib.dir().toString(), "vendor/lib");
        g.commit("with a submodule");
        try (GitRepo repo = GitRepo.open(g.dir())) {
            Path dest = tmp.resolve("out/tree");
            List<String> written = repo.checkout(repo.resolve("main"), dest);
            assertTrue(written.contains("vendor/lib/lib.txt"), written.toString());
            assertEquals("library\n", Files.readString(dest.resolve("vendor/lib/lib.txt")));
        }
        // A clone that never fetched the submodule cannot build a whole tree: it says so.
        Path clone = tmp.resolve("clone");
        g.run(tmp, "clone", "-q", g.dir().toString(), clone.toString());
        try (GitRepo repo = GitRepo.open(clone)) {
            RunFailedException e = assertThrows(
                    RunFailedException.class, () -> repo.checkout(repo.resolve("HEAD"), tmp.resolve("out2/tree")));
            assertTrue(
                    e.getMessage().contains("submodule 'vendor/lib'")
                            && e.getMessage().contains("git submodule update --init --recursive"),
                    e.getMessage());
        }
    }

    /** The files of a commit's tree, one path per line. */
    private static String files(GitFixture g, String commit) throws IOException {
        return g.git("ls-tree", "-r", "--name-only", commit);
    }

    @StartsProcesses
    @Test
    void aSubmodulesUncommittedChangesAreInTheSnapshot() throws IOException {
        GitFixture lib = GitFixture.init(tmp.resolve("lib"));
        lib.write("level.txt", "100\n");
        lib.commit("lib");
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.write("main.txt", "main\n");
        g.git("submodule", "add", "-q", lib.dir().toString(), "vendor/lib");
        g.commit("with a submodule");
        Files.writeString(g.dir().resolve("vendor/lib/level.txt"), "130\n");
        Files.writeString(g.dir().resolve("vendor/lib/new.txt"), "new\n");
        String subStatus = g.run(g.dir().resolve("vendor/lib"), "status", "--porcelain");
        List<String> notes = new ArrayList<>();
        try (GitRepo repo = GitRepo.open(g.dir())) {
            Commit snap = repo.snapshot(List.of(), notes::add);
            assertTrue(!snap.subject().contains("no uncommitted changes"), snap.subject());
            Path dest = tmp.resolve("out/tree");
            repo.checkout(snap, dest);
            assertEquals("130\n", Files.readString(dest.resolve("vendor/lib/level.txt")), "the change inside it");
            assertEquals("new\n", Files.readString(dest.resolve("vendor/lib/new.txt")));
        }
        assertTrue(
                notes.stream().anyMatch(n -> n.startsWith("the submodule vendor/lib has uncommitted changes")),
                notes.toString());
        assertEquals(subStatus, g.run(g.dir().resolve("vendor/lib"), "status", "--porcelain"), "nothing of it moved");
    }

    @StartsProcesses
    @Test
    void whatGitWouldNotStageIsLeftOutAndSaid() throws Exception {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.write("code.txt", "code\n");
        g.commit("initial");
        g.write("code.txt", "changed\n");
        Path fifo = g.dir().resolve("pipe");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        try (ServerSocketChannel socket = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            socket.bind(UnixDomainSocketAddress.of(g.dir().resolve("sock")));
            g.write(".GIT", "not a repository\n").write("git~1", "nor this\n").write("big.bin", "x".repeat(5000));
            GitFixture nested = GitFixture.init(g.dir().resolve("nested"));
            nested.write("n.txt", "n\n");
            nested.commit("nested");
            List<String> notes = new ArrayList<>();
            try (GitRepo repo = GitRepo.open(g.dir())) {
                Commit snap = assertTimeoutPreemptively(
                        Duration.ofSeconds(30),
                        () -> repo.snapshot(List.of(), notes::add),
                        "a named pipe is never read");
                assertEquals("big.bin\ncode.txt\n", files(g, snap.id()));
            }
            String all = String.join("\n", notes);
            for (String left : List.of(
                    "left out pipe: neither a file",
                    "left out sock: neither a file",
                    "left out .GIT: a path git refuses",
                    "left out git~1: a path git refuses",
                    "left out nested: a repository inside the tree that is not a submodule",
                    "the head takes 1 untracked file (4.9 KiB): big.bin (4.9 KiB)")) {
                assertTrue(all.contains(left), left + " in " + all);
            }
        }
    }

    @Test
    void anUnresolvedMergeIsRefused() throws IOException {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.write("code.txt", "one\n");
        g.commit("initial");
        g.git("checkout", "-q", "-b", "other");
        g.write("code.txt", "two\n");
        g.commit("two");
        g.git("checkout", "-q", "main");
        g.write("code.txt", "three\n");
        g.commit("three");
        assertThrows(IOException.class, () -> g.git("merge", "-q", "other"), "the merge conflicts");
        try (GitRepo repo = GitRepo.open(g.dir())) {
            BadInputException e = assertThrows(BadInputException.class, () -> repo.snapshot(List.of(), n -> {}));
            assertTrue(e.getMessage().contains("has an unresolved merge (code.txt): resolve it"), e.getMessage());
        }
    }

    @Test
    void readsAFileOfACommitWithoutCheckingItOut() throws IOException {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.write("perfab.yaml", "name: x\n");
        g.commit("initial");
        try (GitRepo repo = GitRepo.open(g.dir())) {
            Commit head = repo.resolve("main");
            assertEquals("name: x\n", new String(repo.read(head, "perfab.yaml").orElseThrow()));
            assertTrue(repo.read(head, "missing.yaml").isEmpty());
            assertTrue(repo.read(head, "").isEmpty());
        }
    }

    @Test
    void rejectsAnAmbiguousOrMalformedRef() throws IOException {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.write("a", "a");
        g.commit("one");
        try (GitRepo repo = GitRepo.open(g.dir())) {
            BadInputException e = assertThrows(BadInputException.class, () -> repo.resolve("main~5"));
            assertTrue(e.getMessage().contains("'main~5'"), e.getMessage());
            assertThrows(BadInputException.class, () -> repo.resolve("main^^^{tree}:x"));
        }
    }
}
