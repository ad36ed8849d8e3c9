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
 * Checks {@link Ranks} against scipy's Mann-Whitney test, from {@code
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

    @Test
    void theSmallestExactPOfFiveAgainstFiveIsTwoIn252() {
        assertEquals(2.0 / 252, Ranks.exact(5, 5, 25), 1e-15);
        assertEquals(2.0 / 252, Ranks.exact(5, 5, 0), 1e-15);
        assertEquals(1.0, Ranks.exact(5, 5, 12.5), 0.0);
    }

    @Test
    void theExactDistributionSumsToOneAndIsSymmetric() {
        for (int m = 1; m <= 12; m++) {
            for (int n = 1; n <= 12; n++) {
                double[] cdf = Ranks.cdf(m, n);
                assertEquals(m * n + 1, cdf.length);
                assertEquals(1.0, cdf[cdf.length - 1], 1e-12);
                for (int u = 0; u < m * n; u++) {
                    // P(U <= u) = P(U >= mn - u) = 1 - P(U <= mn - u - 1)
                    assertEquals(cdf[u], 1 - cdf[m * n - u - 1], 1e-12, m + "x" + n + " at " + u);
                }
            }
        }
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
