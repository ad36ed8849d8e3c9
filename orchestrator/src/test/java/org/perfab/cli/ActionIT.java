package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.testing.FakeGh;
import org.perfab.testing.GitFixture;
import org.perfab.testing.Programs;
import org.perfab.testing.Subjects;

/**
 * The steps of perfab's GitHub Action ({@code scripts/action}) as a runner would run them: setup
 * (perfab built from the action's checkout, on PATH), the A/B of a real pull request with GitHub's
 * step files, and the comment half against a fake {@code gh}.
 */
class ActionIT {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @TempDir
    Path tmp;

    private record Run(int code, String out) {
    }

    private Run action(Path cwd, Map<String, String> env, String step) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("bash", ROOT.resolve("scripts/action").toString(), step)
                .directory(cwd.toFile()).redirectErrorStream(true).redirectOutput(tmp.resolve("out.txt").toFile());
        pb.environment().put("RUNNER_TEMP", tmp.resolve("runner").toString());
        pb.environment().put("GITHUB_PATH", tmp.resolve("github-path").toString());
        pb.environment().put("GITHUB_OUTPUT", tmp.resolve("github-output").toString());
        pb.environment().put("GITHUB_STEP_SUMMARY", tmp.resolve("summary.md").toString());
        pb.environment().putAll(env);
        Process p = pb.start();
        assertTrue(p.waitFor(600, TimeUnit.SECONDS), "the step finished");
        return new Run(p.exitValue(), Files.readString(tmp.resolve("out.txt"), StandardCharsets.UTF_8));
    }

    private Path setup() throws Exception {
        Files.createDirectories(tmp.resolve("runner"));
        Run setup = action(tmp, Map.of(), "setup");
        assertEquals(0, setup.code(), setup.out());
        assertTrue(setup.out().startsWith("perfab "), "it says which perfab: " + setup.out());
        Path bin = Path.of(Files.readString(tmp.resolve("github-path")).strip());
        assertTrue(Files.isExecutable(bin.resolve("perfab")), bin.toString());
        return bin.resolve("perfab");
    }

    @Test
    void measuresAPullRequestWithGithubsFilesAndFailsOnlyWhenAsked() throws Exception {
        Path perfab = setup();
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 3, "");
        String head = g.git("rev-parse", "feature").strip();
        Map<String, String> env = new HashMap<>(Map.of("PERFAB", perfab.toString(), "INPUT_BASE", "main",
                "HEAD_SHA", head, "INPUT_WORKLOAD", "perfab.yaml", "INPUT_OUT", tmp.resolve("out").toString()));
        Run ab = action(g.dir(), env, "ab");
        assertEquals(0, ab.code(), ab.out());
        assertTrue(ab.out().contains("::warning"), "a warning per regression: " + ab.out());
        String outputs = Files.readString(tmp.resolve("github-output"));
        assertTrue(outputs.contains("regressions=1\n"), outputs);
        assertTrue(Files.readString(tmp.resolve("summary.md")).startsWith("<!-- perfab:"), "the comment in the summary");
        assertEquals(head, new ObjectMapper().readTree(tmp.resolve("out/results.json").toFile())
                .at("/refs/head/commit").asText());
        env.put("INPUT_FAIL_ON", "regression,inconclusive");
        env.put("INPUT_OUT", tmp.resolve("out2").toString());
        env.put("INPUT_TRIALS", "3");
        Run failing = action(g.dir(), env, "ab");
        assertEquals(1, failing.code(), "fail-on regression: " + failing.out());
    }

    @Test
    void postsTheCommentOfAFinishedRunAndSkipsOneWithoutResults() throws Exception {
        assumeTrue(Programs.onPath("jq") && Programs.onPath("python3"), "jq and python3 are needed");
        Path perfab = setup();
        Path bin = FakeGh.install(tmp.resolve("fakebin"));
        Files.writeString(tmp.resolve("comments.json"), "[]");
        Map<String, String> env = new HashMap<>(Map.of("PERFAB", perfab.toString(), "PATH", bin + ":"
                + System.getenv("PATH"), "FAKE_STATE", tmp.toString(), "REPO", "octo/app", "RUN_ID", "42", "PR", "7",
                "HEAD_SHA", "c9bf9335d100aa00b548b70eae6215d4486828b5", "RUN_URL",
                "https://github.com/octo/app/actions/runs/42", "CONCLUSION", "success"));
        Run none = action(tmp, env, "comment");
        assertEquals(0, none.code(), none.out());
        assertTrue(Files.readString(tmp.resolve("summary.md")).contains("left no results.json"), none.out());
        Files.createDirectories(tmp.resolve("artifact"));
        Files.copy(ROOT.resolve("report/src/test/resources/golden/run-results.json"),
                tmp.resolve("artifact/results.json"));
        Run posted = action(tmp, env, "comment");
        assertEquals(0, posted.code(), posted.out());
        String body = new ObjectMapper().readTree(tmp.resolve("comments.json").toFile()).get(0).get("body").asText();
        assertTrue(body.startsWith("<!-- perfab:broker-pr -->\n### perfab · broker-pr"), body);
        assertTrue(body.contains("[HTML report](https://github.com/octo/app/actions/runs/42/artifacts/77)"), body);
        assertTrue(body.contains("base [1111111111aa](https://github.com/octo/app/commit/1111111111aa"), body);
        assertTrue(body.contains("head [c9bf9335d100](https://github.com/octo/app/commit/c9bf9335d100"), body);
        env.put("EVENT_ACTION", "requested");
        Run measuring = action(tmp, env, "comment");
        assertEquals(0, measuring.code(), measuring.out());
        body = new ObjectMapper().readTree(tmp.resolve("comments.json").toFile()).get(0).get("body").asText();
        assertTrue(body.contains("⏳ perfab is measuring c9bf9335d100"), body);
        env.put("EVENT_ACTION", "completed");
        env.put("CONCLUSION", "cancelled");
        Run cancelled = action(tmp, env, "comment");
        assertEquals(0, cancelled.code());
        assertTrue(cancelled.out().contains("::notice title=perfab::no comment: the perf-pr run"), cancelled.out());
        assertEquals(1, new ObjectMapper().readTree(tmp.resolve("comments.json").toFile()).size(),
                List.of("one comment, edited in place").toString());
    }
}
