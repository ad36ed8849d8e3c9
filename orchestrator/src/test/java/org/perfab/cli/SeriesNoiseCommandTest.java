package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code perfab series noise}, and {@code replay}'s thresholds derived from it, from the command
 * line, on a series small enough to work out by hand: key {@code a} reads 1.0, 1.1, 1.0, 1.0, 1.2
 * (deviations 10%, 1 - 1/1.05, 0 and 20%), key {@code b/x} 2.0 three times (0 and 0).
 */
class SeriesNoiseCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final double SECOND = 1 - 1 / 1.05;

    @TempDir
    Path tmp;

    private Path series;

    @BeforeEach
    void write() throws IOException {
        series = tmp.resolve("ratios.csv");
        StringBuilder csv = new StringBuilder("date,run,commit,cpu,key,ratio\n");
        double[] a = {1.0, 1.1, 1.0, 1.0, 1.2};
        for (int i = 0; i < a.length; i++) {
            String row = "2026-09-0" + (i + 1) + ",n" + (i + 1) + ",c" + i + ",cpu,";
            csv.append(row).append("a,").append(a[i]).append('\n');
            if (i < 3) {
                csv.append(row).append("b/x,2.0\n");
            }
        }
        Files.writeString(series, csv);
    }

    private JsonNode noise(String... more) throws IOException {
        String[] args = new String[more.length + 6];
        System.arraycopy(
                new String[] {"series", "noise", "--series", series.toString(), "--format", "json"}, 0, args, 0, 6);
        System.arraycopy(more, 0, args, 6, more.length);
        Cli run = Cli.run(args);
        assertEquals(0, run.exitCode(), run.err());
        return JSON.readTree(run.out());
    }

    @Test
    void printsThePercentilesOfTheDeviationsOverAllAndPerKeyWithEachKeysNoise() throws IOException {
        JsonNode n = noise();
        assertEquals("perfab/series-noise/v1", n.get("schema").asText());
        assertEquals(5, n.get("window").asInt());
        assertEquals(8, n.at("/overall/readings").asInt());
        assertEquals(6, n.at("/overall/deviations").asInt());
        // pooled, sorted: 0, 0, 0, SECOND, 0.1, 0.2; numpy's linear interpolation
        assertEquals(SECOND / 2 * 100, n.at("/overall/deviation/50").asDouble(), 1e-9);
        assertEquals(
                (SECOND + 0.75 * (0.1 - SECOND)) * 100,
                n.at("/overall/deviation/75").asDouble(),
                1e-9);
        assertEquals(15.0, n.at("/overall/deviation/90").asDouble(), 1e-9);
        assertEquals(19.5, n.at("/overall/deviation/99").asDouble(), 1e-9);
        JsonNode a = n.at("/keys/0");
        assertEquals("a", a.get("key").asText());
        assertEquals(5, a.get("readings").asInt());
        assertEquals((SECOND + 0.1) / 2 * 100, a.at("/deviation/50").asDouble(), 1e-9);
        assertEquals(
                SECOND * 100,
                a.get("noise").asDouble(),
                1e-9,
                "the median of 10%, SECOND and 0, before the latest reading");
        assertEquals(0.0, n.at("/keys/1/noise").asDouble(), 0.0);
    }

    @Test
    void theWindowAndTheKeysAreTheUsersToChoose() throws IOException {
        JsonNode one = noise("--window", "1", "--key", "a");
        assertEquals(1, one.get("keys").size());
        assertEquals(5, one.at("/overall/readings").asInt());
        // window 1: 10%, 1 - 1/1.1, 0, 20%
        assertEquals(
                (0.1 + (1 - 1 / 1.1)) / 2 * 100, one.at("/overall/deviation/50").asDouble(), 1e-9);
        assertEquals("b/x", noise("--key", "b/*").at("/keys/0/key").asText());
        assertEquals(1, noise("--key", "b/*").get("keys").size());
        Cli text = Cli.run("series", "noise", "--series", series.toString());
        assertEquals(0, text.exitCode(), text.err());
        assertTrue(
                text.out()
                        .startsWith("perfab series noise: 2 keys, 8 readings over 5 runs; 6 deviations from the"
                                + " median of the key's previous 5 readings\n"),
                text.out());
        assertTrue(text.out().contains("all keys         8  2.4%"), text.out());
    }

    @Test
    void aGlobThatMatchesNoKeyOrAWindowOutOfRangeIsAnError() {
        Cli glob = Cli.run("series", "noise", "--series", series.toString(), "--key", "b");
        assertEquals(ExitCode.BAD_INPUT, glob.exitCode());
        assertTrue(
                glob.err().contains("--key 'b' matches no key of " + series + " (* stops at /, ** does not)"),
                glob.err());
        Cli window = Cli.run("series", "noise", "--series", series.toString(), "--window", "0");
        assertEquals(ExitCode.BAD_INPUT, window.exitCode());
        assertTrue(window.err().contains("--window must be from 1 to 1000, got 0"), window.err());
    }

    @Test
    void runsDroppedAreLeftOutOfTheNoiseAndNamed() throws IOException {
        Cli run = Cli.run("series", "noise", "--series", series.toString(), "--drop-run", "n5", "--format", "json");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(
                "perfab: dropped run n5 (2026-09-05, commit c4, 1 reading): named by --drop-run\n"
                        + "perfab: dropped 1 of 5 runs (1 reading); kept 4\n",
                run.err());
        assertEquals(7, JSON.readTree(run.out()).at("/overall/readings").asInt());
    }

    @Test
    void replayTakesAStepOrDriftFromAPercentileOfTheDeviations() throws IOException {
        Cli run = Cli.run(
                "series",
                "replay",
                "--series",
                series.toString(),
                "--rules",
                "step=p90,noise=0",
                "--rules",
                "drift=p50,window=1",
                "--format",
                "json");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(
                "perfab: step=p90 is 15% (the 90th percentile of 6 deviations over a window of 5, 15.00%)\n"
                        + "perfab: drift=p50 is 5% (the 50th percentile of 6 deviations over a window of 1, 4.55%)\n",
                run.err());
        JsonNode replay = JSON.readTree(run.out());
        assertEquals(15.0, replay.at("/options/0/options/step").asDouble(), 0.0);
        assertEquals(
                "step past a flat 15%, or drift past 20% over 10 days",
                replay.at("/options/0/rules").asText());
        assertEquals(5.0, replay.at("/options/1/options/drift").asDouble(), 0.0, "(1 - 1 / 1.1) / 2, rounded");
    }

    @Test
    void aPercentileOutOfRangeOrOnAnotherSettingIsAnErrorNamingTheSetting() {
        Cli high = Cli.run("series", "replay", "--series", series.toString(), "--rules", "step=p101");
        assertEquals(ExitCode.BAD_INPUT, high.exitCode());
        assertTrue(high.err().contains("--rules 'step=p101': a percentile is from 0 to 100, got 101.0"), high.err());
        Cli window = Cli.run("series", "replay", "--series", series.toString(), "--rules", "step=p50,window=p5");
        assertEquals(ExitCode.BAD_INPUT, window.exitCode());
        assertTrue(
                window.err().contains("--rules 'step=p50,window=p5': window: 'p5' is not a whole number"),
                window.err());
        Cli other = Cli.run("series", "replay", "--series", series.toString(), "--rules", "noise=p50");
        assertEquals(ExitCode.BAD_INPUT, other.exitCode());
        assertTrue(other.err().contains("--rules 'noise=p50': noise: 'p50' is not a number"), other.err());
    }

    @Test
    void completionOffersTheNoiseCommandAndTheCurationOptions() {
        Cli fish = Cli.run("completion", "fish");
        assertEquals(0, fish.exitCode(), fish.err());
        assertTrue(fish.out().contains("'perfab series noise'"), "the command in the command finder");
        for (String command : List.of("import", "replay", "noise")) {
            for (String option : List.of("on", "drop-run", "repo")) {
                assertTrue(
                        fish.out().contains("__perfab_is \"perfab series " + command + "\"' -l '" + option + "'"),
                        command + " --" + option);
            }
        }
    }
}
