package org.perfab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Checks {@link Ranks} against scipy's Mann-Whitney test (exact without ties, the approximation with them), from {@code
 * reference/make_ranks_reference.py} (committed beside its output).
 */
class RanksReferenceTest {
    private static final double RELATIVE = 1e-9;

    static List<JsonNode> cases() throws IOException {
        try (InputStream in = RanksReferenceTest.class.getResourceAsStream("/reference/ranks-reference.json")) {
            assertNotNull(in, "reference/ranks-reference.json is on the test class path");
            JsonNode root = new ObjectMapper().readTree(in);
            return StreamSupport.stream(root.get("cases").spliterator(), false).toList();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesScipy(JsonNode c) {
        double[] base = values(c.get("base"));
        double[] head = values(c.get("head"));
        Ranks.Result r = Ranks.of(base, head);
        String name = c.get("name").asText();
        assertEquals(c.get("u").asDouble(), r.u(), 0.0, name + " U");
        close(c.get("p").asDouble(), r.p(), name + " p");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void isExactWithoutTiesAndTheApproximationWithThem(JsonNode c) {
        Ranks.Result r = Ranks.of(values(c.get("base")), values(c.get("head")));
        String name = c.get("name").asText();
        boolean exact = c.get("method").asText().equals("exact");
        close(c.get(exact ? "exact_p" : "asymptotic_p").asDouble(), r.p(), name + " p");
    }

    @Test
    void theExactPOfFiveAgainstFiveSeparatedIsTwoIn252NotTheApproximations() {
        double[] low = {1, 2, 3, 4, 5};
        double[] high = {6, 7, 8, 9, 10};
        assertEquals(2.0 / 252, Ranks.of(low, high).p(), 1e-15);
        assertEquals(2.0 / 252, Ranks.of(high, low).p(), 1e-15);
        assertEquals(25.0, Ranks.of(low, high).u(), 0.0);
        assertEquals(0.0, Ranks.of(high, low).u(), 0.0);
    }

    private static void close(double expected, double actual, String what) {
        assertEquals(expected, actual, RELATIVE * Math.max(1, Math.abs(expected)), what);
    }

    private static double[] values(JsonNode array) {
        List<Double> v = new ArrayList<>();
        array.forEach(x -> v.add(x.asDouble()));
        return v.stream().mapToDouble(Double::doubleValue).toArray();
    }
}
