package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.perfab.testing.Docs;
import org.perfab.testing.StartsProcesses;

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
    private static final Pattern README_YAML =
            Pattern.compile("```yaml\n(# \\.github/workflows/[^\n]+\n.*?)```", Pattern.DOTALL);
    private static final Pattern REUSABLE = Pattern.compile("OWNER/perfab/\\.github/workflows/([a-z-]+\\.yml)@v1");

    @Test
    void theAbJobHasAReadOnlyTokenAndRunsTheAction() throws IOException {
        JsonNode pr = read("perf-pr.yml");
        assertEquals("read", pr.at("/permissions/contents").asText());
        assertEquals(1, pr.get("permissions").size(), "no other permission");
        assertEquals(
                "./.github/workflows/reusable-perf-pr.yml",
                pr.at("/jobs/ab/uses").asText());
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
        // Two workloads (artifacts) or runners on one pull request never cancel each other.
        String group = reusable.at("/jobs/ab/concurrency/group").asText();
        for (String part : List.of("github.workflow", "pull_request.number", "inputs.artifact", "inputs.runs-on")) {
            assertTrue(group.contains(part), group);
        }
        String action = Files.readString(ROOT.resolve("scripts/action"));
        assertTrue(
                action.contains("local args=(ab --repo . --base \"$base\" --head \"$head\" --out \"$out\" --format"
                        + " github)"),
                action);
    }

    @Test
    void theCommentJobNeverRunsThePullRequestsCode() throws IOException {
        JsonNode comment = read("perf-comment.yml");
        assertEquals("write", comment.at("/permissions/pull-requests").asText());
        assertEquals(
                "[requested, completed]",
                comment.at("/on/workflow_run/types")
                        .toString()
                        .replace("\"", "")
                        .replace(",", ", "));
        assertEquals(
                "./.github/workflows/reusable-perf-comment.yml",
                comment.at("/jobs/comment/uses").asText());
        JsonNode reusable = read("reusable-perf-comment.yml");
        assertTrue(reusable.at("/on/workflow_call").isObject());
        assertEquals("write", reusable.at("/permissions/pull-requests").asText());
        JsonNode steps = reusable.at("/jobs/comment/steps");
        assertEquals("comment", perfabAction(steps).at("/with/mode").asText());
        for (JsonNode step : steps) {
            if (step.path("uses").asText().startsWith("actions/checkout")) {
                assertEquals(
                        PERFAB_REPOSITORY,
                        step.at("/with/repository").asText(),
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
        assertEquals(
                "${{ github.event.workflow_run.pull_requests[0].number }}",
                post.at("/env/PR").asText(),
                "the pull request's number comes from the event, not the artifact");
        String script = Files.readString(ROOT.resolve("scripts/action"));
        assertTrue(
                script.contains("\"$perfab\" report \"${results[@]}\" --format markdown"),
                "the comment is rendered by this perfab from the results");
        assertTrue(
                script.contains("\"$here/pr-comment\" post") && script.contains("\"$here/pr-comment\" measuring"),
                "posted by the script that edits only the bot's own comments");
    }

    @Test
    void theCallersPassOnlyInputsTheReusableWorkflowsHave() throws IOException {
        for (String[] pair : new String[][] {
            {"perf-pr.yml", "reusable-perf-pr.yml"},
            {"perf-comment.yml", "reusable-perf-comment.yml"},
            {"perf-nightly.yml", "reusable-perf-nightly.yml"}
        }) {
            JsonNode inputs = read(pair[1]).at("/on/workflow_call/inputs");
            for (JsonNode job : read(pair[0]).path("jobs")) {
                job.path("with")
                        .fieldNames()
                        .forEachRemaining(input -> assertTrue(inputs.has(input), pair[1] + " has no input " + input));
            }
        }
        // The workflows the README tells a repository to write: every input they pass exists, and
        // every input the reusable workflow requires is passed.
        Matcher m = README_YAML.matcher(Docs.text());
        Set<String> called = new TreeSet<>();
        while (m.find()) {
            for (JsonNode job : new YAMLMapper().readTree(m.group(1)).path("jobs")) {
                Matcher uses = REUSABLE.matcher(job.path("uses").asText());
                if (!uses.matches()) {
                    continue;
                }
                called.add(uses.group(1));
                JsonNode inputs = read(uses.group(1)).at("/on/workflow_call/inputs");
                job.path("with")
                        .fieldNames()
                        .forEachRemaining(
                                input -> assertTrue(inputs.has(input), uses.group(1) + " has no input " + input));
                inputs.fields()
                        .forEachRemaining(e -> assertTrue(
                                !e.getValue().path("required").asBoolean()
                                        || job.path("with").has(e.getKey()),
                                "the README's call of " + uses.group(1) + " leaves out the required " + e.getKey()));
            }
        }
        assertEquals(
                Set.of(
                        "reusable-perf-pr.yml",
                        "reusable-perf-comment.yml",
                        "release-check.yml",
                        "perf-bisect.yml",
                        "reusable-perf-nightly.yml"),
                called,
                "the README shows how to call each");
    }

    @Test
    void theReusableABPassesEveryInputOfTheActionItOffersAndRunsTheSetupFirst() throws IOException {
        JsonNode action = new YAMLMapper()
                .readTree(Files.readString(ROOT.resolve("action.yml")))
                .path("inputs");
        JsonNode workflow = read("reusable-perf-pr.yml");
        JsonNode inputs = workflow.at("/on/workflow_call/inputs");
        JsonNode steps = workflow.at("/jobs/ab/steps");
        JsonNode with = null;
        int setupAt = -1;
        int actionAt = -1;
        for (int i = 0; i < steps.size(); i++) {
            if (steps.get(i).path("uses").asText().equals("./.perfab-action")) {
                with = steps.get(i).path("with");
                actionAt = i;
            }
            if (steps.get(i).path("name").asText().equals("setup")) {
                setupAt = i;
                assertEquals(
                        "bash -euo pipefail -c \"$SETUP\"",
                        steps.get(i).path("run").asText().strip(),
                        "the setup commands reach bash through the environment, never spliced");
                assertEquals(
                        "${{ inputs.setup }}", steps.get(i).at("/env/SETUP").asText());
            }
        }
        assertTrue(with != null && setupAt >= 0 && setupAt < actionAt, "a setup step before the action's");
        for (String input : List.of(
                "adaptive",
                "fdr",
                "budget",
                "seed",
                "preset",
                "profile",
                "cache",
                "builds",
                "trials",
                "alpha",
                "min-effect",
                "inconclusive",
                "fail-on",
                "workload",
                "artifact")) {
            assertTrue(action.has(input), "action.yml has an input " + input);
            assertTrue(inputs.has(input), "reusable-perf-pr.yml has an input " + input);
            assertEquals("${{ inputs." + input + " }}", with.path(input).asText(), "passed on: " + input);
        }
        JsonNode ab = null;
        for (JsonNode step : new YAMLMapper()
                .readTree(Files.readString(ROOT.resolve("action.yml")))
                .at("/runs/steps")) {
            if (step.path("name").asText().equals("perfab ab")) {
                ab = step;
            }
        }
        for (String input : List.of("adaptive", "fdr", "budget", "seed", "preset", "profile", "cache")) {
            String env = "INPUT_" + input.toUpperCase(java.util.Locale.ROOT).replace('-', '_');
            assertEquals("${{ inputs." + input + " }}", ab.at("/env/" + env).asText(), "action.yml hands on " + input);
            assertTrue(
                    Files.readString(ROOT.resolve("scripts/action")).contains("${" + env + ":-"),
                    "scripts/action reads " + env);
        }
    }

    /**
     * With {@code shards: N} the A/B job is a matrix of N jobs, each measuring its slice with the
     * read-only token and leaving its own artifact; the merge job runs only perfab, and the
     * workflow's outputs are the merged table's.
     */
    @Test
    void theShardsOfAPullRequestAreAMatrixMergedByAJobThatRunsOnlyPerfab() throws IOException {
        JsonNode workflow = read("reusable-perf-pr.yml");
        JsonNode shards = workflow.at("/on/workflow_call/inputs/shards");
        assertEquals("number", shards.path("type").asText());
        assertEquals(1, shards.path("default").asInt());
        String matrix = workflow.at("/jobs/ab/strategy/matrix/shard").asText();
        Matcher table = Pattern.compile("^\\$\\{\\{ fromJSON\\('(.*)'\\)\\[inputs\\.shards] }}$")
                .matcher(matrix);
        assertTrue(table.matches(), matrix);
        JsonNode lists = new ObjectMapper().readTree(table.group(1));
        assertEquals("[1]", lists.get(0).toString(), "no shards: one job");
        for (int n = 1; n <= 16; n++) {
            List<Integer> expected = new ArrayList<>();
            for (int k = 1; k <= n; k++) {
                expected.add(k);
            }
            assertEquals(expected.toString().replace(" ", ""), lists.get(n).toString(), "shards: " + n);
        }
        assertFalse(workflow.at("/jobs/ab/strategy/fail-fast").asBoolean(true), "one shard's failure stops no other");
        assertTrue(
                workflow.at("/jobs/ab/concurrency/group").asText().contains("matrix.shard"),
                "the shards of one run never cancel each other");
        JsonNode with = perfabAction(workflow.at("/jobs/ab/steps")).path("with");
        assertEquals("${{ matrix.shard }}", with.path("shard").asText());
        assertEquals("${{ inputs.shards }}", with.path("shards").asText());

        JsonNode merge = workflow.at("/jobs/merge");
        assertEquals("ab", merge.path("needs").asText());
        assertEquals(
                "${{ !cancelled() && inputs.shards > 1 }}", merge.path("if").asText());
        assertTrue(merge.path("permissions").isMissingNode(), "the workflow's read-only token");
        for (JsonNode step : merge.path("steps")) {
            assertTrue(step.path("run").isMissingNode(), "nothing but perfab's own steps: " + step);
            if (step.path("uses").asText().startsWith("actions/checkout")) {
                assertEquals(PERFAB_REPOSITORY, step.at("/with/repository").asText(), "perfab only");
            }
        }
        assertEquals("merge", perfabAction(merge.path("steps")).at("/with/mode").asText());
        assertEquals(
                "${{ inputs.fail-on }}",
                perfabAction(merge.path("steps")).at("/with/fail-on").asText(),
                "fail-on is the merged table's to apply");
        JsonNode action = new YAMLMapper().readTree(Files.readString(ROOT.resolve("action.yml")));
        boolean uploads = false;
        for (JsonNode step : action.at("/runs/steps")) {
            if (step.path("uses").asText().startsWith("actions/upload-artifact")
                    && step.path("if").asText().contains("inputs.mode == 'ab'")) {
                assertEquals(
                        "${{ inputs.shards > 1 && format('{0}-shard-{1}', inputs.artifact, inputs.shard)"
                                + " || inputs.artifact }}",
                        step.at("/with/name").asText());
                uploads = true;
            }
            if (step.path("uses").asText().startsWith("actions/download-artifact")) {
                assertEquals("inputs.mode == 'merge'", step.path("if").asText());
                assertEquals(
                        "${{ inputs.artifact }}-shard-*",
                        step.at("/with/pattern").asText());
            }
        }
        assertTrue(uploads, "the A/B uploads its artifact");

        // The times the slices are cut by: the merged run, cached by the merge, restored by one job
        // that runs nothing else and handed to every shard, which gives its path to the action.
        JsonNode times = workflow.at("/jobs/times");
        assertEquals("${{ inputs.shards > 1 }}", times.path("if").asText());
        assertTrue(times.path("continue-on-error").asBoolean(), "without times the shards are cut by count");
        assertTrue(
                times.path("permissions").isObject()
                        && times.path("permissions").isEmpty(),
                "it may do nothing");
        List<String> used = new ArrayList<>();
        for (JsonNode step : times.path("steps")) {
            assertTrue(step.path("run").isMissingNode(), "nothing runs in the times job: " + step);
            used.add(step.path("uses").asText().replaceAll("@.*", ""));
        }
        assertEquals(List.of("actions/cache/restore", "actions/upload-artifact"), used);
        String cached = times.at("/steps/0/with/path").asText();
        assertEquals("${{ runner.temp }}/perfab-merged/results.json", cached);
        assertEquals(
                "perfab-times:${{ inputs.workload }}:${{ inputs.artifact }}:\nperfab-times:${{ inputs.workload }}:\n",
                times.at("/steps/0/with/restore-keys").asText(),
                "the artifact's own, else the workload's");
        assertEquals(30, times.at("/steps/1/with/retention-days").asInt(), "as long as the shards' artifacts");
        assertEquals(
                "${{ inputs.artifact }}-times", times.at("/steps/1/with/name").asText());
        assertEquals("times", workflow.at("/jobs/ab/needs").asText());
        assertEquals("${{ !cancelled() }}", workflow.at("/jobs/ab/if").asText(), "one shard of a run, not none");
        JsonNode download = null;
        for (JsonNode step : workflow.at("/jobs/ab/steps")) {
            if (step.path("uses").asText().startsWith("actions/download-artifact")) {
                download = step;
            }
        }
        assertTrue(download != null, "the shards download the times");
        assertEquals(
                "${{ needs.times.outputs.found != 'true' }}",
                download.path("continue-on-error").asText(),
                "none on a first run; a file the times job found must come");
        assertEquals(
                "${{ steps.restore.outputs.cache-matched-key != '' }}",
                times.at("/outputs/found").asText());
        assertEquals("${{ inputs.artifact }}-times", download.at("/with/name").asText());
        assertEquals(
                download.at("/with/path").asText() + "/results.json",
                with.path("shard-times").asText());
        boolean saves = false;
        for (JsonNode step : action.at("/runs/steps")) {
            if (step.path("uses").asText().startsWith("actions/cache/save")
                    && step.path("if").asText().contains("inputs.mode == 'merge'")) {
                assertEquals(cached, step.at("/with/path").asText(), "saved where the times job restores it");
                assertTrue(step.at("/with/key")
                        .asText()
                        .startsWith("perfab-times:${{ inputs.workload }}:${{ inputs.artifact }}:"));
                saves = true;
            }
        }
        assertTrue(saves, "the merge caches the merged run");
        assertEquals(
                "${{ inputs.workload }}",
                perfabAction(merge.path("steps")).at("/with/workload").asText(),
                "its key is the workload's");
        // The nightly cuts its shards alike, and saves its merged run where the pull requests' times
        // job restores it from (the base branch's cache, which a pull request's first run finds).
        JsonNode nightly = read("reusable-perf-nightly.yml");
        assertEquals(times.path("steps"), nightly.at("/jobs/times/steps"), "the same times job");
        assertEquals("times", nightly.at("/jobs/measure/needs").asText());
        JsonNode record = nightly.at("/jobs/record/steps");
        boolean nightlySaves = false;
        for (JsonNode step : record) {
            if (step.path("uses").asText().startsWith("actions/cache/save")) {
                assertEquals(cached, step.at("/with/path").asText());
                assertTrue(step.at("/with/key")
                        .asText()
                        .startsWith("perfab-times:${{ inputs.workload }}:${{ inputs.artifact }}:"));
                nightlySaves = true;
            }
        }
        assertTrue(nightlySaves, "the nightly caches its merged run");
        assertTrue(step(nightly.at("/jobs/measure/steps"), "perfab ab of the base against the main branch")
                .contains("--shard-times \"$TIMES\""));
    }

    /** Where every job checks perfab out: this workflow's own repository and commit, or the inputs'. */
    static final String PERFAB_REPOSITORY =
            "${{ inputs.perfab-repository || fromJSON(toJSON(job)).workflow_repository }}";

    static final String PERFAB_REF =
            "${{ inputs.perfab-ref || fromJSON(toJSON(job)).workflow_sha || 'give-the-perfab-ref-input' }}";
    static final String PERFAB_RELEASE = "${{ inputs.perfab-ref || fromJSON(toJSON(job)).workflow_ref }}";

    /**
     * Every job of the reusable workflows checks out the perfab of its own commit the one way, with
     * no step of its own to find it: the checkout's expressions, and the release the action's
     * setup reads from the same ref.
     */
    @StartsProcesses
    @Test
    void eachReusableWorkflowChecksOutThePerfabOfItsOwnCommit() throws Exception {
        int jobs = 0;
        for (String[] job : new String[][] {
            {"reusable-perf-pr.yml", "ab"},
            {"reusable-perf-pr.yml", "merge"},
            {"reusable-perf-comment.yml", "comment"},
            {"release-check.yml", "ab"},
            {"release-check.yml", "merge"},
            {"perf-bisect.yml", "bisect"},
            {"reusable-perf-nightly.yml", "measure"},
            {"reusable-perf-nightly.yml", "record"}
        }) {
            JsonNode steps = read(job[0]).at("/jobs/" + job[1] + "/steps");
            JsonNode run = perfabAction(steps);
            assertEquals(PERFAB_RELEASE, run.at("/with/release").asText(), job[0] + " " + job[1]);
            assertEquals(PERFAB_REPOSITORY, run.at("/with/release-repository").asText(), job[0] + " " + job[1]);
            for (JsonNode step : steps) {
                assertFalse(
                        step.path("id").asText().equals("perfab")
                                || step.path("name").asText().contains("which"),
                        "no step of its own finds perfab: " + step);
            }
            jobs++;
        }
        assertEquals(8, jobs);
        // The ref of a reusable workflow names its release when it is a tag, and none for a branch.
        String sha = "0123456789abcdef0123456789abcdef01234567";
        assertEquals("v1.2.0", releaseTag("octo/perfab/.github/workflows/reusable-perf-pr.yml@refs/tags/v1.2.0"));
        assertEquals(
                "",
                releaseTag("octo/perfab/.github/workflows/reusable-perf-pr.yml@refs/heads/main"),
                "a branch has no release: built from the checkout");
        assertEquals("v2.0.0", releaseTag("v2.0.0"), "named by the input, or the action's own tag");
        assertEquals(sha, releaseTag(sha), "a commit is asked for, and has none");
        assertEquals("", releaseTag(""));
    }

    /** The tag scripts/action's setup asks GitHub's releases for, given the action's ref. */
    private static String releaseTag(String ref) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(
                        "bash",
                        "-c",
                        "source <(sed -n '/^release_tag() {/,/^}/p' \"$1\"); release_tag \"$2\"",
                        "-",
                        ROOT.resolve("scripts/action").toString(),
                        ref)
                .redirectErrorStream(true);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        return out.strip();
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
        assertEquals(PERFAB_REF, checkout.at("/with/ref").asText(), "its own commit");
        assertEquals(PERFAB_REPOSITORY, checkout.at("/with/repository").asText(), "its own repository");
        assertFalse(checkout.at("/with/persist-credentials").asBoolean(true));
        run.path("with")
                .fieldNames()
                .forEachRemaining(
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
            assertEquals(1, workflow.get("permissions").size(), name + ": no other permission");
            for (JsonNode job : workflow.path("jobs")) {
                assertTrue(job.path("permissions").isMissingNode(), name + ": every job keeps the read-only token");
                for (JsonNode step : job.path("steps")) {
                    String run = step.path("run").asText("");
                    assertFalse(run.contains("${{"), name + ": an expression inside a script: " + run);
                }
            }
        }
    }

    /**
     * The release check and the bisect are reusable: another repository calls them with its
     * workload, refs, trials, builds and runners, and they run the perfab of their own commit.
     * Dispatched here, they take the same inputs.
     */
    @Test
    void theReleaseCheckAndTheBisectAreCallableFromAnotherRepository() throws IOException {
        Map<String, List<String>> wanted = Map.of(
                "release-check.yml",
                        List.of(
                                "workload",
                                "old",
                                "new",
                                "trials",
                                "builds",
                                "min-effect",
                                "runners",
                                "shards",
                                "perfab-repository",
                                "perfab-ref"),
                "perf-bisect.yml",
                        List.of(
                                "workload",
                                "good",
                                "bad",
                                "cell",
                                "trials",
                                "builds",
                                "min-effect",
                                "runs-on",
                                "perfab-repository",
                                "perfab-ref"));
        for (Map.Entry<String, List<String>> e : wanted.entrySet()) {
            JsonNode workflow = read(e.getKey());
            JsonNode call = workflow.at("/on/workflow_call/inputs");
            JsonNode dispatch = workflow.at("/on/workflow_dispatch/inputs");
            for (String input : e.getValue()) {
                assertTrue(call.has(input), e.getKey() + " takes " + input + " from a caller");
                assertTrue(dispatch.has(input), e.getKey() + " takes " + input + " when dispatched");
                assertEquals(
                        call.at("/" + input + "/required").asBoolean(),
                        dispatch.at("/" + input + "/required").asBoolean(),
                        e.getKey() + ": " + input + " is required in both or neither");
            }
            dispatch.fieldNames().forEachRemaining(input -> assertTrue(call.has(input), e.getKey() + ": " + input));
            assertEquals("perfab.yaml", call.at("/workload/default").asText(), "a caller's workload by default");
            assertEquals(
                    "workloads/perf-pr.yaml", dispatch.at("/workload/default").asText(), "this repository's own");
            assertTrue(
                    Files.exists(ROOT.resolve(dispatch.at("/workload/default").asText())));
            for (JsonNode job : workflow.path("jobs")) {
                JsonNode setup = perfabAction(job.path("steps"));
                assertEquals("setup", setup.at("/with/mode").asText(), "perfab on PATH, from this workflow's commit");
                for (JsonNode step : job.path("steps")) {
                    assertFalse(
                            step.path("run").asText("").contains("scripts/perfab"),
                            "runs the perfab it set up, not a script of the caller's tree: " + step);
                }
            }
        }
        JsonNode release = read("release-check.yml");
        assertEquals("20", release.at("/on/workflow_call/inputs/trials/default").asText());
        assertEquals("3", release.at("/on/workflow_call/inputs/builds/default").asText());
        assertEquals(
                List.of("ubuntu-latest", "ubuntu-22.04", "ubuntu-24.04-arm"),
                new ObjectMapper()
                        .readValue(
                                release.at("/on/workflow_call/inputs/runners/default")
                                        .asText(),
                                List.class),
                "three runner classes");
        assertEquals(
                "${{ fromJSON(inputs.runners) }}",
                release.at("/jobs/ab/strategy/matrix/runner").asText());
        assertEquals(
                "${{ jobs.merge.outputs.bisect }}",
                release.at("/on/workflow_call/outputs/bisect/value").asText());
        JsonNode steps = release.at("/jobs/ab/steps");
        String aa = step(steps, "perfab ab, the old release against itself (A/A)");
        assertTrue(
                aa.contains("args=(ab --repo . --base \"$OLD\" --head \"$OLD\"")
                        && aa.contains("--preset release")
                        && aa.contains("--out perfab-aa")
                        && aa.contains("perfab \"${args[@]}\""),
                aa);
        for (String run : List.of(aa, step(steps, "perfab ab, the old release against the new (A/B)"))) {
            assertTrue(
                    run.contains("if ((SHARDS > 1)); then args+=(--shard \"$SHARD/$SHARDS\"); fi"),
                    "each job of the matrix measures its shard: " + run);
        }
        String ab = step(steps, "perfab ab, the old release against the new (A/B)");
        assertTrue(
                ab.contains("--base \"$OLD\" --head \"$NEW\"")
                        && ab.contains("--preset release")
                        && ab.contains("args+=(--noise perfab-aa/noise.json)"),
                ab);
        String upload = steps.toString();
        assertTrue(upload.contains("perfab-aa/noise.json") && upload.contains("perfab-out/results.json"), upload);
        for (JsonNode step : release.at("/jobs/merge/steps")) {
            if (step.path("uses").asText().startsWith("actions/checkout")) {
                assertEquals(
                        ".perfab-action", step.at("/with/path").asText(), "the merge job runs nothing of the releases");
            }
        }
        JsonNode bisect = read("perf-bisect.yml");
        assertEquals("15", bisect.at("/on/workflow_call/inputs/trials/default").asText());
        assertEquals(
                "1", bisect.at("/on/workflow_call/inputs/min-effect/default").asText());
        assertEquals(
                "${{ jobs.bisect.outputs.first-bad }}",
                bisect.at("/on/workflow_call/outputs/first-bad/value").asText());
        String run = step(bisect.at("/jobs/bisect/steps"), "perfab bisect");
        assertTrue(
                run.contains("args=(bisect --repo . --workload \"$WORKLOAD\" --good \"$GOOD\" --bad \"$BAD\""
                        + " --cell \"$CELL\""),
                run);
    }

    /** The merge job's script: one table of the A/Bs, or one A/B's table, and each runner's A/A noise floor. */
    @StartsProcesses
    @Test
    void theReleaseCheckMergesItsABsAndShowsEachRunnersNoiseFloor() throws Exception {
        String script = step(read("release-check.yml").at("/jobs/merge/steps"), "perfab runners");
        Path dir = Files.createTempDirectory("release-merge");
        Path bin = Files.createDirectories(dir.resolve("bin"));
        // A stand-in perfab: says what it was asked, to -o when it names a file; runners --format json writes
        // two cells, one to bisect. perfab github is the real one: it writes the step's files.
        Files.writeString(bin.resolve("perfab"), """
                #!/bin/sh
                if [ "$1" = github ]; then exec '%s' -cp '%s' %s "$@"; fi
                out=""; prev=""
                for a in "$@"; do if [ "$prev" = -o ]; then out="$a"; fi; prev="$a"; done
                if [ -n "$out" ]; then echo "perfab $*" > "$out"; else echo "perfab $*"; fi
                case "$*" in *"--format json -o merge.json") echo '{"cells": [{"bisect": true}, {"bisect": false}]}' \
                  > merge.json ;; esac
                """.formatted(
                        Path.of(System.getProperty("java.home"), "bin", "java"),
                        System.getProperty("java.class.path"),
                        Main.class.getName()));
        bin.resolve("perfab").toFile().setExecutable(true);
        for (String file : List.of(
                "ubuntu-latest-shard-1/perfab-out/results.json",
                "ubuntu-latest-shard-1/perfab-aa/noise.json",
                "ubuntu-24.04-arm-shard-1/perfab-out/results.json")) {
            Path f = dir.resolve("runs/perfab-release-" + file);
            Files.createDirectories(f.getParent());
            Files.writeString(f, "{}");
        }
        Map<String, String> out = mergeStep(dir, bin, script, "2");
        assertEquals("0", out.get("code"), out.get("log"));
        String summary = out.get("summary");
        assertTrue(
                summary.startsWith("perfab runners runs/perfab-release-ubuntu-24.04-arm-shard-1/perfab-out/results.json"
                        + " runs/perfab-release-ubuntu-latest-shard-1/perfab-out/results.json --format markdown -o"
                        + " perfab-summary/ab.md\n"),
                summary);
        assertTrue(
                summary.contains("The noise floor on ubuntu-latest: the old release against itself (A/A)\n\n"
                        + "perfab plan --noise runs/perfab-release-ubuntu-latest-shard-1/perfab-aa/noise.json --min-effect 2"
                        + " --format markdown -o perfab-summary/plan-ubuntu-latest-shard-1.md\n"),
                summary);
        assertFalse(summary.contains("noise floor on ubuntu-24.04-arm"), "a runner without an A/A shows no floor");
        assertEquals("bisect=1\n", out.get("output"));

        Files.delete(dir.resolve("runs/perfab-release-ubuntu-24.04-arm-shard-1/perfab-out/results.json"));
        out = mergeStep(dir, bin, script, "");
        assertEquals("0", out.get("code"), out.get("log"));
        assertTrue(
                out.get("summary")
                        .startsWith("perfab report runs/perfab-release-ubuntu-latest-shard-1/perfab-out/"
                                + "results.json --format markdown -o perfab-summary/ab.md\n"),
                "one runner's A/B is shown as it is: " + out.get("summary"));
        assertTrue(
                out.get("summary")
                        .contains("perfab plan --noise runs/perfab-release-ubuntu-latest-shard-1/perfab-aa/"
                                + "noise.json --format markdown"),
                out.get("summary"));

        // Shards: each runner class's shards merged into its one run first, then the runners side by side.
        for (String file : List.of(
                "ubuntu-latest-shard-2/perfab-out/results.json",
                "ubuntu-24.04-arm-shard-1/perfab-out/results.json",
                "ubuntu-24.04-arm-shard-2/perfab-out/results.json",
                "ubuntu-latest-shard-2/perfab-aa/noise.json")) {
            Path f = dir.resolve("runs/perfab-release-" + file);
            Files.createDirectories(f.getParent());
            Files.writeString(f, "{\"shards\": {\"count\": 2}}");
        }
        Files.writeString(
                dir.resolve("runs/perfab-release-ubuntu-latest-shard-1/perfab-out/results.json"),
                "{\"shards\": {\"count\": 2}}");
        out = mergeStep(dir, bin, script, "", "2");
        assertEquals("0", out.get("code"), out.get("log"));
        assertEquals(
                "perfab report runs/perfab-release-ubuntu-24.04-arm-shard-1/perfab-out/results.json"
                        + " runs/perfab-release-ubuntu-24.04-arm-shard-2/perfab-out/results.json --format json -o"
                        + " runners/ubuntu-24.04-arm.json\n",
                Files.readString(dir.resolve("runners/ubuntu-24.04-arm.json")));
        assertTrue(
                out.get("summary")
                        .startsWith("perfab runners runners/ubuntu-24.04-arm.json runners/ubuntu-latest.json"
                                + " --format markdown -o perfab-summary/ab.md\n"),
                out.get("summary"));
        assertTrue(
                out.get("summary")
                        .contains("The noise floor on ubuntu-latest, shard 2: the old release against itself (A/A)"),
                out.get("summary"));
        for (String runner : List.of("ubuntu-latest", "ubuntu-24.04-arm")) {
            for (int k = 1; k <= 2; k++) {
                Files.deleteIfExists(
                        dir.resolve("runs/perfab-release-" + runner + "-shard-" + k + "/perfab-out/results.json"));
            }
        }
        out = mergeStep(dir, bin, script, "");
        assertEquals("1", out.get("code"), "no results at all is a failure");
        assertTrue(
                out.get("log").contains("::error title=perfab::no runner class left an A/B's results"), out.get("log"));
    }

    /** Runs a step's script as GitHub would (bash -e -o pipefail), in {@code dir}; its exit code, log, summary and outputs. */
    private static Map<String, String> mergeStep(Path dir, Path bin, String script, String effect) throws Exception {
        return mergeStep(dir, bin, script, effect, "1");
    }

    /** As {@link #mergeStep(Path, Path, String, String)}, of a release check in {@code shards} shards. */
    private static Map<String, String> mergeStep(Path dir, Path bin, String script, String effect, String shards)
            throws Exception {
        Path summary = dir.resolve("summary");
        Path output = dir.resolve("output");
        Files.writeString(summary, "");
        Files.writeString(output, "");
        ProcessBuilder pb = new ProcessBuilder("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("log").toFile());
        pb.environment()
                .putAll(Map.of(
                        "PATH",
                        bin + ":" + System.getenv("PATH"),
                        "EFFECT",
                        effect,
                        "SHARDS",
                        shards,
                        "GITHUB_STEP_SUMMARY",
                        summary.toString(),
                        "GITHUB_OUTPUT",
                        output.toString()));
        Process p = pb.start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return Map.of(
                "code",
                String.valueOf(p.exitValue()),
                "log",
                Files.readString(dir.resolve("log")),
                "summary",
                Files.readString(summary),
                "output",
                Files.readString(output));
    }

    /** The script of the step named {@code name}. */
    private static String step(JsonNode steps, String name) {
        for (JsonNode step : steps) {
            if (step.path("name").asText().equals(name)) {
                return step.path("run").asText();
            }
        }
        throw new AssertionError("no step named " + name + " in " + steps);
    }

    /**
     * The nightly is reusable, and this repository calls it like any other: the job that builds and
     * runs the measured code has a read-only token and keeps no credentials; the jobs that write run
     * only the perfab of the workflow's own commit, on the first job's results, and take every input
     * through the environment.
     */
    @Test
    void theNightlyMeasuresWithAReadOnlyTokenAndOnlyPerfabWrites() throws IOException {
        JsonNode nightly = read("perf-nightly.yml");
        assertEquals("{\"contents\":\"read\"}", nightly.path("permissions").toString(), "read-only unless granted");
        assertTrue(nightly.at("/on/schedule").isArray(), "runs every night");
        assertEquals(
                "./.github/workflows/reusable-perf-nightly.yml",
                nightly.at("/jobs/nightly/uses").asText());
        assertEquals(
                "workloads/perf-pr.yaml",
                nightly.at("/jobs/nightly/with/workload").asText(),
                "this repository has no perfab.yaml");
        assertTrue(Files.exists(ROOT.resolve("workloads/perf-pr.yaml")));
        assertEquals("${{ inputs.base }}", nightly.at("/jobs/nightly/with/base").asText(), "a dispatch moves the base");

        JsonNode reusable = read("reusable-perf-nightly.yml");
        JsonNode inputs = reusable.at("/on/workflow_call/inputs");
        assertEquals("perfab.yaml", inputs.at("/workload/default").asText(), "a caller's workload by default");
        assertEquals("bench/nightly/ratios.csv", inputs.at("/series/default").asText());
        assertEquals("", inputs.at("/base/default").asText(), "pinned unless an input moves it");
        assertEquals("pull-request", inputs.at("/movements/default").asText(), "the seed's three channels");
        assertEquals("pages", inputs.at("/site/default").asText());
        JsonNode measure = reusable.at("/jobs/measure");
        assertEquals(
                "{\"contents\":\"read\"}",
                measure.path("permissions").toString(),
                "the job that runs the code has a read-only token whatever the caller grants");
        JsonNode steps = measure.path("steps");
        assertEquals(0, steps.get(0).at("/with/fetch-depth").asInt(), "the base and the tags must be fetched");
        assertFalse(steps.get(0).at("/with/persist-credentials").asBoolean(true));
        assertEquals("setup", perfabAction(steps).at("/with/mode").asText());
        assertEquals(
                "bash .perfab-action/scripts/nightly base",
                step(steps, "the base").strip());
        String ab = step(steps, "perfab ab of the base against the main branch");
        assertTrue(ab.contains("args=(ab --repo . --base \"$BASE\" --head HEAD --workload \"$WORKLOAD\""), ab);
        for (JsonNode step : steps) {
            if (step.path("id").asText().equals("ab")) {
                assertEquals(
                        "${{ steps.base.outputs.base }}",
                        step.at("/env/BASE").asText(),
                        "the A/B measures the base the script chose");
                assertEquals("${{ inputs.workload }}", step.at("/env/WORKLOAD").asText());
            }
        }

        Set<String> writers = new TreeSet<>();
        reusable.path("jobs").fields().forEachRemaining(e -> {
            if (!e.getKey().equals("measure") && !e.getKey().equals("times")) {
                writers.add(e.getKey());
            }
        });
        assertEquals(Set.of("record", "deploy"), writers);
        assertTrue(
                reusable.at("/jobs/times/permissions").isObject()
                        && permissions(reusable.at("/jobs/times/permissions")).isEmpty(),
                "the times job may do nothing");
        assertEquals(
                Map.of("contents", "write", "pull-requests", "write", "issues", "write"),
                permissions(reusable.at("/jobs/record/permissions")));
        assertEquals(
                Map.of("pages", "write", "id-token", "write"), permissions(reusable.at("/jobs/deploy/permissions")));
        assertEquals("measure", reusable.at("/jobs/record/needs").asText(), "writes only from the first job's results");
        String uploaded = "{\"name\":\"${{ inputs.shards > 1 && format('{0}-shard-{1}', inputs.artifact, matrix.shard)"
                + " || inputs.artifact }}\",\"path\":";
        assertTrue(
                measure.path("steps").toString().contains(uploaded),
                measure.path("steps").toString());
        String record = reusable.at("/jobs/record/steps").toString();
        assertTrue(
                record.contains("{\"name\":\"${{ inputs.artifact }}\",\"path\":")
                        && record.contains("{\"pattern\":\"${{ inputs.artifact }}-shard-*\",\"path\":"),
                "the results the first job uploads, or its shards', are the ones the second reads: " + record);
        assertTrue(measure.at("/strategy/matrix/shard").asText().endsWith("[inputs.shards] }}"), "a job per shard");
        assertTrue(
                step(reusable.at("/jobs/measure/steps"), "perfab ab of the base against the main branch")
                        .contains("if ((SHARDS > 1)); then args+=(--shard \"$SHARD/$SHARDS\"); fi"),
                "each measures its shard");
        assertEquals(
                "bash .perfab-action/scripts/nightly shards",
                step(reusable.at("/jobs/record/steps"), "perfab report of the shards")
                        .strip(),
                "merged by perfab's own script");
        for (String name : writers) {
            JsonNode job = reusable.at("/jobs/" + name);
            for (JsonNode step : job.path("steps")) {
                String uses = step.path("uses").asText("");
                String run = step.path("run").asText("");
                if (uses.startsWith("actions/checkout")) {
                    boolean perfab = step.at("/with/path").asText().equals(".perfab-action");
                    assertTrue(
                            perfab
                                    || !step.path("with").has("ref")
                                            && !step.path("with").has("repository"),
                            "perfab's own commit, or the branch that holds the series: " + step);
                } else if (uses.equals("./.perfab-action")) {
                    assertEquals("setup", step.at("/with/mode").asText(), "perfab on PATH, from its own commit");
                } else if (!uses.isEmpty()) {
                    assertTrue(
                            Set.of(
                                            "actions/download-artifact@v4",
                                            "actions/upload-pages-artifact@v3",
                                            "actions/deploy-pages@v4",
                                            "actions/cache/save@v4")
                                    .contains(uses),
                            name + " uses only GitHub's own: " + uses);
                } else {
                    assertTrue(
                            run.strip().matches("bash \\.perfab-action/scripts/nightly [a-z]+"),
                            name + " runs only perfab's own script: " + run);
                }
            }
        }
        for (JsonNode job : reusable.path("jobs")) {
            for (JsonNode step : job.path("steps")) {
                String run = step.path("run").asText("");
                assertFalse(run.contains("${{"), "an expression inside a script: " + run);
                assertFalse(run.contains("scripts/perfab"), "runs the perfab it set up, not the caller's: " + run);
            }
        }
        String script = Files.readString(ROOT.resolve("scripts/nightly"));
        assertTrue(
                script.contains("\"$perfab\" series record --series \"$SERIES\" --from \"$RESULTS\" --base \"$BASE\""),
                "records the base of every ratio");
        assertTrue(script.contains("ref=\"$(\"$perfab\" series base --series \"$series\")\""), "the pinned base");
    }

    /**
     * GitHub refuses to start a workflow whose caller grants less than a job it calls asks for, used
     * or not: every caller here and in the docs grants what the jobs of the workflow it calls ask.
     */
    @Test
    void everyCallerGrantsWhatTheJobsItCallsAsk() throws IOException {
        List<JsonNode> callers = new ArrayList<>();
        try (var files = Files.list(DIR)) {
            for (Path f : files.sorted().toList()) {
                callers.add(read(f.getFileName().toString()));
            }
        }
        Matcher m = README_YAML.matcher(Docs.text());
        while (m.find()) {
            callers.add(new YAMLMapper().readTree(m.group(1)));
        }
        int calls = 0;
        for (JsonNode caller : callers) {
            for (JsonNode job : caller.path("jobs")) {
                String uses = job.path("uses").asText("");
                Matcher owner = REUSABLE.matcher(uses);
                String called = owner.matches()
                        ? owner.group(1)
                        : uses.startsWith("./.github/workflows/")
                                ? uses.substring("./.github/workflows/".length())
                                : null;
                if (called == null) {
                    continue;
                }
                calls++;
                Map<String, String> granted =
                        permissions(job.has("permissions") ? job.path("permissions") : caller.path("permissions"));
                JsonNode workflow = read(called);
                for (JsonNode calledJob : workflow.path("jobs")) {
                    Map<String, String> asked = permissions(
                            calledJob.has("permissions")
                                    ? calledJob.path("permissions")
                                    : workflow.path("permissions"));
                    asked.forEach((scope, level) -> assertTrue(
                            level.equals("read")
                                    ? Set.of("read", "write").contains(granted.get(scope))
                                    : "write".equals(granted.get(scope)),
                            uses + " asks " + scope + ": " + level + ", and its caller grants " + granted));
                }
            }
        }
        assertTrue(calls >= 8, "the callers here and in the docs: " + calls);
    }

    private static final Pattern WRITES_STEP_FILES = Pattern.compile(
            "GITHUB_STEP_SUMMARY|GITHUB_OUTPUT|::(error|warning|notice|debug|set-output|add-mask|group)\\b");

    /**
     * perfab is the one writer of a step's files and workflow commands: no workflow, no step of the
     * action and no script writes the job summary or the outputs, or prints an annotation, itself
     * (comments may say what perfab does). They call perfab github, which escapes and bounds them.
     */
    @Test
    void noWorkflowActionOrScriptWritesGithubsStepFilesItself() throws IOException {
        List<Path> files = new ArrayList<>(List.of(ROOT.resolve("action.yml")));
        try (var list = Files.list(DIR)) {
            list.sorted().forEach(files::add);
        }
        try (var list = Files.list(ROOT.resolve("scripts"))) {
            list.filter(Files::isRegularFile).sorted().forEach(files::add);
        }
        assertTrue(files.size() > 15, files.toString());
        List<String> found = new ArrayList<>();
        for (Path f : files) {
            List<String> lines = Files.readAllLines(f);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i).strip();
                if (!line.startsWith("#") && WRITES_STEP_FILES.matcher(line).find()) {
                    found.add(ROOT.relativize(f) + ":" + (i + 1) + ": " + line);
                }
            }
        }
        assertEquals(List.of(), found, "write these through perfab github");
        for (String script : List.of("scripts/action", "scripts/nightly", "scripts/pr-comment")) {
            assertTrue(
                    Files.readString(ROOT.resolve(script)).contains(" github "), script + " publishes through perfab");
        }
    }

    /**
     * The action and the reusable A/B give every output perfab writes of an A/B (the counts of
     * Products.AB, as a real run's results give them), and the action the comment's path too.
     */
    @Test
    void theActionAndTheReusableABGiveEveryOutputPerfabWrites() throws IOException {
        Set<String> written = new TreeSet<>(org.perfab.report.Products.AB
                .outputs(org.perfab.report.Report.of(org.perfab.model.ResultsJson.read(
                        ROOT.resolve("report/src/test/resources/golden/ab-run.json"))))
                .keySet());
        assertEquals(
                Set.of("regressions", "inconclusive", "small", "improvements", "noisy"),
                written,
                "the counts a run writes");
        JsonNode action = new YAMLMapper()
                .readTree(Files.readString(ROOT.resolve("action.yml")))
                .path("outputs");
        JsonNode reusable = read("reusable-perf-pr.yml");
        for (String name : written) {
            assertEquals(
                    "${{ steps.ab.outputs." + name + " || steps.merge.outputs." + name + " }}",
                    action.at("/" + name + "/value").asText(),
                    "action.yml gives " + name);
            assertEquals(
                    "${{ inputs.shards > 1 && jobs.merge.outputs." + name + " || (inputs.shards < 2 &&"
                            + " jobs.ab.outputs." + name + ") || '' }}",
                    reusable.at("/on/workflow_call/outputs/" + name + "/value").asText(),
                    "reusable-perf-pr.yml gives " + name + ", of the merged shards when there are some");
            assertEquals(
                    "${{ steps.merge.outputs." + name + " }}",
                    reusable.at("/jobs/merge/outputs/" + name).asText(),
                    "its merge job gives " + name);
            assertEquals(
                    "${{ steps.ab.outputs." + name + " }}",
                    reusable.at("/jobs/ab/outputs/" + name).asText(),
                    "its job gives " + name);
        }
        assertEquals(
                "${{ steps.ab.outputs.comment || steps.merge.outputs.comment }}",
                action.at("/comment/value").asText());
        Set<String> series = new TreeSet<>(List.of("new", "persisting", "rebased"));
        JsonNode nightly = read("reusable-perf-nightly.yml");
        for (String name : series) {
            assertEquals(
                    "${{ jobs.record.outputs." + name + " }}",
                    nightly.at("/on/workflow_call/outputs/" + name + "/value").asText(),
                    "reusable-perf-nightly.yml gives " + name);
        }
    }

    /**
     * A job whose token can write keeps no credentials on disk while anything but perfab runs:
     * every checkout of it leaves none behind, and the token reaches only the steps that push or
     * post, by name.
     */
    /**
     * A job after one that may be skipped (a job with its own {@code if}) runs by the jobs'
     * results: its {@code if} holds a status function other than {@code success()}, which is false
     * whenever any job before it in the chain was skipped, even one whose own successor ran.
     */
    @Test
    void aJobAfterOneThatMayBeSkippedDoesNotRestOnSuccess() throws IOException {
        try (var files = Files.list(DIR)) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".yml")).sorted().toList()) {
                JsonNode jobs = read(file.getFileName().toString()).path("jobs");
                Map<String, List<String>> needs = new HashMap<>();
                jobs.fields().forEachRemaining(e -> {
                    List<String> before = new ArrayList<>();
                    JsonNode n = e.getValue().path("needs");
                    if (n.isArray()) {
                        n.forEach(x -> before.add(x.asText()));
                    } else if (!n.isMissingNode()) {
                        before.add(n.asText());
                    }
                    needs.put(e.getKey(), before);
                });
                for (String job : needs.keySet()) {
                    Set<String> chain = new TreeSet<>();
                    List<String> todo = new ArrayList<>(needs.get(job));
                    while (!todo.isEmpty()) {
                        String j = todo.remove(todo.size() - 1);
                        if (chain.add(j)) {
                            todo.addAll(needs.getOrDefault(j, List.of()));
                        }
                    }
                    boolean skippable =
                            chain.stream().anyMatch(j -> jobs.path(j).has("if"));
                    String condition = jobs.path(job).path("if").asText("");
                    if (skippable) {
                        assertTrue(
                                (condition.contains("!cancelled()") || condition.contains("always()"))
                                        && !condition.contains("success()"),
                                file.getFileName() + ": job " + job + " after " + chain
                                        + " runs only while success() holds: " + condition);
                    }
                }
            }
        }
    }

    @Test
    void jobsThatCanWriteKeepNoCredentialsAndHandTheTokenOnlyToTheStepsThatWrite() throws IOException {
        Map<String, Set<String>> allowed = Map.of(
                "reusable-perf-nightly.yml", Set.of("perfab series site", "the series and the movements"),
                "release.yml", Set.of("attach it to the release"));
        int writers = 0;
        try (var list = Files.list(DIR)) {
            for (Path f : list.sorted().toList()) {
                JsonNode workflow = read(f.getFileName().toString());
                for (var e : (Iterable<Map.Entry<String, JsonNode>>) workflow.path("jobs")::fields) {
                    JsonNode job = e.getValue();
                    Map<String, String> granted = permissions(
                            job.has("permissions") ? job.path("permissions") : workflow.path("permissions"));
                    if (!granted.containsValue("write") || job.has("uses")) {
                        continue;
                    }
                    writers++;
                    for (JsonNode step : job.path("steps")) {
                        String where = f.getFileName() + " " + e.getKey() + ": " + step;
                        if (step.path("uses").asText().startsWith("actions/checkout")) {
                            assertFalse(step.at("/with/persist-credentials").asBoolean(true), where);
                        }
                        if (step.path("env").toString().contains("github.token")
                                || step.path("env").toString().contains("secrets.")) {
                            assertTrue(
                                    allowed.getOrDefault(f.getFileName().toString(), Set.of())
                                            .contains(step.path("name").asText()),
                                    "a token for a step that does not write: " + where);
                        }
                    }
                }
            }
        }
        assertTrue(writers >= 4, "the jobs that can write: " + writers);
        JsonNode record = read("reusable-perf-nightly.yml").at("/jobs/record/steps");
        assertEquals(
                "${{ inputs.site == 'branch' && github.token || '' }}",
                stepNamed(record, "perfab series site").at("/env/GH_TOKEN").asText(),
                "the site's step has the token only to push the site's branch");
    }

    /**
     * A job that runs steps has a time limit: the comment job reads what a pull request's run left,
     * and without one, a run edited to leave thousands of artifacts would hold it for hours.
     */
    @Test
    void everyJobThatRunsStepsHasATimeLimit() throws IOException {
        try (var list = Files.list(DIR)) {
            for (Path f : list.sorted().toList()) {
                for (var e : (Iterable<Map.Entry<String, JsonNode>>)
                        read(f.getFileName().toString()).path("jobs")::fields) {
                    JsonNode job = e.getValue();
                    assertTrue(
                            job.has("uses") || job.has("timeout-minutes"),
                            f.getFileName() + ": job " + e.getKey() + " has no timeout-minutes");
                }
            }
        }
        assertEquals(
                15,
                read("reusable-perf-comment.yml")
                        .at("/jobs/comment/timeout-minutes")
                        .asInt());
    }

    /**
     * The comment job reads the artifacts of at most the shards its own input declares, never the
     * number the pull request's run chose: the input reaches the action, and the action's step.
     */
    @Test
    void theCommentJobReadsOnlyTheShardsItsOwnInputDeclares() throws IOException {
        JsonNode reusable = read("reusable-perf-comment.yml");
        JsonNode shards = reusable.at("/on/workflow_call/inputs/shards");
        assertEquals("number", shards.path("type").asText());
        assertEquals(16, shards.path("default").asInt(), "as many as the reusable A/B's matrix takes");
        assertEquals(
                "${{ inputs.shards }}",
                perfabAction(reusable.at("/jobs/comment/steps"))
                        .at("/with/shards")
                        .asText());
        JsonNode action = new YAMLMapper().readTree(Files.readString(ROOT.resolve("action.yml")));
        for (String name : List.of("perfab comment", "perfab merge")) {
            assertEquals(
                    "${{ inputs.shards }}",
                    stepNamed(action.at("/runs/steps"), name)
                            .at("/env/INPUT_SHARDS")
                            .asText(),
                    name);
        }
        String script = Files.readString(ROOT.resolve("scripts/action"));
        assertFalse(script.contains("-shard-*"), "no artifact is downloaded by a pattern the run could fill");
    }

    /**
     * Every upload can run again: upload-artifact v4 refuses a name the run already has (409
     * Conflict, "an artifact with this name already exists on the workflow run"), and a job run
     * again (Re-run jobs) is the same run. {@code overwrite: true} deletes the earlier attempt's
     * artifact first, so a name stays what the jobs after it download.
     */
    @Test
    void everyUploadOfAnArtifactReplacesTheOneAnEarlierAttemptLeft() throws IOException {
        List<JsonNode> files = new ArrayList<>();
        try (var list = Files.list(DIR)) {
            for (Path f : list.sorted().toList()) {
                files.add(read(f.getFileName().toString()));
            }
        }
        files.add(new YAMLMapper().readTree(Files.readString(ROOT.resolve("action.yml"))));
        int uploads = 0;
        for (JsonNode file : files) {
            List<JsonNode> steps = new ArrayList<>();
            file.at("/runs/steps").forEach(steps::add);
            file.path("jobs").forEach(job -> job.path("steps").forEach(steps::add));
            for (JsonNode step : steps) {
                if (step.path("uses").asText().startsWith("actions/upload-artifact")) {
                    uploads++;
                    assertTrue(step.at("/with/overwrite").asBoolean(false), "no overwrite: " + step);
                }
            }
        }
        assertTrue(uploads >= 8, "the uploads: " + uploads);
    }

    private static JsonNode stepNamed(JsonNode steps, String name) {
        for (JsonNode step : steps) {
            if (step.path("name").asText().equals(name)) {
                return step;
            }
        }
        throw new AssertionError("no step named " + name);
    }

    /** A permissions block as scope to level. */
    private static Map<String, String> permissions(JsonNode block) {
        Map<String, String> out = new java.util.TreeMap<>();
        block.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }
}
