package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.ab.Engine;
import org.perfab.report.testing.Tool;
import org.perfab.testing.GitFixture;

/**
 * {@code scripts/nightly}, the steps of reusable-perf-nightly.yml, in a clone of a real repository
 * whose origin is a bare one beside it, with a stand-in {@code perfab} (a series of one line per
 * run, {@code RUN,BASE}) and a stand-in {@code gh}, each logging what it was asked.
 */
class NightlyScriptIT {
    private static final Path SCRIPT =
            Path.of("..", "scripts", "nightly").toAbsolutePath().normalize();
    static final String SERIES = "bench/nightly/ratios.csv";

    /**
     * perfab's series commands as far as the script relies on them, over a series of "RUN,BASE"
     * lines; perfab github's summary and output as plain appends, and its annotations by the real
     * perfab ($FAKE_STATE/bin/real-perfab), which keeps each on one line.
     */
    private static final String PERFAB = """
            #!/usr/bin/env bash
            set -euo pipefail
            echo "perfab $*" >> "$FAKE_STATE/perfab-calls"
            opt() { local name="$1"; shift; while (( $# )); do [[ "$1" != "$name" ]] || { echo "$2"; return; }; shift; done; }
            series="$(opt --series "$@")"
            to() { local o; o="$(opt -o "$@")"; if [[ -n "$o" ]]; then cat > "$o"; else cat; fi; }
            case "$1 $2" in
              "series base") if [[ -s "$series" ]]; then tail -n 1 "$series" | cut -d, -f2; fi ;;
              "series import") touch "$series"; grep -vxF -f "$series" "$(opt --from "$@")" >> "$series" || true ;;
              "series record")
                if [[ "$(opt --branch "$@")" == "$(opt --main "$@")" ]]; then
                  echo "$(opt --run "$@"),$(opt --base "$@")" >> "$series"
                fi
                echo "::warning title=perfab series: step::Parse/big: step" ;
                { echo "new=${FAKE_NEW:-0}"; echo "persisting=0"; } >> "$GITHUB_OUTPUT"
                if [[ -n "$(opt -o "$@")" ]]; then
                  printf '### Nightly ratios: %s new movements, 0 persisting\\n\\n| key | rule |\\n' "${FAKE_NEW:-0}" | to "$@"
                fi ;;
              "series check")
                case "$(opt --format "$@")" in
                  json) printf '{"new": %s, "persisting": 0, "countLine": "perfab series: %s new movements, 0 persisting,'\\
            ' in run %s (2026-12-02) of 3 ratios compared"}\\n' "${FAKE_NEW:-0}" "${FAKE_NEW:-0}" "$(opt --run "$@")" | to "$@" ;;
                  *) echo "perfab: the script reads the check's JSON only" >&2; exit 2 ;;
                esac ;;
              "series site") mkdir -p "$(opt --out "$@")"; cp "$series" "$(opt --out "$@")/index.html" ;;
              "github output") shift 2; printf '%s\\n' "$@" >> "$GITHUB_OUTPUT" ;;
              "github summary") shift 2; [[ "$1" == -m ]]; echo "$2"; echo "$2" >> "$GITHUB_STEP_SUMMARY" ;;
              "github annotate") exec "$FAKE_STATE/bin/real-perfab" "$@" ;;
              "report "*) exec "$FAKE_STATE/bin/real-perfab" "$@" ;;
              *) echo "perfab: unknown $*" >&2; exit 2 ;;
            esac
            """;

    /** gh's pull request and issue commands: an open pull request is $FAKE_OPEN_PR; a body is kept as sent. */
    static final String GH = """
            #!/usr/bin/env bash
            set -euo pipefail
            echo "gh $*" >> "$FAKE_STATE/gh-calls"
            body=""
            prev=""
            for a in "$@"; do if [[ "$prev" == --body-file ]]; then body="$a"; fi; prev="$a"; done
            case "$1 $2" in
              "pr list") echo "${FAKE_OPEN_PR:-}" ;;
              "pr create") cp "$body" "$FAKE_STATE/pr-body"; echo "https://github.com/octo/app/pull/5" ;;
              "pr edit") cp "$body" "$FAKE_STATE/pr-body" ;;
              "issue create") cp "$body" "$FAKE_STATE/issue-body"; echo "https://github.com/octo/app/issues/6" ;;
              *) echo "gh: unknown $*" >&2; exit 2 ;;
            esac
            """;

    @TempDir
    Path tmp;

    private InProcessPerfab realPerfab;
    private GitFixture upstream;
    private Path repo;
    private String released;
    private String head;

    private record Run(int code, String log, String output, String summary) {}

    @AfterEach
    void stop() throws IOException {
        if (realPerfab != null) {
            realPerfab.close();
        }
    }

    @BeforeEach
    void repository() throws IOException {
        Tool.JQ.need();
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        realPerfab = InProcessPerfab.start(bin.resolve("real-perfab"), Engine.REAL);
        for (Map.Entry<String, String> e : Map.of("perfab", PERFAB, "gh", GH).entrySet()) {
            Files.writeString(bin.resolve(e.getKey()), e.getValue());
            bin.resolve(e.getKey()).toFile().setExecutable(true);
        }
        upstream = GitFixture.init(tmp.resolve("upstream"));
        upstream.write("README.md", "app\n").commit("one");
        released = upstream.git("rev-parse", "HEAD").trim();
        upstream.git("tag", "v1.0");
        head = upstream.write("app.c", "int main(void) { return 0; }\n").commit("two");
        upstream.run(tmp, "clone", "-q", "--bare", "upstream", "origin.git");
        upstream.run(tmp, "clone", "-q", "origin.git", "repo");
        repo = tmp.resolve("repo");
    }

    private String git(String... args) throws IOException {
        return upstream.run(repo, args);
    }

    private Run script(String step, Map<String, String> extra) throws IOException, InterruptedException {
        Map<String, String> env =
                new HashMap<>(Map.of("RUN", "42", "RUN_URL", "https://github.com/octo/app/actions/runs/42"));
        env.putAll(extra);
        Process p = start(tmp, repo, step, env);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return new Run(
                p.exitValue(),
                Files.readString(tmp.resolve("log")),
                Files.readString(tmp.resolve("output")),
                Files.readString(tmp.resolve("summary")));
    }

    /**
     * Starts step {@code step} of the script in {@code repo} as a GitHub job would, its tools from
     * {@code tmp}/bin, git's own configuration left out, and the settings of a nightly on main over
     * {@code extra}: its log goes to {@code tmp}/log, its step outputs to {@code tmp}/output and its
     * job summary to {@code tmp}/summary, each empty to begin with.
     */
    static Process start(Path tmp, Path repo, String step, Map<String, String> extra) throws IOException {
        Path output = tmp.resolve("output");
        Path summary = tmp.resolve("summary");
        Files.writeString(output, "");
        Files.writeString(summary, "");
        ProcessBuilder pb = new ProcessBuilder("bash", SCRIPT.toString(), step)
                .directory(repo.toFile())
                .redirectErrorStream(true)
                .redirectOutput(tmp.resolve("log").toFile());
        Map<String, String> env = pb.environment();
        env.put("PATH", tmp.resolve("bin") + ":" + System.getenv("PATH"));
        env.put("FAKE_STATE", tmp.toString());
        env.put("GIT_CONFIG_NOSYSTEM", "1");
        env.put("GIT_CONFIG_GLOBAL", "/dev/null");
        env.put("HOME", tmp.toString());
        env.put("GITHUB_OUTPUT", output.toString());
        env.put("GITHUB_STEP_SUMMARY", summary.toString());
        env.putAll(Map.of(
                "SERIES",
                SERIES,
                "MAIN",
                "main",
                "MOVEMENTS",
                "pull-request",
                "NIGHTLY_BRANCH",
                "perfab-nightly",
                "SITE",
                "pages",
                "REPO",
                "octo/app"));
        env.putAll(extra);
        return pb.start();
    }

    private Run base(String input) throws Exception {
        return script("base", Map.of("BASE", input));
    }

    /** Records run {@code run} on {@code branch} with {@code fresh} new movements. */
    private Run record(String run, String branch, int fresh) throws Exception {
        return script(
                "record",
                Map.of(
                        "BASE",
                        released,
                        "BRANCH",
                        branch,
                        "RUN",
                        run,
                        "RESULTS",
                        tmp.resolve("results.json").toString(),
                        "OUT",
                        tmp.resolve("check").toString(),
                        "FAKE_NEW",
                        Integer.toString(fresh)));
    }

    private Run publish(String movements, String run, int fresh, String openPullRequest) throws Exception {
        return script(
                "publish",
                Map.of(
                        "MOVEMENTS",
                        movements,
                        "RUN",
                        run,
                        "OUT",
                        tmp.resolve("check").toString(),
                        "FAKE_NEW",
                        Integer.toString(fresh),
                        "FAKE_OPEN_PR",
                        openPullRequest,
                        "GH_TOKEN",
                        "t"));
    }

    /** Pushes perfab's pull request branch with {@code series} as its series, as an earlier night left it. */
    private void openPullRequest(String series) throws IOException {
        git("checkout", "-q", "-b", "perfab-nightly");
        Files.createDirectories(repo.resolve(SERIES).getParent());
        Files.writeString(repo.resolve(SERIES), series);
        git("add", "--", SERIES);
        git("commit", "-q", "-m", "perfab nightly: ratios of run 41");
        git("push", "-q", "origin", "perfab-nightly");
        git("checkout", "-q", "main");
        git("branch", "-q", "-D", "perfab-nightly");
    }

    private String calls(String tool) throws IOException {
        Path f = tmp.resolve(tool + "-calls");
        return Files.exists(f) ? Files.readString(f) : "";
    }

    @Test
    void theBaseIsTheLatestTagUntilTheSeriesRecordsOneAndTheInputMovesIt() throws Exception {
        Run r = base("");
        assertEquals(0, r.code(), r.log());
        assertEquals("base=" + released + "\n", r.output(), "no series yet: the latest tag");
        assertTrue(
                r.summary()
                        .contains("the base is v1.0 (" + released.substring(0, 12) + "), the latest tag, as the"
                                + " series records no base yet"),
                r.summary());

        openPullRequest("41," + head + "\n");
        r = base("");
        assertEquals("base=" + head + "\n", r.output(), "the open pull request's series is the newest: " + r.log());

        Files.createDirectories(repo.resolve(SERIES).getParent());
        Files.writeString(repo.resolve(SERIES), "40," + released + "\n");
        git("push", "-q", "origin", "--delete", "perfab-nightly");
        git("tag", "v2.0");
        r = base("");
        assertEquals(
                "base=" + released + "\n", r.output(), "pinned by the series, not moved by a newer tag: " + r.log());
        assertTrue(r.summary().contains("the base the series records"), r.summary());

        r = base("v2.0");
        assertEquals("base=" + head + "\n", r.output(), "the input moves it: " + r.log());
    }

    @Test
    void aBaseOffTheMainLineIsRecordedAsTheMergeBaseTheABMeasures() throws Exception {
        git("checkout", "-q", "-b", "release", released);
        Files.writeString(repo.resolve("fix.txt"), "fix\n");
        git("add", "fix.txt");
        git("commit", "-q", "-m", "fix");
        git("tag", "v1.0.1");
        git("checkout", "-q", "main");
        Run r = base("v1.0.1");
        assertEquals(0, r.code(), r.log());
        assertEquals("base=" + released + "\n", r.output());
        assertTrue(
                r.summary().contains("measured from its merge-base with HEAD, " + released.substring(0, 12)),
                r.summary());
    }

    @Test
    void noBaseToBeFoundIsAnErrorThatSaysWhatToDo() throws Exception {
        git("tag", "-d", "v1.0");
        Run r = base("");
        assertEquals(1, r.code());
        assertTrue(
                r.log()
                        .contains("::error title=perfab nightly::no base: the series records none and no tag is"
                                + " reachable from HEAD; give the base input"),
                r.log());
        assertEquals("", r.output());

        r = base("--output=x");
        assertEquals(1, r.code());
        assertTrue(r.log().contains("is not a ref"), r.log());
        r = base("nosuch");
        assertEquals(1, r.code());
        assertTrue(r.log().contains("the base 'nosuch' (the base input) is not a commit of this repository"), r.log());
        r = script("base", Map.of("BASE", "", "MOVEMENTS", "discussion"));
        assertEquals(1, r.code());
        assertTrue(r.log().contains("movements is pull-request, issue or none, not 'discussion'"), r.log());
    }

    /**
     * A value the script quotes in an error cannot start a workflow command of its own: a line
     * break in the base input is one character of the one annotation perfab prints.
     */
    @Test
    void aLineBreakInTheBaseInputStaysInsideItsOneAnnotation() throws Exception {
        Run r = base("nosuch\n::warning title=perfab::all clear\n::error::x");
        assertEquals(1, r.code(), r.log());
        List<String> commands =
                r.log().lines().filter(l -> l.strip().startsWith("::")).toList();
        assertEquals(
                List.of("::error title=perfab nightly::the base 'nosuch?::warning title=perfab::all clear?::error::x'"
                        + " (the base input) is not a commit of this repository"),
                commands,
                r.log());
    }

    /** A pull request's or a site's branch is a name git takes as it is: @, which git reads as HEAD, is not. */
    @Test
    void aBranchNameGitReadsAsAnotherIsRefused() throws Exception {
        for (String name : List.of("@", "@{-1}", "HEAD", "-x", "a..b", "a b")) {
            Run r = script("base", Map.of("BASE", "", "NIGHTLY_BRANCH", name));
            assertEquals(1, r.code(), name + ": " + r.log());
            assertTrue(r.log().contains("is not a branch name"), r.log());
            assertEquals("", r.output(), "nothing measured for " + name);
        }
        Run site = script(
                "site",
                Map.of(
                        "MOVEMENTS",
                        "none",
                        "SITE",
                        "branch",
                        "SITE_BRANCH",
                        "@",
                        "SITE_DIR",
                        tmp.resolve("site").toString(),
                        "REPO_URL",
                        "https://github.com/octo/app"));
        assertEquals(1, site.code(), site.log());
        assertTrue(site.log().contains("'@' is not a branch name"), site.log());
        assertEquals(0, base("").code(), "perfab-nightly is one");
    }

    @Test
    void theShardsOfANightAreMergedIntoOneRunAndAShardWithoutResultsIsSaid() throws Exception {
        Path shards = tmp.resolve("shards");
        ShardsTest.shards(tmp.resolve("suite"), shards, "perfab-nightly", 3, 30);
        Path times = tmp.resolve("perfab-merged/results.json");
        Map<String, String> env = Map.of(
                "SHARDS_DIR",
                shards.toString(),
                "ARTIFACT",
                "perfab-nightly",
                "RESULTS",
                tmp.resolve("merged/results.json").toString(),
                "MOVEMENTS",
                "none",
                "TIMES",
                times.toString());
        Run r = script("shards", env);
        assertEquals(0, r.code(), r.log());
        // A copy for the cache the next shards are cut by, and the output that saves it.
        assertEquals(Files.readString(tmp.resolve("merged/results.json")), Files.readString(times));
        assertTrue(r.output().contains("times=" + times + "\n"), r.output());
        JsonNode merged =
                new ObjectMapper().readTree(tmp.resolve("merged/results.json").toFile());
        assertEquals(60, merged.get("comparisons").size(), "every cell of every shard: " + r.log());
        assertTrue(r.summary().contains("perfab nightly: 3 of 3 shards merged into one run"), r.summary());
        assertFalse(r.log().contains("lack the benchmarks"), r.log());

        Files.delete(shards.resolve("perfab-nightly-shard-2/results.json"));
        r = script("shards", env);
        assertEquals(0, r.code(), r.log());
        assertTrue(
                r.log()
                        .contains("::warning title=perfab nightly::tonight's ratios lack the benchmarks of shard 2"
                                + " missing of 3"),
                r.log());
        for (int k : new int[] {1, 3}) {
            Files.delete(shards.resolve("perfab-nightly-shard-" + k + "/results.json"));
        }
        r = script("shards", env);
        assertEquals(1, r.code(), "no shard measured: nothing to record");
        assertTrue(r.log().contains("no shard left a results.json"), r.log());
    }

    @Test
    void onMainTheOpenPullRequestsNightsAreFoldedInAndTonightIsRecordedWithItsBase() throws Exception {
        openPullRequest("41," + released + "\n");
        Run r = record("42", "main", 2);
        assertEquals(0, r.code(), r.log());
        assertTrue(r.log().contains("::warning title=perfab series: step::"), "the warnings reach the log: " + r.log());
        assertEquals("41," + released + "\n42," + released + "\n", Files.readString(repo.resolve(SERIES)));
        String perfab = calls("perfab");
        assertTrue(perfab.contains("perfab series import --series " + SERIES + " --from "), perfab);
        assertTrue(perfab.contains(" --on refs/remotes/origin/main\n"), "only the runs of main's commits: " + perfab);
        assertTrue(
                perfab.contains("perfab series record --series " + SERIES + " --from " + tmp.resolve("results.json")
                        + " --base " + released + " --run 42 --branch main --main main --format github -o "
                        + tmp.resolve("check/movements.md") + "\n"),
                "the movements' section from the one check: " + perfab);
        assertTrue(
                perfab.contains("perfab series check --series " + SERIES + " --run 42 --format json -o "
                        + tmp.resolve("check/check.json") + "\n"),
                "the check read as JSON, never as text: " + perfab);
        assertTrue(Files.readString(tmp.resolve("check/movements.md")).startsWith("### Nightly ratios: 2 new"));
        assertTrue(r.output().contains("new=2\n") && r.output().endsWith("recorded=true\n"), r.output());
    }

    @Test
    void elsewhereTonightIsCheckedAndNothingIsRecorded() throws Exception {
        Run r = record("42", "feature", 1);
        assertEquals(0, r.code(), r.log());
        assertFalse(Files.exists(repo.resolve(SERIES)));
        assertTrue(r.output().endsWith("recorded=false\n"), r.output());
        assertFalse(calls("perfab").contains("series check"), calls("perfab"));
        assertFalse(calls("perfab").contains("series import"), calls("perfab"));
    }

    @Test
    void thePullRequestCarriesTheSeriesAndItsBodyStartsWithTheCountLine() throws Exception {
        assertEquals(0, record("42", "main", 2).code());
        Run r = publish("pull-request", "42", 2, "");
        assertEquals(0, r.code(), r.log());
        String pr = Files.readString(tmp.resolve("pr-body"));
        assertTrue(
                pr.startsWith("perfab series: 2 new movements, 0 persisting, in run 42 (2026-12-02) of 3 ratios"
                        + " compared\n\n### Nightly ratios: 2 new movements"),
                pr);
        assertTrue(pr.endsWith("<sub>[The run](https://github.com/octo/app/actions/runs/42)</sub>\n"), pr);
        assertTrue(
                calls("gh")
                        .contains(
                                "gh pr create --repo octo/app --base main --head perfab-nightly --title perfab"
                                        + " nightly: 2 new movements, 0 persisting, in run 42 (2026-12-02) of 3 ratios compared --body-file"),
                calls("gh"));
        Path origin = tmp.resolve("origin.git");
        assertEquals("42," + released + "\n", upstream.run(origin, "show", "perfab-nightly:" + SERIES));
        assertEquals(head, upstream.run(origin, "rev-parse", "main").trim(), "main is left to the pull request");
        assertEquals(head, upstream.run(origin, "rev-parse", "perfab-nightly^").trim(), "one commit on main");

        // A re-run of the same night changes nothing: the branch stays, the pull request is updated.
        String branch = upstream.run(origin, "rev-parse", "perfab-nightly").trim();
        r = publish("pull-request", "42", 2, "5");
        assertEquals(0, r.code(), r.log());
        assertEquals(branch, upstream.run(origin, "rev-parse", "perfab-nightly").trim());
        assertTrue(
                calls("gh").contains("gh pr edit 5 --repo octo/app --title perfab nightly: 2 new movements"),
                calls("gh"));

        // The next night: the pull request is still open; its night is folded in and it is updated.
        git("fetch", "-q", "origin");
        git("reset", "-q", "--hard", "origin/main");
        assertEquals(0, record("43", "main", 0).code());
        r = publish("pull-request", "43", 0, "5");
        assertEquals(0, r.code(), r.log());
        assertTrue(
                calls("gh").contains("gh pr edit 5 --repo octo/app --title perfab nightly: 0 new movements"),
                calls("gh"));
        assertEquals(
                "42," + released + "\n43," + released + "\n",
                upstream.run(origin, "show", "perfab-nightly:" + SERIES),
                "no night is lost while the pull request waits");
        assertTrue(Files.readString(tmp.resolve("pr-body")).startsWith("perfab series: 0 new movements"));
    }

    @Test
    void withIssuesTheSeriesGoesToMainAndOnlyNewMovementsOpenAnIssue() throws Exception {
        Map<String, String> issue = Map.of("MOVEMENTS", "issue");
        assertEquals(
                0,
                script(
                                "record",
                                merge(
                                        issue,
                                        Map.of(
                                                "BASE",
                                                released,
                                                "BRANCH",
                                                "main",
                                                "RUN",
                                                "42",
                                                "RESULTS",
                                                "r.json",
                                                "OUT",
                                                tmp.resolve("check").toString(),
                                                "FAKE_NEW",
                                                "0")))
                        .code());
        Run r = publish("issue", "42", 0, "");
        assertEquals(0, r.code(), r.log());
        Path origin = tmp.resolve("origin.git");
        assertEquals("42," + released + "\n", upstream.run(origin, "show", "main:" + SERIES));
        assertEquals("", calls("gh"), "no new movement, no issue");

        assertEquals(
                0,
                script(
                                "record",
                                merge(
                                        issue,
                                        Map.of(
                                                "BASE",
                                                released,
                                                "BRANCH",
                                                "main",
                                                "RUN",
                                                "43",
                                                "RESULTS",
                                                "r.json",
                                                "OUT",
                                                tmp.resolve("check").toString(),
                                                "FAKE_NEW",
                                                "3")))
                        .code());
        r = publish("issue", "43", 3, "");
        assertEquals(0, r.code(), r.log());
        assertTrue(
                Files.readString(tmp.resolve("issue-body")).startsWith("perfab series: 3 new movements"),
                Files.readString(tmp.resolve("issue-body")));
        assertTrue(
                calls("gh").startsWith("gh issue create --repo octo/app --title perfab nightly: 3 new movements"),
                calls("gh"));
        assertEquals("42," + released + "\n43," + released + "\n", upstream.run(origin, "show", "main:" + SERIES));
        assertTrue(r.summary().contains("opened https://github.com/octo/app/issues/6"), r.summary());
    }

    @Test
    void onABranchTheSiteIsOneCommitOfTonightsSite() throws Exception {
        assertEquals(
                0,
                script(
                                "record",
                                Map.of(
                                        "BASE",
                                        released,
                                        "BRANCH",
                                        "main",
                                        "RESULTS",
                                        "r.json",
                                        "OUT",
                                        tmp.resolve("check").toString(),
                                        "MOVEMENTS",
                                        "none"))
                        .code());
        Map<String, String> site = Map.of(
                "SITE",
                "branch",
                "SITE_BRANCH",
                "gh-pages",
                "SITE_DIR",
                tmp.resolve("site").toString(),
                "REPO_URL",
                "https://github.com/octo/app",
                "MOVEMENTS",
                "none");
        for (int night = 0; night < 2; night++) {
            Run r = script("site", site);
            assertEquals(0, r.code(), r.log());
        }
        Path origin = tmp.resolve("origin.git");
        assertEquals(
                List.of(".nojekyll", "index.html"),
                List.of(upstream.run(origin, "ls-tree", "--name-only", "gh-pages")
                        .strip()
                        .split("\n")));
        assertEquals("42," + released + "\n", upstream.run(origin, "show", "gh-pages:index.html"));
        assertEquals(
                "1", upstream.run(origin, "rev-list", "--count", "gh-pages").strip(), "replaced, not grown");
        assertTrue(
                calls("perfab")
                        .contains("perfab series site --series " + SERIES + " --out " + tmp.resolve("site")
                                + " --repo-url https://github.com/octo/app\n"),
                calls("perfab"));
        assertEquals("", git("status", "--porcelain", "--untracked-files=no"), "the checkout's index is untouched");

        Run r = script("site", merge(site, Map.of("SITE_BRANCH", "main")));
        assertEquals(1, r.code(), "never over the main branch");
    }

    private static Map<String, String> merge(Map<String, String> a, Map<String, String> b) {
        Map<String, String> out = new HashMap<>(a);
        out.putAll(b);
        return out;
    }
}
