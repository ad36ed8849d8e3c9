package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.ab.Engine;
import org.perfab.exec.Processes;
import org.perfab.report.testing.Tool;
import org.perfab.testing.FakeEngine;
import org.perfab.testing.GitFixture;
import org.perfab.testing.Subjects;
import org.perfab.workload.Workload;

/**
 * {@code scripts/bisect-prs}: a bisect through throwaway draft pull requests, one round at a time,
 * against a real remote and a stand-in gh. The test plays perf-pr.yml: for each pull request the
 * script opens it runs {@code perfab ab} of the base branch against the pull request's commit (on
 * a fake engine: each side's own build and harness, in process), at the trials its body asks for,
 * and keeps its results as the run's artifact.
 */
class BisectPrsIT {
    private static final Path SCRIPT =
            Path.of("..", "scripts", "bisect-prs").toAbsolutePath().normalize();
    private static final Path ACTION =
            Path.of("..", "scripts", "action").toAbsolutePath().normalize();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern TRIALS = Pattern.compile("(?m)^perfab-trials: (\\d+)$");

    @TempDir
    Path tmp;

    private GitFixture origin;
    private GitFixture work;
    private Path bin;
    private InProcessPerfab perfab;

    /**
     * A fake gh: {@code pr create} and {@code pr close} keep the pull requests in
     * {@code $FAKE_STATE/prs.json} (closing one deletes its branch from the remote), {@code run list}
     * reads {@code runs.json} through the real jq, {@code run download ID} copies
     * {@code artifacts/ID/NAME/} (for the name perfab-out, else {@code artifacts/ID/}); every call is
     * logged to {@code calls}.
     */
    private static final String GH = """
            #!/usr/bin/env python3
            import json, os, shutil, subprocess, sys
            state = os.environ["FAKE_STATE"]
            args = sys.argv[1:]
            with open(os.path.join(state, "calls"), "a") as log:
                log.write(" ".join(args) + "\\n")
            def opt(name):
                return args[args.index(name) + 1] if name in args else None
            def load(name):
                path = os.path.join(state, name)
                return json.load(open(path)) if os.path.exists(path) else []
            prs = load("prs.json")
            if args[:2] == ["pr", "create"]:
                number = 100 + len(prs) + 1
                prs.append({"number": number, "base": opt("--base"), "head": opt("--head"), "title": opt("--title"),
                            "body": opt("--body"), "draft": "--draft" in args, "state": "open"})
                json.dump(prs, open(os.path.join(state, "prs.json"), "w"))
                print("https://github.example/octo/app/pull/%d" % number)
            elif args[:2] == ["pr", "close"]:
                pr = [p for p in prs if str(p["number"]) == args[2]][0]
                pr["state"] = "closed"
                json.dump(prs, open(os.path.join(state, "prs.json"), "w"))
                if "--delete-branch" in args:
                    subprocess.run(["git", "--git-dir", os.environ["FAKE_REMOTE"], "update-ref", "-d",
                                    "refs/heads/" + pr["head"]], check=True)
            elif args[:2] == ["run", "list"] and os.environ.get("FAKE_GH_FAILS"):
                sys.exit("HTTP 401: Bad credentials (https://api.github.com/graphql)")
            elif args[:2] == ["run", "list"]:
                runs = [r for r in load("runs.json") if r["headBranch"] == opt("--branch")]
                out = subprocess.run(["jq", "-r", opt("--jq")], input=json.dumps(runs), capture_output=True, text=True)
                sys.stdout.write(out.stdout)
                sys.exit(out.returncode)
            elif args[:2] == ["run", "download"]:
                source = os.path.join(state, "artifacts", args[2])
                if os.path.isdir(os.path.join(source, opt("--name"))):
                    source = os.path.join(source, opt("--name"))
                elif opt("--name") != "perfab-out":
                    sys.exit("no artifact named " + opt("--name"))
                if not os.path.isdir(source):
                    sys.exit("no valid artifacts found to download")
                shutil.copytree(source, opt("--dir"), dirs_exist_ok=True)
            else:
                sys.exit("fake gh: unexpected " + " ".join(args))
            """;

    @BeforeEach
    void setUp() throws IOException {
        Tool.JQ.need();
        Tool.PYTHON3.need();
        origin = GitFixture.init(tmp.resolve("origin.git"));
        origin.git("config", "receive.denyCurrentBranch", "ignore");
        work = GitFixture.init(tmp.resolve("work"));
        work.git("remote", "add", "origin", origin.dir().toString());
        bin = Files.createDirectories(tmp.resolve("bin"));
        Files.writeString(bin.resolve("gh"), GH);
        bin.resolve("gh").toFile().setExecutable(true);
        // The perfab of this build, as a program the script can run: this JVM's, not one per call.
        perfab = InProcessPerfab.start(bin.resolve("perfab"), Engine.REAL);
    }

    @AfterEach
    void stop() throws IOException {
        if (perfab != null) {
            perfab.close();
        }
    }

    private record Run(int code, String out) {}

    private Run script(String... args) throws IOException, InterruptedException {
        return script(Map.of(), args);
    }

    private Run script(Map<String, String> extra, String... args) throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>(List.of("bash", SCRIPT.toString()));
        argv.addAll(List.of(args));
        Path out = tmp.resolve("script.out");
        ProcessBuilder pb = new ProcessBuilder(argv)
                .directory(work.dir().toFile())
                .redirectErrorStream(true)
                .redirectOutput(out.toFile());
        Map<String, String> env = pb.environment();
        env.put("PATH", bin + ":" + System.getenv("PATH"));
        env.put("PERFAB", bin.resolve("perfab").toString());
        env.put("FAKE_STATE", tmp.toString());
        env.put("FAKE_REMOTE", origin.dir().resolve(".git").toString());
        env.put("GIT_CONFIG_NOSYSTEM", "1");
        env.put("GIT_CONFIG_GLOBAL", "/dev/null");
        env.putAll(extra);
        Process p = pb.start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "bisect-prs " + String.join(" ", args) + " finished");
        return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
    }

    private JsonNode prs() throws IOException {
        Path f = tmp.resolve("prs.json");
        return Files.exists(f) ? JSON.readTree(f.toFile()) : JSON.createArrayNode();
    }

    private String remoteHeads() throws IOException {
        return origin.git("for-each-ref", "--format=%(refname:short)", "refs/heads/perfab-bisect/");
    }

    /**
     * Plays perf-pr.yml for every pull request without a run: an A/B of its base branch against its
     * head commit (its builds and harness run in process, each side's own), at the trials its body
     * asks for; its results become the run's artifact. Returns how many it ran.
     */
    private int runWorkflow() throws IOException {
        return runWorkflow(1);
    }

    /**
     * The same, of a perf-pr.yml in {@code shards} shards: each shard's A/B leaves the artifact
     * {@code perfab-out-shard-K}, as the reusable workflow's matrix does.
     */
    private int runWorkflow(int shards) throws IOException {
        Path runsFile = tmp.resolve("runs.json");
        ArrayNode runs = Files.exists(runsFile) ? (ArrayNode) JSON.readTree(runsFile.toFile()) : JSON.createArrayNode();
        int ran = 0;
        for (JsonNode pr : prs()) {
            String branch = pr.get("head").asText();
            boolean hasRun = false;
            for (JsonNode r : runs) {
                hasRun |= r.get("headBranch").asText().equals(branch);
            }
            if (hasRun) {
                continue;
            }
            String sha = origin.git("rev-parse", "refs/heads/" + branch).trim();
            Matcher trials = TRIALS.matcher(pr.get("body").asText());
            assertTrue(
                    trials.find(),
                    "the body asks for its trials: " + pr.get("body").asText());
            int id = 9000 + runs.size();
            for (int k = 1; k <= shards; k++) {
                List<String> argv = new ArrayList<>(List.of(
                        "ab",
                        "--repo=" + work.dir(),
                        "--base",
                        pr.get("base").asText(),
                        "--head",
                        sha,
                        "--trials",
                        trials.group(1),
                        "--out",
                        tmp.resolve("artifacts/" + id + (shards > 1 ? "/perfab-out-shard-" + k : ""))
                                .toString()));
                if (shards > 1) {
                    argv.addAll(List.of("--shard", k + "/" + shards));
                }
                Cli ab = Cli.run(listing().engine(), argv.toArray(String[]::new));
                assertEquals(0, ab.exitCode(), ab.err());
            }
            runs.addObject()
                    .put("databaseId", id)
                    .put("status", "completed")
                    .put("conclusion", "success")
                    .put("headSha", sha)
                    .put("headBranch", branch);
            ran++;
        }
        Files.writeString(runsFile, runs.toString());
        return ran;
    }

    /**
     * The subject's programs, its harness also listing its two benchmarks ({@code --list}) and
     * running only those a regular expression matches ({@code --only REGEX}), as a workload's
     * {@code harness.shard} asks.
     */
    private static FakeEngine listing() {
        FakeEngine plain = Subjects.fake();
        return Subjects.fake().program("bench.sh", c -> {
            if (c.argv().contains("--list")) {
                Files.writeString(c.stdout(), "speed/run\nsteady/run\n");
                return FakeEngine.ok(0.01);
            }
            Processes.Outcome o = plain.named("bench.sh").run(c);
            int only = c.argv().indexOf("--only");
            if (only >= 0) {
                Pattern slice = Pattern.compile(c.argv().get(only + 1));
                Path result = Path.of(c.env().get("PERFAB_RESULT"));
                ObjectNode doc = (ObjectNode) JSON.readTree(result.toFile());
                ArrayNode kept = JSON.createArrayNode();
                doc.get("measurements").forEach(m -> {
                    if (slice.matcher(m.get("cell").asText()).matches()) {
                        kept.add(m);
                    }
                });
                doc.set("measurements", kept);
                Files.writeString(result, doc.toString());
            }
            return o;
        });
    }

    /** Writes the subject at level 100 on {@code release}, then 16 commits on main; the 11th makes it 2% slower. */
    private List<String> history() throws IOException {
        return history(102);
    }

    /** Writes the subject at level 100 on {@code release}, then 16 commits on main; the 11th moves it to {@code level}. */
    private List<String> history(int level) throws IOException {
        Subjects.write(work, 100, 3, "  shard:\n    list: [sh, bench.sh, --list]\n    filter: [--only, '{regex}']\n");
        List<String> commits = new ArrayList<>(List.of(work.commit("the release")));
        work.git("branch", "release");
        for (int i = 1; i <= 16; i++) {
            work.write("notes/" + i + ".txt", "note " + i + "\n");
            if (i == 11) {
                work.write("level.txt", level + "\n");
            }
            commits.add(work.commit("change " + i));
        }
        work.git("push", "-q", "origin", "release", "main");
        return commits;
    }

    private List<String> headsOpened() throws IOException {
        List<String> heads = new ArrayList<>();
        prs().forEach(p -> heads.add(p.get("head").asText()));
        return heads;
    }

    private static String branch(List<String> commits, int i) {
        return "perfab-bisect/" + commits.get(0).substring(0, 8) + "-"
                + commits.get(16).substring(0, 8) + "/" + commits.get(i).substring(0, 12);
    }

    @Test
    void bisectsOneRoundAtATimeAndNamesTheCommitThatMadeACellTwoPercentSlower() throws Exception {
        List<String> c = history();
        origin.git("branch", "perfab-bisect/someone-elses", c.get(3));

        Run start = script("start", "release", c.get(0), "main", "--cell", "speed/*");
        assertEquals(0, start.code(), start.out());
        assertEquals(List.of(branch(c, 16), branch(c, 8)), headsOpened(), "the first round: BAD and the middle");
        JsonNode first = prs().get(0);
        assertEquals("release", first.get("base").asText());
        assertTrue(first.get("draft").asBoolean());
        assertEquals(
                "perfab bisect: " + c.get(16).substring(0, 12) + " change 16",
                first.get("title").asText());
        assertTrue(first.get("body").asText().endsWith("\n\nperfab-trials: 15"), "15 trials by default");
        assertEquals(
                c.get(16),
                origin.git("rev-parse", "refs/heads/" + branch(c, 16)).trim());

        Run waiting = script("next");
        assertEquals(0, waiting.code(), waiting.out());
        assertTrue(waiting.out().contains("Waiting for 2 runs."), waiting.out());
        assertEquals(2, prs().size(), "no new round before the last has finished");

        // change 8 is good, then 12 bad, 10 good, 11 bad: one pull request a round.
        List<Integer> rounds = List.of(12, 10, 11);
        for (int expected : rounds) {
            runWorkflow();
            Run next = script("next");
            assertEquals(0, next.code(), next.out());
            assertEquals(branch(c, expected), headsOpened().get(headsOpened().size() - 1), next.out());
        }
        assertEquals(1, runWorkflow());
        Run found = script("next");
        assertEquals(0, found.code(), found.out());
        assertTrue(
                found.out()
                        .contains("First bad commit: " + c.get(11).substring(0, 12) + " change 11; the last good: "
                                + c.get(10).substring(0, 12) + " change 10."),
                found.out());
        assertTrue(
                found.out()
                        .matches("(?s).*#105 +commit +11 +" + c.get(11).substring(0, 12)
                                + " +bad: speed/run time \\+2% \\(p <0\\.001\\) regression.*"),
                found.out());
        assertTrue(found.out().contains("good: speed/run time +0% (p 1) unchanged"), found.out());
        assertEquals(5, prs().size(), "found with five pull requests, not sixteen");
        assertEquals(found.out(), script("status").out(), "status says the same and opens nothing");
        assertEquals(5, prs().size());

        Run close = script("close");
        assertEquals(0, close.code(), close.out());
        for (JsonNode pr : prs()) {
            assertEquals("closed", pr.get("state").asText(), pr.toString());
        }
        assertEquals("perfab-bisect/someone-elses\n", remoteHeads(), "only its own branches are gone");
        assertFalse(Files.exists(work.dir().resolve(".git/perfab-bisect-prs")), "the bisect is forgotten");
        Run again = script("next");
        assertEquals(2, again.code(), again.out());
        assertTrue(again.out().contains("no bisect in progress"), again.out());
    }

    @Test
    void aBadThatIsNotWorseEndsTheBisectWithoutNamingACommit() throws Exception {
        // 12 trials at a spread of 1% rule out a 1% slowdown (4 could not: such a run is undecided).
        List<String> c = history();
        Run start = script("start", "release", c.get(0), c.get(9), "--cell", "speed/run:time", "--trials", "12");
        assertEquals(0, start.code(), start.out());
        assertTrue(prs().get(0).get("body").asText().endsWith("perfab-trials: 12"));
        runWorkflow();
        Run next = script("next");
        assertEquals(0, next.code(), next.out());
        assertTrue(next.out().contains("is not worse than release here: no commit to find at this bar"), next.out());
        assertEquals(2, prs().size());
    }

    @Test
    void aRunThatCannotTellLeavesItsCommitUndecidedAndTheRangeWhole() throws Exception {
        // 3 trials at a spread of 1%: BAD's +10% is a regression, and change 8's +0% has an
        // interval of about ±2.3%, which cannot rule out the 1% bar: too noisy to tell, and perfab
        // compare --fail-on regression exits 0 for it.
        List<String> c = history(110);
        Run start = script("start", "release", c.get(0), "main", "--cell", "speed/run", "--trials", "3");
        assertEquals(0, start.code(), start.out());
        assertEquals(2, runWorkflow());
        Run next = script("next");
        assertEquals(0, next.code(), next.out());
        assertTrue(
                next.out()
                        .matches("(?s).*#102 +commit +8 +" + c.get(8).substring(0, 12) + " +undecided: speed/run"
                                + " time \\+0% \\(p 1\\) noisy; its trials rule out neither a 1% slowdown nor none.*"),
                next.out());
        assertTrue(next.out().contains("bad: speed/run time +10%"), next.out());
        assertTrue(next.out().contains("Left: commits 1 to 16 (16 commits, the first bad among them)"), next.out());
        assertTrue(
                next.out()
                        .contains("1 of them could not be told good or bad (undecided): the range is not narrowed"
                                + " past them"),
                next.out());
        assertEquals(branch(c, 9), headsOpened().get(2), "the next round is still among all sixteen: " + next.out());
        Run status = script("status");
        assertTrue(status.out().contains("Left: commits 1 to 16"), status.out());
        assertTrue(status.out().contains("undecided: speed/run"), status.out());
    }

    @Test
    void anUndecidedBadIsNotTakenForNoChangeAndOpensNoRound() throws Exception {
        // BAD's +2% at 3 trials and a spread of 1%: p 0.07, neither a regression nor ruled out.
        List<String> c = history();
        Run start = script("start", "release", c.get(0), "main", "--cell", "speed/*", "--trials", "3");
        assertEquals(0, start.code(), start.out());
        runWorkflow();
        Run next = script("next");
        assertEquals(0, next.code(), next.out());
        assertFalse(next.out().contains("is not worse than release"), next.out());
        assertTrue(
                next.out().matches("(?s).*#101 +commit +16 +" + c.get(16).substring(0, 12) + " +undecided: .*"),
                next.out());
        assertTrue(next.out().contains("could not tell whether it is worse than release"), next.out());
        assertTrue(next.out().contains("close, then start again with --trials 6"), next.out());
        assertEquals(2, prs().size(), "no round is opened while the change itself is in doubt");
    }

    @Test
    void aRoundOfThreeSplitsTheRangeInQuarters() throws Exception {
        List<String> c = history();
        Run start = script("start", "release", c.get(0), "main", "--cell", "speed/*", "--per-round", "3");
        assertEquals(0, start.code(), start.out());
        assertEquals(List.of(branch(c, 16), branch(c, 4), branch(c, 8), branch(c, 12)), headsOpened());
    }

    @Test
    void refusesAGoodThatIsNotAnAncestorOfBadAndOpensNothing() throws Exception {
        List<String> c = history();
        work.git("checkout", "-q", "--orphan", "unrelated");
        work.write("other.txt", "another history\n");
        String unrelated = work.commit("an unrelated root");
        work.git("checkout", "-q", "main");
        Run start = script("start", "release", unrelated, "main", "--cell", "speed/*");
        assertEquals(2, start.code(), start.out());
        assertTrue(start.out().contains("is not an ancestor of BAD"), start.out());
        Run reversed = script("start", "release", c.get(16), c.get(3), "--cell", "speed/*");
        assertEquals(2, reversed.code(), reversed.out());
        assertEquals(0, prs().size());
        assertEquals("", remoteHeads(), "nothing pushed");
        assertFalse(Files.exists(work.dir().resolve(".git/perfab-bisect-prs")));
        Run noBase = script("start", "no-such-branch", c.get(0), "main", "--cell", "speed/*");
        assertEquals(2, noBase.code(), noBase.out());
        assertTrue(noBase.out().contains("origin has no branch 'no-such-branch'"), noBase.out());
        Run noCell = script("start", "release", c.get(0), "main");
        assertEquals(2, noCell.code(), noCell.out());
        assertTrue(noCell.out().contains("--cell GLOB is needed"), noCell.out());
    }

    /** perf-pr.yml reads the trials of a bisect's pull request from its body, through the action's script. */
    @Test
    void theTrialsAPullRequestAsksForReachPerfabAb() throws Exception {
        Path args = tmp.resolve("args");
        Path fake = bin.resolve("fake-perfab");
        Files.writeString(fake, "#!/bin/sh\nprintf '%s\\n' \"$*\" > '" + args + "'\n");
        fake.toFile().setExecutable(true);
        int most = Workload.MAX_TRIALS;
        String[][] cases = {
            {"A throwaway pull request.\r\n\r\nperfab-trials: 15\r\n", "", "--trials 15"},
            {"perfab-trials: 15", "5", "--trials 15"},
            {"perfab-trials: 15", "20", "--trials 20"},
            {"perfab-trials: 0", "", ""},
            {"see perfab-trials: 15", "", ""},
            {"perfab-trials: 15; rm -rf /", "", ""},
            {"", "7", "--trials 7"},
            // Counts perfab does not take are no request: the run keeps its own.
            {"perfab-trials: 1", "", ""},
            {"perfab-trials: " + (most + 1), "", ""},
            {"perfab-trials: 99999999999999999999", "5", "--trials 5"},
            {"perfab-trials: " + most, "", "--trials " + most},
            // A line inside a fenced code block is an example, not a request.
            {"To ask for more, write:\n\n```\nperfab-trials: 40\n```\n", "", ""},
            {"~~~~ text\nperfab-trials: 40\n~~~\nperfab-trials: 41\n~~~~\nperfab-trials: 12\n", "", "--trials 12"},
            {"```\nperfab-trials: 40\n```\nperfab-trials: 12\n", "", "--trials 12"},
        };
        for (String[] c : cases) {
            ProcessBuilder pb = new ProcessBuilder("bash", ACTION.toString(), "ab")
                    .directory(tmp.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(tmp.resolve("action.out").toFile());
            pb.environment()
                    .putAll(Map.of(
                            "PERFAB",
                            fake.toString(),
                            "INPUT_BASE",
                            "release",
                            "HEAD_SHA",
                            "abc",
                            "PR_BODY",
                            c[0],
                            "INPUT_TRIALS",
                            c[1]));
            Process p = pb.start();
            assertTrue(p.waitFor(30, TimeUnit.SECONDS));
            assertEquals(0, p.exitValue(), Files.readString(tmp.resolve("action.out")));
            String line = Files.readString(args).trim();
            assertEquals(
                    "ab --repo . --base release --head abc --out perfab-out --format github"
                            + (c[2].isEmpty() ? "" : " " + c[2]),
                    line,
                    "body " + c[0] + ", input " + c[1]);
        }
        // The action's budget input is perfab ab's --budget.
        ProcessBuilder pb = new ProcessBuilder("bash", ACTION.toString(), "ab")
                .directory(tmp.toFile())
                .redirectErrorStream(true)
                .redirectOutput(tmp.resolve("action.out").toFile());
        pb.environment()
                .putAll(Map.of(
                        "PERFAB", fake.toString(), "INPUT_BASE", "release", "HEAD_SHA", "abc", "INPUT_BUDGET", "20m"));
        Process p = pb.start();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), Files.readString(tmp.resolve("action.out")));
        assertEquals(
                "ab --repo . --base release --head abc --out perfab-out --format github --budget 20m",
                Files.readString(args).trim());
    }

    /** The trials bisect-prs asks for are ones perfab takes: its limits, not the script's own. */
    @Test
    void trialsPerfabDoesNotTakeAreRefusedBeforeAnythingIsOpened() throws Exception {
        List<String> c = history();
        for (String trials : List.of("1", Integer.toString(Workload.MAX_TRIALS + 1), "0", "x")) {
            Run start = script("start", "release", c.get(0), "main", "--cell", "speed/*", "--trials", trials);
            assertEquals(2, start.code(), start.out());
            assertTrue(
                    start.out().contains("--trials must be a whole number from 2 to " + Workload.MAX_TRIALS),
                    start.out());
        }
        assertEquals(0, prs().size());
        // The most perfab takes is taken: this start fails later, on GOOD and BAD.
        Run most = script(
                "start",
                "release",
                c.get(16),
                c.get(3),
                "--cell",
                "speed/*",
                "--trials",
                Integer.toString(Workload.MAX_TRIALS));
        assertEquals(2, most.code(), most.out());
        assertTrue(most.out().contains("is not an ancestor of BAD"), most.out());
        for (String script : List.of("scripts/bisect-prs", "scripts/action")) {
            assertTrue(
                    Files.readString(SCRIPT.getParent().getParent().resolve(script))
                            .contains("\nMAX_TRIALS=" + Workload.MAX_TRIALS + "\n"),
                    script + " holds perfab's limit");
        }
    }

    /**
     * A perf-pr.yml in shards leaves no artifact perfab-out, but one a shard: the bisect merges
     * them, as the comment job does, and judges the merged run.
     */
    @Test
    void bisectsThroughAPullRequestWorkflowInShards() throws Exception {
        List<String> c = history(110);
        Run start = script("start", "release", c.get(0), "main", "--cell", "speed/*", "--trials", "12");
        assertEquals(0, start.code(), start.out());
        assertEquals(2, runWorkflow(2));
        assertTrue(Files.isDirectory(tmp.resolve("artifacts/9000/perfab-out-shard-2")));
        assertFalse(Files.exists(tmp.resolve("artifacts/9000/results.json")), "no artifact of the plain name");
        Run next = script("next");
        assertEquals(0, next.code(), next.out());
        assertFalse(next.out().contains("left no results.json"), next.out());
        assertTrue(
                next.out()
                        .matches("(?s).*#101 +commit +16 +" + c.get(16).substring(0, 12)
                                + " +bad: speed/run time \\+10% .*regression.*"),
                next.out());
        assertTrue(next.out().contains("good: speed/run time +0%"), next.out());
        assertTrue(
                Files.readString(tmp.resolve("calls")).contains("--name perfab-out-shard-2 "),
                "each shard by its name");
    }

    /** Two invocations at once would open one round twice: the second stops and says why. */
    @Test
    void aSecondInvocationWhileOneRunsStopsAndSaysWhy() throws Exception {
        assumeTrue(new ProcessBuilder("sh", "-c", "command -v flock").start().waitFor() == 0, "flock");
        List<String> c = history();
        assertEquals(
                0,
                script("start", "release", c.get(0), "main", "--cell", "speed/*")
                        .code());
        Path lock = work.dir().resolve(".git/perfab-bisect-prs.lock");
        Process holder = new ProcessBuilder("flock", "-o", lock.toString(), "sleep", "60").start();
        try {
            for (int i = 0; i < 100 && !Files.exists(lock); i++) {
                Thread.sleep(50);
            }
            Thread.sleep(200);
            Run next = script("next");
            assertEquals(2, next.code(), next.out());
            assertTrue(
                    next.out()
                            .contains("another scripts/bisect-prs is working on this bisect (it holds .git/"
                                    + lock.getFileName() + "): wait for it to end"),
                    next.out());
            assertEquals(2, prs().size(), "nothing opened");
        } finally {
            holder.descendants().forEach(ProcessHandle::destroy);
            holder.destroy();
            holder.waitFor(10, TimeUnit.SECONDS);
        }
        Run after = script("next");
        assertEquals(0, after.code(), after.out());
    }

    /** A gh that fails is an error that names the command, never a run that has not started. */
    @Test
    void aFailingGhIsAnErrorThatNamesTheCommandNotAPendingRun() throws Exception {
        List<String> c = history();
        assertEquals(
                0,
                script("start", "release", c.get(0), "main", "--cell", "speed/*")
                        .code());
        Run next = script(Map.of("FAKE_GH_FAILS", "1"), "next");
        assertEquals(3, next.code(), next.out());
        assertTrue(
                next.out()
                        .contains("bisect-prs: gh run list --workflow perf-pr.yml --branch " + branch(c, 16)
                                + " failed: HTTP 401: Bad credentials"),
                next.out());
        assertFalse(next.out().contains("pending") || next.out().contains("Waiting"), next.out());
        assertEquals(2, prs().size(), "nothing opened");
    }
}
