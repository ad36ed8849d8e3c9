package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.testing.Comparisons;
import org.perfab.testing.FakeEngine;
import org.perfab.testing.GitFixture;

/**
 * The interleaved order's pairs, end to end: a runner whose speed drifts over the run moves both
 * trials of a pair alike, and the default test judges such a run in pairs; a runner whose noise is
 * independent from trial to trial is judged by Welch's test; the test is a setting of the workload
 * and the command line, recorded with the run, and a saved run is judged again with it.
 *
 * <p>Each side's cost is its own tree's ({@code cost.txt}, read by the head's harness in the side's
 * folder): were the base's code measured twice, no cell would move.
 */
class PairsTest {
    private static final String HARNESS = "#!/bin/sh\n# the cost of the side's own code, on a runner\n";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    /** How the runner moves each trial, by the trial's place among the harness's runs so far. */
    private interface Runner {
        double speed(int place);
    }

    /**
     * Returns an engine whose harness reports, for each of three cells, its cost in the side's
     * {@code cost.txt} times the runner's speed at the trial's place.
     */
    private static FakeEngine engine(Runner runner) {
        AtomicInteger places = new AtomicInteger();
        return new FakeEngine().script(HARNESS, c -> {
            int place = places.getAndIncrement();
            double speed = runner.speed(place);
            List<String> cells = new ArrayList<>();
            for (String line : Files.readAllLines(c.dir().resolve("cost.txt"))) {
                String[] kv = line.split("=");
                cells.add("{\"cell\": \"" + kv[0] + "\", \"metric\": \"time\", \"unit\": \"ns\", \"value\": "
                        + Double.parseDouble(kv[1]) * speed + "}");
            }
            Files.writeString(
                    Path.of(c.env().get("PERFAB_RESULT")),
                    "{\"schema\": \"perfab/measurements/v1\", \"measurements\": [" + String.join(", ", cells) + "]}");
            return FakeEngine.ok(0.1);
        });
    }

    /** A runner that drifts slowly, 30% up and down in a wave over 60 trials, with 1% of noise of each trial's own. */
    private static double drifting(int place) {
        return (1 + 0.3 * Math.sin(2 * Math.PI * place / 60.0)) * (1 + 0.01 * new Random(place).nextGaussian());
    }

    /** A runner that holds its speed, each trial with 3% of noise of its own. */
    private static double independent(int place) {
        return 1 + 0.03 * new Random(1000 + place).nextGaussian();
    }

    /** A repository whose head makes {@code encode} 5% slower; {@code extra} ends its workload. */
    private GitFixture repo(String extra) throws IOException {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.script("bench.sh", HARNESS);
        g.write("cost.txt", "encode=1000\ndecode=2000\nchecksum=500\n");
        g.write(
                "perfab.yaml",
                "name: pairs\ntrials: 8\nwarmup: 1\nadaptive: off\nharness:\n  run: [sh, bench.sh]\n" + extra);
        g.commit("initial");
        g.git("checkout", "-q", "-b", "feature");
        g.write("cost.txt", "encode=1050\ndecode=2000\nchecksum=500\n");
        g.commit("encode 5% slower");
        return g;
    }

    private static JsonNode results(Path out) throws IOException {
        return JSON.readTree(out.resolve("results.json").toFile());
    }

    @Test
    void aDriftingRunnerIsJudgedInPairsAndTheSlowdownFound() throws IOException {
        GitFixture g = repo("");
        Path out = tmp.resolve("out");
        Cli run = Cli.ab(engine(PairsTest::drifting).engine(), g.dir(), out);
        assertEquals(0, run.exitCode(), run.err());
        JsonNode results = results(out);
        assertEquals("auto", results.at("/settings/thresholds/test").asText());
        assertEquals(
                "paired",
                results.at("/pairing/judged").asText(),
                results.get("pairing").toString());
        assertTrue(results.at("/pairing/moved").asDouble() > 5, "the wave moved the runner: " + results.get("pairing"));
        assertTrue(
                results.at("/pairing/narrower").asDouble() > 2,
                results.get("pairing").toString());
        JsonNode encode = Comparisons.of(results).get("encode:time");
        assertEquals("regression", encode.get("verdict").asText(), encode.toString());
        assertEquals("paired-t", encode.at("/statistic/name").asText(), encode.toString());
        assertEquals(5.0, encode.get("pctChange").asDouble(), 1.0, encode.toString());
        // Welch's test stays, beside the pairs, on the same trials.
        assertEquals("welch-t", encode.at("/welch/statistic/name").asText(), encode.toString());
        assertEquals(
                encode.get("pctChange").asDouble(),
                encode.at("/welch/pctChange").asDouble(),
                1e-9);
        assertTrue(
                encode.at("/welch/ci95/1").asDouble()
                                - encode.at("/welch/ci95/0").asDouble()
                        > 2
                                * (encode.at("/ci95/1").asDouble()
                                        - encode.at("/ci95/0").asDouble()),
                encode.toString());
        for (String same : List.of("decode:time", "checksum:time")) {
            JsonNode row = Comparisons.of(results).get(same);
            assertEquals("unchanged", row.get("verdict").asText(), row.toString());
        }
        String comment = Files.readString(out.resolve("comment.md"));
        assertTrue(comment.contains("both trials of a pair alike") && comment.contains("judged in pairs"), comment);
        assertTrue(comment.contains("Paired t-test on the interleaved order's pairs"), comment);

        // The same trials judged as independent samples: the runner's drift is noise of each side,
        // and hides the slowdown.
        Cli welch = Cli.run("report", out.resolve("results.json").toString(), "--format", "json", "--test", "welch");
        assertEquals(0, welch.exitCode(), welch.err());
        JsonNode asWelch = JSON.readTree(welch.out());
        assertEquals(
                "welch",
                asWelch.at("/pairing/judged").asText(),
                asWelch.get("pairing").toString());
        JsonNode encodeWelch = Comparisons.of(asWelch).get("encode:time");
        assertEquals("welch-t", encodeWelch.at("/statistic/name").asText());
        assertNotEquals("regression", encodeWelch.get("verdict").asText(), encodeWelch.toString());
        assertEquals(
                encode.get("pctChange").asDouble(),
                encodeWelch.get("pctChange").asDouble(),
                1e-9,
                "the paired estimate is Welch's: the ratio of the means");

        // A saved run is judged again with the test it was judged with.
        Cli again = Cli.run("report", out.resolve("results.json").toString(), "--format", "json");
        assertEquals(0, again.exitCode(), again.err());
        assertEquals(results.get("comparisons"), JSON.readTree(again.out()).get("comparisons"));
    }

    @Test
    void aRunnerWhoseNoiseIsIndependentIsJudgedByWelchsTest() throws IOException {
        GitFixture g = repo("");
        Path out = tmp.resolve("out");
        Cli run = Cli.ab(engine(PairsTest::independent).engine(), g.dir(), out);
        assertEquals(0, run.exitCode(), run.err());
        JsonNode results = results(out);
        assertEquals(
                "welch",
                results.at("/pairing/judged").asText(),
                results.get("pairing").toString());
        assertTrue(
                results.at("/pairing/p").asDouble() >= 0.01,
                results.get("pairing").toString());
        assertEquals(
                "welch-t",
                Comparisons.of(results).get("encode:time").at("/statistic/name").asText());
        assertTrue(Files.readString(out.resolve("comment.md"))
                .contains("judged by Welch's t-test, which pairs would not sharpen"));
    }

    @Test
    void theWorkloadAndTheCommandLineChooseTheTestTheCommandLineWinning() throws IOException {
        GitFixture g = repo("test: welch\n");
        Path out = tmp.resolve("out");
        Cli run = Cli.ab(engine(PairsTest::drifting).engine(), g.dir(), out);
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("welch", results(out).at("/settings/thresholds/test").asText());
        assertEquals("welch", results(out).at("/pairing/judged").asText());

        Path paired = tmp.resolve("paired");
        Cli over = Cli.ab(engine(PairsTest::drifting).engine(), g.dir(), paired, "--test", "paired");
        assertEquals(0, over.exitCode(), over.err());
        assertEquals("paired", results(paired).at("/settings/thresholds/test").asText());
        assertEquals("paired", results(paired).at("/pairing/judged").asText());
        assertTrue(Files.readString(paired.resolve("comment.md")).contains("as --test paired asks"));
    }

    @Test
    void anUnknownTestIsRefusedNamingTheTests() throws IOException {
        GitFixture g = repo("test: pairwise\n");
        Cli run = Cli.ab(engine(PairsTest::drifting).engine(), g.dir(), tmp.resolve("out"));
        assertEquals(2, run.exitCode(), run.err());
        assertTrue(
                run.err().contains("perfab.yaml")
                        && run.err().contains("'pairwise' is not a test: welch, paired or auto"),
                run.err());
        Cli flag = Cli.ab(engine(PairsTest::drifting).engine(), repo2().dir(), tmp.resolve("out2"), "--test", "t");
        assertEquals(2, flag.exitCode(), flag.err());
        assertTrue(flag.err().contains("--test: 't' is not a test: welch, paired or auto"), flag.err());
    }

    private GitFixture repo2() throws IOException {
        Files.createDirectories(tmp.resolve("second"));
        GitFixture g = GitFixture.init(tmp.resolve("second/repo"));
        g.script("bench.sh", HARNESS);
        g.write("cost.txt", "encode=1000\n");
        g.write("perfab.yaml", "name: pairs\ntrials: 4\nwarmup: 0\nharness:\n  run: [sh, bench.sh]\n");
        g.commit("initial");
        g.git("checkout", "-q", "-b", "feature");
        g.write("cost.txt", "encode=1100\n");
        g.commit("slower");
        return g;
    }
}
