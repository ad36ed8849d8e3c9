package org.perfab.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.perfab.failure.BadInputException;
import org.perfab.stats.Thresholds;

/** The verdict settings in results.json: written, read back, and read from files before some existed. */
class ThresholdsJsonTest {
    private static Thresholds read(String thresholds) {
        StrictJson.Obj root = StrictJson.parse("{\"schema\":\"s\",\"thresholds\":" + thresholds + "}", "s", "r.json");
        return TableJson.thresholds(root, "thresholds");
    }

    @Test
    void theOutlierFloorAndUnderpoweredCutRoundTripWhenSet() {
        Thresholds t = new Thresholds(0.05, 3, 10, Double.NaN, 1.5, 6, Optional.empty());
        ObjectNode node = TableJson.thresholds(t);
        assertEquals(1.5, node.get("outlierFloor").asDouble());
        assertEquals(6.0, node.get("noisyAbove").asDouble());
        assertEquals(t, read(node.toString()));
    }

    @Test
    void theyAreLeftOutWhenTheyFollowTheMinEffect() {
        ObjectNode node = TableJson.thresholds(Thresholds.DEFAULT);
        assertFalse(node.has("outlierFloor"));
        assertFalse(node.has("noisyAbove"));
        assertEquals(Thresholds.DEFAULT, read(node.toString()));
    }

    @Test
    void aFileFromBeforeThemFollowsItsMinEffect() {
        Thresholds t = read("{\"alpha\":0.05,\"minEffect\":5.0,\"inconclusive\":10.0,\"fdr\":null,\"adaptive\":null}");
        assertEquals(5.0, t.effectiveOutlierFloor());
        assertEquals(5.0, t.effectiveNoisyAbove());
    }

    @Test
    void refusesAFloorOutOfRangeNamingIt() {
        BadInputException e = assertThrows(
                BadInputException.class,
                () -> read("{\"alpha\":0.05,\"minEffect\":3.0,"
                        + "\"inconclusive\":10.0,\"outlierFloor\":-1.0,\"adaptive\":null}"));
        assertTrue(e.getMessage().contains("outlier_floor must be a percentage >= 0"), e.getMessage());
    }
}
