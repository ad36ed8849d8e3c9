package org.perfab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SeriesRulesTest {
    private static final SeriesRules.Options O = SeriesRules.Options.DEFAULT;
    private static final LocalDate DAY = LocalDate.of(2026, 8, 1);

    /** One reading a day from {@link #DAY}. */
    private static List<SeriesRules.Point> daily(double... ratios) {
        List<SeriesRules.Point> points = new ArrayList<>();
        for (int i = 0; i < ratios.length; i++) {
            points.add(new SeriesRules.Point(DAY.plusDays(i), ratios[i]));
        }
        return points;
    }

    @Test
    void theNoiseIsTheMedianDeviationFromTheMediansBefore() {
        // Deviations of readings 1..3 from the medians before them: |1.1/1 - 1| = 10%,
        // |0.9/1.05 - 1| = 14.3%, |1.0/1.0 - 1| = 0: the median is 10%.
        List<SeriesRules.Point> h = daily(1.0, 1.1, 0.9, 1.0, 5.0);
        assertEquals(0.10, SeriesRules.noise(h, 4, 5), 1e-12);
        assertEquals(0, SeriesRules.noise(h, 1, 5));
    }

    @Test
    void aStepMustPassTheFloorAndFourTimesTheKeysNoise() {
        assertEquals(Optional.empty(), SeriesRules.judge(daily(1, 1.01, 0.99, 1.0, 1.29), 4, O), "29% < 30%");
        SeriesRules.Move step = SeriesRules.judge(daily(1, 1.01, 0.99, 1.0, 1.31), 4, O).orElseThrow();
        assertEquals(SeriesRules.Rule.STEP, step.rule());
        assertEquals(1.0, step.reference(), 1e-12);
        assertEquals(31, step.change(), 1e-9);
        assertEquals(List.of(0, 1, 2, 3), step.references());
        // A key whose noise is 10% needs more than 40%.
        List<SeriesRules.Point> noisy = daily(1.0, 1.1, 0.9, 1.0, 1.39);
        assertEquals(Optional.empty(), SeriesRules.judge(noisy, 4, SeriesRules.Options.parse("drift=off")));
        assertTrue(SeriesRules.judge(noisy, 4, SeriesRules.Options.parse("step=30,noise=0")).isPresent(),
                "a flat 30% calls it a step");
        assertTrue(SeriesRules.judge(daily(1.0, 1.1, 0.9, 1.0, 0.55), 4, O).isPresent(), "down counts too");
    }

    @Test
    void aKeyNeedsThreeEarlierReadings() {
        assertEquals(Optional.empty(), SeriesRules.judge(daily(1, 1, 9), 2, O));
        assertTrue(SeriesRules.judge(daily(1, 1, 1, 9), 3, O).isPresent());
        assertTrue(SeriesRules.judge(daily(1, 1, 9), 2, SeriesRules.Options.parse("min=2")).isPresent());
    }

    @Test
    void aDriftComparesTheLastThreeWithReadingsTenDaysOlder() {
        // +2.5% a day: no night moves 30% from the five before it.
        double[] ramp = new double[14];
        for (int i = 0; i < ramp.length; i++) {
            ramp[i] = 1 + 0.025 * i;
        }
        List<SeriesRules.Point> h = daily(ramp);
        SeriesRules.Options stepOnly = SeriesRules.Options.parse("drift=off");
        for (int i = 3; i < ramp.length; i++) {
            assertEquals(Optional.empty(), SeriesRules.judge(h, i, stepOnly), "night " + i);
        }
        // Night 10: the last three are 1.20, 1.225, 1.25 (median 1.225); the only reading ten days
        // older is night 0 (1.0): +22.5%.
        SeriesRules.Move drift = SeriesRules.judge(h, 10, O).orElseThrow();
        assertEquals(SeriesRules.Rule.DRIFT, drift.rule());
        assertEquals(1.225, drift.ratio(), 1e-12);
        assertEquals(1.0, drift.reference(), 1e-12);
        assertEquals(22.5, drift.change(), 1e-9);
        assertEquals(List.of(0), drift.references());
        // Night 9 has no reading ten days older.
        assertEquals(Optional.empty(), SeriesRules.judge(h, 9, O));
        // Night 13: the five readings at least ten days older are nights 0..3.
        assertEquals(List.of(0, 1, 2, 3), SeriesRules.judge(h, 13, O).orElseThrow().references());
        assertEquals(Optional.empty(), SeriesRules.judge(h, 10, SeriesRules.Options.parse("drift=30")));
    }

    @Test
    void optionsParseOverTheDefaultsAndSayWhatTheyAre() {
        assertEquals(O, SeriesRules.Options.parse("step=30%,noise=4,drift=20"));
        SeriesRules.Options flat = SeriesRules.Options.parse("step=15,noise=0,drift=off");
        assertEquals("step past a flat 15%", flat.describe());
        assertEquals("step past max(30%, 4 \u00d7 noise), or drift past 20% over 10 days", O.describe());
        assertEquals(7, SeriesRules.Options.parse("days=7").driftDays());
        assertEquals("'x' is not NAME=VALUE", assertThrows(IllegalArgumentException.class,
                () -> SeriesRules.Options.parse("x")).getMessage());
        assertEquals("step: 'lots' is not a number", assertThrows(IllegalArgumentException.class,
                () -> SeriesRules.Options.parse("step=lots")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> SeriesRules.Options.parse("window=0"));
        assertThrows(IllegalArgumentException.class, () -> SeriesRules.Options.parse("step=-1"));
    }
}
