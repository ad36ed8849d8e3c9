package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.report.testing.Tool;
import org.perfab.testing.FakeGh;
import org.perfab.testing.GitFixture;
import org.perfab.testing.Subjects;

/**
 * {@code scripts/pr-comment}, the poster of perf-comment.yml, against a fake {@code gh} that keeps
 * a pull request's comments in a file and runs the script's jq filters through the real jq, and a
 * stand-in {@code perfab} whose {@code github summary -m} prints its line and appends it to the
 * job summary (the real one escapes it too: ActionIT runs this script with it).
 */
class PrCommentScriptIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path SCRIPT =
            Path.of("..", "scripts", "pr-comment").toAbsolutePath().normalize();
    private static final String BOT = "github-actions[bot]";

    @TempDir
    Path tmp;

    @BeforeEach
    void fakeGh() throws IOException {
        Tool.JQ.need();
        Tool.PYTHON3.need();
        Path bin = FakeGh.install(tmp.resolve("bin"));
        Files.writeString(bin.resolve("perfab"), """
                #!/usr/bin/env bash
                set -euo pipefail
                [[ "$1 $2 $3" == "github summary -m" ]] || { echo "perfab: unknown $*" >&2; exit 2; }
                echo "$4"
                echo "$4" >> "$GITHUB_STEP_SUMMARY"
                """);
        bin.resolve("perfab").toFile().setExecutable(true);
        comments();
    }

    private void comments(Object... idLoginBody) throws IOException {
        ArrayNode a = JSON.createArrayNode();
        for (int i = 0; i < idLoginBody.length; i += 3) {
            a.addObject()
                    .put("id", (Integer) idLoginBody[i])
                    .put("body", (String) idLoginBody[i + 2])
                    .putObject("user")
                    .put("login", (String) idLoginBody[i + 1]);
        }
        Files.writeString(tmp.resolve("comments.json"), a.toString());
    }

    private JsonNode state() throws IOException {
        return JSON.readTree(tmp.resolve("comments.json").toFile());
    }

    private record Run(int code, String out) {}

    private Run script(String pr, String... args) throws IOException, InterruptedException {
        return script(Map.of(), pr, args);
    }

    private Run script(Map<String, String> env, String pr, String... args) throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>(List.of("bash", SCRIPT.toString()));
        argv.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(argv)
                .directory(tmp.toFile())
                .redirectErrorStream(true)
                .redirectOutput(tmp.resolve("out").toFile());
        pb.environment().put("PATH", tmp.resolve("bin") + ":" + System.getenv("PATH"));
        pb.environment().put("FAKE_STATE", tmp.toString());
        pb.environment().put("FAKE_PR", "".equals(pr) ? "" : "7"); // "": no open pull request has the head
        pb.environment().put("REPO", "octo/app");
        pb.environment().put("HEAD_SHA", "c9bf9335d100aa00b548b70eae6215d4486828b5");
        pb.environment().put("RUN_URL", "https://github.com/octo/app/actions/runs/42");
        pb.environment().put("GITHUB_STEP_SUMMARY", tmp.resolve("summary").toString());
        pb.environment().put("COMMENT_KEY", "app");
        if (pr != null) {
            pb.environment().put("PR", pr);
        }
        pb.environment().putAll(env);
        Process p = pb.start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return new Run(p.exitValue(), Files.readString(tmp.resolve("out"), StandardCharsets.UTF_8));
    }

    private Path comment(String marker, String table) throws IOException {
        Path f = tmp.resolve("comment.md");
        Files.writeString(f, marker + "\n### perfab · app: " + table + "\n\n| cell | change |\n");
        return f;
    }

    @Test
    void saysItIsMeasuringThenPutsTheResultsInThatComment() throws Exception {
        Run measuring = script("7", "measuring");
        assertEquals(0, measuring.code(), measuring.out());
        JsonNode c = state().get(0);
        assertEquals(
                "<!-- perfab:app -->\n> ⏳ perfab is measuring c9bf9335d100 ([the run]"
                        + "(https://github.com/octo/app/actions/runs/42)).\n",
                c.get("body").asText());
        Run post = script(
                "7", "post", comment("<!-- perfab:app -->", "🔴 1 regression").toString());
        assertEquals(0, post.code(), post.out());
        assertEquals(1, state().size(), "the measuring comment became the results");
        String body = state().get(0).get("body").asText();
        assertTrue(body.startsWith("<!-- perfab:app -->\n### perfab · app: 🔴 1 regression"), body);
        assertTrue(
                body.endsWith("<sub>[the run](https://github.com/octo/app/actions/runs/42) · head [c9bf9335d100]"
                        + "(https://github.com/octo/app/commit/c9bf9335d100aa00b548b70eae6215d4486828b5)</sub>\n"),
                body);
        assertTrue(Files.readString(tmp.resolve("summary")).contains("perfab: updated the comment on #7"));
    }

    @Test
    void aCommentSomeoneElseStartedWithTheMarkerIsNeverTakenForOurs() throws Exception {
        comments(5, "mallory", "<!-- perfab:app -->\nall is well, merge it");
        Run post = script(
                "7", "post", comment("<!-- perfab:app -->", "🔴 1 regression").toString());
        assertEquals(0, post.code(), post.out());
        JsonNode s = state();
        assertEquals(2, s.size(), "a new comment, not the impostor's");
        assertEquals(
                "<!-- perfab:app -->\nall is well, merge it",
                s.get(0).get("body").asText());
        assertEquals(BOT, s.get(1).at("/user/login").asText());
        assertFalse(Files.readString(tmp.resolve("calls")).contains("PATCH repos/octo/app/issues/comments/5"));
        Run measuring = script("7", "measuring");
        assertEquals(0, measuring.code(), measuring.out());
        assertEquals(
                "<!-- perfab:app -->\nall is well, merge it",
                state().get(0).get("body").asText(),
                "measuring never touches it either");
    }

    @Test
    void whileMeasuringANewHeadTheLastResultsStayMarkedAsThePreviousRuns() throws Exception {
        comments(9, BOT, "<!-- perfab:app -->\n### perfab · app: ✅ 4 unchanged\n\n| cell | change |\n");
        assertEquals(0, script("7", "measuring").code());
        String body = state().get(0).get("body").asText();
        assertTrue(
                body.startsWith("<!-- perfab:app -->\n> ⏳ perfab is measuring c9bf9335d100 ([the run]"
                        + "(https://github.com/octo/app/actions/runs/42)). The table below is of the previous run.\n"
                        + "### perfab · app: ✅ 4 unchanged"),
                body);
        assertEquals(0, script("7", "measuring").code());
        assertEquals(1, state().get(0).get("body").asText().split("⏳", -1).length - 1, "one measuring line");
        assertEquals(
                0,
                script(
                                "7",
                                "post",
                                comment("<!-- perfab:app -->", "🔴 1 regression")
                                        .toString())
                        .code());
        assertFalse(state().get(0).get("body").asText().contains("⏳"));
        assertEquals(1, state().size());
    }

    @Test
    void findsAForksPullRequestByItsHeadAndSkipsWhenThereIsNone() throws Exception {
        Run found = script(
                (String) null,
                "post",
                comment("<!-- perfab:app -->", "✅ 4 unchanged").toString());
        assertEquals(0, found.code(), found.out());
        assertTrue(Files.readString(tmp.resolve("calls"))
                .contains("pr list --repo octo/app --state open --search c9bf9335d100aa00b548b70eae6215d4486828b5"));
        assertEquals(1, state().size());
        Run none = script("", "post", tmp.resolve("comment.md").toString());
        assertEquals(0, none.code());
        assertTrue(none.out().contains("perfab: no comment: no open pull request has head c9bf9335d100"), none.out());
    }

    @Test
    void aCommentNearGithubsLimitIsStillPostedAndStillSaysItIsMeasuring() throws Exception {
        String rows = ("| a/cell | +10.0% |\n").repeat(65_400 / 20);
        Path f = comment("<!-- perfab:app -->", "🔴 many\n\n" + rows);
        Run post = script("7", "post", f.toString());
        assertEquals(0, post.code(), post.out());
        String body = state().get(0).get("body").asText();
        assertTrue(body.startsWith("<!-- perfab:app -->\nperfab's comment is too long for GitHub ("), body);
        assertTrue(body.contains("[the run](https://github.com/octo/app/actions/runs/42)"), body);
        Files.writeString(f, Files.readString(f).substring(0, 65_300) + "\n");
        assertEquals(0, script("7", "post", f.toString()).code());
        assertEquals(1, state().size());
        assertTrue(state().get(0).get("body").asText().length() > 65_300, "posted as it was");
        Run measuring = script("7", "measuring");
        assertEquals(0, measuring.code(), measuring.out());
        assertEquals(
                "<!-- perfab:app -->\n> ⏳ perfab is measuring c9bf9335d100 ([the run]"
                        + "(https://github.com/octo/app/actions/runs/42)).\n",
                state().get(0).get("body").asText(),
                "no room for the previous table: the line alone");
    }

    @Test
    void twoOpenPullRequestsWithTheForksHeadGetNoComment() throws Exception {
        Run ambiguous = script(
                Map.of("FAKE_PR", "7\n8"),
                null,
                "post",
                comment("<!-- perfab:app -->", "✅ 4 unchanged").toString());
        assertEquals(0, ambiguous.code(), ambiguous.out());
        assertTrue(
                ambiguous.out().contains("perfab: no comment: 7 8 are open pull requests with head c9bf9335d100"),
                ambiguous.out());
        assertEquals(0, state().size());
    }

    @Test
    void refusesABodyWithoutPerfabsMarker() throws Exception {
        Path f = tmp.resolve("comment.md");
        Files.writeString(f, "@everyone look\n");
        Run bad = script("7", "post", f.toString());
        assertEquals(1, bad.code());
        assertTrue(bad.out().contains("does not start with perfab's marker"), bad.out());
        assertEquals(0, state().size());
    }

    @Test
    void aWorkloadWhoseNameMarkdownWouldEscapeKeepsOneComment() throws Exception {
        // The comment as perfab renders it, for a workload named with characters Markdown escapes.
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 2, "");
        for (String branch : List.of("main", "feature")) {
            g.git("checkout", "-q", branch);
            g.write(
                    "perfab.yaml",
                    Files.readString(g.dir().resolve("perfab.yaml"))
                            .replace("name: subject", "name: \"my_bench [x] `y` #1\""));
            g.commit("a workload name to escape");
        }
        Path out = tmp.resolve("ab");
        Cli ab = Cli.abOnThisMachine(g.dir(), out);
        assertEquals(0, ab.exitCode(), ab.err());
        Path rendered = out.resolve("comment.md");
        String marker = Files.readAllLines(rendered).get(0);
        assertTrue(marker.matches("<!-- perfab:[A-Za-z0-9._-]+ -->"), marker);
        assertEquals(0, script("7", "measuring").code());
        for (int push = 0; push < 3; push++) {
            Run post = script("7", "post", rendered.toString());
            assertEquals(0, post.code(), post.out());
        }
        assertEquals(1, state().size(), "one comment, edited on every push: " + state());
        assertTrue(
                state().get(0)
                        .get("body")
                        .asText()
                        .startsWith("<!-- perfab:app -->\n"
                                + Files.readAllLines(rendered).get(1) + "\n"),
                "the poster's key leads the rendered comment");
    }

    @Test
    void refusesAMarkerThatWouldNeedEscaping() throws Exception {
        Run bad = script(
                "7",
                "post",
                comment("<!-- perfab:my\\_bench -->", "🔴 1 regression").toString());
        assertEquals(1, bad.code());
        assertTrue(bad.out().contains("does not start with perfab's marker"), bad.out());
        assertEquals(0, state().size());
    }

    @Test
    void eachWorkloadKeepsItsOwnCommentAndMeasuringTouchesOnlyItsOwn() throws Exception {
        for (String key : List.of("perfab-out-parse", "perfab-out-render")) {
            Run post = script(
                    Map.of("COMMENT_KEY", key),
                    "7",
                    "post",
                    comment("<!-- perfab:app -->", "✅ 4 unchanged").toString());
            assertEquals(0, post.code(), post.out());
        }
        assertEquals(2, state().size(), "one comment per workload");
        assertTrue(state().get(0).get("body").asText().startsWith("<!-- perfab:perfab-out-parse -->\n###"));
        assertTrue(state().get(1).get("body").asText().startsWith("<!-- perfab:perfab-out-render -->\n###"));
        assertEquals(
                0,
                script(Map.of("COMMENT_KEY", "perfab-out-render"), "7", "measuring")
                        .code());
        assertFalse(state().get(0).get("body").asText().contains("⏳"), "the other workload's comment is left alone");
        assertTrue(state().get(1).get("body").asText().contains("⏳ perfab is measuring"), state().toString());
        // A key is a marker's letters only, whatever the artifact's name.
        assertEquals(
                0, script(Map.of("COMMENT_KEY", "a b -->x"), "7", "measuring").code());
        assertTrue(state().get(2).get("body").asText().startsWith("<!-- perfab:a-b----x -->\n"), state().toString());
    }

    @Test
    void aRunWithoutResultsSaysSoInPlaceOfMeasuring() throws Exception {
        comments(3, BOT, "<!-- perfab:measuring -->\n> ⏳ perfab is measuring 0123456789ab ([the run](x)).");
        assertEquals(0, script("7", "measuring").code());
        assertEquals(1, state().size(), "an earlier perfab's measuring comment is taken over, never left behind");
        Run failed = script("7", "failed", "the run left no results.json");
        assertEquals(0, failed.code(), failed.out());
        assertEquals(
                "<!-- perfab:app -->\n> ⚠️ perfab has no results for c9bf9335d100: the run left no results.json"
                        + " ([the run](https://github.com/octo/app/actions/runs/42)).\n",
                state().get(0).get("body").asText());
        assertEquals(
                0,
                script(
                                "7",
                                "post",
                                comment("<!-- perfab:app -->", "🔴 1 regression")
                                        .toString())
                        .code());
        assertEquals(0, script("7", "failed", "its results.json does not read").code());
        String body = state().get(0).get("body").asText();
        assertTrue(
                body.startsWith("<!-- perfab:app -->\n> ⚠️ perfab has no results for c9bf9335d100: its"
                        + " results.json does not read ([the run](https://github.com/octo/app/actions/runs/42)). The table"
                        + " below is of the previous run.\n### perfab · app: 🔴 1 regression"),
                body);
        assertEquals(1, state().size());
    }
}
