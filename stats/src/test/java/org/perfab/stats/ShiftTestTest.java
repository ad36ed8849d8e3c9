package org.perfab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The tests a verdict takes as a value, and the choice perfab's A/B makes between them. */
class ShiftTestTest {
    private static final Direction LOWER = Direction.LOWER_IS_BETTER;
    private static final Thresholds T = Thresholds.DEFAULT;

    @Test
    void perfabJudgesOneBuildBySideOnItsTrials() {
        Trials base = Trials.of(100, 101, 99, 100, 100, 140);
        Trials head = Trials.of(106, 105, 107, 106, 105, 106);
        Comparison.Judged perfab = KnownTests.PERFAB.judge(base, head, LOWER, T, false);
        Comparison.Judged trials = KnownTests.TRIALS.judge(base, head, LOWER, T, false);
        assertEquals(trials, perfab);
        assertEquals(Optional.empty(), perfab.ofTrials());
        assertEquals(List.of(5), perfab.baseSetAside());
    }

    @Test
    void perfabLetsTheMediansOfSeveralBuildsDecideAndKeepsTheTrialsBeside() {
        int[] builds = {0, 1, 2, 0, 1, 2, 0, 1, 2};
        Trials base = Trials.of(new double[] {100, 103, 98, 101, 102, 99, 100, 104, 97}, builds);
        Trials head = Trials.of(new double[] {104, 106, 102, 105, 107, 101, 104, 105, 103}, builds);
        Comparison.Judged perfab = KnownTests.PERFAB.judge(base, head, LOWER, T, false);
        Comparison medians =
                KnownTests.BUILD_MEDIANS.judge(base, head, LOWER, T, false).comparison();
        assertEquals(medians, perfab.comparison());
        assertEquals(3, perfab.comparison().base().n());
        assertEquals(
                Optional.of(KnownTests.TRIALS.judge(base, head, LOWER, T, false).comparison()), perfab.ofTrials());
    }

    @Test
    void buildMediansAreTheMedianOfEachBuildInBuildOrder() {
        Trials t = Trials.of(new double[] {5, 1, 9, 3, 7, 2}, new int[] {2, 0, 2, 0, 1, 1});
        assertEquals(3, t.buildCount());
        assertEquals(
                List.of(2.0, 4.5, 7.0),
                java.util.Arrays.stream(t.buildMedians()).boxed().toList());
    }

    @Test
    void mannWhitneyIsExactAndMeasuresTheChangeOfMedians() {
        Trials base = Trials.of(100, 101, 102, 103, 104);
        Trials head = Trials.of(110, 111, 112, 113, 150);
        Comparison c =
                KnownTests.MANN_WHITNEY.judge(base, head, LOWER, T, false).comparison();
        assertEquals(2.0 / 252, c.pValue(), 1e-15);
        assertEquals(new Statistic(Statistic.Kind.MANN_WHITNEY_U, 25.0, OptionalDouble.empty()), c.statistic());
        assertEquals(OptionalDouble.empty(), c.mde(), "Mann-Whitney's test gives no detectable change");
        assertEquals((112.0 / 102 - 1) * 100, c.pctChange(), 1e-12);
        assertEquals(Verdict.REGRESSION, c.verdict());
    }

    @Test
    void everyTestSaysNoDataForASideOfOneValue() {
        for (ShiftTest test : List.of(
                KnownTests.WELCH, KnownTests.TRIALS, KnownTests.MANN_WHITNEY, KnownTests.YUEN, KnownTests.PERFAB)) {
            Comparison c = test.judge(Trials.of(100), Trials.of(100, 101, 102), LOWER, T, false)
                    .comparison();
            assertEquals(Verdict.NO_DATA, c.verdict(), test.toString());
            assertTrue(c.caveats().contains(Caveat.BASE_TOO_FEW), test.toString());
        }
    }

    @Test
    void calibrationJudgesEachMethodThroughItsTest() {
        Random random = new Random(7);
        for (int r = 0; r < 20; r++) {
            double[][][] draw = Calibration.draw(new Calibration.Case(Calibration.Noise.LAYOUT, 3, 6, 5), random);
            Trials base = Trials.of(concat(draw[0]), new int[] {0, 0, 1, 1, 2, 2});
            Trials head = Trials.of(concat(draw[1]), new int[] {0, 0, 1, 1, 2, 2});
            for (Calibration.Method m : Calibration.Method.values()) {
                assertEquals(
                        m.test().judge(base, head, LOWER, T, false).comparison().verdict(),
                        Calibration.judge(m, draw, T),
                        m.label());
            }
        }
    }

    private static double[] concat(double[][] builds) {
        return java.util.Arrays.stream(builds)
                .flatMapToDouble(java.util.Arrays::stream)
                .toArray();
    }
}
