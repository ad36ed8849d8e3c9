package org.perfab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Checks every figure of {@link Comparison} against values computed with scipy by
 * {@code reference/make_welch_reference.py} (committed beside its output).
 */
class WelchReferenceTest {
    /** Relative tolerance on t, df, p, the percent change, its interval and the MDE. */
    private static final double RELATIVE = 1e-9;

    private static JsonNode reference;
    private static double worstP;
    private static String worstPCase = "";

    @BeforeAll
    static void load() throws IOException {
        try (InputStream in = WelchReferenceTest.class.getResourceAsStream("/reference/welch-reference.json")) {
            assertNotNull(in, "reference/welch-reference.json is on the test class path");
            reference = new ObjectMapper().readTree(in);
        }
    }

    @AfterAll
    static void reportWorstError() {
        System.out.printf(
                Locale.ROOT,
                "scipy reference: %d cases, worst relative error of p %.3g (%s)%n",
                reference.get("cases").size(),
                worstP,
                worstPCase);
    }

    static Stream<String> caseNames() throws IOException {
        load();
        List<String> names = new ArrayList<>();
        reference.get("cases").forEach(c -> names.add(c.get("name").asText()));
        return names.stream();
    }

    @Test
    void referenceCoversTheRangeTheRulesNeed() {
        int regressions = 0;
        int inconclusive = 0;
        int improvements = 0;
        int small = 0;
        int noisy = 0;
        int constant = 0;
        for (JsonNode c : reference.get("cases")) {
            switch (c.get("verdict").asText()) {
                case "regression" -> regressions++;
                case "inconclusive" -> inconclusive++;
                case "improvement" -> improvements++;
                case "small" -> small++;
                case "noisy" -> noisy++;
                default -> {}
            }
            if (c.get("df").isNull()) {
                constant++;
            }
        }
        assertTrue(reference.get("cases").size() >= 300, "a few hundred cases");
        assertTrue(
                regressions > 20 && inconclusive > 5 && improvements > 20 && small > 5 && noisy > 20 && constant >= 6,
                "every verdict and constant sides are represented");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("caseNames")
    void matchesScipy(String name) {
        JsonNode c = find(name);
        Thresholds thresholds = new Thresholds(
                reference.at("/thresholds/alpha").asDouble(),
                reference.at("/thresholds/minEffect").asDouble(),
                reference.at("/thresholds/inconclusive").asDouble());
        Comparison got = Comparison.of(
                sample(c.get("base")),
                sample(c.get("head")),
                Direction.fromId(c.get("direction").asText()),
                thresholds);

        JsonNode t = c.get("t");
        assertEquals(Statistic.Kind.WELCH_T, got.statistic().kind());
        if (t.isTextual()) {
            assertEquals(
                    Double.parseDouble(t.asText().replace("inf", "Infinity")),
                    got.statistic().value(),
                    "t");
        } else {
            assertClose(t.asDouble(), got.statistic().value(), "t");
        }
        if (c.get("df").isNull()) {
            assertTrue(got.statistic().df().isEmpty(), "df undefined when both sides are constant");
        } else {
            assertClose(c.get("df").asDouble(), got.statistic().df().getAsDouble(), "df");
        }
        double p = c.get("p").asDouble();
        assertClose(p, got.pValue(), "p");
        double error = relativeError(p, got.pValue());
        synchronized (WelchReferenceTest.class) {
            if (error > worstP) {
                worstP = error;
                worstPCase = name;
            }
        }
        assertClose(c.get("pct").asDouble(), got.pctChange(), "pct");
        JsonNode ci = c.get("ci95");
        if (ci.isNull()) {
            assertTrue(
                    Double.isNaN(got.ciLow()) && got.caveats().contains(Caveat.UNBOUNDED_INTERVAL),
                    "unbounded interval");
        } else {
            assertClose(ci.get(0).asDouble(), got.ciLow(), "ci low");
            assertClose(ci.get(1).asDouble(), got.ciHigh(), "ci high");
        }
        assertClose(c.get("mde").asDouble(), got.mde().getAsDouble(), "mde");
        assertEquals(c.get("verdict").asText(), got.verdict().id(), "verdict");
    }

    private static JsonNode find(String name) {
        for (JsonNode c : reference.get("cases")) {
            if (c.get("name").asText().equals(name)) {
                return c;
            }
        }
        throw new AssertionError("no case " + name);
    }

    private static Sample sample(JsonNode values) {
        double[] v = new double[values.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = values.get(i).asDouble();
        }
        return Sample.of(v);
    }

    private static double relativeError(double expected, double actual) {
        if (expected == actual) {
            return 0.0;
        }
        return Math.abs(expected - actual) / Math.max(Math.abs(expected), Math.abs(actual));
    }

    /** Relative to the larger magnitude; values within 1e-12 of zero compare absolutely. */
    private static void assertClose(double expected, double actual, String what) {
        double scale = Math.max(Math.abs(expected), Math.abs(actual));
        double tolerance = Math.max(RELATIVE * scale, 1e-12);
        assertTrue(
                Math.abs(expected - actual) <= tolerance,
                () -> what + ": expected " + expected + " got " + actual + " (relative error "
                        + relativeError(expected, actual) + ")");
    }
}
