package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.perfab.testing.FakeEngine;
import org.perfab.testing.GitFixture;
import org.perfab.testing.Subjects;

/**
 * {@code perfab ab --resume} goes on with every setting the run began with, in process on the fake
 * engine, whose clock is simulated: a run of adaptive trials under a budget, stopped by a signal
 * after its first look and resumed, stops where the same run uninterrupted stops; a setting given
 * again must say the same, and one that says otherwise is refused, naming both.
 */
class ResumeTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** How the runs here begin: looks of 3 trials a side, to 12, within 8 minutes. */
    private static final List<String> BEGUN = List.of("--adaptive", "12", "--budget", "8m");
    /** The head's counted trial, from 0, at which a run here is signalled: the second of look 2. */
    private static final int IN_LOOK_2 = 4;

    @TempDir
    Path tmp;

    @TempDir
    static Path shared;
    /** A run begun with {@link #BEGUN} and more settings, and signalled in its second look. */
    private static Path stopped;

    private static Path sharedRepo;

    /**
     * The subjects' build, and a harness whose speed/run is the side's level with a spread of 10% by
     * side and trial (the head's 4% stays open to the last look) and whose steady/run does not move;
     * each trial takes 30 s of the fake's time. The head's counted trial {@code signalAt} (from 0)
     * signals the run, as SIGINT would; -1 for none.
     */
    private static FakeEngine engine(int signalAt) {
        FakeEngine fake = Subjects.fake();
        fake.program("bench.sh", c -> {
            String side = c.env().get("PERFAB_SIDE");
            int trial = Integer.parseInt(c.env().get("PERFAB_TRIAL"));
            if (side.equals("head") && c.env().get("PERFAB_WARMUP").equals("0") && trial == signalAt) {
                fake.signal();
            }
            long level = Long.parseLong(
                    Files.readString(Path.of(c.env().get("PERFAB_BUILD_DIR")).resolve("level"))
                            .strip());
            double z = new Random((side + "|" + trial).hashCode()).nextGaussian();
            Files.writeString(
                    Path.of(c.env().get("PERFAB_RESULT")),
                    String.format(
                            Locale.ROOT,
                            "{\"schema\": \"perfab/measurements/v1\", \"measurements\": ["
                                    + "{\"cell\": \"speed/run\", \"metric\": \"time\", \"unit\": \"us\", \"value\": %.3f},"
                                    + "{\"cell\": \"steady/run\", \"metric\": \"time\", \"unit\": \"us\", \"value\": %d}]}",
                            level * 10 * (1 + 0.1 * z),
                            1000 + trial % 3 - 1));
            return FakeEngine.ok(30);
        });
        return fake;
    }

    private static String[] args(List<String> first, String... more) {
        List<String> all = new ArrayList<>(first);
        all.addAll(Arrays.asList(more));
        return all.toArray(String[]::new);
    }

    /** Runs {@code perfab ab} of feature against main in {@code g} into {@code out}, signalled at {@code signalAt}. */
    private static Cli ab(GitFixture g, Path out, int signalAt, String... more) {
        return Cli.ab(engine(signalAt).engine(), g.dir(), out, more);
    }

    /** Resumes the run in {@code out} with {@code more} options given again. */
    private static Cli resume(Path out, String... more) {
        return Cli.run(engine(-1).engine(), args(List.of("ab", "--resume", "--out", out.toString()), more));
    }

    private static JsonNode results(Path out) throws IOException {
        return JSON.readTree(out.resolve("results.json").toFile());
    }

    /** Returns the line of {@code err} that says why the run stopped before its last look. */
    private static String overBudget(String err) {
        return err.lines()
                .filter(l -> l.contains("stopped; give --budget"))
                .findFirst()
                .orElse("none in:\n" + err);
    }

    @BeforeAll
    static void stopARun() throws IOException {
        GitFixture g = Subjects.pullRequest(shared.resolve("repo"), 104, 3, "");
        sharedRepo = g.dir();
        stopped = shared.resolve("stopped");
        Cli run = ab(g, stopped, IN_LOOK_2, args(BEGUN, "--seed", "7", "--alpha", "0.04", "--fail-on", "regression"));
        assertEquals(130, run.exitCode(), run.err());
    }

    @Test
    void aResumedRunStopsAtTheBudgetItBeganWithCountingTheTimeItSpentBefore() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 104, 3, "");
        Cli whole = ab(g, tmp.resolve("whole"), -1, args(BEGUN));
        assertEquals(0, whole.exitCode(), whole.err());
        int trials = results(tmp.resolve("whole")).at("/settings/trials").asInt();
        assertEquals(6, trials, "the budget stops it after look 2: " + whole.err());
        Cli unlimited = ab(g, tmp.resolve("unlimited"), -1, "--adaptive", "12");
        assertEquals(
                12, results(tmp.resolve("unlimited")).at("/settings/trials").asInt(), unlimited.err());

        Path out = tmp.resolve("out");
        Cli interrupted = ab(g, out, IN_LOOK_2, args(BEGUN));
        assertEquals(130, interrupted.exitCode(), interrupted.err());
        assertTrue(interrupted.err().contains("look 1 of at most 4"), interrupted.err());
        Cli resumed = resume(out);
        assertEquals(0, resumed.exitCode(), resumed.err());
        assertTrue(resumed.err().contains("with the settings it began with"), resumed.err());
        // The same look, the same time spent (the trials of both processes), the same words.
        assertEquals(overBudget(whole.err()), overBudget(resumed.err()));
        assertTrue(overBudget(resumed.err()).contains("past --budget 8m (7 min spent)"), resumed.err());
        JsonNode done = results(out);
        assertEquals(trials, done.at("/settings/trials").asInt());
        assertEquals(
                results(tmp.resolve("whole")).get("trials").size(),
                done.get("trials").size());
        assertEquals(results(tmp.resolve("whole")).get("comparisons"), done.get("comparisons"));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "--budget 20m | --budget 20m contradicts the run's own --budget 8m",
                "--adaptive 9 | --adaptive 9 contradicts the run's own --adaptive 12",
                "--adaptive off | --adaptive off contradicts the run's own --adaptive 12",
                "--trials 4 | --trials 4 contradicts the run's own --trials 3",
                "--builds 2 --adaptive off | --builds 2 contradicts the run's own --builds 1, and --adaptive off contradicts"
                        + " the run's own --adaptive 12",
                "--seed 8 | --seed 8 contradicts the run's own --seed 7",
                "--alpha 0.05 | --alpha 0.05 contradicts the run's own --alpha 0.04",
                "--min-effect 5 | --min-effect 5 contradicts the run's own --min-effect 3",
                "--fdr off | --fdr off contradicts the run, which has no --fdr",
                "--test welch | --test welch contradicts the run's own --test auto",
                "--fail-on inconclusive | --fail-on inconclusive contradicts the run's own --fail-on regression",
                "--env-padding | --env-padding contradicts the run's own --no-env-padding",
                "--preset release | --preset release (--trials 20) contradicts the run's own --trials 3, and --preset"
                        + " release (--builds 3) contradicts the run's own --builds 1, and --preset release (--env-padding)"
                        + " contradicts the run's own --no-env-padding",
                "--profile release | --preset release (--trials 20) contradicts the run's own --trials 3, and --preset"
                        + " release (--builds 3) contradicts the run's own --builds 1, and --preset release (--env-padding)"
                        + " contradicts the run's own --no-env-padding",
                "--shard 1/2 | --shard 1/2 contradicts the run, which has no --shard",
                "--base feature | --base feature contradicts the run's own --base main",
                "--head main | --head main contradicts the run's own --head feature",
                "--workload other.yaml | --workload other.yaml contradicts the run's own --workload perfab.yaml",
                "--noise noise.json | contradicts the run, which has no --noise",
            })
    void aSettingGivenAgainThatContradictsTheRunsIsRefusedNamingBoth(String given, String refusal) throws IOException {
        byte[] plan = Files.readAllBytes(stopped.resolve("run.json"));
        byte[] trials = Files.readAllBytes(stopped.resolve("trials.jsonl"));
        Cli resumed = resume(stopped, given.split(" "));
        assertEquals(2, resumed.exitCode(), resumed.err());
        assertTrue(
                resumed.err()
                        .contains(refusal + " (saved in " + stopped.resolve("run.json") + "); resume with the"
                                + " run's settings, or start a new run without --resume"),
                resumed.err());
        assertArrayEquals(plan, Files.readAllBytes(stopped.resolve("run.json")));
        assertArrayEquals(trials, Files.readAllBytes(stopped.resolve("trials.jsonl")));
    }

    @Test
    void theRepositoryGivenAgainMustBeTheRuns() {
        Cli resumed = resume(stopped, "--repo", tmp.toString());
        assertEquals(2, resumed.exitCode(), resumed.err());
        assertTrue(
                resumed.err().contains("--repo " + tmp + " contradicts the run's own --repo " + sharedRepo),
                resumed.err());
    }

    @Test
    void settingsGivenAgainAsTheRunBeganAreTakenAndHowItPrintsMayDiffer() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 104, 3, "");
        Path out = tmp.resolve("out");
        List<String> begun =
                List.of(args(BEGUN, "--seed", "7", "--alpha", "0.04", "--min-effect", "3", "--test", "auto"));
        assertEquals(130, ab(g, out, IN_LOOK_2, begun.toArray(String[]::new)).exitCode());
        Cli resumed = resume(
                out,
                args(
                        begun,
                        "--repo",
                        g.dir().toString(),
                        "--base",
                        "main",
                        "--head",
                        "feature",
                        "--workload",
                        "perfab.yaml",
                        "--trials",
                        "3",
                        "--builds",
                        "1",
                        "--no-env-padding",
                        "--preset",
                        "pr",
                        "--format",
                        "json",
                        "--quiet",
                        "--cache",
                        tmp.resolve("cache").toString()));
        assertEquals(0, resumed.exitCode(), resumed.err());
        assertEquals("", resumed.err().replaceAll("(?m)^perfab: warning: .*\n", ""), "quiet");
        assertEquals(6, JSON.readTree(resumed.out()).at("/settings/trials").asInt(), "json, stopped at the budget");
    }

    @Test
    void aResumedRunFailsOnTheVerdictsItBeganWith() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 4, "");
        FakeEngine signalling = Subjects.signallingAt(2);
        Path out = tmp.resolve("out");
        assertEquals(
                130,
                Cli.ab(signalling.engine(), g.dir(), out, "--fail-on", "regression")
                        .exitCode());
        Cli resumed = Cli.run(Subjects.fake().engine(), "ab", "--resume", "--out", out.toString());
        assertEquals(ExitCode.VERDICT, resumed.exitCode(), resumed.err());
        assertEquals("regression", results(out).at("/settings/failOn/0").asText());
    }

    /** A run.json of an earlier perfab, which kept no budget, no fail-on and no noise file. */
    private Path earlierRun(GitFixture g, String name) throws IOException {
        Path out = tmp.resolve(name);
        assertEquals(130, ab(g, out, IN_LOOK_2, args(BEGUN)).exitCode());
        ObjectNode plan = (ObjectNode) JSON.readTree(out.resolve("run.json").toFile());
        assertTrue(plan.has("options"), plan.toString());
        plan.remove("options");
        Files.writeString(
                out.resolve("run.json"), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(plan));
        return out;
    }

    @Test
    void aRunJsonOfAnEarlierPerfabStillResumesTakingTheOptionsGivenNow() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 104, 3, "");
        // Nothing kept, nothing given: no budget, as that perfab resumed it.
        Path bare = earlierRun(g, "bare");
        Cli resumed = resume(bare);
        assertEquals(0, resumed.exitCode(), resumed.err());
        assertEquals(12, results(bare).at("/settings/trials").asInt(), resumed.err());
        assertFalse(resumed.err().contains("--budget"), resumed.err());
        // What is given now is the run's, and kept from then on.
        Path given = earlierRun(g, "given");
        Cli budgeted = resume(given, "--budget", "8m");
        assertEquals(0, budgeted.exitCode(), budgeted.err());
        assertEquals(6, results(given).at("/settings/trials").asInt(), budgeted.err());
        assertTrue(overBudget(budgeted.err()).contains("past --budget 8m (7 min spent)"), budgeted.err());
        assertEquals(
                "8m",
                JSON.readTree(given.resolve("run.json").toFile())
                        .at("/options/budget")
                        .asText());
    }

    private static void assertArrayEquals(byte[] expected, byte[] actual) {
        org.junit.jupiter.api.Assertions.assertArrayEquals(expected, actual, "the run's files are left as they were");
    }
}
