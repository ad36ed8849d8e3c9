package org.perfab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.perfab.stats.Direction.HIGHER_IS_BETTER;
import static org.perfab.stats.Direction.LOWER_IS_BETTER;

import java.util.List;
import java.util.OptionalDouble;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ComparisonTest {
    private static final Thresholds T = Thresholds.DEFAULT;

    @Test
    void givesPZeroForConstantSidesThatDiffer() {
        Comparison c = Comparison.of(Sample.of(100, 100, 100), Sample.of(104, 104, 104), LOWER_IS_BETTER, T);
        assertEquals(0.0, c.pValue());
        assertEquals(Statistic.Kind.WELCH_T, c.statistic().kind());
        assertEquals(Double.POSITIVE_INFINITY, c.statistic().value());
        assertEquals(OptionalDouble.empty(), c.statistic().df(), "no degrees of freedom when both sides are constant");
        assertEquals(4.0, c.pctChange(), 1e-12);
        assertEquals(c.pctChange(), c.ciLow());
        assertEquals(c.pctChange(), c.ciHigh());
        assertEquals(OptionalDouble.of(0.0), c.mde());
        assertEquals(Verdict.REGRESSION, c.verdict());
    }

    @Test
    void givesPOneForConstantSidesThatAgree() {
        Comparison c = Comparison.of(Sample.of(7, 7), Sample.of(7, 7, 7), HIGHER_IS_BETTER, T);
        assertEquals(1.0, c.pValue());
        assertEquals(0.0, c.pctChange());
        assertEquals(Verdict.UNCHANGED, c.verdict());
        assertEquals(List.of(), c.caveats());
    }

    @Test
    void saysNoDataWhenASideHasFewerThanTwoValues() {
        Comparison one = Comparison.of(Sample.of(1), Sample.of(1, 2, 3), LOWER_IS_BETTER, T);
        assertEquals(Verdict.NO_DATA, one.verdict());
        assertEquals(List.of(Caveat.BASE_TOO_FEW), one.caveats());
        assertTrue(Double.isNaN(one.pValue()));
        assertEquals(100.0, one.pctChange(), 1e-12);

        Comparison missing = Comparison.of(Sample.of(1, 2), Sample.empty(), LOWER_IS_BETTER, T);
        assertEquals(Verdict.NO_DATA, missing.verdict());
        assertEquals(List.of(Caveat.HEAD_TOO_FEW), missing.caveats());
        assertTrue(Double.isNaN(missing.pctChange()));
        assertEquals(0, missing.head().n());
    }

    @Test
    void zeroOnBothSidesIsNoChangeNotAMissingPercent() {
        Comparison c = Comparison.of(Sample.of(0, 0, 0), Sample.of(0, 0), LOWER_IS_BETTER, T);
        assertEquals(Verdict.UNCHANGED, c.verdict());
        assertEquals(0.0, c.pctChange());
        assertEquals(0.0, c.ciLow());
        assertEquals(0.0, c.ciHigh());
        assertEquals(1.0, c.pValue());
        assertEquals(List.of(), c.caveats(), "nothing to explain");
        Comparison moved = Comparison.of(Sample.of(0, 0, 0), Sample.of(0, 0, 1), LOWER_IS_BETTER, T);
        assertTrue(Double.isNaN(moved.pctChange()), "one value off zero: no percent change from zero");
        assertTrue(moved.caveats().contains(Caveat.NON_POSITIVE_BASE_MEAN));
    }

    @Test
    void profileKeepsTheFiguresButNeverClassifies() {
        Comparison c = Comparison.profile(Sample.of(10, 10.1, 9.9), Sample.of(30, 30.2, 29.8), LOWER_IS_BETTER, T);
        assertEquals(Verdict.PROFILE, c.verdict());
        assertEquals(200.0, c.pctChange(), 1e-9);
        assertTrue(c.pValue() < 1e-4);
        assertEquals(
                Verdict.NO_DATA,
                Comparison.profile(Sample.of(1), Sample.of(1, 2), LOWER_IS_BETTER, T)
                        .verdict());
    }

    @Test
    void reportsNoPercentChangeFromANonPositiveBaselineAndStillJudgesTheMove() {
        Comparison c = Comparison.of(Sample.of(0, 0, 0), Sample.of(1, 9, 2), LOWER_IS_BETTER, T);
        assertTrue(Double.isNaN(c.pctChange()));
        assertTrue(Double.isNaN(c.ciLow()) && c.mde().isEmpty());
        assertTrue(c.caveats().contains(Caveat.NON_POSITIVE_BASE_MEAN));
        assertEquals(Verdict.INCONCLUSIVE, c.verdict(), "not confirmed with 3 noisy values");

        Comparison allocations = Comparison.of(Sample.of(0, 0, 0), Sample.of(2, 2, 2), LOWER_IS_BETTER, T);
        assertEquals(Verdict.REGRESSION, allocations.verdict());
        Comparison freed = Comparison.of(Sample.of(0, 0, 0), Sample.of(2, 2, 2), HIGHER_IS_BETTER, T);
        assertEquals(Verdict.IMPROVEMENT, freed.verdict());
        assertEquals(
                Verdict.UNCHANGED,
                Comparison.of(Sample.of(0, 0), Sample.of(0, 0), LOWER_IS_BETTER, T)
                        .verdict());

        Comparison negative = Comparison.of(Sample.of(-5, -6, -5), Sample.of(-1, -1.5, -1), LOWER_IS_BETTER, T);
        assertEquals(Verdict.INCONCLUSIVE, negative.verdict());

        Comparison better = Comparison.of(Sample.of(-5, -6, -5), Sample.of(-1, -1.5, -1), HIGHER_IS_BETTER, T);
        assertEquals(Verdict.UNCHANGED, better.verdict());
        assertTrue(better.caveats().contains(Caveat.NON_POSITIVE_BASE_MEAN));
    }

    @Test
    void marksAnUnchangedVerdictUnderpoweredWhenTheMdeExceedsTheMinEffect() {
        Comparison underpowered = Comparison.of(
                Sample.of(98, 100, 102, 99, 101), Sample.of(98.5, 100.5, 102.5, 99.5, 101.5), LOWER_IS_BETTER, T);
        assertEquals(Verdict.UNCHANGED, underpowered.verdict());
        assertTrue(underpowered.mde().getAsDouble() > 3.0);
        assertTrue(underpowered.detectable(T) <= T.inconclusive(), "it still rules out " + underpowered.detectable(T));
        assertTrue(underpowered.caveats().contains(Caveat.UNDERPOWERED));

        // Blind to a slowdown past the inconclusive threshold: too noisy to tell, never unchanged.
        Comparison noisy = Comparison.of(Sample.of(80, 100, 120), Sample.of(82, 101, 121), LOWER_IS_BETTER, T);
        assertEquals(Verdict.NOISY, noisy.verdict());
        assertTrue(noisy.detectable(T) > T.inconclusive());
        assertTrue(noisy.caveats().contains(Caveat.UNDERPOWERED));

        Comparison quiet = Comparison.of(
                Sample.of(100, 100.1, 99.9, 100), Sample.of(100.05, 100, 99.95, 100.1), LOWER_IS_BETTER, T);
        assertEquals(Verdict.UNCHANGED, quiet.verdict());
        assertTrue(quiet.mde().getAsDouble() < 3.0);
        assertFalse(quiet.caveats().contains(Caveat.UNDERPOWERED));
    }

    @Test
    void aTrueSlowdownOfTheDetectableSizeIsReportedFourTimesInFive() {
        // The rows say "no change >= X": X must be what the rules catch with 80% power, not the
        // test's own minimum detectable effect, which ignores the bar (a true 3% change is found
        // only half the time). Check it by drawing from the noise the figure was computed for.
        Random random = new Random(8);
        for (double cv : new double[] {1, 3, 10}) {
            for (int n : new int[] {5, 10, 20}) {
                // Sides whose spread is exactly the noise's, so the figure is the one for this noise.
                double[] base = exactly(n, cv, random);
                double[] head = exactly(n, cv, random);
                double detectable = Comparison.of(Sample.of(base), Sample.of(head), LOWER_IS_BETTER, T)
                        .detectable(T);
                assertTrue(detectable > T.minEffect(), "above the bar: " + detectable);
                int reported = 0;
                int runs = 4000;
                for (int r = 0; r < runs; r++) {
                    for (int i = 0; i < n; i++) {
                        base[i] = 100 + cv * random.nextGaussian();
                        head[i] = (100 + detectable) + cv * random.nextGaussian();
                    }
                    Verdict v = Comparison.of(Sample.of(base), Sample.of(head), LOWER_IS_BETTER, T)
                            .verdict();
                    reported += v == Verdict.REGRESSION || v == Verdict.INCONCLUSIVE ? 1 : 0;
                }
                double power = (double) reported / runs;
                assertTrue(
                        power > 0.72 && power < 0.88,
                        "cv " + cv + " n " + n + ": power " + power + " at " + detectable + "%");
            }
        }
        Comparison constant = Comparison.of(Sample.of(5, 5, 5), Sample.of(5, 5, 5), LOWER_IS_BETTER, T);
        assertEquals(T.minEffect(), constant.detectable(T));
        assertTrue(Double.isNaN(
                Comparison.of(Sample.of(5), Sample.of(5, 6), LOWER_IS_BETTER, T).detectable(T)));
    }

    /** Returns {@code n} values of mean 100 and sample standard deviation exactly {@code sd}. */
    private static double[] exactly(int n, double sd, Random random) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = random.nextGaussian();
        }
        Summary s = Summary.of(Sample.of(v));
        for (int i = 0; i < n; i++) {
            v[i] = 100 + (v[i] - s.mean()) / s.stddev() * sd;
        }
        return v;
    }

    @Test
    void leavesTheIntervalUnboundedWhenTheBaselineMeanCouldBeZero() {
        Comparison c = Comparison.of(Sample.of(0.1, 10, 0.2), Sample.of(5, 6, 7), LOWER_IS_BETTER, T);
        assertTrue(Double.isNaN(c.ciLow()) && Double.isNaN(c.ciHigh()));
        assertTrue(c.caveats().contains(Caveat.UNBOUNDED_INTERVAL));
        assertFalse(Double.isNaN(c.pctChange()));
    }

    @Test
    void theIntervalOfACountNeverReachesBelowMinusOneHundredPercent() {
        // Instructions counted three times a side: one head trial counted it all, two lost most of it.
        Sample base = Sample.of(1_000_000, 1_000_100, 999_900);
        Comparison c = Comparison.of(base, Sample.of(1_000_000, 10_000, 10_000), LOWER_IS_BETTER, T);
        assertEquals(-66.0, c.pctChange(), 1e-9);
        assertEquals(-100.0, c.ciLow(), "Fieller's low end is about -208%; no count falls below 0");
        assertEquals(75.988, c.ciHigh(), 1e-3, "the high end is Fieller's");
        Comparison throughput = Comparison.of(base, Sample.of(1_000_000, 10_000, 10_000), HIGHER_IS_BETTER, T);
        assertEquals(100.0, throughput.worseEnd(), "a rate cannot fall by more than all of it");
        Comparison signed = Comparison.of(base, Sample.of(1_000_000, -10_000, 10_000), LOWER_IS_BETTER, T);
        assertTrue(signed.ciLow() < -100, "a quantity that can be negative keeps Fieller's low end: " + signed.ciLow());
    }

    @Test
    void fiellerIntervalCoversTheTrueChangeAboutNinetyFivePercentOfTheTime() {
        Random random = new Random(42);
        int trials = 4000;
        int covered = 0;
        double trueChange = 5.0;
        for (int i = 0; i < trials; i++) {
            double[] base = new double[5];
            double[] head = new double[8];
            for (int j = 0; j < base.length; j++) {
                base[j] = 100 + 4 * random.nextGaussian();
            }
            for (int j = 0; j < head.length; j++) {
                head[j] = 105 + 9 * random.nextGaussian();
            }
            Comparison c = Comparison.of(Sample.of(base), Sample.of(head), LOWER_IS_BETTER, T);
            if (c.ciLow() <= trueChange && trueChange <= c.ciHigh()) {
                covered++;
            }
        }
        double coverage = covered / (double) trials;
        // Binomial standard error at 95% over 4000 draws is 0.34%; allow about four of them.
        assertTrue(coverage > 0.935 && coverage < 0.965, "coverage " + coverage);
    }

    @Test
    void mdeIsAboutTheChangeFoundWithEightyPercentPower() {
        Random random = new Random(7);
        int n = 10;
        double cv = 4.0;
        // Estimate the MDE from one representative comparison, then simulate a true change of it.
        double[] a = new double[n];
        double[] b = new double[n];
        double mdeSum = 0;
        int found = 0;
        int trials = 3000;
        for (int i = 0; i < trials; i++) {
            for (int j = 0; j < n; j++) {
                a[j] = 100 * (1 + cv / 100 * random.nextGaussian());
                b[j] = 100 * (1 + cv / 100 * random.nextGaussian());
            }
            mdeSum += Comparison.of(Sample.of(a), Sample.of(b), LOWER_IS_BETTER, T)
                    .mde()
                    .getAsDouble();
        }
        double mde = mdeSum / trials;
        for (int i = 0; i < trials; i++) {
            for (int j = 0; j < n; j++) {
                a[j] = 100 * (1 + cv / 100 * random.nextGaussian());
                b[j] = 100 * (1 + mde / 100) + 100 * cv / 100 * random.nextGaussian();
            }
            if (Comparison.of(Sample.of(a), Sample.of(b), LOWER_IS_BETTER, T).pValue() < T.alpha()) {
                found++;
            }
        }
        double power = found / (double) trials;
        assertTrue(power > 0.72 && power < 0.88, "power at the mean MDE of " + mde + "%: " + power);
    }

    @Test
    void hugeAndTinyValuesGiveTheFiguresOfOrdinaryOnes() {
        double[] base = {1.00, 1.01, 0.99, 1.02, 0.98};
        double[] head = {1.70, 1.71, 1.69, 1.72, 1.68};
        Comparison ordinary = Comparison.of(Sample.of(base), Sample.of(head), LOWER_IS_BETTER, Thresholds.DEFAULT);
        for (double scale : new double[] {1e308 / 1.72, 1e-300, 4.9e-324 * 1e10}) {
            double[] b = base.clone();
            double[] h = head.clone();
            for (int i = 0; i < b.length; i++) {
                b[i] *= scale;
                h[i] *= scale;
            }
            Comparison c = Comparison.of(Sample.of(b), Sample.of(h), LOWER_IS_BETTER, Thresholds.DEFAULT);
            assertEquals(Verdict.REGRESSION, c.verdict(), "scale " + scale);
            assertEquals(ordinary.pctChange(), c.pctChange(), 1e-6, "scale " + scale);
            assertEquals(ordinary.pValue(), c.pValue(), 1e-6 * ordinary.pValue() + 1e-12, "scale " + scale);
            assertEquals(ordinary.base().cv(), c.base().cv(), 1e-6, "scale " + scale);
            assertEquals(1.0, c.base().mean() / (scale * ordinary.base().mean()), 1e-9, "scale " + scale);
            assertTrue(Double.isFinite(c.head().stddev()), "scale " + scale);
        }
    }

    @Test
    void rejectsMissingParts() {
        Summary s = Summary.of(Sample.of(1, 2));
        Statistic t = new Statistic(Statistic.Kind.WELCH_T, 0, OptionalDouble.of(4));
        assertThrows(
                NullPointerException.class,
                () -> new Comparison(
                        s, s, null, 0, 0, 0, t, 0, OptionalDouble.of(0), Verdict.UNCHANGED, List.of(), Double.NaN));
        assertThrows(
                NullPointerException.class,
                () -> new Comparison(
                        s,
                        s,
                        LOWER_IS_BETTER,
                        0,
                        0,
                        0,
                        null,
                        0,
                        OptionalDouble.of(0),
                        Verdict.UNCHANGED,
                        List.of(),
                        Double.NaN));
        assertThrows(
                NullPointerException.class,
                () -> new Comparison(
                        s, s, LOWER_IS_BETTER, 0, 0, 0, t, 0, null, Verdict.UNCHANGED, List.of(), Double.NaN));
    }
}
