package org.perfab.stats;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ThresholdsTest {
    @ParameterizedTest(name = "alpha={0} min={1} inconclusive={2}")
    @CsvSource({
        "0.0, 3, 10",
        "1.0, 3, 10",
        "-0.1, 3, 10",
        "NaN, 3, 10",
        "0.05, -1, 10",
        "0.05, NaN, 10",
        "0.05, Infinity, Infinity",
        "0.05, 3, 2.9",
        "0.05, 3, NaN",
        "0.05, 3, Infinity",
    })
    void rejectsSettingsOutsideTheirRange(double alpha, double minEffect, double inconclusive) {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> new Thresholds(alpha, minEffect, inconclusive));
        assertTrue(e.getMessage().contains("must"), e.getMessage());
    }

    @Test
    void acceptsTheEdgesOfTheirRange() {
        assertDoesNotThrow(() -> new Thresholds(Math.nextUp(0.0), 0.0, 0.0));
        assertDoesNotThrow(() -> new Thresholds(Math.nextDown(1.0), 3.0, 3.0));
    }

    @Test
    void theOutlierFloorAndTheUnderpoweredCutFollowTheMinEffectUnlessSet() {
        Thresholds t =
                new ThresholdSettings(Optional.empty(), Optional.of(5.0), Optional.empty()).over(Thresholds.DEFAULT);
        assertEquals(5.0, t.effectiveOutlierFloor());
        assertEquals(5.0, t.effectiveNoisyAbove());
        Thresholds set = new ThresholdSettings(
                        Optional.empty(),
                        Optional.of(5.0),
                        Optional.empty(),
                        Optional.empty(),
                        Optional.of(1.0),
                        Optional.of(8.0))
                .over(Thresholds.DEFAULT);
        assertEquals(1.0, set.effectiveOutlierFloor());
        assertEquals(8.0, set.effectiveNoisyAbove());
        assertEquals(
                set.outlierFloor(),
                set.withAdaptive(new Sequential(5, 20)).atLook(1).outlierFloor());
    }

    @Test
    void eachSettingIsCheckedOnItsOwnAndNamedByKeyOrOption() {
        Thresholds.Invalid e = assertThrows(
                Thresholds.Invalid.class,
                () -> new ThresholdSettings(
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty(),
                        Optional.of(-1.0),
                        Optional.empty()));
        assertEquals(Thresholds.Setting.OUTLIER_FLOOR, e.setting());
        assertEquals("outlier_floor must be a percentage >= 0, got -1.0", e.getMessage());
        assertEquals("--outlier-floor must be a percentage >= 0, got -1.0", e.byOption());
        e = assertThrows(Thresholds.Invalid.class, () -> new Thresholds(0.05, 3, 2));
        assertEquals("inconclusive must be >= min_effect (3.0), got 2.0", e.getMessage());
        assertEquals("--inconclusive must be >= --min-effect (3.0), got 2.0", e.byOption());
        e = assertThrows(
                Thresholds.Invalid.class,
                () -> new ThresholdSettings(Optional.of(1.0), Optional.empty(), Optional.empty()));
        assertEquals("--alpha must be between 0 and 1 (exclusive), got 1.0", e.byOption());
    }

    @Test
    void aLowerOutlierFloorSetsAsideATrialTheBarWouldKeep() {
        double[] base = {100.0, 100.1, 99.9, 100.0, 100.1, 99.9, 100.0, 100.1, 99.9, 102.0};
        double[] head = {100.0, 100.1, 99.9, 100.0, 100.1, 99.9, 100.0, 100.1, 99.9, 100.0};
        Thresholds floor = new Thresholds(0.05, 3, 10, Double.NaN, 1.0, Double.NaN, Optional.empty());
        assertEquals(
                List.of(),
                Comparison.judge(base, head, Direction.LOWER_IS_BETTER, Thresholds.DEFAULT, false)
                        .baseSetAside());
        assertEquals(
                List.of(9),
                Comparison.judge(base, head, Direction.LOWER_IS_BETTER, floor, false)
                        .baseSetAside());
    }

    @Test
    void theUnderpoweredCutDecidesTheCaveat() {
        Sample base = Sample.of(100, 104, 96, 101, 99);
        Sample head = Sample.of(101, 103, 97, 100, 100);
        Comparison c = Comparison.of(base, head, Direction.LOWER_IS_BETTER, Thresholds.DEFAULT);
        assertTrue(c.caveats().contains(Caveat.UNDERPOWERED), c.toString());
        Thresholds high = new Thresholds(
                0.05, 3, 10, Double.NaN, Double.NaN, Math.ceil(c.mde().getAsDouble()), Optional.empty());
        assertTrue(!Comparison.of(base, head, Direction.LOWER_IS_BETTER, high)
                .caveats()
                .contains(Caveat.UNDERPOWERED));
    }
}
