package org.perfab.stats;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ThresholdsTest {
    @ParameterizedTest(name = "alpha={0} min={1} inconclusive={2}")
    @CsvSource({
        "0.0, 3, 10", "1.0, 3, 10", "-0.1, 3, 10", "NaN, 3, 10",
        "0.05, -1, 10", "0.05, NaN, 10", "0.05, Infinity, Infinity",
        "0.05, 3, 2.9", "0.05, 3, NaN", "0.05, 3, Infinity",
    })
    void rejectsSettingsOutsideTheirRange(double alpha, double minEffect, double inconclusive) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Thresholds(alpha, minEffect, inconclusive));
        assertTrue(e.getMessage().contains("must"), e.getMessage());
    }

    @Test
    void acceptsTheEdgesOfTheirRange() {
        assertDoesNotThrow(() -> new Thresholds(Math.nextUp(0.0), 0.0, 0.0));
        assertDoesNotThrow(() -> new Thresholds(Math.nextDown(1.0), 3.0, 3.0));
    }
}
