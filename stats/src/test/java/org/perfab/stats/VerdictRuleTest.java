package org.perfab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.perfab.stats.Direction.HIGHER_IS_BETTER;
import static org.perfab.stats.Direction.LOWER_IS_BETTER;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class VerdictRuleTest {
    private static final Thresholds DEFAULT = Thresholds.DEFAULT;
    private static final double SIGNIFICANT = 0.01;
    private static final double NOT_SIGNIFICANT = 0.5;

    @Test
    void flagsRegressionOnlyFromExactlyTheMinEffect() {
        assertEquals(Verdict.REGRESSION, VerdictRule.classify(LOWER_IS_BETTER, 3.0, SIGNIFICANT, DEFAULT));
        assertEquals(Verdict.SMALL, VerdictRule.classify(LOWER_IS_BETTER, Math.nextDown(3.0), SIGNIFICANT, DEFAULT));
        assertEquals(Verdict.REGRESSION, VerdictRule.classify(HIGHER_IS_BETTER, -3.0, SIGNIFICANT, DEFAULT));
        assertEquals(Verdict.SMALL, VerdictRule.classify(HIGHER_IS_BETTER, Math.nextUp(-3.0), SIGNIFICANT, DEFAULT));
        assertEquals(
                Verdict.UNCHANGED, VerdictRule.classify(LOWER_IS_BETTER, Math.nextDown(3.0), NOT_SIGNIFICANT, DEFAULT));
    }

    @Test
    void callsASignificantDipUnderTheBarSmallNeverAPass() {
        // The seed's release check: throughput -2.4% at p 0.003 under a 3% bar.
        assertEquals(Verdict.SMALL, VerdictRule.classify(HIGHER_IS_BETTER, -2.4, 0.003, DEFAULT));
        assertEquals(
                Verdict.UNCHANGED,
                VerdictRule.classify(HIGHER_IS_BETTER, 2.4, 0.003, DEFAULT),
                "a small gain is no finding");
        assertEquals(Verdict.UNCHANGED, VerdictRule.classify(HIGHER_IS_BETTER, 0.0, 0.0, DEFAULT));
        assertEquals(
                Verdict.REGRESSION,
                VerdictRule.classify(LOWER_IS_BETTER, 1.0, 0.0, new Thresholds(0.05, 0.0, 10)),
                "with no bar, every significant slowdown is a regression");
    }

    @Test
    void needsPStrictlyBelowAlpha() {
        assertEquals(Verdict.REGRESSION, VerdictRule.classify(LOWER_IS_BETTER, 5.0, Math.nextDown(0.05), DEFAULT));
        assertEquals(Verdict.UNCHANGED, VerdictRule.classify(LOWER_IS_BETTER, 5.0, 0.05, DEFAULT));
        assertEquals(Verdict.IMPROVEMENT, VerdictRule.classify(LOWER_IS_BETTER, -5.0, Math.nextDown(0.05), DEFAULT));
        assertEquals(Verdict.UNCHANGED, VerdictRule.classify(LOWER_IS_BETTER, -5.0, 0.05, DEFAULT));
    }

    @Test
    void callsABigUnconfirmedMoveInconclusiveFromExactlyTheBar() {
        assertEquals(Verdict.INCONCLUSIVE, VerdictRule.classify(LOWER_IS_BETTER, 10.0, NOT_SIGNIFICANT, DEFAULT));
        assertEquals(
                Verdict.UNCHANGED,
                VerdictRule.classify(LOWER_IS_BETTER, Math.nextDown(10.0), NOT_SIGNIFICANT, DEFAULT));
        assertEquals(Verdict.INCONCLUSIVE, VerdictRule.classify(HIGHER_IS_BETTER, -10.0, NOT_SIGNIFICANT, DEFAULT));
        assertEquals(
                Verdict.UNCHANGED,
                VerdictRule.classify(HIGHER_IS_BETTER, Math.nextUp(-10.0), NOT_SIGNIFICANT, DEFAULT));
    }

    @Test
    void neverCallsABigImprovementInconclusive() {
        assertEquals(Verdict.UNCHANGED, VerdictRule.classify(LOWER_IS_BETTER, -40.0, NOT_SIGNIFICANT, DEFAULT));
        assertEquals(Verdict.UNCHANGED, VerdictRule.classify(HIGHER_IS_BETTER, 40.0, NOT_SIGNIFICANT, DEFAULT));
    }

    @Test
    void treatsAnUndefinedPAsNotSignificant() {
        assertEquals(Verdict.UNCHANGED, VerdictRule.classify(LOWER_IS_BETTER, 5.0, Double.NaN, DEFAULT));
        assertEquals(Verdict.INCONCLUSIVE, VerdictRule.classify(LOWER_IS_BETTER, 50.0, Double.NaN, DEFAULT));
    }

    @ParameterizedTest(name = "{0} pct={1} p={2} -> {3}")
    @CsvSource({
        // direction, pct, p, verdict (min effect 3, inconclusive 10, alpha 0.05)
        "LOWER_IS_BETTER,  0.0,   0.0,  UNCHANGED",
        "LOWER_IS_BETTER,  2.0,   0.0,  SMALL",
        "LOWER_IS_BETTER,  2.0,   0.2,  UNCHANGED",
        "LOWER_IS_BETTER,  -2.0,  0.0,  UNCHANGED",
        "LOWER_IS_BETTER,  4.0,   0.04, REGRESSION",
        "LOWER_IS_BETTER,  4.0,   0.06, UNCHANGED",
        "LOWER_IS_BETTER,  12.0,  0.06, INCONCLUSIVE",
        "LOWER_IS_BETTER,  12.0,  0.01, REGRESSION",
        "LOWER_IS_BETTER,  -4.0,  0.01, IMPROVEMENT",
        "HIGHER_IS_BETTER, 4.0,   0.01, IMPROVEMENT",
        "HIGHER_IS_BETTER, -4.0,  0.01, REGRESSION",
        "HIGHER_IS_BETTER, -12.0, 0.2,  INCONCLUSIVE",
        "HIGHER_IS_BETTER, 12.0,  0.2,  UNCHANGED",
    })
    void classifiesTheTableOfCases(Direction direction, double pct, double p, Verdict expected) {
        assertEquals(expected, VerdictRule.classify(direction, pct, p, DEFAULT));
    }

    @Test
    void honoursCustomThresholds() {
        Thresholds strict = new Thresholds(0.01, 1.0, 1.0);
        assertEquals(Verdict.REGRESSION, VerdictRule.classify(LOWER_IS_BETTER, 1.0, 0.009, strict));
        assertEquals(Verdict.INCONCLUSIVE, VerdictRule.classify(LOWER_IS_BETTER, 1.0, 0.01, strict));
        Thresholds noFloor = new Thresholds(0.05, 0.0, 0.0);
        assertEquals(Verdict.REGRESSION, VerdictRule.classify(LOWER_IS_BETTER, Double.MIN_VALUE, 0.01, noFloor));
        assertEquals(Verdict.UNCHANGED, VerdictRule.classify(LOWER_IS_BETTER, 0.0, 0.01, noFloor));
    }
}
