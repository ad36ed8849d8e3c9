package org.perfab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Checks {@link NoiseFloor}'s minimum detectable effects and advice, and the shift and median
 * spread they rest on, against values computed with scipy by {@code
 * reference/make_noise_floor_reference.py} (committed beside its output).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NoiseFloorReferenceTest {
    /** Relative tolerance on shifts and minimum detectable effects (Java and scipy agree to 3e-9). */
    private static final double RELATIVE = 1e-7;
    /** Relative tolerance on the variance of a median. */
    private static final double MEDIAN = 1e-9;

    private JsonNode reference;
    /** One per alpha, as a table of cells shares one. */
    private final Map<Double, Sensitivity> tests = new HashMap<>();

    @BeforeAll
    void load() throws IOException {
        try (InputStream in = getClass().getResourceAsStream("/reference/noise-floor-reference.json")) {
            assertNotNull(in, "reference/noise-floor-reference.json is on the test class path");
            reference = new ObjectMapper().readTree(in);
        }
    }

    private Stream<Arguments> cases(String key) {
        return StreamSupport.stream(reference.get(key).spliterator(), false).map(c -> Arguments.of(c.toString(), c));
    }

    Stream<Arguments> shifts() {
        return cases("shifts");
    }

    Stream<Arguments> medians() {
        return cases("medians");
    }

    Stream<Arguments> mdes() {
        return cases("mde");
    }

    Stream<Arguments> advice() {
        return cases("advice");
    }

    private Sensitivity test(double alpha) {
        return tests.computeIfAbsent(
                alpha, a -> new Sensitivity(a, reference.get("power").asDouble()));
    }

    private static NoiseFloor floor(JsonNode c) {
        return new NoiseFloor(
                c.get("within").asDouble(),
                c.get("between").isNull() ? Double.NaN : c.get("between").asDouble());
    }

    @Test
    void referenceReachesPastSevenHundredTrialsAndBothCaps() {
        long past700 = StreamSupport.stream(reference.get("mde").spliterator(), false)
                .filter(c -> c.get("builds").asInt() == 1 && c.get("trials").asInt() > 707)
                .count();
        assertTrue(past700 >= 6, "runs of 708 trials or more, where the first way went wrong");
        Map<String, Integer> beyond = new HashMap<>();
        reference.get("advice").forEach(c -> beyond.merge(c.get("beyond").asText(), 1, Integer::sum));
        assertTrue(
                beyond.get("null") >= 10 && beyond.get("trials") >= 2 && beyond.get("builds") >= 1, beyond.toString());
        assertTrue(
                StreamSupport.stream(reference.get("advice").spliterator(), false)
                        .anyMatch(c ->
                                c.get("trials").asInt() > 900 && c.get("beyond").isNull()),
                "advice above 900 trials");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shifts")
    void theShiftIsScipys(String name, JsonNode c) {
        double expected = c.get("shift").asDouble();
        double got = WelchPower.shift(
                c.get("m").asInt(), c.get("alpha").asDouble(), c.get("power").asDouble());
        assertEquals(expected, got, RELATIVE * expected, name);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("medians")
    void theMediansSpreadIsScipys(String name, JsonNode c) {
        double expected = c.get("variance").asDouble();
        assertEquals(expected, NormalMedian.variance(c.get("n").asInt()), MEDIAN * expected, name);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mdes")
    void theMinimumDetectableEffectIsScipys(String name, JsonNode c) {
        double got = floor(c).mde(
                        c.get("builds").asInt(),
                        c.get("trials").asInt(),
                        test(c.get("alpha").asDouble()));
        if (c.get("mde").isNull()) {
            assertTrue(Double.isNaN(got), name + ": " + got);
        } else if (c.get("mde").isTextual()) {
            assertEquals(Double.parseDouble(c.get("mde").asText().replace("inf", "Infinity")), got, name);
        } else {
            double expected = c.get("mde").asDouble();
            assertEquals(expected, got, RELATIVE * expected, name);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("advice")
    void theAdviceIsScipys(String name, JsonNode c) {
        NoiseFloor.Advice advice =
                floor(c).advise(c.get("effect").asDouble(), test(c.get("alpha").asDouble()));
        assertEquals(c.get("builds").asInt(), advice.builds(), name);
        assertEquals(c.get("trials").asInt(), advice.trials(), name);
        NoiseFloor.Cap beyond = c.get("beyond").isNull()
                ? NoiseFloor.Cap.NONE
                : NoiseFloor.Cap.valueOf(c.get("beyond").asText().toUpperCase(Locale.ROOT));
        assertEquals(beyond, advice.beyond(), name);
        if (advice.found()) {
            double expected = c.get("mde").asDouble();
            assertEquals(expected, advice.mde(), RELATIVE * expected, name);
        } else {
            assertTrue(Double.isNaN(advice.mde()), name);
        }
    }
}
