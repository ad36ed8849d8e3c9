package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.report.testing.Tool;
import org.perfab.testing.GitFixture;

/**
 * {@code scripts/nightly} with the real {@code perfab} (the launcher, on the jar the build shaded)
 * over nights of a real repository, only {@code gh} a stand-in: what the reusable nightly asks of
 * perfab's series commands is what they do. The A/B itself is not run: each night's results.json
 * is a real one with its commits set to this repository's.
 */
class NightlyIT {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path RESULTS = ROOT.resolve("report/src/test/resources/golden/ab-run.json");
    private static final String SERIES = NightlyScriptIT.SERIES;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    private GitFixture upstream;
    private Path repo;
    private String released;
    private String next;
    private String head;

    private record Run(int code, String log, String output) {}

    @BeforeEach
    void repository() throws IOException {
        Tool.JQ.need();
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Files.createSymbolicLink(bin.resolve("perfab"), ROOT.resolve("scripts/perfab"));
        Files.writeString(bin.resolve("gh"), NightlyScriptIT.GH);
        bin.resolve("gh").toFile().setExecutable(true);
        upstream = GitFixture.init(tmp.resolve("upstream"));
        released = upstream.write("README.md", "app\n").commit("one");
        upstream.git("tag", "v1.0");
        next = upstream.write("app.c", "int main(void) { return 0; }\n").commit("two");
        head = upstream.write("app.c", "int main(void) { return 1; }\n").commit("three");
        upstream.run(tmp, "clone", "-q", "--bare", "upstream", "origin.git");
        upstream.run(tmp, "clone", "-q", "origin.git", "repo");
        repo = tmp.resolve("repo");
    }

    /** Writes night {@code run}'s results: the golden A/B's, of {@code base} against main's head. */
    private Path results(String run, String base, String startedAt) throws IOException {
        ObjectNode r = (ObjectNode) JSON.readTree(RESULTS.toFile());
        ObjectNode refs = (ObjectNode) r.get("refs");
        ((ObjectNode) refs.get("base")).put("typed", base).put("commit", base);
        ((ObjectNode) refs.get("head")).put("typed", "main").put("commit", head);
        refs.put("mergeBase", base);
        r.put("startedAt", startedAt);
        Path file = tmp.resolve("results-" + run + ".json");
        JSON.writeValue(file.toFile(), r);
        return file;
    }

    private Run step(String step, Map<String, String> extra) throws IOException, InterruptedException {
        Map<String, String> env = new HashMap<>(
                Map.of("GH_TOKEN", "t", "OUT", tmp.resolve("check").toString()));
        env.putAll(extra);
        Process p = NightlyScriptIT.start(tmp, repo, step, env);
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), step + " finished");
        return new Run(p.exitValue(), Files.readString(tmp.resolve("log")), Files.readString(tmp.resolve("output")));
    }

    /** Runs one night on main: its base, its record, its site and its pull request; returns the base. */
    private String night(String run, String baseInput, String startedAt) throws Exception {
        Run base = step("base", Map.of("BASE", baseInput));
        assertEquals(0, base.code(), base.log());
        String commit = base.output()
                .lines()
                .filter(l -> l.startsWith("base="))
                .findFirst()
                .orElseThrow()
                .substring("base=".length());
        Map<String, String> night = Map.of(
                "RUN",
                run,
                "RUN_URL",
                "https://github.com/octo/app/actions/runs/" + run,
                "BASE",
                commit,
                "BRANCH",
                "main",
                "RESULTS",
                results(run, commit, startedAt).toString(),
                "SITE_DIR",
                tmp.resolve("site").toString(),
                "REPO_URL",
                "https://github.com/octo/app");
        for (String s : new String[] {"record", "site", "publish"}) {
            Run r = step(s, night);
            assertEquals(0, r.code(), s + ": " + r.log());
        }
        return commit;
    }

    @Test
    void nightsRecordTheirPinnedBaseCarryTheCountLineAndMarkAMovedBase() throws Exception {
        assertEquals(released, night("101", "", "2026-11-01T03:17:00Z"), "no series yet: the latest tag");
        Path origin = tmp.resolve("origin.git");
        String series = upstream.run(origin, "show", "perfab-nightly:" + SERIES);
        assertTrue(series.startsWith("date,run,commit,cpu,key,ratio,base,time\n"), series);
        assertTrue(
                series.contains(",101," + head + ",") && series.contains("," + released + ","),
                "the night's readings name its commit and its base");
        assertTrue(
                !series.contains("3333333333") && !series.contains("1111111111aa"),
                "no commit of the results' own: the base is the one the nightly measured");
        String body = Files.readString(tmp.resolve("pr-body"));
        assertTrue(body.startsWith("perfab series: 0 new movements, 0 persisting, in run 101 ("), body);
        assertTrue(Files.readString(tmp.resolve("site/index.html")).contains("perfab series"), "the site is written");

        // The next night finds the base the open pull request's series records, not a newer tag.
        git("tag", "v1.1", next);
        git("push", "-q", "origin", "v1.1");
        git("fetch", "-q", "origin");
        assertEquals(released, night("102", "", "2026-11-02T03:17:00Z"), "the base stays pinned");
        String two = upstream.run(origin, "show", "perfab-nightly:" + SERIES);
        assertTrue(
                two.contains(",101,") && two.contains(",102,") && !two.contains(next),
                "both nights in the pull request's series, on the pinned base");

        // Moved by the input, the base is recorded, and the check says the ratios were re-based.
        git("fetch", "-q", "origin");
        assertEquals(next, night("103", "v1.1", "2026-11-03T03:17:00Z"));
        Run again = step("base", Map.of("BASE", ""));
        assertTrue(again.output().contains("base=" + next), "pinned to where it was moved: " + again.log());
        String rebased = Files.readString(tmp.resolve("check/movements.md"));
        assertTrue(rebased.contains("re-based"), rebased);
        assertTrue(
                Files.readString(tmp.resolve("pr-body")).startsWith("perfab series: 0 new movements"),
                "the count line leads the pull request's body");
    }

    private String git(String... args) throws IOException {
        return upstream.run(repo, args);
    }
}
