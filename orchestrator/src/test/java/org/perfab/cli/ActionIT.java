package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.report.testing.Tool;
import org.perfab.testing.FakeGh;
import org.perfab.testing.GitFixture;
import org.perfab.testing.Subjects;

/**
 * The steps of perfab's GitHub Action as a runner would run them: each step's environment is what
 * {@code action.yml} gives it, its expressions evaluated against a fake event payload (a pull
 * request from the same repository, one from a fork, a workflow_run of each), with GitHub's step
 * files; the A/B on a real repository, and the comment half against a fake {@code gh}.
 */
@Order(Integer.MAX_VALUE - 3) // see docs/development.md: the longest classes start first
class ActionIT {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern EXPRESSION = Pattern.compile("\\$\\{\\{\\s*(.*?)\\s*}}");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    private record Run(int code, String out) {}

    /**
     * Runs the step of action.yml named {@code name}, as the runner would: its env evaluated
     * against {@code github} (the github context, event included) and the action's inputs.
     */
    private Run step(String name, Path cwd, ObjectNode github, Map<String, String> inputs, Map<String, String> extra)
            throws IOException, InterruptedException {
        JsonNode action = new YAMLMapper().readTree(Files.readString(ROOT.resolve("action.yml")));
        JsonNode step = null;
        for (JsonNode s : action.at("/runs/steps")) {
            if (s.path("name").asText().equals(name)) {
                step = s;
            }
        }
        assertTrue(step != null, "action.yml has a step " + name);
        Map<String, String> allInputs = new HashMap<>();
        action.path("inputs")
                .fields()
                .forEachRemaining(e ->
                        allInputs.put(e.getKey(), e.getValue().path("default").asText("")));
        allInputs.putAll(inputs);
        Path event = tmp.resolve("event.json");
        Files.writeString(event, JSON.writeValueAsString(github.path("event")));
        Map<String, String> env = new HashMap<>(Map.of(
                "GITHUB_EVENT_PATH",
                event.toString(),
                "GITHUB_EVENT_NAME",
                github.path("event_name").asText(),
                "GITHUB_REPOSITORY",
                github.path("repository").asText(),
                "GITHUB_SERVER_URL",
                "https://github.com",
                "GITHUB_ACTION_PATH",
                ROOT.toString()));
        if (github.path("event").has("pull_request")) {
            env.put("GITHUB_BASE_REF", github.at("/event/pull_request/base/ref").asText());
        }
        step.path("env")
                .fields()
                .forEachRemaining(
                        e -> env.put(e.getKey(), evaluate(e.getValue().asText(), github, allInputs, outputs)));
        env.putAll(extra);
        String run = step.path("run").asText();
        assertTrue(run.startsWith("bash \"$GITHUB_ACTION_PATH/scripts/action\" "), run);
        return action(cwd, env, run.substring(run.lastIndexOf(' ') + 1));
    }

    /** The outputs of the steps before, by {@code steps.ID.outputs.NAME}, as the runner keeps them. */
    private final Map<String, String> outputs = new HashMap<>();

    /** The value of a {@code ${{ a || b }}} line: the first operand that is not empty. */
    private static String evaluate(
            String text, JsonNode github, Map<String, String> inputs, Map<String, String> outputs) {
        Matcher m = EXPRESSION.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = "";
            for (String operand : m.group(1).split("\\s*\\|\\|\\s*")) {
                value = operand.startsWith("inputs.")
                        ? inputs.getOrDefault(operand.substring(7), "")
                        : operand.startsWith("steps.") ? outputs.getOrDefault(operand, "") : context(github, operand);
                if (!value.isEmpty()) {
                    break;
                }
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        return m.appendTail(out).toString();
    }

    private static String context(JsonNode github, String path) {
        assertTrue(path.startsWith("github."), "an expression of a context this test knows: " + path);
        JsonNode node = github;
        for (String part : path.substring(7).split("\\.")) {
            Matcher index = Pattern.compile("(.+)\\[(\\d+)]").matcher(part);
            node = index.matches() ? node.path(index.group(1)).path(Integer.parseInt(index.group(2))) : node.path(part);
        }
        return node.isValueNode() ? node.asText() : "";
    }

    private Run action(Path cwd, Map<String, String> env, String step) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(
                        "bash", ROOT.resolve("scripts/action").toString(), step)
                .directory(cwd.toFile())
                .redirectErrorStream(true)
                .redirectOutput(tmp.resolve("out.txt").toFile());
        pb.environment().put("RUNNER_TEMP", tmp.resolve("runner").toString());
        pb.environment().put("GITHUB_PATH", tmp.resolve("github-path").toString());
        pb.environment().put("GITHUB_OUTPUT", tmp.resolve("github-output").toString());
        pb.environment().put("GITHUB_STEP_SUMMARY", tmp.resolve("summary.md").toString());
        pb.environment().putAll(env);
        Process p = pb.start();
        assertTrue(p.waitFor(600, TimeUnit.SECONDS), "the step finished");
        return new Run(p.exitValue(), Files.readString(tmp.resolve("out.txt"), StandardCharsets.UTF_8));
    }

    /** The action's setup step, for a branch of the action (no release): perfab built from this checkout. */
    private Path setup() throws Exception {
        Files.createDirectories(tmp.resolve("runner"));
        ObjectNode github = JSON.createObjectNode()
                .put("event_name", "pull_request")
                .put("repository", "octo/app")
                .put("action_repository", "")
                .put("action_ref", "")
                .put("token", "t0ken");
        Run setup = step("perfab", tmp, github, Map.of(), Map.of("PATH", "/usr/bin:/bin:" + System.getenv("PATH")));
        assertEquals(0, setup.code(), setup.out());
        assertTrue(setup.out().startsWith("perfab "), "it says which perfab: " + setup.out());
        Path bin = Path.of(Files.readString(tmp.resolve("github-path")).strip());
        assertTrue(Files.isExecutable(bin.resolve("perfab")), bin.toString());
        return bin.resolve("perfab");
    }

    /** A pull_request event: head {@code sha} on branch {@code ref} of {@code headRepo}, into main. */
    private static ObjectNode pullRequest(String sha, String ref, String headRepo) {
        ObjectNode github = JSON.createObjectNode()
                .put("event_name", "pull_request")
                .put("repository", "octo/app")
                .put("sha", "0".repeat(40))
                .put("token", "t0ken");
        ObjectNode pr = github.putObject("event").put("action", "synchronize").putObject("pull_request");
        pr.put("number", 7).put("title", "$(touch pwned) `touch pwned`");
        pr.putObject("head")
                .put("sha", sha)
                .put("ref", ref)
                .putObject("repo")
                .put("full_name", headRepo)
                .put("fork", !headRepo.equals("octo/app"));
        pr.putObject("base").put("ref", "main").put("sha", "1".repeat(40));
        return github;
    }

    @Test
    void measuresAPullRequestWithGithubsFilesAndFailsOnlyWhenAsked() throws Exception {
        Path perfab = setup();
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 3, "");
        g.git("remote", "add", "origin", g.dir().toString());
        String head = g.git("rev-parse", "feature").strip();
        g.git("checkout", "-q", "--detach", head);
        Map<String, String> inputs = new HashMap<>(
                Map.of("workload", "perfab.yaml", "out", tmp.resolve("out").toString()));
        ObjectNode event = pullRequest(head, "feature", "octo/app");
        ((ObjectNode) event.at("/event/pull_request")).put("body", "A bisect's step.\r\n\r\nperfab-trials: 4\r\n");
        Run ab = step("perfab ab", g.dir(), event, inputs, Map.of("PERFAB", perfab.toString()));
        assertEquals(0, ab.code(), ab.out());
        assertTrue(ab.out().contains("::warning"), "a warning per regression: " + ab.out());
        String outputs = Files.readString(tmp.resolve("github-output"));
        assertTrue(outputs.contains("regressions=1\n"), outputs);
        assertTrue(
                Files.readString(tmp.resolve("summary.md")).startsWith("<!-- perfab:"), "the comment in the summary");
        JsonNode results = JSON.readTree(tmp.resolve("out/results.json").toFile());
        assertEquals(head, results.at("/refs/head/commit").asText());
        assertEquals("origin/main", results.at("/refs/base/typed").asText(), "the base branch of the event");
        assertEquals(4, results.at("/settings/trials").asInt(), "the trials the pull request's body asks for");
        inputs.putAll(Map.of(
                "fail-on", "regression,inconclusive", "out", tmp.resolve("out2").toString(), "trials", "3"));
        Run failing = step(
                "perfab ab",
                g.dir(),
                pullRequest(head, "feature", "octo/app"),
                inputs,
                Map.of("PERFAB", perfab.toString()));
        assertEquals(1, failing.code(), "fail-on regression: " + failing.out());
        assertFalse(Files.exists(g.dir().resolve("pwned")), "the title is never run");
    }

    @Test
    void theInputsThatKeepVerdictsRightReachTheRunAndTheCacheKeepsWhatItUsed() throws Exception {
        Path perfab = setup();
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 3, "");
        g.git("remote", "add", "origin", g.dir().toString());
        String head = g.git("rev-parse", "feature").strip();
        g.git("checkout", "-q", "--detach", head);
        Map<String, String> inputs = new HashMap<>(Map.of(
                "out",
                tmp.resolve("out").toString(),
                "adaptive",
                "6",
                "fdr",
                "off",
                "seed",
                "42",
                "cache",
                "true",
                "trials",
                "3"));
        Run ab = step(
                "perfab ab",
                g.dir(),
                pullRequest(head, "feature", "octo/app"),
                inputs,
                Map.of("PERFAB", perfab.toString()));
        assertEquals(0, ab.code(), ab.out());
        JsonNode settings =
                JSON.readTree(tmp.resolve("out/results.json").toFile()).path("settings");
        assertEquals(42, settings.path("seed").asLong(), settings.toString());
        assertEquals(6, settings.at("/thresholds/adaptive/max").asInt(), settings.toString());
        assertEquals(0.0, settings.at("/thresholds/fdr").asDouble(-1), "fdr off: " + settings);
        Path cache = tmp.resolve("runner/perfab-cache");
        List<Path> entries;
        try (var list = Files.list(cache)) {
            entries = list.sorted().toList();
        }
        assertEquals(2, entries.size(), "a build of each side: " + entries);
        // What an older run left and this one does not use is not saved again.
        Path stale = Files.createDirectories(cache.resolve("0123456789abcdef0123456789abcdef"));
        Files.setLastModifiedTime(stale, java.nio.file.attribute.FileTime.fromMillis(0));
        inputs.put("out", tmp.resolve("elsewhere").toString());
        Run again = step(
                "perfab ab",
                g.dir(),
                pullRequest(head, "feature", "octo/app"),
                inputs,
                Map.of("PERFAB", perfab.toString()));
        assertEquals(0, again.code(), again.out());
        assertTrue(
                again.out().contains("head (") && again.out().contains("build taken from the cache"),
                "another out still finds the builds: " + again.out());
        try (var list = Files.list(cache)) {
            assertEquals(entries, list.sorted().toList());
        }

        inputs.putAll(Map.of("preset", "nightly", "out", tmp.resolve("out3").toString()));
        Run bad = step(
                "perfab ab",
                g.dir(),
                pullRequest(head, "feature", "octo/app"),
                inputs,
                Map.of("PERFAB", perfab.toString()));
        assertEquals(2, bad.code(), bad.out());
        assertTrue(bad.out().contains("--preset must be pr or release, got 'nightly'"), bad.out());
        // profile, the former name of preset, still reaches the run as --preset.
        inputs.remove("preset");
        inputs.put("profile", "nightly");
        Run former = step(
                "perfab ab",
                g.dir(),
                pullRequest(head, "feature", "octo/app"),
                inputs,
                Map.of("PERFAB", perfab.toString()));
        assertEquals(2, former.code(), former.out());
        assertTrue(former.out().contains("--preset must be pr or release, got 'nightly'"), former.out());
        inputs.putAll(Map.of("preset", "pr", "profile", "release"));
        Run both = step(
                "perfab ab",
                g.dir(),
                pullRequest(head, "feature", "octo/app"),
                inputs,
                Map.of("PERFAB", perfab.toString()));
        assertEquals(2, both.code(), both.out());
        assertTrue(both.out().contains("the profile input is the former name of preset"), both.out());
        try (var list = Files.list(cache)) {
            assertEquals(entries, list.sorted().toList(), "a run that stopped before building keeps the cache whole");
        }
    }

    /**
     * The workflows run the action's setup in the caller's checkout, with perfab checked out inside
     * it (.perfab-action): its build reads nothing of the caller's tree or environment. Here the
     * caller's .mvn/maven.config selects a module perfab has not (a build that read it fails) and
     * its .mvn/jvm.config, MAVEN_OPTS and MAVEN_ARGS leave a marker file (a JVM that read one
     * writes it). Maven runs for real, the jar's build cut to its validate phase (the jar is this
     * build's), so the test takes seconds, not a minute.
     */
    @Test
    void theActionsBuildOfPerfabReadsNothingOfTheCallers() throws Exception {
        Path caller = tmp.resolve("caller");
        Path marker = tmp.resolve("marker");
        Files.createDirectories(caller.resolve(".mvn"));
        Files.writeString(caller.resolve(".mvn/maven.config"), "-pl app\n");
        Files.writeString(caller.resolve(".mvn/jvm.config"), "-Xlog:gc:file=" + marker + "\n");
        Path action = caller.resolve(".perfab-action");
        Process ls = new ProcessBuilder("git", "ls-files", "-co", "--exclude-standard", "-z")
                .directory(ROOT.toFile())
                .start();
        String listed = new String(ls.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(ls.waitFor(60, TimeUnit.SECONDS));
        int copied = 0;
        for (String file : listed.split("\0")) {
            Path from = ROOT.resolve(file);
            if (!file.isEmpty() && Files.isRegularFile(from)) {
                Path to = action.resolve(file);
                Files.createDirectories(to.getParent());
                Files.copy(from, to, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
                copied++;
            }
        }
        assertTrue(copied > 100 && Files.isDirectory(action.resolve(".mvn")), "perfab's tree with its own .mvn/");
        // Maven as the runner has it, its goals cut to validate; then the jar this build made.
        Process which = new ProcessBuilder("bash", "-c", "command -v mvn").start();
        String mvn = new String(which.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(which.waitFor(30, TimeUnit.SECONDS) && !mvn.isEmpty(), "Maven is on PATH");
        Path bin = Files.createDirectories(tmp.resolve("mvnbin"));
        Files.writeString(bin.resolve("mvn"), """
                #!/usr/bin/env bash
                echo "$PWD $*" >> '%s'
                args=()
                for a in "$@"; do [[ "$a" == package ]] && a=validate; args+=("$a"); done
                '%s' "${args[@]}" || exit $?
                mkdir -p orchestrator/target && cp '%s' orchestrator/target/perfab.jar
                """.formatted(
                        tmp.resolve("mvn-calls"), mvn, ROOT.resolve("orchestrator/target/perfab.jar")));
        bin.resolve("mvn").toFile().setExecutable(true);
        Files.createDirectories(tmp.resolve("runner"));
        Map<String, String> env = new HashMap<>(Map.of(
                "GITHUB_ACTION_PATH",
                action.toString(),
                "PATH",
                bin + ":" + System.getenv("PATH"),
                "MAVEN_OPTS",
                "-Xlog:gc:file=" + marker,
                "MAVEN_ARGS",
                "-pl app",
                "GH_TOKEN",
                "t0ken",
                "PERFAB_NO_CDS",
                "1"));
        ProcessBuilder pb = new ProcessBuilder(
                        "bash", action.resolve("scripts/action").toString(), "setup")
                .directory(caller.toFile())
                .redirectErrorStream(true)
                .redirectOutput(tmp.resolve("out.txt").toFile());
        pb.environment().put("RUNNER_TEMP", tmp.resolve("runner").toString());
        pb.environment().put("GITHUB_PATH", tmp.resolve("github-path").toString());
        pb.environment().putAll(env);
        Process p = pb.start();
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "the setup finished");
        String out = Files.readString(tmp.resolve("out.txt"));
        assertEquals(0, p.exitValue(), out);
        assertTrue(
                out.endsWith("\n") && out.lines().reduce((a, b) -> b).orElse("").startsWith("perfab "),
                "built, then it says which perfab: " + out);
        assertFalse(Files.exists(marker), "no JVM read the caller's .mvn/jvm.config or MAVEN_OPTS");
        assertEquals(
                action + " -B -q -f " + action + "/pom.xml -Dmaven.multiModuleProjectDirectory=" + action
                        + " -DskipTests package\n",
                Files.readString(tmp.resolve("mvn-calls")),
                "built once, in perfab's tree");
    }

    @Test
    void measuresAForksPullRequestByItsHeadCommitNotItsBranchName() throws Exception {
        Path perfab = setup();
        // The fork's pull request comes from the fork's own main: a name that, in the base
        // repository, is the base. GitHub fetches its head as refs/pull/7/head.
        GitFixture fork = Subjects.pullRequest(tmp.resolve("fork"), 110, 3, "");
        String head = fork.git("rev-parse", "feature").strip();
        Path upstream = tmp.resolve("upstream.git");
        fork.run(
                tmp,
                "clone",
                "-q",
                "--bare",
                "--single-branch",
                "--branch",
                "main",
                fork.dir().toString(),
                upstream.toString());
        Path ws = tmp.resolve("ws");
        fork.run(tmp, "clone", "-q", upstream.toString(), ws.toString());
        fork.run(ws, "fetch", "-q", fork.dir().toString(), "feature:refs/pull/7/head");
        fork.run(ws, "checkout", "-q", "--detach", "refs/pull/7/head");
        Run ab = step(
                "perfab ab",
                ws,
                pullRequest(head, "main", "mallory/app"),
                Map.of("workload", "perfab.yaml", "out", tmp.resolve("out").toString()),
                Map.of("PERFAB", perfab.toString()));
        assertEquals(0, ab.code(), ab.out());
        JsonNode results = JSON.readTree(tmp.resolve("out/results.json").toFile());
        assertEquals(head, results.at("/refs/head/commit").asText(), "the fork's commit, not a branch called main");
        assertTrue(
                Files.readString(tmp.resolve("github-output")).contains("regressions=1\n"),
                "the fork's 10% slowdown, measured against the merge-base: " + ab.out());
    }

    /** A workflow_run event of a finished perf-pr run; a fork's lists no pull request. */
    private static ObjectNode workflowRun(String action, String conclusion, boolean fork) {
        ObjectNode github = JSON.createObjectNode()
                .put("event_name", "workflow_run")
                .put("repository", "octo/app")
                .put("token", "t0ken");
        ObjectNode run = github.putObject("event").put("action", action).putObject("workflow_run");
        run.put("id", 42)
                .put("event", "pull_request")
                .put("conclusion", conclusion)
                .put("head_sha", "c9bf9335d100aa00b548b70eae6215d4486828b5")
                .put("head_branch", "$(touch pwned)")
                .put("html_url", "https://github.com/octo/app/actions/runs/42");
        var prs = run.putArray("pull_requests");
        if (!fork) {
            prs.addObject().put("number", 7);
        }
        return github;
    }

    private JsonNode comments() throws IOException {
        return JSON.readTree(tmp.resolve("comments.json").toFile());
    }

    @Test
    void postsTheCommentOfAFinishedRunAndSkipsOneWithoutResults() throws Exception {
        Tool.JQ.need();
        Tool.PYTHON3.need();
        Path perfab = setup();
        Path bin = FakeGh.install(tmp.resolve("fakebin"));
        // Someone else's comment that starts with perfab's marker: never edited, never taken for ours.
        Files.writeString(
                tmp.resolve("comments.json"),
                "[{\"id\": 5, \"user\": {\"login\": \"mallory\"},"
                        + " \"body\": \"<!-- perfab:broker-pr -->\\nall clear, merge it\"}]");
        Map<String, String> extra = Map.of(
                "PERFAB", perfab.toString(), "PATH", bin + ":" + System.getenv("PATH"), "FAKE_STATE", tmp.toString());
        Run none = step("perfab comment", tmp, workflowRun("completed", "success", false), Map.of(), extra);
        assertEquals(0, none.code(), none.out());
        assertTrue(Files.readString(tmp.resolve("summary.md")).contains("left no results.json"), none.out());
        assertTrue(
                comments()
                        .get(1)
                        .get("body")
                        .asText()
                        .startsWith("<!-- perfab:perfab-out -->\n> ⚠️ perfab has no"
                                + " results for c9bf9335d100: the run left no results.json"),
                comments().toString());
        // An artifact whose results.json does not read: said in the log and on the pull request, never red.
        Files.createDirectories(tmp.resolve("artifact"));
        Files.writeString(tmp.resolve("artifact/results.json"), "{\"schema\": \"perfab/results/v9\"}\n::error::x");
        Run garbage = step("perfab comment", tmp, workflowRun("completed", "success", false), Map.of(), extra);
        assertEquals(0, garbage.code(), garbage.out());
        assertTrue(
                garbage.out().contains("::notice title=perfab::no comment: the results.json of the perf-pr run"),
                garbage.out());
        assertTrue(
                comments().get(1).get("body").asText().contains("its results.json does not read"),
                comments().toString());
        assertEquals(2, comments().size());
        Files.delete(tmp.resolve("artifact/results.json"));
        Files.copy(ROOT.resolve("report/src/test/resources/golden/ab-run.json"), tmp.resolve("artifact/results.json"));
        Run rendered = step("perfab comment", tmp, workflowRun("completed", "success", false), Map.of(), extra);
        assertEquals(0, rendered.code(), rendered.out());
        Path report =
                Path.of(Files.readString(tmp.resolve("github-output")).strip().replace("report=", ""));
        assertTrue(Files.readString(report).startsWith("<!DOCTYPE html>"), "the report rendered here, to upload");
        outputs.put("steps.report.outputs.artifact-url", "https://github.com/octo/app/actions/runs/43/artifacts/99");
        Run posted = step("perfab comment post", tmp, workflowRun("completed", "success", false), Map.of(), extra);
        assertEquals(0, posted.code(), posted.out());
        assertEquals(2, comments().size(), "a comment of its own beside mallory's");
        assertEquals(
                "<!-- perfab:broker-pr -->\nall clear, merge it",
                comments().get(0).get("body").asText());
        String body = comments().get(1).get("body").asText();
        assertTrue(body.startsWith("<!-- perfab:perfab-out -->\n### perfab · broker-pr"), body);
        assertTrue(
                body.contains("[HTML report](https://github.com/octo/app/actions/runs/43/artifacts/99)"),
                "the report uploaded by this run, not the pull request's: " + body);
        assertTrue(body.contains("base [1111111111aa](https://github.com/octo/app/commit/1111111111aa"), body);
        assertTrue(body.contains("head [c9bf9335d100](https://github.com/octo/app/commit/c9bf9335d100"), body);
        Run measuring = step("perfab comment", tmp, workflowRun("requested", "", false), Map.of(), extra);
        assertEquals(0, measuring.code(), measuring.out());
        assertTrue(
                comments().get(1).get("body").asText().contains("⏳ perfab is measuring c9bf9335d100"),
                comments().toString());
        Run cancelled = step("perfab comment", tmp, workflowRun("completed", "cancelled", false), Map.of(), extra);
        assertEquals(0, cancelled.code());
        assertTrue(cancelled.out().contains("::notice title=perfab::no comment: the perf-pr run"), cancelled.out());
        assertEquals(2, comments().size(), "one comment of its own, edited in place");
        assertEquals(
                "<!-- perfab:broker-pr -->\nall clear, merge it",
                comments().get(0).get("body").asText());
        assertFalse(Files.exists(tmp.resolve("pwned")), "the branch name is never run");
    }

    /**
     * A suite split into two shards, as the reusable workflow's matrix runs it: each job's A/B step
     * measures its slice (a workload's own listing and filter), the merge job's step judges every
     * cell in one table, and the comment job renders one comment from the shards' artifacts.
     */
    @Test
    void measuresShardsAndMergesThemIntoOneTableAndOneComment() throws Exception {
        Tool.JQ.need();
        Tool.PYTHON3.need();
        Path perfab = setup();
        GitFixture g = GitFixture.init(tmp.resolve("suite"));
        // A harness of four benchmarks whose cost is the side's level.txt (alpha's alone triples on
        // the head), which runs only those --only names, and lists them all with --list; it says
        // each took its value in ms, 20 times over (and that a benchmark it never ran took 99 s).
        g.script("bench.sh", """
                #!/bin/sh
                set -e
                if [ "$1" = --list ]; then printf 'alpha\\nbeta\\ngamma\\ndelta\\n'; exit 0; fi
                [ "$1" = --only ] || { echo "bench.sh: runs a slice only" >&2; exit 9; }
                awk -v only="$2" -v trial="$PERFAB_TRIAL" -v level="$(cat level.txt)" 'BEGIN {
                  n = split("alpha beta gamma delta", names, " "); printf "{\\"schema\\": \\"perfab/measurements/v1\\", \\"measurements\\": ["
                  sep = ""
                  for (i = 1; i <= n; i++) if (names[i] ~ only) {
                    v = (names[i] == "alpha" ? level : 100) * (1 + 0.01 * ((trial * 7 + i) % 5 - 2))
                    printf "%s{\\"cell\\": \\"%s\\", \\"metric\\": \\"time\\", \\"unit\\": \\"ms\\", \\"value\\": %.3f}", sep, names[i], v; sep = ", "
                  }
                  printf "], \\"seconds\\": {\\"ghost\\": 99"; sep = ", "
                  for (i = 1; i <= n; i++) if (names[i] ~ only) {
                    printf "%s\\"%s\\": %.3f", sep, names[i], (names[i] == "alpha" ? level : 100) * 0.02; sep = ", "
                  }
                  print "}}" }' > "$PERFAB_RESULT"
                """).write("perfab.yaml", """
                name: sharded
                trials: 4
                warmup: 0
                adaptive: off
                harness:
                  run: [sh, bench.sh]
                  format: perfab-json
                  shard:
                    list: [sh, bench.sh, --list]
                    filter: [--only, '{regex}']
                """).write("level.txt", "100\n");
        g.commit("initial");
        g.git("checkout", "-q", "-b", "feature");
        g.write("level.txt", "300\n");
        g.commit("alpha three times slower");
        g.git("remote", "add", "origin", g.dir().toString());
        String head = g.git("rev-parse", "feature").strip();
        g.git("checkout", "-q", "--detach", head);
        Path shards = tmp.resolve("runner/perfab-shards");
        for (int k = 1; k <= 2; k++) {
            Path out = shards.resolve("perfab-out-shard-" + k);
            Run ab = step(
                    "perfab ab",
                    g.dir(),
                    pullRequest(head, "feature", "octo/app"),
                    Map.of("workload", "perfab.yaml", "out", out.toString(), "shard", String.valueOf(k), "shards", "2"),
                    Map.of("PERFAB", perfab.toString()));
            assertEquals(0, ab.code(), ab.out());
            JsonNode part = JSON.readTree(out.resolve("results.json").toFile()).at("/shards/parts/0");
            assertEquals(k, part.get("index").asInt());
            assertEquals(4, part.get("listed").asInt());
            assertFalse(Files.readString(out.resolve("results.json")).contains("ghost"), "only the times of cells");
        }
        Files.writeString(tmp.resolve("github-output"), "");
        Files.writeString(tmp.resolve("summary.md"), "");
        Run merge = step(
                "perfab merge",
                tmp,
                pullRequest(head, "feature", "octo/app"),
                Map.of("shards", "2"),
                Map.of("PERFAB", perfab.toString()));
        assertEquals(0, merge.code(), merge.out());
        assertTrue(
                Files.readString(tmp.resolve("github-output")).contains("regressions=1\n"),
                "alpha, whichever shard measured it: " + Files.readString(tmp.resolve("github-output")));
        String summary = Files.readString(tmp.resolve("summary.md"));
        assertTrue(summary.contains("2 shards: 1 on "), summary);
        assertTrue(summary.contains("| verdict | shard |"), summary);
        for (String cell : List.of("alpha", "beta", "gamma", "delta")) {
            assertTrue(summary.contains("| " + cell + " |") || summary.contains(cell), cell + " in " + summary);
        }
        // The merged run, for the cache: the next run's shards are cut by its times, alpha's the
        // longest (8 s a trial pair: 2 s on the base, 6 on the head; 4 s for each of the others).
        Path times = tmp.resolve("runner/perfab-merged/results.json");
        assertTrue(
                Files.readString(tmp.resolve("github-output")).contains("times=" + times + "\n"),
                Files.readString(tmp.resolve("github-output")));
        Path again = tmp.resolve("runner/again");
        Run timed = step(
                "perfab ab",
                g.dir(),
                pullRequest(head, "feature", "octo/app"),
                Map.of(
                        "workload",
                        "perfab.yaml",
                        "out",
                        again.toString(),
                        "shard",
                        "1",
                        "shards",
                        "2",
                        "shard-times",
                        times.toString()),
                Map.of("PERFAB", perfab.toString()));
        assertEquals(0, timed.code(), timed.out());
        assertTrue(timed.out().contains("cut at equal time by an earlier run's (4 of them timed there)"), timed.out());
        assertTrue(JSON.readTree(again.resolve("results.json").toFile())
                .at("/shards/parts/0/cut")
                .asText()
                .startsWith("time:"));
        // No cache yet (a first run): cut by count.
        Run first = step(
                "perfab ab",
                g.dir(),
                pullRequest(head, "feature", "octo/app"),
                Map.of(
                        "workload",
                        "perfab.yaml",
                        "out",
                        tmp.resolve("runner/first").toString(),
                        "shard",
                        "1",
                        "shards",
                        "2",
                        "shard-times",
                        tmp.resolve("runner/perfab-times/results.json").toString()),
                Map.of("PERFAB", perfab.toString()));
        assertEquals(0, first.code(), first.out());
        assertEquals(
                "count",
                JSON.readTree(tmp.resolve("runner/first/results.json").toFile())
                        .at("/shards/parts/0/cut")
                        .asText());

        // The comment job: the shards' artifacts, no artifact of the plain name.
        Path bin = FakeGh.install(tmp.resolve("fakebin"));
        Files.writeString(tmp.resolve("comments.json"), "[]");
        for (int k = 1; k <= 2; k++) {
            Path dir = Files.createDirectories(tmp.resolve("artifacts/perfab-out-shard-" + k));
            Files.copy(shards.resolve("perfab-out-shard-" + k + "/results.json"), dir.resolve("results.json"));
        }
        Map<String, String> extra = Map.of(
                "PERFAB", perfab.toString(), "PATH", bin + ":" + System.getenv("PATH"), "FAKE_STATE", tmp.toString());
        // The comment workflow takes up to 2 shards (its shards input): 2 shards are read.
        Map<String, String> two = Map.of("shards", "2");
        Run rendered = step("perfab comment", tmp, workflowRun("completed", "success", false), two, extra);
        assertEquals(0, rendered.code(), rendered.out());
        Run posted = step("perfab comment post", tmp, workflowRun("completed", "success", false), Map.of(), extra);
        assertEquals(0, posted.code(), posted.out());
        String body = comments().get(0).get("body").asText();
        assertTrue(body.startsWith("<!-- perfab:perfab-out -->\n### perfab · sharded: 🔴 1 regression"), body);
        assertTrue(body.contains("2 shards: 1 on "), body);

        // A run that left a shard past them (its perf-pr.yml edited by the pull request) is not
        // read: no artifact of it is downloaded, and the pull request is told why.
        Files.createDirectories(tmp.resolve("artifacts/perfab-out-shard-3"));
        Files.delete(tmp.resolve("calls"));
        Run tooMany = step("perfab comment", tmp, workflowRun("completed", "success", false), two, extra);
        assertEquals(0, tooMany.code(), tooMany.out());
        assertTrue(
                tooMany.out().contains("left an artifact perfab-out-shard-3, past the 2 shards this workflow takes"),
                tooMany.out());
        String calls = Files.readString(tmp.resolve("calls"));
        assertFalse(calls.contains("--name perfab-out-shard-"), calls);
        assertTrue(
                comments().get(0).get("body").asText().contains("more shards than the comment workflow takes"),
                comments().get(0).get("body").asText());
        Files.delete(tmp.resolve("artifacts/perfab-out-shard-3"));

        // Shard 2's job left nothing: the comment names it.
        Files.delete(tmp.resolve("artifacts/perfab-out-shard-2/results.json"));
        Run lacking = step("perfab comment", tmp, workflowRun("completed", "success", false), two, extra);
        assertEquals(0, lacking.code(), lacking.out());
        step("perfab comment post", tmp, workflowRun("completed", "success", false), Map.of(), extra);
        String headline = comments()
                .get(0)
                .get("body")
                .asText()
                .lines()
                .filter(l -> l.startsWith("### "))
                .findFirst()
                .orElseThrow();
        assertTrue(headline.contains("shard 2 of 2 missing"), headline);
    }

    @Test
    void findsAForksPullRequestByItsHeadCommit() throws Exception {
        Tool.JQ.need();
        Tool.PYTHON3.need();
        Path perfab = setup();
        Path bin = FakeGh.install(tmp.resolve("fakebin"));
        Files.writeString(tmp.resolve("comments.json"), "[]");
        Files.createDirectories(tmp.resolve("artifact"));
        Files.copy(ROOT.resolve("report/src/test/resources/golden/ab-run.json"), tmp.resolve("artifact/results.json"));
        Map<String, String> extra = new HashMap<>(Map.of(
                "PERFAB",
                perfab.toString(),
                "PATH",
                bin + ":" + System.getenv("PATH"),
                "FAKE_STATE",
                tmp.toString(),
                "FAKE_PR",
                "7"));
        assertEquals(
                0,
                step("perfab comment", tmp, workflowRun("completed", "success", true), Map.of(), extra)
                        .code());
        Run posted = step("perfab comment post", tmp, workflowRun("completed", "success", true), Map.of(), extra);
        assertEquals(0, posted.code(), posted.out());
        assertEquals(1, comments().size(), posted.out());
        assertTrue(
                Files.readString(tmp.resolve("calls"))
                        .contains("pr list --repo octo/app --state open --search"
                                + " c9bf9335d100aa00b548b70eae6215d4486828b5"),
                "found by its head commit");
        extra.put("FAKE_PR", "");
        Run closed = step("perfab comment post", tmp, workflowRun("completed", "success", true), Map.of(), extra);
        assertEquals(0, closed.code(), closed.out());
        assertTrue(
                Files.readString(tmp.resolve("summary.md")).contains("no open pull request has head c9bf9335d100"),
                closed.out());
    }
}
