package org.perfab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Checks {@link PairedTest} against values that {@code reference/make_paired_reference.py}
 * (committed beside its output) computes with numpy and scipy by another route: least-squares fits
 * at each ratio and a root finder, where perfab solves Fieller's quadratic in closed form.
 */
class PairedReferenceTest {
    private static JsonNode reference;

    private static JsonNode load() throws IOException {
        if (reference == null) {
            try (InputStream in = PairedReferenceTest.class.getResourceAsStream("/reference/paired-reference.json")) {
                assertNotNull(in, "reference/paired-reference.json is on the test class path");
                reference = new ObjectMapper().readTree(in);
            }
        }
        return reference;
    }

    static Stream<String> caseNames() throws IOException {
        List<String> names = new ArrayList<>();
        load().get("cases").forEach(c -> names.add(c.get("name").asText()));
        return names.stream();
    }

    private static double[] numbers(JsonNode array) {
        double[] v = new double[array.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = array.get(i).asDouble();
        }
        return v;
    }

    private static void close(double expected, double actual, double relative, String what) {
        assertEquals(expected, actual, relative * Math.max(1, Math.abs(expected)), what);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("caseNames")
    void matchesScipy(String name) throws IOException {
        JsonNode c = null;
        for (JsonNode x : load().get("cases")) {
            if (x.get("name").asText().equals(name)) {
                c = x;
            }
        }
        assertNotNull(c);
        boolean[] first = new boolean[c.get("baseFirst").size()];
        for (int i = 0; i < first.length; i++) {
            first[i] = c.get("baseFirst").get(i).asBoolean();
        }
        PairedTest.Result r = PairedTest.of(
                new PairedTest.Pairs(numbers(c.get("base")), numbers(c.get("head")), first),
                c.get("slot").asBoolean());
        close(c.get("t").asDouble(), r.t(), 1e-9, name + " t");
        assertEquals(c.get("df").asDouble(), r.df(), name + " df");
        close(c.get("p").asDouble(), r.p(), 1e-9, name + " p");
        close(c.get("pctChange").asDouble(), r.pctChange(), 1e-9, name + " change");
        if (c.get("ciLow").isNull()) {
            assertTrue(Double.isNaN(r.ciLow()) && Double.isNaN(r.ciHigh()), name + ": unbounded, got " + r);
        } else {
            close(c.get("ciLow").asDouble(), r.ciLow(), 1e-7, name + " interval's low end");
            close(c.get("ciHigh").asDouble(), r.ciHigh(), 1e-7, name + " interval's high end");
        }
    }

    static Stream<String> rankedNames() throws IOException {
        List<String> names = new ArrayList<>();
        load().get("ranked").forEach(c -> names.add(c.get("name").asText()));
        return names.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rankedNames")
    void rankedMatchesScipy(String name) throws IOException {
        JsonNode c = null;
        for (JsonNode x : load().get("ranked")) {
            if (x.get("name").asText().equals(name)) {
                c = x;
            }
        }
        assertNotNull(c);
        double[] base = numbers(c.get("base"));
        PairedTest.Ranked r =
                PairedTest.ranked(new PairedTest.Pairs(base, numbers(c.get("head")), new boolean[base.length]));
        assertEquals(c.get("statistic").asDouble(), r.statistic(), 1e-9, name + " W+");
        close(c.get("p").asDouble(), r.p(), 1e-9, name + " p");
        close(c.get("pctChange").asDouble(), r.pctChange(), 1e-9, name + " change");
        if (c.get("ciLow").isNull()) {
            assertTrue(Double.isNaN(r.ciLow()) && Double.isNaN(r.ciHigh()), name + ": too few pairs, got " + r);
        } else {
            close(c.get("ciLow").asDouble(), r.ciLow(), 1e-9, name + " interval's low end");
            close(c.get("ciHigh").asDouble(), r.ciHigh(), 1e-9, name + " interval's high end");
        }
    }

    @Test
    void theIntervalHoldsNoChangeExactlyWhenTheTestDoesNotReject() throws IOException {
        for (JsonNode c : load().get("cases")) {
            if (c.get("ciLow").isNull()) {
                continue;
            }
            boolean holdsZero =
                    c.get("ciLow").asDouble() <= 0 && c.get("ciHigh").asDouble() >= 0;
            assertEquals(c.get("p").asDouble() >= 0.05, holdsZero, c.get("name").asText());
        }
    }

    @Test
    void aDriftThatMovesBothTrialsOfAPairLeavesTheSlowdownPlain() {
        // A machine whose speed walks from 100 to 130 over the run, the head 5% slower in each pair:
        // Welch sees the walk as noise of each side, the pairs see 5% every time.
        int n = 10;
        double[] base = new double[n];
        double[] head = new double[n];
        boolean[] first = new boolean[n];
        for (int i = 0; i < n; i++) {
            double level = 100 + 3 * i + (i % 3 == 0 ? 0.4 : -0.2);
            base[i] = level;
            head[i] = level * 1.05 + (i % 2 == 0 ? 0.3 : -0.3);
            first[i] = i % 2 == 0;
        }
        PairedTest.Result paired = PairedTest.of(new PairedTest.Pairs(base, head, first), false);
        Comparison welch = Comparison.of(
                Sample.of(base),
                Sample.of(head),
                Direction.LOWER_IS_BETTER,
                new Thresholds(0.05, 3, 10, Thresholds.FDR_OFF));
        assertEquals(welch.pctChange(), paired.pctChange(), 1e-9, "one estimate");
        assertTrue(
                paired.ciHigh() - paired.ciLow() < (welch.ciHigh() - welch.ciLow()) / 5,
                paired + " against Welch's " + welch);
        assertTrue(paired.p() < 1e-6 && welch.pValue() > 0.05, paired + " against Welch's " + welch);
    }

    @Test
    void refusesWhatItCannotTest() {
        boolean[] one = {true, true, true};
        double[] v = {1, 2, 3};
        assertThrows(
                IllegalArgumentException.class,
                () -> PairedTest.of(new PairedTest.Pairs(v, v, one), true),
                "every pair in one order");
        assertThrows(
                IllegalArgumentException.class,
                () -> PairedTest.of(
                        new PairedTest.Pairs(new double[] {1}, new double[] {2}, new boolean[] {true}), false),
                "one pair");
        assertThrows(
                IllegalArgumentException.class,
                () -> new PairedTest.Pairs(v, new double[] {1, 2}, one),
                "a value a side in each pair");
        assertThrows(
                IllegalArgumentException.class,
                () -> PairedTest.ranked(new PairedTest.Pairs(v, new double[] {1, 0, 3}, one)),
                "no log ratio of 0");
    }
}
