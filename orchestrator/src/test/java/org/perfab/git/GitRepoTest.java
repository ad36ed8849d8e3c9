package org.perfab.git;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.failure.BadInputException;
import org.perfab.failure.RunFailedException;
import org.perfab.testing.GitFixture;

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
            assertEquals(List.of("link", "run.sh", "src/a.txt"), written.stream().sorted().toList());
            assertEquals("a\n", Files.readString(dest.resolve("src/a.txt")));
            assertTrue(Files.isExecutable(dest.resolve("run.sh")));
            assertTrue(Files.isSymbolicLink(dest.resolve("link")));
            assertEquals(Path.of("src/a.txt"), Files.readSymbolicLink(dest.resolve("link")));
        }
    }

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
            RunFailedException e = assertThrows(RunFailedException.class,
                    () -> repo.checkout(repo.resolve("HEAD"), tmp.resolve("out2/tree")));
            assertTrue(e.getMessage().contains("submodule 'vendor/lib'")
                    && e.getMessage().contains("git submodule update --init --recursive"), e.getMessage());
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
