package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.testing.Comparisons;
import org.perfab.testing.GitFixture;

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
}
