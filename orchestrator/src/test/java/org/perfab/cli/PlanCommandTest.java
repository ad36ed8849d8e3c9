package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.Resources;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.perfab.report.testing.Golden;
import org.perfab.stats.NoiseFloor;

/**
 * What {@code perfab plan} says of cells that need a few trials, more than 700, more than any run
 * may have, or more builds than any run may have: never a figure its own rule does not bear out.
 */
@ResourceLock(Resources.LOCALE)
class PlanCommandTest {
    private static final String NOISE = "src/test/resources/plan/noise.json";

    static Locale[] locales() {
        return Golden.LOCALES;
    }

    @ParameterizedTest
    @MethodSource("locales")
    void printsTheTableAndJsonAReaderExpects(Locale locale) throws Exception {
        Cli text = Golden.underLocale(locale, () -> Cli.run("plan", "--noise", NOISE, "--min-effect", "0.5"));
        assertEquals(0, text.exitCode(), text.err());
        Golden.assertMatches("plan.stdout", text.out());
        Cli json = Golden.underLocale(
                locale, () -> Cli.run("plan", "--noise", NOISE, "--min-effect", "0.5", "--format", "json"));
        assertEquals(0, json.exitCode(), json.err());
        Golden.assertMatches("plan-json.stdout", json.out());
    }

    @Test
    void takesTheLevelAndTheEffectAsEveryCommandDoesWithTheRulesDefaultsAndChecks() {
        Cli defaults = Cli.run("plan", "--noise", NOISE, "--format", "json");
        Cli given = Cli.run("plan", "--noise", NOISE, "--min-effect", "3", "--alpha", "0.05", "--format", "json");
        assertEquals(0, defaults.exitCode(), defaults.err());
        assertEquals(given.out(), defaults.out(), "3% at 0.05 unless told");
        assertNotEquals(
                given.out(),
                Cli.run("plan", "--noise", NOISE, "--alpha", "0.01", "--format", "json")
                        .out());
        String compare = "src/test/resources/compare/base.json";
        for (String[] bad : new String[][] {{"--alpha", "1.5"}, {"--min-effect", "-1"}}) {
            Cli plan = Cli.run("plan", "--noise", NOISE, bad[0], bad[1]);
            Cli other = Cli.run("compare", bad[0], bad[1], compare, compare);
            assertEquals(2, plan.exitCode(), plan.err());
            assertEquals(other.err().lines().findFirst(), plan.err().lines().findFirst(), "one check, one message");
        }
    }

    private static Map<String, JsonNode> advice(String effect) throws IOException {
        Cli run = Cli.run("plan", "--noise", NOISE, "--min-effect", effect, "--format", "json");
        assertEquals(0, run.exitCode(), run.err());
        JsonNode root = new ObjectMapper().readTree(run.out());
        assertEquals("perfab/plan/v2", root.get("schema").asText());
        Map<String, JsonNode> cells = new HashMap<>();
        root.get("cells").forEach(c -> cells.put(c.get("cell").asText(), c));
        return cells;
    }

    private static String row(String out, String cell) {
        return out.lines().filter(l -> l.startsWith(cell + " ")).findFirst().orElseThrow();
    }

    @Test
    void aCellNeedingMoreThanSevenHundredTrialsGetsTheRunItNeeds() throws IOException {
        JsonNode noisy = advice("0.5").get("b/noisy");
        JsonNode a = noisy.get("advice");
        NoiseFloor.Advice expected = new NoiseFloor(3.5, Double.NaN).advise(0.5, 0.05, 0.8);
        assertTrue(expected.found() && expected.trials() > 700 && expected.trials() < 1000, expected.toString());
        assertEquals(1, a.get("builds").asInt());
        assertEquals(expected.trials(), a.get("trials").asInt());
        assertEquals(expected.mde(), a.get("mde").asDouble(), 0.0);
        assertTrue(a.get("mde").asDouble() > 0.49 && a.get("mde").asDouble() <= 0.5, a.toString());
        assertTrue(a.get("trialsMoreThan").isNull() && a.get("buildsMoreThan").isNull(), a.toString());
        String line =
                row(Cli.run("plan", "--noise", NOISE, "--min-effect", "0.5").out(), "b/noisy");
        assertTrue(line.matches(".*\\s1\\s+" + expected.trials() + "\\s+0\\.50%$"), line);
    }

    @Test
    void pastTheTrialsAnyRunMayHaveItSaysMoreThanTheCapAndNoFigure() throws IOException {
        Map<String, JsonNode> cells = advice("0.5");
        JsonNode oneBuild = cells.get("c/noisier").get("advice");
        assertEquals(1, oneBuild.get("builds").asInt());
        assertEquals(1000, oneBuild.get("trialsMoreThan").asInt());
        assertTrue(oneBuild.get("trials").isNull() && oneBuild.get("mde").isNull(), oneBuild.toString());
        JsonNode builds = cells.get("e/spread").get("advice");
        assertEquals(20, builds.get("builds").asInt());
        assertEquals(1000, builds.get("trialsMoreThan").asInt());
        assertTrue(builds.get("trials").isNull() && builds.get("mde").isNull(), builds.toString());
        String out = Cli.run("plan", "--noise", NOISE, "--min-effect", "0.5").out();
        assertTrue(row(out, "c/noisier").matches(".*\\s1\\s+more than 1000\\s+-$"), row(out, "c/noisier"));
        assertTrue(row(out, "e/spread").matches(".*\\s20\\s+more than 1000\\s+-$"), row(out, "e/spread"));
        assertTrue(
                out.contains("\nmore than 1000 trials: no run of at most that many trials per side finds the change"),
                out);
    }

    @Test
    void whereTheSpreadBetweenBuildsAloneHidesTheChangeItSaysMoreThanTheBuildCap() throws IOException {
        JsonNode a = advice("0.5").get("f/drifting").get("advice");
        assertEquals(20, a.get("buildsMoreThan").asInt());
        assertTrue(
                a.get("builds").isNull()
                        && a.get("trials").isNull()
                        && a.get("trialsMoreThan").isNull()
                        && a.get("mde").isNull(),
                a.toString());
        String out = Cli.run("plan", "--noise", NOISE, "--min-effect", "0.5").out();
        assertTrue(row(out, "f/drifting").matches(".*\\smore than 20\\s+-\\s+-$"), row(out, "f/drifting"));
    }

    @Test
    void fiveTrialsOfAWildCellFindNoChangeAndTheJsonSaysNull() throws IOException {
        JsonNode wild = advice("0.5").get("g/wild");
        assertTrue(wild.get("mdeAtDefault").isNull(), wild.toString());
        String out = Cli.run("plan", "--noise", NOISE, "--min-effect", "0.5").out();
        assertTrue(row(out, "g/wild").contains(" no change "), row(out, "g/wild"));
        assertTrue(out.contains("\nno change: a run of 5 trials finds none, however large"), out);
    }

    @Test
    void everyFigureFoundIsAtMostTheEffectAndNearIt() throws IOException {
        for (String effect : new String[] {"0.5", "2", "3"}) {
            for (JsonNode c : advice(effect).values()) {
                JsonNode a = c.get("advice");
                if (!a.get("mde").isNull()) {
                    double mde = a.get("mde").asDouble();
                    // From 2 to 3 builds the least change found falls to a third: no smaller step.
                    assertTrue(mde <= Double.parseDouble(effect) && mde > Double.parseDouble(effect) / 4, c.toString());
                }
            }
        }
    }
}
