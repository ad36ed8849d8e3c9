package org.perfab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The fast t quantile (Newton's method kept in a bracket, at every degree of freedom)
 * against scipy's {@code t.ppf}, from {@code reference/make_t_quantile_reference.py}.
 */
class TQuantileTest {
    static List<JsonNode> cases() throws IOException {
        try (InputStream in = TQuantileTest.class.getResourceAsStream("/reference/t-quantile-reference.json")) {
            assertNotNull(in, "reference/t-quantile-reference.json is on the test class path");
            return StreamSupport.stream(
                            new ObjectMapper().readTree(in).get("cases").spliterator(), false)
                    .toList();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void agreesWithScipyToTenDigits(JsonNode c) {
        double expected = c.get("quantile").asDouble();
        double actual = TQuantile.of(c.get("p").asDouble(), c.get("df").asDouble());
        assertEquals(expected, actual, 1e-10 * Math.max(1, Math.abs(expected)), c.toString());
        assertEquals(
                actual,
                TQuantile.newton(c.get("p").asDouble(), c.get("df").asDouble()),
                0.0,
                "Newton's method converged, without the library's solver");
    }
}
