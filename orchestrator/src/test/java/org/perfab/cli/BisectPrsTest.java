package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.testing.GitFixture;

/** {@code scripts/bisect-prs}: a draft pull request per commit, against a real remote and a stand-in gh. */
class BisectPrsTest {
    private static final Path SCRIPT = Path.of("..", "scripts", "bisect-prs").toAbsolutePath().normalize();

    @TempDir
    Path tmp;

    private String run(Path cwd, Path bin, String... args) throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>(List.of("bash", SCRIPT.toString()));
        argv.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(argv).directory(cwd.toFile()).redirectErrorStream(true);
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        pb.environment().put("GIT_CONFIG_NOSYSTEM", "1");
        pb.environment().put("GIT_CONFIG_GLOBAL", "/dev/null");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    @Test
    void opensADraftPullRequestPerCommitAndClosesThem() throws Exception {
        GitFixture origin = GitFixture.init(tmp.resolve("origin"));
        GitFixture g = GitFixture.init(tmp.resolve("work"));
        g.write("a.txt", "a\n");
        String good = g.commit("the release");
        g.git("branch", "release");
        for (int i = 1; i <= 3; i++) {
            g.write("a.txt", "a" + i + "\n");
            g.commit("change " + i);
        }
        origin.git("config", "receive.denyCurrentBranch", "ignore");
        g.git("remote", "add", "origin", origin.dir().toString());
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path calls = tmp.resolve("gh-calls");
        Files.writeString(bin.resolve("gh"), "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '" + calls + "'\n"
                + "[ \"$2\" = close ] && exit 1\necho \"https://github.example/pr/$(wc -l < '" + calls + "')\"\n");
        bin.resolve("gh").toFile().setExecutable(true);

        String out = run(g.dir(), bin, "open", "release", good, "main");
        assertEquals("https://github.example/pr/1\nhttps://github.example/pr/2\nhttps://github.example/pr/3\n", out);
        List<String> lines = Files.readAllLines(calls);
        assertEquals(3, lines.size());
        String first = g.git("rev-list", "--first-parent", "--reverse", good + "..main").lines().findFirst().orElseThrow();
        assertTrue(lines.get(0).startsWith("pr create --draft --base release --head perfab-bisect/" + first.substring(0, 12)
                + " --title perfab bisect: " + first.substring(0, 12) + " change 1"), lines.get(0));
        String heads = origin.git("for-each-ref", "--format=%(refname:short) %(objectname)", "refs/heads/perfab-bisect/");
        assertEquals(3, heads.lines().count(), heads);
        assertTrue(heads.contains("perfab-bisect/" + first.substring(0, 12) + " " + first), heads);

        run(g.dir(), bin, "close");
        assertEquals(6, Files.readAllLines(calls).size(), "a close per pull request");
        assertEquals("", origin.git("for-each-ref", "refs/heads/perfab-bisect/"), "the branches are gone");
    }
}
