package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.perfab.exec.Processes;
import org.perfab.model.ResultsJson;
import org.perfab.model.Side;
import org.perfab.stats.NoiseFloor;
import org.perfab.testing.Comparisons;
import org.perfab.testing.FakeEngine;
import org.perfab.testing.GitFixture;
import org.perfab.testing.Subjects;

/**
 * Release checks: several builds per side, each laid out differently by {@code build.perturb}, and
 * the median of each build deciding, so that code layout alone cannot pass for a regression.
 */
class ReleaseCheckTest {
    /** The harness of a project with nothing to build: 1000 ns plus a jitter by trial. */
    private static final String UNBUILT_HARNESS = """
            #!/bin/sh
            value=$(( 1000 + PERFAB_TRIAL % 3 ))
            printf '{"schema": "perfab/measurements/v1", "measurements": [{"cell": "loop", "metric": "time",'\
            ' "unit": "ns", "value": %s}]}' "$value" > "$PERFAB_RESULT"
            """;
    /** The subjects' build, which also keeps the layout its perturbation wrote as an output of its own. */
    private static final String OWN_OUTPUT_BUILD =
            Subjects.BUILD + "if [ -f layout.txt ]; then cp layout.txt \"$PERFAB_BUILD_DIR/layout\"; fi\n";
    /** Its perturbation: the build's number as the layout. */
    private static final String NUMBER_LAYOUT = "#!/bin/sh\necho \"$PERFAB_BUILD\" > layout.txt\n";

    /** Each script above as a program, and the subjects' own, run in process. */
    private final FakeEngine fake = Subjects.layoutOnly(Subjects.fake())
            .script(UNBUILT_HARNESS, c -> loop(c, 1000 + Long.parseLong(c.env().get("PERFAB_TRIAL")) % 3))
            .script(OWN_OUTPUT_BUILD, c -> {
                Path out = Path.of(c.env().get("PERFAB_BUILD_DIR"));
                Files.copy(c.dir().resolve("level.txt"), out.resolve("level"), StandardCopyOption.REPLACE_EXISTING);
                if (Files.exists(c.dir().resolve("layout.txt"))) {
                    Files.copy(
                            c.dir().resolve("layout.txt"), out.resolve("layout"), StandardCopyOption.REPLACE_EXISTING);
                }
                return FakeEngine.ok(0.01);
            })
            .script(NUMBER_LAYOUT, c -> {
                Files.writeString(c.dir().resolve("layout.txt"), c.env().get("PERFAB_BUILD") + "\n");
                return FakeEngine.ok(0.01);
            });

    /** Writes the cell {@code loop} at {@code value} ns as the trial's result. */
    private static Processes.Outcome loop(Processes.Command c, long value) throws IOException {
        Files.writeString(
                Path.of(c.env().get("PERFAB_RESULT")),
                "{\"schema\": \"perfab/measurements/v1\","
                        + " \"measurements\": [{\"cell\": \"loop\", \"metric\": \"time\", \"unit\": \"ns\", \"value\": "
                        + value + "}]}");
        return FakeEngine.ok(0.02);
    }

    @TempDir
    Path tmp;

    /**
     * A subject whose speed depends on its layout only ({@link Subjects#layoutOnly}), whose head
     * differs from the base by a comment three bytes long.
     */
    private GitFixture layoutOnly() throws IOException {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        Subjects.layoutOnly(g);
        g.write("perfab.yaml", """
                name: layout
                trials: 3
                warmup: 0
                build:
                  run: [sh, build.sh]
                  perturb: [sh, perturb.sh]
                harness:
                  run: [sh, bench.sh]
                """);
        g.commit("initial");
        g.git("checkout", "-q", "-b", "feature");
        g.write("src.txt", "x".repeat(900) + "abc");
        g.commit("a comment: layout only");
        return g;
    }

    /**
     * A project with nothing to build, as an interpreted one: the harness reports 1000 ns plus
     * a jitter of 0 to 2 by trial, and the head changes a file the harness never reads.
     */
    private static GitFixture unbuilt(Path dir) throws IOException {
        GitFixture g = GitFixture.init(dir);
        g.script("bench.sh", UNBUILT_HARNESS);
        g.write("perfab.yaml", "name: interpreted\ntrials: 3\nwarmup: 0\nharness:\n  run: [sh, bench.sh]\n");
        g.write("app.txt", "v1\n");
        g.commit("initial");
        g.git("checkout", "-q", "-b", "feature");
        g.write("app.txt", "v2\n");
        g.commit("the change");
        return g;
    }

    private Cli ab(GitFixture g, String out, String... more) {
        List<String> args = new ArrayList<>(List.of(
                "ab",
                "--repo=" + g.dir(),
                "--base=main",
                "--head=feature",
                "--out",
                tmp.resolve(out).toString()));
        args.addAll(List.of(more));
        return Cli.run(fake.engine(), args.toArray(String[]::new));
    }

    @Test
    void oneBuildPerSideTakesCodeLayoutForARegression() throws IOException {
        Cli run = ab(layoutOnly(), "one");
        assertEquals(0, run.exitCode(), run.err());
        JsonNode loop = Comparisons.of(tmp.resolve("one/results.json")).get("loop:time");
        assertEquals("regression", loop.get("verdict").asText(), loop.toString());
        assertEquals("trials", loop.get("decidedBy").asText());
        assertEquals(8.33, loop.get("pctChange").asDouble(), 0.01, "+4% against -4%: layout alone");
    }

    @Test
    void aReleaseCheckPutsLayoutInsideTheTestWithTheMedianOfEachBuild() throws IOException {
        Cli run = ab(layoutOnly(), "release", "--preset", "release");
        assertEquals(0, run.exitCode(), run.err());
        JsonNode results =
                new ObjectMapper().readTree(tmp.resolve("release/results.json").toFile());
        assertEquals(20, results.at("/settings/trials").asInt());
        assertEquals(3, results.at("/settings/builds").asInt());
        JsonNode loop = Comparisons.of(results).get("loop:time");
        assertEquals("build-medians", loop.get("decidedBy").asText(), loop.toString());
        assertEquals(3, loop.at("/base/n").asInt(), "one value per build");
        assertEquals(3, loop.at("/head/n").asInt());
        // Layout moves the builds of both sides alike, so the change is not blamed; three builds
        // spread by layout cannot rule out a slowdown of the bar either, and the row says so.
        assertEquals("noisy", loop.get("verdict").asText(), loop.toString());
        assertTrue(loop.get("pValue").asDouble() > 0.05, loop.toString());
        assertTrue(loop.get("buildSpread").asDouble() > 2.5, loop.toString());
        // The test over every trial, shown beside, would have blamed the change.
        assertEquals("regression", loop.at("/trialLevel/verdict").asText(), loop.toString());
        assertEquals(20, loop.at("/trialLevel/base/n").asInt());
        // Each build of a side was laid out differently.
        Set<String> offsets = new HashSet<>();
        for (int b = 0; b < 3; b++) {
            offsets.add(Files.readString(tmp.resolve("release/work/base-" + b + "/out/offset"))
                    .trim());
        }
        assertEquals(Set.of("-4", "-1", "2"), offsets);
        assertTrue(run.out().contains("Verdicts from the median of each build"), run.out());
        assertTrue(run.out().contains("builds ±cv"), run.out());
        String comment = Files.readString(tmp.resolve("release/comment.md"));
        assertTrue(comment.contains("| between builds | all trials |"), comment);
        assertTrue(comment.contains("p &lt;0.0001 |") || comment.contains(", p "), comment);
        // Padded environments: seeded and recorded.
        assertTrue(
                results.at("/settings/padding").isNumber(),
                results.get("settings").toString());
        assertEquals(
                Set.of(),
                ResultsJson.read(tmp.resolve("release/results.json")).oneBuildSides(),
                "every side's builds differ");
    }

    @Test
    void aReleaseCheckWithoutABuildStepSaysItsBuildsAreOneCheckout() throws IOException {
        Cli run = ab(unbuilt(tmp.resolve("repo")), "release", "--preset", "release");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(
                run.out()
                        .contains("WARNING: The workload has no build step, so the 3 builds of each side are"
                                + " identical checkouts: the builds of base, head are the same code"),
                run.out());
        assertTrue(
                run.out().contains("Give the workload a build step (build.run) with a build.perturb command"),
                run.out());
        JsonNode results =
                new ObjectMapper().readTree(tmp.resolve("release/results.json").toFile());
        JsonNode warning = null;
        for (JsonNode w : results.get("warnings")) {
            if (w.get("kind").asText().equals("unperturbed-builds")) {
                warning = w;
            }
        }
        assertTrue(warning != null, results.get("warnings").toString());
        assertEquals("[\"base\",\"head\"]", warning.get("subjects").toString());
        assertEquals(1, warning.at("/figures/noBuildStep").asInt(), warning.toString());
        assertEquals(
                Set.of(Side.BASE, Side.HEAD),
                ResultsJson.read(tmp.resolve("release/results.json")).oneBuildSides());
        assertTrue(Files.readString(tmp.resolve("release/comment.md")).contains("The workload has no build step"));
        assertTrue(Files.readString(tmp.resolve("release/report.html")).contains("The workload has no build step"));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {
                "--builds 3 --trials 2|2 trials per side (--trials) among 3 builds per side (--builds) leave 1 build of each"
                        + " side without a trial|Give --trials 3 or more, or --builds 2 or fewer",
                "--preset release --trials 2|2 trials per side (--trials) among 3 builds per side (--preset release)"
                        + "|Give --trials 3 or more",
                "--profile release --trials 2|2 trials per side (--trials) among 3 builds per side (--preset release)"
                        + "|Give --trials 3 or more",
                "--preset release --builds 25|perfab: --builds must be from 1 to 20, got 25|got 25",
                "--preset release --adaptive 30|--adaptive needs one build per side: with 3 builds (--preset release) the"
                        + " medians of the builds decide|and more trials do not add builds",
                "--builds 5|3 trials per side ('trials' of perfab.yaml at feature (|) among 5 builds per side (--builds) leave 2 builds of each side without"
                        + " a trial: trials take turns among the builds, at least one each. Give --trials 5 or more, or"
                        + " --builds 3 or fewer"
            })
    void refusesBuildsThatWouldRunNoTrial(String options, String says, String advice) throws IOException {
        Cli run = ab(layoutOnly(), "refused", options.split(" "));
        assertEquals(2, run.exitCode(), run.err());
        assertTrue(run.err().contains(says), run.err());
        assertTrue(run.err().contains(advice), run.err());
        assertTrue(Files.notExists(tmp.resolve("refused/results.json")), "no build ran");
    }

    @Test
    void buildsWithoutPerturbMayBeTheSameAndTheRunSaysSo() throws IOException {
        GitFixture g = layoutOnly();
        g.git("checkout", "-q", "feature");
        g.write(
                "perfab.yaml",
                Files.readString(g.dir().resolve("perfab.yaml")).replace("  perturb: [sh, perturb.sh]\n", ""));
        g.commit("no perturb");
        Cli run = ab(g, "plain", "--builds", "2", "--trials", "4");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(
                run.out()
                        .contains(
                                "WARNING: Each side was built 2 times without build.perturb, and the builds of"
                                        + " base, head are byte-identical: the spread between builds says nothing of code layout."),
                run.out());
        assertEquals(
                Set.of(Side.BASE, Side.HEAD),
                ResultsJson.read(tmp.resolve("plain/results.json")).oneBuildSides());
    }

    @Test
    void anAaRunMeasuresTheNoiseFloorThatMarksASmallChangeAndPlansARun() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 101, 5, "");
        // The subject's trials move by trial number alike on both sides, which pairs would cancel
        // whole: judged as independent samples, its noise floor is each trial's own spread.
        Cli aa = Cli.run(
                fake.engine(),
                "ab",
                "--repo=" + g.dir(),
                "--base=feature",
                "--head=feature",
                "--builds",
                "2",
                "--trials",
                "6",
                "--test",
                "welch",
                "--out",
                tmp.resolve("aa").toString());
        assertEquals(0, aa.exitCode(), aa.err());
        Path noise = tmp.resolve("aa/noise.json");
        JsonNode floors = new ObjectMapper().readTree(noise.toFile());
        assertEquals("perfab/noise/v1", floors.get("schema").asText());
        JsonNode speed = null;
        for (JsonNode c : floors.get("cells")) {
            if (c.get("cell").asText().equals("speed/run")) {
                speed = c;
            }
        }
        assertEquals(1.0, speed.get("within").asDouble(), 1e-9, "each build's trials: -1%, 0 and +1% around the level");
        assertEquals(0.0, speed.get("between").asDouble(), 1e-9, "four builds of one code, byte for byte alike");

        // An A/B whose head is 1% slower: unchanged, and inside the floor a run of 5 trials has.
        Cli ab = Cli.run(
                fake.engine(),
                "ab",
                "--repo=" + g.dir(),
                "--base=main",
                "--head=feature",
                "--noise",
                noise.toString(),
                "--test",
                "welch",
                "--out",
                tmp.resolve("ab").toString());
        assertEquals(0, ab.exitCode(), ab.err());
        JsonNode row = Comparisons.of(tmp.resolve("ab/results.json")).get("speed/run:time");
        assertEquals(1.0, row.get("pctChange").asDouble(), 1e-9);
        assertTrue(row.get("noiseFloor").asDouble() > 1.0, row.toString());
        assertTrue(ab.out().contains("speed/run time: the change lies inside this cell's A/A noise floor"), ab.out());
        assertTrue(Files.readString(tmp.resolve("ab/comment.md")).contains("A/A noise floor"));
        // The saved run, re-judged by perfab report, keeps the mark the run gave it.
        Cli report = Cli.run("report", tmp.resolve("ab/results.json").toString(), "--format", "text");
        assertEquals(0, report.exitCode(), report.err());
        assertTrue(
                report.out().contains("speed/run time: the change lies inside this cell's A/A noise floor"),
                report.out());

        // How large a run finds 1%: the plan's advice is the floor's own.
        Cli plan = Cli.run("plan", "--noise", noise.toString(), "--min-effect", "1", "--format", "json");
        assertEquals(0, plan.exitCode(), plan.err());
        JsonNode advice = null;
        for (JsonNode c : new ObjectMapper().readTree(plan.out()).get("cells")) {
            if (c.get("cell").asText().equals("speed/run")) {
                advice = c.get("advice");
            }
        }
        NoiseFloor.Advice expected = new NoiseFloor(speed.get("within").asDouble(), 0).advise(1, 0.05, 0.8);
        assertTrue(expected.found(), expected.toString());
        assertEquals(expected.builds(), advice.get("builds").asInt(), advice.toString());
        assertEquals(expected.trials(), advice.get("trials").asInt(), advice.toString());
        Cli text = Cli.run("plan", "--noise", noise.toString(), "--min-effect", "1");
        assertTrue(text.out().startsWith("To find a change of 1.00% with 80% power at alpha 0.05"), text.out());
    }

    @Test
    void anAaRunJudgedInPairsMeasuresThePairsSpreadAndThePlanIsInPairs() throws IOException {
        // The subject's trials move by trial number alike on both sides: the pairs take it all out.
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 101, 5, "");
        Cli aa = Cli.run(
                fake.engine(),
                "ab",
                "--repo=" + g.dir(),
                "--base=feature",
                "--head=feature",
                "--trials",
                "6",
                "--adaptive",
                "off",
                "--out",
                tmp.resolve("aa").toString());
        assertEquals(0, aa.exitCode(), aa.err());
        assertEquals(
                "paired",
                new ObjectMapper()
                        .readTree(tmp.resolve("aa/results.json").toFile())
                        .at("/pairing/judged")
                        .asText());
        JsonNode speed = null;
        for (JsonNode c : new ObjectMapper()
                .readTree(tmp.resolve("aa/noise.json").toFile())
                .get("cells")) {
            speed = c.get("cell").asText().equals("speed/run") ? c : speed;
        }
        assertTrue(speed.get("within").asDouble() > 0.5, "each side's trials spread: " + speed);
        assertEquals(0.0, speed.get("paired").asDouble(), 1e-9, "both trials of a pair alike: " + speed);
        Cli plan = Cli.run("plan", "--noise", tmp.resolve("aa/noise.json").toString(), "--min-effect", "1");
        assertEquals(0, plan.exitCode(), plan.err());
        assertTrue(plan.out().contains("in pairs: the A/A run's trials moved in pairs"), plan.out());
    }

    /**
     * Subjects' project with a head 2% slower, under the 3% bar, whose {@code build.perturb} gives
     * each build of a side an output of its own (a file the harness never reads): several builds of
     * a side differ, and the change is significant on the medians of four builds as on the trials
     * of one.
     */
    private GitFixture twoPercentSlower() throws IOException {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        Subjects.write(g, 100, 8, "");
        g.script("build.sh", OWN_OUTPUT_BUILD).script("perturb.sh", NUMBER_LAYOUT);
        g.write(
                "perfab.yaml",
                Subjects.workload(8, "").replace("  timeout: 30s\n", "  timeout: 30s\n  perturb: [sh, perturb.sh]\n"));
        g.commit("initial");
        g.git("checkout", "-q", "-b", "feature");
        g.write("level.txt", "102\n");
        g.commit("2% slower");
        return g;
    }

    /**
     * Writes {@code results} as the run of another runner: named {@code runner}, started
     * {@code laterSeconds} after it (another run), and with the head's speed/run divided by
     * {@code headDivisor} (1 for as measured); returns the file's path.
     */
    private String asRunner(Path results, String runner, long laterSeconds, double headDivisor, String name)
            throws IOException {
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = (ObjectNode) json.readTree(results.toFile());
        ((ObjectNode) root.get("machine")).put("runner", runner);
        root.put(
                "startedAt",
                Instant.parse(root.get("startedAt").asText())
                        .plusSeconds(laterSeconds)
                        .toString());
        for (JsonNode m : root.get("measurements")) {
            // A run started later measured values of its own, if only in their last bits.
            double own = m.get("value").asDouble() * (1 + laterSeconds * 1e-12);
            ((ObjectNode) m)
                    .put(
                            "value",
                            m.get("side").asText().equals("head")
                                            && m.get("cell").asText().equals("speed/run")
                                    ? own / headDivisor
                                    : own);
        }
        Path file = tmp.resolve(name);
        json.writeValue(file.toFile(), root);
        return file.toString();
    }

    private static JsonNode row(JsonNode merged, String cell) {
        for (JsonNode c : merged.get("cells")) {
            if (c.get("cell").asText().equals(cell)) {
                return c;
            }
        }
        throw new AssertionError("no row " + cell + " in " + merged);
    }

    private static Cli merge(String format, String... files) {
        List<String> args = new ArrayList<>(List.of("runners", "--format", format));
        args.addAll(List.of(files));
        return Cli.run(args.toArray(String[]::new));
    }

    @Test
    void mergesOneAbOnThreeRunnersAndFlagsASmallSlowdownTwoOfThemShareWithSeveralBuilds() throws IOException {
        GitFixture g = twoPercentSlower();
        Cli built = ab(g, "four", "--builds", "4");
        assertEquals(0, built.exitCode(), built.err());
        Cli once = ab(g, "one");
        assertEquals(0, once.exitCode(), once.err());
        JsonNode four = Comparisons.of(tmp.resolve("four/results.json")).get("speed/run:time");
        assertEquals("build-medians", four.get("decidedBy").asText(), four.toString());
        assertEquals("small", four.get("verdict").asText(), "significant on four builds' medians, under the bar");
        String latest = asRunner(tmp.resolve("four/results.json"), "ubuntu-latest", 0, 1, "latest.json");
        String jammy = asRunner(tmp.resolve("one/results.json"), "ubuntu-22.04", 0, 1, "jammy.json");
        // On the third runner the head measured like the base: no change there.
        String arm = asRunner(tmp.resolve("one/results.json"), "ubuntu-24.04-arm", 3600, 1.02, "arm.json");
        Cli merged = merge("json", latest, jammy, arm);
        assertEquals(0, merged.exitCode(), merged.err());
        assertEquals(
                merged.out(),
                Cli.run("merge", "--format", "json", latest, jammy, arm).out(),
                "perfab merge, the former name, runs it still");
        JsonNode root = new ObjectMapper().readTree(merged.out());
        assertEquals(
                "[\"ubuntu-latest\",\"ubuntu-22.04\",\"ubuntu-24.04-arm\"]",
                root.get("runners").toString());
        assertEquals("[4,1,1]", root.get("builds").toString());
        JsonNode speed = row(root, "speed/run");
        assertEquals("small", speed.at("/byRunner/0/verdict").asText(), "significant, and under the bar");
        assertEquals(2, speed.get("worse").asInt());
        assertEquals(1, speed.get("worseOfOneBuild").asInt());
        assertTrue(speed.get("bisect").asBoolean(), "worse on two runners, one of them over four builds");
        assertEquals(
                "small on 2 of 3: bisect before release", speed.get("consensus").asText());
        assertEquals(false, row(root, "steady/run").get("bisect").asBoolean());
        Cli md = merge("markdown", latest, jammy, arm);
        assertTrue(md.out().contains("| speed/run | time | +2.0% (p 0.0"), md.out());
        assertTrue(md.out().contains("**small on 2 of 3: bisect before release**"), md.out());
        assertTrue(
                md.out().contains("> :warning: ubuntu-22.04, ubuntu-24.04-arm measured one build per side"), md.out());
        // Results of another A/B are refused.
        GitFixture other = Subjects.pullRequest(tmp.resolve("other"), 102, 5, "\n");
        other.git("checkout", "-q", "feature");
        other.write("more.txt", "x\n");
        other.commit("another head");
        Cli second = Cli.run(
                fake.engine(),
                "ab",
                "--repo=" + other.dir(),
                "--base=main",
                "--head=feature",
                "--out",
                tmp.resolve("other-ab").toString());
        assertEquals(0, second.exitCode(), second.err());
        Cli refused =
                Cli.run("runners", latest, tmp.resolve("other-ab/results.json").toString());
        assertEquals(2, refused.exitCode(), refused.err());
        assertTrue(refused.err().contains("the runs are not of one A/B"), refused.err());
        Cli alone = Cli.run("runners", latest, "--format", "markdown");
        assertEquals(2, alone.exitCode(), alone.err());
        assertTrue(
                alone.err()
                        .contains("perfab runners needs the results.json of two runners or more; got one: " + latest),
                alone.err());
    }

    @Test
    void runsOfOneBuildThatAgreeAreNotEnoughToBisect() throws IOException {
        // Seed 004: three runner classes of one build each found a layout-only dip three times of
        // three. Their agreement rules out the runner; every one of them compiled the same layout.
        GitFixture g = twoPercentSlower();
        Cli once = ab(g, "one");
        assertEquals(0, once.exitCode(), once.err());
        Path results = tmp.resolve("one/results.json");
        String latest = asRunner(results, "ubuntu-latest", 0, 1, "latest.json");
        String jammy = asRunner(results, "ubuntu-22.04", 3600, 1, "jammy.json");
        String arm = asRunner(results, "ubuntu-24.04-arm", 7200, 1, "arm.json");
        Cli merged = merge("json", latest, jammy, arm);
        assertEquals(0, merged.exitCode(), merged.err());
        assertEquals(
                merged.out(),
                Cli.run("merge", "--format", "json", latest, jammy, arm).out(),
                "perfab merge, the former name, runs it still");
        JsonNode root = new ObjectMapper().readTree(merged.out());
        assertEquals("[1,1,1]", root.get("builds").toString());
        JsonNode speed = row(root, "speed/run");
        assertEquals(3, speed.get("worse").asInt());
        assertEquals(3, speed.get("worseOfOneBuild").asInt());
        assertEquals(false, speed.get("bisect").asBoolean());
        assertEquals(
                "small on 3 of 3, each with one build per side: rerun with --builds 3 and build.perturb before"
                        + " a bisect",
                speed.get("consensus").asText());
        Cli text = merge("text", latest, jammy, arm);
        assertTrue(
                text.out()
                        .contains("WARNING: Every runner measured one build per side (--builds 1, or builds that"
                                + " did not differ)"),
                text.out());
        assertTrue(text.out().contains("0 cells to bisect before release."), text.out());
        Cli md = merge("markdown", latest, jammy, arm);
        assertTrue(!md.out().contains("bisect before release**"), md.out());

        // Builds that are one checkout count as one build: a release check of a workload with no
        // build step measured each side's code once, however many builds it ran.
        GitFixture plain = unbuilt(tmp.resolve("plain"));
        Cli release = Cli.run(
                fake.engine(),
                "ab",
                "--repo=" + plain.dir(),
                "--base=main",
                "--head=feature",
                "--builds",
                "3",
                "--trials",
                "3",
                "--out",
                tmp.resolve("unbuilt").toString());
        assertEquals(0, release.exitCode(), release.err());
        String a = asRunner(tmp.resolve("unbuilt/results.json"), "a", 0, 1, "a.json");
        String b = asRunner(tmp.resolve("unbuilt/results.json"), "b", 60, 1, "b.json");
        assertEquals(
                "[1,1]",
                new ObjectMapper()
                        .readTree(merge("json", a, b).out())
                        .get("builds")
                        .toString());
    }

    @Test
    void refusesOneRunGivenTwiceWhichWouldCountAsTwoRunners() throws IOException {
        Cli once = ab(twoPercentSlower(), "one");
        assertEquals(0, once.exitCode(), once.err());
        String file = tmp.resolve("one/results.json").toString();
        Cli twice = merge("text", file, file);
        assertEquals(2, twice.exitCode(), twice.err());
        assertTrue(twice.err().contains(file + " and " + file + " are one run"), twice.err());
        // A copy, or the same run relabelled as another runner, is the same run.
        Path copy = tmp.resolve("copy.json");
        Files.copy(Path.of(file), copy);
        String renamed = asRunner(Path.of(file), "ubuntu-22.04", 0, 1, "renamed.json");
        Cli copied = merge("text", file, renamed, copy.toString());
        assertEquals(2, copied.exitCode(), copied.err());
        assertTrue(
                copied.err().contains(file + " and " + renamed + " are one run (the same values measured, "),
                copied.err());
        // Another start and runner on the same values is that run, relabelled.
        String relabelled = asRunner(Path.of(file), "ubuntu-24.04-arm", 0, 1, "relabelled.json");
        ObjectNode edited =
                (ObjectNode) new ObjectMapper().readTree(Path.of(relabelled).toFile());
        edited.put("startedAt", "2031-01-01T00:00:00Z");
        Files.writeString(Path.of(relabelled), edited.toString());
        Cli forged = merge("text", file, relabelled);
        assertEquals(2, forged.exitCode(), forged.err());
        assertTrue(
                forged.err().contains(file + " and " + relabelled + " are one run (the same values measured, "),
                forged.err());
        // Another run of the same commits is another runner.
        String later = asRunner(Path.of(file), "ubuntu-22.04", 60, 1, "later.json");
        assertEquals(0, merge("text", file, later).exitCode());
    }
}
