package org.perfab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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
        SeriesRules.Move step =
                SeriesRules.judge(daily(1, 1.01, 0.99, 1.0, 1.31), 4, O).orElseThrow();
        assertEquals(SeriesRules.Rule.STEP, step.rule());
        assertEquals(1.0, step.reference(), 1e-12);
        assertEquals(31, step.change(), 1e-9);
        assertEquals(List.of(0, 1, 2, 3), step.references());
        // A key whose noise is 10% needs more than 40%.
        List<SeriesRules.Point> noisy = daily(1.0, 1.1, 0.9, 1.0, 1.39);
        assertEquals(Optional.empty(), SeriesRules.judge(noisy, 4, SeriesRules.Options.parse("drift=off")));
        assertTrue(
                SeriesRules.judge(noisy, 4, SeriesRules.Options.parse("step=30,noise=0"))
                        .isPresent(),
                "a flat 30% calls it a step");
        assertTrue(SeriesRules.judge(daily(1.0, 1.1, 0.9, 1.0, 0.55), 4, O).isPresent(), "down counts too");
    }

    @Test
    void aKeyNeedsThreeEarlierReadings() {
        assertEquals(Optional.empty(), SeriesRules.judge(daily(1, 1, 9), 2, O));
        assertTrue(SeriesRules.judge(daily(1, 1, 1, 9), 3, O).isPresent());
        assertTrue(SeriesRules.judge(daily(1, 1, 9), 2, SeriesRules.Options.parse("min=2"))
                .isPresent());
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
        assertEquals(
                List.of(0, 1, 2, 3), SeriesRules.judge(h, 13, O).orElseThrow().references());
        assertEquals(Optional.empty(), SeriesRules.judge(h, 10, SeriesRules.Options.parse("drift=30")));
    }

    @ParameterizedTest(name = "{0} against 1.00 at 30%: {1}")
    @CsvSource({
        "1.30, false",
        "1.31, true",
        "0.70, false",
        "0.69, true",
        "1.2999999999999998, false",
        "1.3000000000000003, true"
    })
    void aStepOfExactlyTheLimitIsNotPastIt(double ratio, boolean fires) {
        // BenchmarkDotNet writes two decimals; 1.30 / 1.00 - 1 is 0.30000000000000004 in binary.
        SeriesRules.Options flat = SeriesRules.Options.parse("step=30,noise=0,drift=off");
        assertEquals(
                fires,
                SeriesRules.judge(daily(1.00, 1.00, 1.00, 1.00, ratio), 4, flat).isPresent());
        assertEquals(
                fires,
                SeriesRules.judge(daily(1.00, 1.00, 1.00, 1.00, ratio), 4, O).isPresent(),
                "no noise");
    }

    @Test
    void theBoundaryTakesTheMedianOfTwoReadingsExactly() {
        // The median of 1.0, 1.1, 1.2, 0.9 is 1.05; 1.05 x 1.3 = 1.365 exactly, 30.000000000000004%
        // in binary.
        SeriesRules.Options flat = SeriesRules.Options.parse("step=30,noise=0,drift=off");
        assertEquals(Optional.empty(), SeriesRules.judge(daily(1.0, 1.1, 1.2, 0.9, 1.365), 4, flat));
        assertTrue(SeriesRules.judge(daily(1.0, 1.1, 1.2, 0.9, 1.366), 4, flat).isPresent());
    }

    @ParameterizedTest(name = "2.05 to {0} over ten days at 20%: {1}")
    @CsvSource({"2.46, false", "2.47, true", "1.64, false", "1.63, true"})
    void aDriftOfExactlyTheLimitIsNotPastIt(double recent, boolean fires) {
        // 2.46 / 2.05 - 1 is 0.20000000000000018 in binary.
        SeriesRules.Options driftOnly = SeriesRules.Options.parse("step=1000,drift=20");
        List<SeriesRules.Point> h = daily(2.05, 2.05, 2.05, 2.05, 2.05, 2.05, 2.05, 2.05, recent, recent, recent);
        Optional<SeriesRules.Move> move = SeriesRules.judge(h, 10, driftOnly);
        assertEquals(fires, move.isPresent(), move.toString());
        move.ifPresent(m -> assertEquals(SeriesRules.Rule.DRIFT, m.rule()));
    }

    /** One reading a day from {@link #DAY}, against the bases given. */
    private static List<SeriesRules.Point> based(double[] ratios, String... bases) {
        List<SeriesRules.Point> points = new ArrayList<>();
        for (int i = 0; i < ratios.length; i++) {
            points.add(new SeriesRules.Point(DAY.plusDays(i), ratios[i], bases[i]));
        }
        return points;
    }

    @Test
    void aChangedBaseStartsANewSegmentTheRulesDoNotCompareAcross() {
        List<SeriesRules.Point> h =
                based(new double[] {1, 1, 1, 1, 2, 2, 2, 2, 2.7, 2.5}, "a", "a", "", "a", "b", "b", "", "b", "b", "a");
        List<SeriesRules.Judgement> all = SeriesRules.judgeAll(h, O);
        assertEquals(
                List.of(false, false, false, true, false, false, false, true, true, false),
                all.stream().map(SeriesRules.Judgement::compared).toList());
        assertEquals(Optional.of("a"), all.get(4).rebasedFrom(), "1 to 2 on another base: a re-basing");
        assertEquals(Optional.empty(), all.get(4).move(), "never a step");
        assertEquals(Optional.empty(), all.get(6).rebasedFrom(), "an unknown base is of the segment it is in");
        assertEquals(Optional.of("b"), all.get(9).rebasedFrom(), "back to a: a re-basing again");
        SeriesRules.Move step = all.get(8).move().orElseThrow();
        assertEquals(List.of(4, 5, 6, 7), step.references(), "only the new base's readings");
        assertEquals(2.0, step.reference());
        assertEquals(0, SeriesRules.noise(h, 8, 5), "the new segment's noise, not the jump");
        assertEquals(step, SeriesRules.judge(h, 8, O).orElseThrow(), "judge is judgeAll's");
    }

    @Test
    void theDeviationsTheNoiseIsTheMedianOfSkipEachSegmentsFirstReading() {
        List<SeriesRules.Point> h = based(new double[] {1.0, 1.1, 0.9, 2.0, 2.2, 2.0}, "a", "a", "", "b", "b", "b");
        double[] d = SeriesRules.deviations(h, 5);
        // 1.1 from 1.0, 0.9 from 1.05; the jump to 2.0 is a re-basing, not a deviation; 2.2 from
        // 2.0, 2.0 from 2.1.
        assertEquals(4, d.length);
        assertEquals(0.1, d[0], 1e-12);
        assertEquals(0.9 / 1.05 - 1, -d[1], 1e-12);
        assertEquals(0.1, d[2], 1e-12);
        assertEquals(1 - 2.0 / 2.1, d[3], 1e-12);
        assertEquals(
                Sample.median(new double[] {d[2], d[3]}),
                SeriesRules.noise(h, h.size(), 5),
                "after the last reading: the noise of its segment");
        assertEquals(Sample.median(new double[] {d[0], d[1]}), SeriesRules.noise(daily(1.0, 1.1, 0.9), 3, 5));
        assertEquals(0, SeriesRules.noise(h, 4, 5), "one earlier reading of its base");
        assertEquals(0, SeriesRules.deviations(List.of(), 5).length);
    }

    @Test
    void theRunningNoiseIsTheMedianOfEveryEarlierDeviationToTheBit() {
        java.util.Random random = new java.util.Random(7);
        double[] ratios = new double[400];
        for (int i = 0; i < ratios.length; i++) {
            ratios[i] = 1 + 0.1 * Math.exp(random.nextGaussian()) * (random.nextBoolean() ? 1 : -0.5);
        }
        List<SeriesRules.Point> h = daily(ratios);
        List<SeriesRules.Judgement> all = SeriesRules.judgeAll(h, O);
        int steps = 0;
        for (int i = 3; i < ratios.length; i++) {
            // The definition, recomputed from the start for every reading.
            double[] deviations = new double[i - 1];
            for (int j = 1; j < i; j++) {
                deviations[j - 1] =
                        Math.abs(ratios[j] / Sample.median(java.util.Arrays.copyOfRange(ratios, Math.max(0, j - 5), j))
                                - 1);
            }
            double noise = Sample.median(deviations);
            assertEquals(noise, SeriesRules.noise(h, i, 5), "reading " + i);
            Optional<SeriesRules.Move> move = all.get(i).move();
            if (move.isPresent() && move.get().rule() == SeriesRules.Rule.STEP) {
                assertEquals(Math.max(30, 4 * noise * 100), move.get().limit(), "reading " + i);
                steps++;
            }
        }
        assertTrue(steps > 5, "steps: " + steps);
    }

    @Test
    void optionsParseOverTheDefaultsAndSayWhatTheyAre() {
        assertEquals(O, SeriesRules.Options.parse("step=30%,noise=4,drift=20"));
        SeriesRules.Options flat = SeriesRules.Options.parse("step=15,noise=0,drift=off");
        assertEquals("step past a flat 15%", flat.describe());
        assertEquals("step past max(30%, 4 \u00d7 noise), or drift past 20% over 10 days", O.describe());
        assertEquals(7, SeriesRules.Options.parse("days=7").driftDays());
        assertEquals(
                "'x' is not NAME=VALUE",
                assertThrows(IllegalArgumentException.class, () -> SeriesRules.Options.parse("x"))
                        .getMessage());
        assertEquals(
                "step: 'lots' is not a number",
                assertThrows(IllegalArgumentException.class, () -> SeriesRules.Options.parse("step=lots"))
                        .getMessage());
        assertThrows(IllegalArgumentException.class, () -> SeriesRules.Options.parse("window=0"));
        assertThrows(IllegalArgumentException.class, () -> SeriesRules.Options.parse("step=-1"));
    }
}
