package org.perfab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Each test names its statistic, gives degrees of freedom only where its statistic has them, and
 * a minimum detectable effect only where it computes one (Welch's).
 */
class StatisticTest {
    private static final Direction LOWER = Direction.LOWER_IS_BETTER;
    private static final Thresholds T = Thresholds.DEFAULT;
    private static final double[] BASE = {100, 102, 98, 101, 99, 103, 97};
    private static final double[] HEAD = {104, 106, 103, 105, 107, 102, 140};
    private static final int[] BUILDS = {0, 1, 2, 0, 1, 2, 0};

    @Test
    void welchNamesItsTWithDegreesOfFreedomAndADetectableEffect() {
        Comparison c = Comparison.of(Sample.of(BASE), Sample.of(HEAD), LOWER, T);
        // scipy.stats.ttest_ind(HEAD, BASE, equal_var=False) (scipy 1.17.1)
        assertEquals(Statistic.Kind.WELCH_T, c.statistic().kind());
        assertEquals(1.8487888750661947, c.statistic().value(), 1e-12);
        assertEquals(6.305891554068877, c.statistic().df().getAsDouble(), 1e-9);
        assertEquals(0.11160055976878636, c.pValue(), 1e-12);
        assertTrue(c.mde().isPresent() && c.mde().getAsDouble() > 0, c.toString());
        assertTrue(Double.isFinite(c.detectable(T)), "the detectable change rests on the statistic's df and the mde");
    }

    @Test
    void mannWhitneyNamesItsUWithNeitherDegreesOfFreedomNorPower() {
        Comparison c = KnownTests.MANN_WHITNEY
                .judge(Trials.of(BASE), Trials.of(HEAD), LOWER, T, false)
                .comparison();
        assertEquals(Statistic.Kind.MANN_WHITNEY_U, c.statistic().kind());
        assertEquals(47.0, c.statistic().value(), 0.0, "of 49 pairs the head is above in 46, tied in 2");
        assertEquals(OptionalDouble.empty(), c.statistic().df());
        assertEquals(OptionalDouble.empty(), c.mde());
        assertTrue(Double.isNaN(c.detectable(T)), "a row judged without power claims none");
        assertTrue(Double.isNaN(c.ciLow()) && Double.isNaN(c.ciHigh()), "nor an interval");
    }

    @Test
    void yuenNamesItsTOfTheCandidateAgainstTheBaselineWithDegreesOfFreedom() {
        Comparison c = KnownTests.YUEN
                .judge(Trials.of(BASE), Trials.of(HEAD), LOWER, T, false)
                .comparison();
        // scipy.stats.ttest_ind(HEAD, BASE, equal_var=False, trim=0.2) (scipy 1.17.1)
        assertEquals(Statistic.Kind.YUEN_T, c.statistic().kind());
        assertEquals(3.7267799624996494, c.statistic().value(), 1e-12);
        assertEquals(8.0, c.statistic().df().getAsDouble(), 1e-12);
        assertEquals(0.005814542683586817, c.pValue(), 1e-12);
        assertEquals(OptionalDouble.empty(), c.mde());
    }

    @Test
    void aSideTooShortForTheTestGivesNoStatistic() {
        Comparison welch = Comparison.of(Sample.of(100), Sample.of(100, 101, 102), LOWER, T);
        assertEquals(Statistic.Kind.WELCH_T, welch.statistic().kind());
        assertTrue(Double.isNaN(welch.statistic().value()));
        assertEquals(OptionalDouble.empty(), welch.statistic().df());
        assertEquals(OptionalDouble.empty(), welch.mde());
        Comparison yuen = KnownTests.YUEN
                .judge(Trials.of(100, 101), Trials.of(100, 101, 102), LOWER, T, false)
                .comparison();
        assertTrue(
                Double.isNaN(yuen.statistic().value()) && yuen.statistic().df().isEmpty(), yuen.toString());
        Comparison u = KnownTests.MANN_WHITNEY
                .judge(Trials.of(), Trials.of(100, 101), LOWER, T, false)
                .comparison();
        assertTrue(Double.isNaN(u.statistic().value()), u.toString());
    }

    @ParameterizedTest
    @EnumSource(KnownTests.class)
    void everyKnownTestNamesTheStatisticItComputed(KnownTests test) {
        Statistic.Kind expected = switch (test) {
            // Trials that do not pair are judged by Welch's test whatever is asked.
            case WELCH, TRIALS, PAIRS, BUILD_MEDIANS, PERFAB, PERFAB_PAIRS -> Statistic.Kind.WELCH_T;
            case MANN_WHITNEY -> Statistic.Kind.MANN_WHITNEY_U;
            case YUEN -> Statistic.Kind.YUEN_T;
        };
        Comparison c = test.judge(Trials.of(BASE, BUILDS), Trials.of(HEAD, BUILDS), LOWER, T, false)
                .comparison();
        assertEquals(expected, c.statistic().kind());
        assertEquals(expected.hasDf(), c.statistic().df().isPresent(), c.toString());
        assertEquals(expected == Statistic.Kind.WELCH_T, c.mde().isPresent(), "power only where the test gives it");
    }

    @Test
    void refusesDegreesOfFreedomWhereTheStatisticHasNone() {
        assertThrows(
                IllegalArgumentException.class,
                () -> new Statistic(Statistic.Kind.MANN_WHITNEY_U, 25, OptionalDouble.of(4)));
        assertThrows(
                IllegalArgumentException.class, () -> new Statistic(Statistic.Kind.WELCH_T, 2, OptionalDouble.of(0)));
        assertThrows(
                IllegalArgumentException.class,
                () -> new Statistic(Statistic.Kind.WELCH_T, 2, OptionalDouble.of(Double.NaN)));
        assertEquals(
                OptionalDouble.empty(),
                Statistic.of(Statistic.Kind.YUEN_T, Double.NaN, Double.NaN).df());
    }

    @Test
    void namesEachStatisticForFiles() {
        assertEquals("welch-t", Statistic.Kind.WELCH_T.id());
        assertEquals("mann-whitney-u", Statistic.Kind.MANN_WHITNEY_U.id());
        assertEquals("yuen-t", Statistic.Kind.YUEN_T.id());
    }
}
