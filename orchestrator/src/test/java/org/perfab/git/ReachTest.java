package org.perfab.git;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.testing.GitFixture;

/** {@link GitRepo#reach}: where a commit a series file records stands against a ref, on a real repository. */
class ReachTest {
    @TempDir
    Path tmp;

    @Test
    void aCommitIsOnARefOffItOrAbsentByFullOrAbbreviatedId() throws IOException {
        GitFixture git = GitFixture.init(tmp.resolve("repo"));
        String first = git.write("a", "1").commit("first");
        git.git("checkout", "-q", "-b", "side");
        String side = git.write("a", "side").commit("on a branch");
        git.git("checkout", "-q", "main");
        String second = git.write("a", "2").commit("second");
        git.git("tag", "v1", first);
        git.git("branch", "-q", "-D", "side");
        try (GitRepo repo = GitRepo.open(git.dir())) {
            Map<String, GitRepo.Reach> main = repo.reach(
                    repo.resolve("main"),
                    List.of(
                            first,
                            second.substring(0, 7),
                            side,
                            side.substring(0, 12),
                            "0".repeat(40),
                            "main",
                            "",
                            "abc"));
            assertEquals(
                    Map.of(
                            first,
                            GitRepo.Reach.ON,
                            second.substring(0, 7),
                            GitRepo.Reach.ON,
                            side,
                            GitRepo.Reach.OFF,
                            side.substring(0, 12),
                            GitRepo.Reach.OFF,
                            "0".repeat(40),
                            GitRepo.Reach.ABSENT,
                            "main",
                            GitRepo.Reach.ABSENT,
                            "",
                            GitRepo.Reach.ABSENT,
                            "abc",
                            GitRepo.Reach.ABSENT),
                    main,
                    "a ref name or a too short id in a file is no commit id");
            assertEquals(
                    Map.of(first, GitRepo.Reach.ON, second, GitRepo.Reach.OFF),
                    repo.reach(repo.resolve("v1"), List.of(first, second)),
                    "a later commit is not on an older tag");
        }
    }
}
