package org.perfab.git;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.perfab.failure.BadInputException;
import org.perfab.testing.GitFixture;
import org.perfab.testing.StartsProcesses;

/**
 * The repository's default branch, which a run without a base measures against, and the branches
 * a message about an unknown ref offers, on real repositories and real clones.
 */
class DefaultBranchTest {
    @TempDir
    Path tmp;

    /** A repository of one commit whose only branch is {@code name}. */
    private GitFixture repo(String name) throws IOException {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.write("a.txt", "a\n");
        g.commit("initial");
        if (!name.equals("main")) {
            g.git("branch", "-m", "main", name);
        }
        return g;
    }

    private static GitRepo.DefaultBranch defaultBranch(GitFixture g) {
        try (GitRepo repo = GitRepo.open(g.dir())) {
            return repo.defaultBranch();
        }
    }

    private static String unknown(GitFixture g, String ref) {
        try (GitRepo repo = GitRepo.open(g.dir())) {
            return assertThrows(BadInputException.class, () -> repo.resolve(ref))
                    .getMessage();
        }
    }

    @Test
    void theOneUsualBranchIsTheDefaultWithoutAnOrigin() throws IOException {
        GitFixture g = repo("master");
        g.git("branch", "feature");
        GitRepo.DefaultBranch d = defaultBranch(g);
        assertEquals("master", d.ref());
        assertEquals(
                "no origin/HEAD, and the only one of main, master, trunk and develop among its branches", d.found());
    }

    @StartsProcesses
    @Test
    void originHeadWinsOverALocalBranchOfAUsualName() throws IOException {
        GitFixture origin = repo("trunk");
        origin.write("a.txt", "b\n");
        origin.commit("trunk moves on");
        Path clone = tmp.resolve("clone");
        origin.run(tmp, "clone", "-q", origin.dir().toString(), clone.toString());
        origin.run(clone, "branch", "main", "trunk~1");
        try (GitRepo repo = GitRepo.open(clone)) {
            assertEquals(new GitRepo.DefaultBranch("origin/trunk", "origin/HEAD"), repo.defaultBranch());
            assertEquals(
                    origin.git("rev-parse", "trunk").trim(),
                    repo.resolve("origin/trunk").id());
        }
    }

    @StartsProcesses
    @Test
    void aDanglingOriginHeadSaysNothingAndTheUsualNamesDecide() throws IOException {
        GitFixture origin = repo("trunk");
        Path clone = tmp.resolve("clone");
        origin.run(tmp, "clone", "-q", origin.dir().toString(), clone.toString());
        origin.run(clone, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/gone");
        try (GitRepo repo = GitRepo.open(clone)) {
            assertEquals("trunk", repo.defaultBranch().ref());
        }
    }

    @Test
    void aCloneWithOnlyOriginsBranchesTakesOriginsUsualOne() throws IOException {
        GitFixture origin = repo("master");
        origin.git("branch", "feature");
        GitFixture ci = GitFixture.init(tmp.resolve("ci"));
        // As CI checks out a pull request: origin's branches fetched, no origin/HEAD, no local branch.
        ci.git("fetch", "-q", origin.dir().toString(), "+refs/heads/*:refs/remotes/origin/*");
        GitRepo.DefaultBranch d = defaultBranch(ci);
        assertEquals("origin/master", d.ref());
        assertTrue(d.found().endsWith("among origin's branches"), d.found());
    }

    @Test
    void twoUsualBranchesAndNoOriginHeadAreRefusedNamingBoth() throws IOException {
        GitFixture g = repo("main");
        g.git("branch", "master");
        g.git("branch", "feature");
        BadInputException e = assertThrows(BadInputException.class, () -> defaultBranch(g));
        assertEquals(
                "cannot tell the default branch of " + g.dir() + ", the base when --base is left out: it has no"
                        + " origin/HEAD to say which, and has the branches main and master; give --base",
                e.getMessage());
    }

    @Test
    void noUsualBranchIsRefusedNamingTheBranchesThereAre() throws IOException {
        GitFixture g = repo("release-1");
        g.git("branch", "gh-pages");
        BadInputException e = assertThrows(BadInputException.class, () -> defaultBranch(g));
        assertTrue(
                e.getMessage()
                        .endsWith("none of main, master, trunk and develop is a branch there (its branches"
                                + " include gh-pages, release-1); give --base"),
                e.getMessage());
    }

    @Test
    void anUnknownRefNamesTheBranchItCouldHaveMeant() throws IOException {
        GitFixture g = repo("master");
        g.git("branch", "feature-x");
        assertEquals(
                "unknown ref 'main' in " + g.dir() + " (a branch, tag, remote branch such as origin/main, or"
                        + " commit id); its branches include master, feature-x (did you mean master?)",
                unknown(g, "main"));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "feature-y|its branches include feature-x, master (did you mean feature-x?)",
                "feat|its branches include feature-x, master (did you mean feature-x?)",
                "mastr~2|its branches include master, feature-x (did you mean master?)",
                "origin/master|its branches include master, feature-x (did you mean master?)",
                "zebra|its branches include feature-x, master"
            })
    void theClosestBranchComesFirst(String typed, String listed) throws IOException {
        GitFixture g = repo("master");
        g.git("branch", "feature-x");
        String message = unknown(g, typed);
        assertTrue(message.startsWith("unknown ref '" + typed + "' in "), message);
        assertTrue(message.endsWith("; " + listed), message);
    }

    @StartsProcesses
    @Test
    void aBranchOnlyOriginHasIsOffered() throws IOException {
        GitFixture origin = repo("main");
        origin.git("branch", "feature");
        Path clone = tmp.resolve("clone");
        origin.run(tmp, "clone", "-q", origin.dir().toString(), clone.toString());
        try (GitRepo repo = GitRepo.open(clone)) {
            String message = assertThrows(BadInputException.class, () -> repo.resolve("feature"))
                    .getMessage();
            assertTrue(
                    message.endsWith("its branches include origin/feature, main, origin/main (did you mean"
                            + " origin/feature?)"),
                    message);
        }
    }

    @Test
    void anExpressionPastARefsHistorySaysSoRatherThanOfferingIt() throws IOException {
        GitFixture g = repo("master");
        String message = unknown(g, "master~5");
        assertTrue(message.contains("'master' is there, but the expression names no commit of its history"), message);
        assertFalse(message.contains("did you mean"), message);
    }

    @Test
    void aRepositorysBranchNamesAreBoundedAndMadeSafeToPrint() throws IOException {
        GitFixture g = repo("master");
        for (int i = 0; i < 20; i++) {
            g.git("branch", String.format("topic-%02d", i));
        }
        String listed = unknown(g, "main").replaceFirst("^.*; its branches", "its branches");
        assertEquals(
                "its branches include master, topic-00, topic-01, topic-02, topic-03, topic-04, topic-05,"
                        + " topic-06, topic-07, topic-08 and 11 more (did you mean master?)",
                listed);

        GitFixture hostile = GitFixture.init(tmp.resolve("hostile"));
        hostile.write("a.txt", "a\n");
        hostile.commit("initial");
        String name = "evil-" + "x".repeat(200);
        hostile.git("branch", "-m", "main", name);
        String shown = unknown(hostile, "zzz").replaceFirst("^.*; its branches include ", "");
        assertEquals(name.substring(0, Branches.NAME_LENGTH - 1) + "\u2026", shown);
    }
}
