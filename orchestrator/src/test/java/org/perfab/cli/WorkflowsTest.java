package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.perfab.testing.Programs;

/**
 * The trust rules of the GitHub workflows: the job that runs a pull request's code has a read-only
 * token and posts nothing; the job that posts never runs the pull request's code; no script splices
 * a pull request's text into a shell line.
 */
class WorkflowsTest {
    private static final Path DIR = Path.of("..", ".github", "workflows");
    private static final Pattern SPLICED = Pattern.compile(
            "\\$\\{\\{[^}]*(head_ref|pull_request\\.(title|body|head\\.ref|head\\.label)|workflow_run\\.head_branch)");

    private static JsonNode read(String name) throws IOException {
        return new YAMLMapper().readTree(Files.readString(DIR.resolve(name)));
    }

    private static final Path ROOT = Path.of("..");

    @Test
    void theAbJobHasAReadOnlyTokenAndRunsTheAction() throws IOException {
        JsonNode pr = read("perf-pr.yml");
        assertEquals("read", pr.at("/permissions/contents").asText());
        assertEquals(1, pr.get("permissions").size(), "no other permission");
        assertEquals("./.github/workflows/reusable-perf-pr.yml", pr.at("/jobs/ab/uses").asText());
        assertEquals("workloads/perf-pr.yaml", pr.at("/jobs/ab/with/workload").asText());
        assertTrue(Files.exists(ROOT.resolve("workloads/perf-pr.yaml")), "perfab benchmarks itself");

        JsonNode reusable = read("reusable-perf-pr.yml");
        assertTrue(reusable.at("/on/workflow_call").isObject());
        assertEquals("read", reusable.at("/permissions/contents").asText());
        assertEquals(1, reusable.get("permissions").size(), "no other permission");
        JsonNode steps = reusable.at("/jobs/ab/steps");
        assertEquals(0, steps.get(0).at("/with/fetch-depth").asInt(), "the merge-base must be fetched");
        assertFalse(steps.get(0).at("/with/persist-credentials").asBoolean(true));
        JsonNode run = perfabAction(steps);
        assertTrue(run.path("with").path("mode").isMissingNode(), "mode ab");
        String action = Files.readString(ROOT.resolve("scripts/action"));
        assertTrue(action.contains("local args=(ab --repo . --base \"$base\" --head \"$head\" --out \"$out\" --format"
                + " github)"), action);
    }

    @Test
    void theCommentJobNeverRunsThePullRequestsCode() throws IOException {
        JsonNode comment = read("perf-comment.yml");
        assertEquals("write", comment.at("/permissions/pull-requests").asText());
        assertEquals("[requested, completed]", comment.at("/on/workflow_run/types").toString().replace("\"", "")
                .replace(",", ", "));
        assertEquals("./.github/workflows/reusable-perf-comment.yml", comment.at("/jobs/comment/uses").asText());
        JsonNode reusable = read("reusable-perf-comment.yml");
        assertTrue(reusable.at("/on/workflow_call").isObject());
        assertEquals("write", reusable.at("/permissions/pull-requests").asText());
        JsonNode steps = reusable.at("/jobs/comment/steps");
        assertEquals("comment", perfabAction(steps).at("/with/mode").asText());
        for (JsonNode step : steps) {
            if (step.path("uses").asText().startsWith("actions/checkout")) {
                assertEquals("${{ steps.perfab.outputs.repository }}", step.at("/with/repository").asText(),
                        "checks out perfab only, never the pull request's code");
            }
        }
        JsonNode action = new YAMLMapper().readTree(Files.readString(ROOT.resolve("action.yml")));
        JsonNode post = null;
        for (JsonNode step : action.at("/runs/steps")) {
            if (step.path("name").asText().equals("perfab comment")) {
                post = step;
            }
        }
        assertTrue(post != null, "the action has a comment step");
        assertEquals("${{ github.event.workflow_run.pull_requests[0].number }}", post.at("/env/PR").asText(),
                "the pull request's number comes from the event, not the artifact");
        String script = Files.readString(ROOT.resolve("scripts/action"));
        assertTrue(script.contains("\"$perfab\" report \"$dir/results.json\" --format markdown"),
                "the comment is rendered by this perfab from the results");
        assertTrue(script.contains("\"$here/pr-comment\" post") && script.contains("\"$here/pr-comment\" measuring"),
                "posted by the script that edits only the bot's own comments");
    }

    @Test
    void theCallersPassOnlyInputsTheReusableWorkflowsHave() throws IOException {
        for (String[] pair : new String[][] {{"perf-pr.yml", "reusable-perf-pr.yml"},
            {"perf-comment.yml", "reusable-perf-comment.yml"}}) {
            JsonNode inputs = read(pair[1]).at("/on/workflow_call/inputs");
            for (JsonNode job : read(pair[0]).path("jobs")) {
                job.path("with").fieldNames().forEachRemaining(
                        input -> assertTrue(inputs.has(input), pair[1] + " has no input " + input));
            }
        }
    }

    @Test
    void eachReusableWorkflowFindsThePerfabOfItsOwnCommit() throws Exception {
        assumeTrue(Programs.onPath("jq"), "jq is needed");
        String pr = whichPerfab(read("reusable-perf-pr.yml").at("/jobs/ab/steps"));
        assertEquals(pr, whichPerfab(read("reusable-perf-comment.yml").at("/jobs/comment/steps")), "the same step");
        String sha = "0123456789abcdef0123456789abcdef01234567";
        String tagged = "{\"workflow_repository\": \"octo/perfab\", \"workflow_sha\": \"" + sha + "\","
                + " \"workflow_ref\": \"octo/perfab/.github/workflows/reusable-perf-pr.yml@refs/tags/v1.2.0\"}";
        assertEquals("repository=octo/perfab\nref=" + sha + "\nrelease=v1.2.0\n", run(pr, tagged, "", ""));
        String branch = tagged.replace("refs/tags/v1.2.0", "refs/heads/main");
        assertEquals("repository=octo/perfab\nref=" + sha + "\nrelease=\n", run(pr, branch, "", ""),
                "a branch has no release: built from the checkout");
        assertEquals("repository=fork/perfab\nref=v2.0.0\nrelease=v2.0.0\n", run(pr, "{}", "fork/perfab", "v2.0.0"),
                "named by the inputs");
        assertEquals("error", run(pr, "{\"status\": \"success\"}", "", ""), "no way to tell: an error, not a guess");
    }

    private static String whichPerfab(JsonNode steps) {
        for (JsonNode step : steps) {
            if (step.path("id").asText().equals("perfab")) {
                return step.path("run").asText();
            }
        }
        throw new AssertionError("no step with id perfab");
    }

    /** Runs the "which perfab" script with the job context and inputs given; its outputs, or "error". */
    private static String run(String script, String job, String repository, String ref) throws Exception {
        Path dir = Files.createTempDirectory("which-perfab");
        Path output = dir.resolve("output");
        Files.writeString(output, "");
        ProcessBuilder pb = new ProcessBuilder("bash", "-euo", "pipefail", "-c", script).redirectErrorStream(true)
                .redirectOutput(dir.resolve("log").toFile());
        pb.environment().putAll(Map.of("JOB_CONTEXT", job, "WANT_REPOSITORY", repository, "WANT_REF", ref,
                "GITHUB_OUTPUT", output.toString()));
        Process p = pb.start();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        if (p.exitValue() != 0) {
            assertTrue(Files.readString(dir.resolve("log")).contains("::error title=perfab::"), "says why");
            return "error";
        }
        return Files.readString(output);
    }

    /**
     * The step of a reusable workflow that runs perfab's action: from the reusable workflow's own
     * commit, checked out beside the caller's tree, with inputs the action has.
     */
    private static JsonNode perfabAction(JsonNode steps) throws IOException {
        JsonNode action = new YAMLMapper().readTree(Files.readString(ROOT.resolve("action.yml")));
        JsonNode checkout = null;
        JsonNode run = null;
        for (JsonNode step : steps) {
            if (step.at("/with/path").asText().equals(".perfab-action")) {
                checkout = step;
            }
            if (step.path("uses").asText().equals("./.perfab-action")) {
                run = step;
            }
        }
        assertTrue(checkout != null && run != null, "checks out perfab and runs its action");
        assertEquals("${{ steps.perfab.outputs.ref }}", checkout.at("/with/ref").asText(), "its own commit");
        assertFalse(checkout.at("/with/persist-credentials").asBoolean(true));
        run.path("with").fieldNames().forEachRemaining(
                input -> assertTrue(action.at("/inputs").has(input), "the action has no input " + input));
        return run;
    }

    @Test
    void theActionTakesItsInputsThroughTheEnvironment() throws IOException {
        JsonNode action = new YAMLMapper().readTree(Files.readString(ROOT.resolve("action.yml")));
        assertEquals("composite", action.at("/runs/using").asText());
        for (JsonNode step : action.at("/runs/steps")) {
            String run = step.path("run").asText("");
            assertFalse(run.contains("${{"), "an expression inside a script: " + run);
        }
        for (String input : List.of("workload", "trials", "builds", "fail-on", "min-effect", "mode")) {
            assertTrue(action.at("/inputs").has(input), input);
        }
        JsonNode release = read("release.yml");
        assertEquals("[\"v*\"]", release.at("/on/push/tags").toString());
        String text = Files.readString(DIR.resolve("release.yml"));
        assertTrue(text.contains("bash .ci/run") && text.contains("sha256sum -c \"perfab-$version.jar.sha256\""), text);
    }

    @Test
    void noScriptSplicesAPullRequestsText() throws IOException {
        try (var files = Files.list(DIR)) {
            for (Path f : files.toList()) {
                JsonNode workflow = new YAMLMapper().readTree(Files.readString(f));
                for (JsonNode job : workflow.path("jobs")) {
                    for (JsonNode step : job.path("steps")) {
                        String run = step.path("run").asText("");
                        assertFalse(SPLICED.matcher(run).find(), f + ": " + run);
                    }
                }
            }
        }
    }

    @Test
    void dispatchInputsReachScriptsOnlyThroughTheEnvironment() throws IOException {
        for (String name : new String[] {"release-check.yml", "perf-bisect.yml"}) {
            JsonNode workflow = read(name);
            assertTrue(workflow.at("/on/workflow_dispatch").isObject(), name);
            assertEquals("read", workflow.at("/permissions/contents").asText(), name);
            for (JsonNode job : workflow.path("jobs")) {
                for (JsonNode step : job.path("steps")) {
                    String run = step.path("run").asText("");
                    assertFalse(run.contains("${{"), name + ": an expression inside a script: " + run);
                }
            }
        }
        String release = Files.readString(DIR.resolve("release-check.yml"));
        assertTrue(release.contains("runner: [ubuntu-latest, ubuntu-22.04, ubuntu-24.04-arm]"), release);
        assertTrue(release.contains("--profile release"), release);
        assertTrue(release.contains("scripts/perfab merge runs/*/results.json --format markdown >> \"$GITHUB_STEP_SUMMARY\""),
                release);
        assertTrue(Files.readString(DIR.resolve("perf-bisect.yml")).contains("scripts/perfab bisect --repo ."));
    }

    @Test
    void theNightlyMeasuresWithAReadOnlyTokenAndOnlyPerfabMayPush() throws IOException {
        JsonNode nightly = read("perf-nightly.yml");
        assertEquals("read", nightly.at("/permissions/contents").asText());
        assertTrue(nightly.at("/on/schedule").isArray(), "runs every night");
        JsonNode measure = nightly.at("/jobs/measure");
        assertTrue(measure.path("permissions").isMissingNode(), "the job that runs the code keeps the read-only token");
        String measured = measure.path("steps").toString();
        assertTrue(measured.contains("scripts/perfab ab --repo . --base \\\"$BASE\\\" --head HEAD"), measured);
        assertTrue(measured.contains("\"persist-credentials\":false"), measured);
        JsonNode record = nightly.at("/jobs/record");
        assertEquals("write", record.at("/permissions/contents").asText());
        for (JsonNode step : record.path("steps")) {
            String run = step.path("run").asText("");
            assertFalse(run.contains("perfab ab") || run.contains("mvn") || run.contains("make"),
                    "the job that may push runs nothing of the measured code: " + run);
            assertFalse(run.contains("${{"), "an expression inside a script: " + run);
            if (step.path("uses").asText().startsWith("actions/checkout")) {
                assertFalse(step.path("with").has("ref"), "checks out the default branch only: " + step);
            }
        }
        String text = Files.readString(DIR.resolve("perf-nightly.yml"));
        assertTrue(text.contains("scripts/perfab series record --series bench/nightly/ratios.csv --from"
                + " artifact/results.json"), text);
        assertTrue(text.contains("if: github.ref == 'refs/heads/main'"), "pushes only from main");
    }
}
