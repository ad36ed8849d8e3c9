package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.stats.NoiseFloor;
import org.perfab.testing.Comparisons;
import org.perfab.testing.GitFixture;
import org.perfab.testing.Subjects;

/**
 * Release checks: several builds per side, each laid out differently by {@code build.perturb}, and
 * the median of each build deciding, so that code layout alone cannot pass for a regression.
 */
class ReleaseCheckTest {
    @TempDir
    Path tmp;

    /**
     * A subject whose speed depends on its layout only, as in a binary linked with fat LTO: the
     * build's output size picks an offset of -4% to +5%, and the head differs from the base by a
     * comment three bytes long. The harness reports 1000 plus the offset, with a 0.1% jitter.
     */
    private GitFixture layoutOnly() throws IOException {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.write("src.txt", "x".repeat(900)); // a size that is 0 mod 9
        g.script("build.sh", """
                #!/bin/sh
                set -e
                cp src.txt "$PERFAB_BUILD_DIR/prog"
                size=$(wc -c < src.txt)
                set -- -4 -1 2 4 2 5 0 0 0
                shift $(( size % 9 ))
                echo "$1" > "$PERFAB_BUILD_DIR/offset"
                """);
        g.script("perturb.sh", "#!/bin/sh\nprintf '%*s' \"$PERFAB_BUILD\" '' >> src.txt\n");
        g.script("bench.sh", """
                #!/bin/sh
                offset=$(cat "$PERFAB_BUILD_DIR/offset")
                jitter=$(( PERFAB_TRIAL % 3 - 1 ))
                value=$(( 10000 + offset * 100 + jitter ))
                printf '{"schema": "perfab/measurements/v1", "measurements": [{"cell": "loop", "metric": "time",'\
                ' "unit": "ns", "value": %s}]}' "$value" > "$PERFAB_RESULT"
                """);
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

    private Cli ab(GitFixture g, String out, String... more) {
        List<String> args = new ArrayList<>(List.of("ab", "--repo=" + g.dir(), "--base=main", "--head=feature",
                "--out", tmp.resolve(out).toString()));
        args.addAll(List.of(more));
        return Cli.run(args.toArray(String[]::new));
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
        Cli run = ab(layoutOnly(), "release", "--profile", "release");
        assertEquals(0, run.exitCode(), run.err());
        JsonNode results = new ObjectMapper().readTree(tmp.resolve("release/results.json").toFile());
        assertEquals(20, results.at("/settings/trials").asInt());
        assertEquals(3, results.at("/settings/builds").asInt());
        JsonNode loop = Comparisons.of(results).get("loop:time");
        assertEquals("build-medians", loop.get("decidedBy").asText(), loop.toString());
        assertEquals(3, loop.at("/base/n").asInt(), "one value per build");
        assertEquals(3, loop.at("/head/n").asInt());
        assertEquals("unchanged", loop.get("verdict").asText(), "layout moves the builds of both sides alike");
        assertTrue(loop.get("buildSpread").asDouble() > 2.5, loop.toString());
        // The test over every trial, shown beside, would have blamed the change.
        assertEquals("regression", loop.at("/trialLevel/verdict").asText(), loop.toString());
        assertEquals(20, loop.at("/trialLevel/base/n").asInt());
        // Each build of a side was laid out differently.
        Set<String> offsets = new HashSet<>();
        for (int b = 0; b < 3; b++) {
            offsets.add(Files.readString(tmp.resolve("release/work/base-" + b + "/out/offset")).trim());
        }
        assertEquals(Set.of("-4", "-1", "2"), offsets);
        assertTrue(run.out().contains("Verdicts from the median of each build"), run.out());
        assertTrue(run.out().contains("builds ±cv"), run.out());
        String comment = Files.readString(tmp.resolve("release/comment.md"));
        assertTrue(comment.contains("| between builds | all trials |"), comment);
        assertTrue(comment.contains("p &lt;0.0001 |") || comment.contains(", p "), comment);
        // Padded environments: seeded and recorded.
        assertTrue(results.at("/settings/padding").isNumber(), results.get("settings").toString());
    }

    @Test
    void buildsWithoutPerturbMayBeTheSameAndTheRunSaysSo() throws IOException {
        GitFixture g = layoutOnly();
        g.git("checkout", "-q", "feature");
        g.write("perfab.yaml", Files.readString(g.dir().resolve("perfab.yaml")).replace("  perturb: [sh, perturb.sh]\n",
                ""));
        g.commit("no perturb");
        Cli run = ab(g, "plain", "--builds", "2", "--trials", "4");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("WARNING: Each side was built 2 times without build.perturb, and the builds of"
                + " base, head are byte-identical: the spread between builds says nothing of code layout."), run.out());
    }

    @Test
    void anAaRunMeasuresTheNoiseFloorThatMarksASmallChangeAndPlansARun() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 101, 5, "");
        Cli aa = Cli.run("ab", "--repo=" + g.dir(), "--base=feature", "--head=feature", "--builds", "2", "--trials", "6",
                "--out", tmp.resolve("aa").toString());
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
        Cli ab = Cli.run("ab", "--repo=" + g.dir(), "--base=main", "--head=feature", "--noise", noise.toString(),
                "--out", tmp.resolve("ab").toString());
        assertEquals(0, ab.exitCode(), ab.err());
        JsonNode row = Comparisons.of(tmp.resolve("ab/results.json")).get("speed/run:time");
        assertEquals(1.0, row.get("pctChange").asDouble(), 1e-9);
        assertTrue(row.get("noiseFloor").asDouble() > 1.0, row.toString());
        assertTrue(ab.out().contains("speed/run time: the change lies inside this cell's A/A noise floor"), ab.out());
        assertTrue(Files.readString(tmp.resolve("ab/comment.md")).contains("A/A noise floor"));

        // How large a run finds 1%: the plan's advice is the floor's own.
        Cli plan = Cli.run("plan", "--noise", noise.toString(), "--effect", "1", "--format", "json");
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
        Cli text = Cli.run("plan", "--noise", noise.toString(), "--effect", "1");
        assertTrue(text.out().startsWith("To find a change of 1.00% with 80% power at alpha 0.05"), text.out());
    }

    @Test
    void mergesOneAbOnThreeRunnersAndFlagsASmallSlowdownTwoOfThemShare() throws IOException {
        // +2%: under the 3% bar, but significant wherever it shows.
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 102, 5, "");
        Cli run = Cli.run("ab", "--repo=" + g.dir(), "--base=main", "--head=feature", "--out", tmp.resolve("ab").toString());
        assertEquals(0, run.exitCode(), run.err());
        ObjectMapper json = new ObjectMapper();
        List<String> files = new ArrayList<>();
        String[] runners = {"ubuntu-latest", "ubuntu-22.04", "ubuntu-24.04-arm"};
        for (int i = 0; i < 3; i++) {
            ObjectNode root = (ObjectNode) json.readTree(tmp.resolve("ab/results.json").toFile());
            ((ObjectNode) root.get("machine")).put("runner", runners[i]);
            if (i == 2) {
                // On the third runner the head measured like the base: no change there.
                for (JsonNode m : root.get("measurements")) {
                    if (m.get("side").asText().equals("head") && m.get("cell").asText().equals("speed/run")) {
                        ((ObjectNode) m).put("value", m.get("value").asDouble() / 1.02);
                    }
                }
            }
            Path file = tmp.resolve("results-" + i + ".json");
            json.writeValue(file.toFile(), root);
            files.add(file.toString());
        }
        List<String> args = new ArrayList<>(List.of("merge", "--format", "json"));
        args.addAll(files);
        Cli merged = Cli.run(args.toArray(String[]::new));
        assertEquals(0, merged.exitCode(), merged.err());
        JsonNode root = json.readTree(merged.out());
        assertEquals("[\"ubuntu-latest\",\"ubuntu-22.04\",\"ubuntu-24.04-arm\"]", root.get("runners").toString());
        JsonNode speed = null;
        JsonNode steady = null;
        for (JsonNode c : root.get("cells")) {
            if (c.get("cell").asText().equals("speed/run")) {
                speed = c;
            } else {
                steady = c;
            }
        }
        assertEquals("small", speed.at("/byRunner/0/verdict").asText(), "significant, and under the bar");
        assertEquals(2, speed.get("worse").asInt());
        assertTrue(speed.get("bisect").asBoolean());
        assertEquals("small on 2 of 3: bisect before release", speed.get("consensus").asText());
        assertEquals(false, steady.get("bisect").asBoolean());
        args.set(2, "markdown");
        Cli md = Cli.run(args.toArray(String[]::new));
        assertTrue(md.out().contains("| speed/run | time | +2.0% (p 0.0"), md.out());
        assertTrue(md.out().contains("**small on 2 of 3: bisect before release**"), md.out());
        // Results of another A/B are refused.
        GitFixture other = Subjects.pullRequest(tmp.resolve("other"), 102, 5, "\n");
        other.git("checkout", "-q", "feature");
        other.write("more.txt", "x\n");
        other.commit("another head");
        Cli second = Cli.run("ab", "--repo=" + other.dir(), "--base=main", "--head=feature", "--out",
                tmp.resolve("other-ab").toString());
        assertEquals(0, second.exitCode(), second.err());
        Cli refused = Cli.run("merge", files.get(0), tmp.resolve("other-ab/results.json").toString());
        assertEquals(2, refused.exitCode(), refused.err());
        assertTrue(refused.err().contains("the runs are not of one A/B"), refused.err());
    }
}
