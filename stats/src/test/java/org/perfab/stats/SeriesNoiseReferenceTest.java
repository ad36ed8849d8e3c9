package org.perfab.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Checks {@link SeriesNoise}'s deviations and percentiles against numpy, from {@code
 * reference/make_series_noise_reference.py} (committed beside its output), and that its deviations
 * are the ones whose median the step rule takes as a key's noise.
 */
class SeriesNoiseReferenceTest {
    private static final double TOLERANCE = 1e-12;

    static List<JsonNode> cases() throws IOException {
        try (InputStream in =
                SeriesNoiseReferenceTest.class.getResourceAsStream("/reference/series-noise-reference.json")) {
            assertNotNull(in, "reference/series-noise-reference.json is on the test class path");
            JsonNode root = new ObjectMapper().readTree(in);
            return StreamSupport.stream(root.get("cases").spliterator(), false).toList();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void deviationsAndPercentilesMatchNumpy(JsonNode c) {
        String name = c.get("name").asText();
        double[] d = SeriesRules.deviations(history(c), c.get("window").asInt());
        assertArrayEquals(values(c.get("deviations")), d, TOLERANCE, name + " deviations");
        double[] p = SeriesNoise.percentiles(d, SeriesNoise.PERCENTILES);
        if (c.get("percentiles").isNull()) {
            for (double v : p) {
                assertTrue(Double.isNaN(v), name + ": no deviation has no percentile");
            }
        } else {
            assertArrayEquals(values(c.get("percentiles")), p, TOLERANCE, name + " percentiles");
        }
        double[] ratios = values(c.get("ratios"));
        for (JsonNode at : c.get("at")) {
            assertEquals(
                    at.get(1).asDouble(),
                    SeriesNoise.percentiles(ratios, List.of(at.get(0).asDouble()))[0],
                    TOLERANCE,
                    name + " at " + at.get(0).asDouble());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theMedianOfTheEarlierDeviationsIsTheStepRulesNoise(JsonNode c) {
        List<SeriesRules.Point> h = history(c);
        int window = c.get("window").asInt();
        for (int i = 2; i <= h.size(); i++) {
            double[] earlier = SeriesRules.deviations(h.subList(0, i), window);
            assertEquals(SeriesRules.noise(h, i, window), Sample.median(earlier), 0.0, "noise before reading " + i);
        }
    }

    @Test
    void refusesAPercentileOutsideZeroToAHundredAndAWindowBelowOne() {
        assertThrows(IllegalArgumentException.class, () -> SeriesNoise.percentiles(new double[] {1}, List.of(100.5)));
        assertThrows(IllegalArgumentException.class, () -> SeriesNoise.percentiles(new double[] {1}, List.of(-1.0)));
        assertThrows(IllegalArgumentException.class, () -> SeriesRules.deviations(List.of(), 0));
    }

    private static List<SeriesRules.Point> history(JsonNode c) {
        return points(values(c.get("ratios")));
    }

    private static List<SeriesRules.Point> points(double... ratios) {
        List<SeriesRules.Point> h = new ArrayList<>();
        for (int i = 0; i < ratios.length; i++) {
            h.add(new SeriesRules.Point(LocalDate.of(2026, 8, 1).plusDays(i), ratios[i]));
        }
        return h;
    }

    private static double[] values(JsonNode array) {
        return StreamSupport.stream(array.spliterator(), false)
                .mapToDouble(JsonNode::asDouble)
                .toArray();
    }
}
