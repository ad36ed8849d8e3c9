package org.perfab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.perfab.stats.Direction.HIGHER_IS_BETTER;
import static org.perfab.stats.Direction.LOWER_IS_BETTER;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** perfab's verdict on a cell's trials ({@link Comparison#judge}): far trials, one side, two groups. */
class JudgeTest {
    private static final Thresholds T = Thresholds.DEFAULT;
    private static final double[] STEADY = {100.0, 100.4, 99.7, 100.2, 99.9, 100.1, 99.6, 100.3, 100.0, 99.8};

    private static double[] times(double factor, double[] values) {
        double[] out = values.clone();
        for (int i = 0; i < out.length; i++) {
            out[i] *= factor;
        }
        return out;
    }

    private static double[] with(double[] values, int at, double factor) {
        double[] out = values.clone();
        out[at] *= factor;
        return out;
    }

    private static Comparison.Judged judge(double[] base, double[] head) {
        return Comparison.judge(base, head, LOWER_IS_BETTER, T, false);
    }

    @Test
    void withoutFarTrialsItIsWelchsTestOnEveryTrial() {
        double[] head = times(1.05, STEADY);
        Comparison.Judged j = judge(STEADY, head);
        assertEquals(Comparison.of(Sample.of(STEADY), Sample.of(head), LOWER_IS_BETTER, T), j.comparison());
        assertTrue(j.baseSetAside().isEmpty() && j.headSetAside().isEmpty());
    }

    @Test
    void aHiccupOnEitherSideDoesNotHideARealSlowdown() {
        Comparison.Judged headHiccup = judge(STEADY, with(times(1.05, STEADY), 6, 1.3));
        assertEquals(Verdict.REGRESSION, headHiccup.comparison().verdict());
        assertEquals(List.of(6), headHiccup.headSetAside());
        assertEquals(5.0, headHiccup.comparison().pctChange(), 0.1);
        Comparison.Judged baseHiccup = judge(with(STEADY, 2, 1.3), times(1.05, STEADY));
        assertEquals(Verdict.REGRESSION, baseHiccup.comparison().verdict());
        assertEquals(List.of(2), baseHiccup.baseSetAside());
    }

    @Test
    void hiccupsOnBothSidesAreSetAsideOnBoth() {
        Comparison.Judged j = judge(with(STEADY, 1, 1.4), with(STEADY, 8, 1.35));
        assertEquals(Verdict.UNCHANGED, j.comparison().verdict());
        assertEquals(List.of(1), j.baseSetAside());
        assertEquals(List.of(8), j.headSetAside());
        assertFalse(j.comparison().caveats().contains(Caveat.ONE_SIDED));
    }

    @Test
    void aSlowdownThatHitsSomeTrialsNeverReadsNoChange() {
        // One candidate trial in five 30% slower, the rest as fast as the baseline: a hiccup, or a
        // change that hits some trials. Five trials cannot tell which.
        double[] base = {100.0, 100.4, 99.7, 100.2, 99.9};
        double[] head = {100.1, 130.2, 99.8, 100.3, 100.0};
        // They are evidence of the code: every trial is judged, and a mean 6% worse that the test
        // cannot confirm at five trials is inconclusive, never small or unchanged.
        Comparison.Judged j = judge(base, head);
        Comparison c = j.comparison();
        assertEquals(Verdict.INCONCLUSIVE, c.verdict());
        assertTrue(c.caveats().contains(Caveat.ONE_SIDED), c.caveats().toString());
        assertEquals(5, c.head().n(), "nothing set aside");
        assertTrue(j.headSetAside().isEmpty());
        assertEquals(6.0, c.pctChange(), 0.1);
        // The baseline's far trial for the better makes the candidate look worse too.
        Comparison fasterBase = judge(with(base, 3, 0.7), base).comparison();
        assertEquals(Verdict.INCONCLUSIVE, fasterBase.verdict());
    }

    @Test
    void aSlowdownInTooManyTrialsToBeChanceIsARegression() {
        // Six of twenty candidate trials 30% slower, none of the baseline's: the mean moved 9%.
        double[] base = new double[20];
        double[] head = new double[20];
        for (int i = 0; i < 20; i++) {
            base[i] = STEADY[i % 10];
            head[i] = STEADY[(i + 3) % 10] * (i % 3 == 0 && i < 18 ? 1.3 : 1);
        }
        Comparison c = judge(base, head).comparison();
        assertEquals(Verdict.REGRESSION, c.verdict(), c.toString());
        assertTrue(c.caveats().contains(Caveat.ONE_SIDED));
        assertEquals(9.0, c.pctChange(), 0.5, "the mean of every trial");
    }

    @Test
    void theBaselinesHiccupAloneHidesNoSlowdown() {
        Comparison c = judge(with(STEADY, 4, 1.3), STEADY.clone()).comparison();
        assertEquals(Verdict.UNCHANGED, c.verdict());
        assertTrue(c.caveats().contains(Caveat.ONE_SIDED));
    }

    @Test
    void groupsThatSwapBetweenTheSidesAreNotAChange() {
        // A machine with two speeds, 40% apart: the baseline's trials landed mostly fast, the
        // candidate's mostly slow. Nothing changed.
        double[] base = {100.4, 138.3, 100.5, 99.5, 99.8};
        double[] head = {140.5, 140.7, 99.1, 139.2, 139.3};
        Comparison c = judge(base, head).comparison();
        assertNotEquals(Verdict.REGRESSION, c.verdict(), c.toString());
        assertTrue(c.caveats().contains(Caveat.SPLIT), c.caveats().toString());
        // The same, one side all in one group.
        Comparison one = judge(
                        new double[] {98.5, 99.6, 101.7, 99.5, 98.0}, new double[] {139.6, 139.7, 140.7, 98.4, 99.6})
                .comparison();
        assertNotEquals(Verdict.REGRESSION, one.verdict(), one.toString());
    }

    @Test
    void aChangePastTheGapBetweenGroupsStands() {
        // Both groups 2.5 times slower: past the 40% between them and the bar.
        double[] base = {100.4, 138.3, 100.5, 99.5, 99.8};
        double[] head = times(2.5, new double[] {140.5, 140.7, 99.1, 139.2, 139.3});
        assertEquals(Verdict.REGRESSION, judge(base, head).comparison().verdict());
    }

    @Test
    void aHeavyTailIsSetAsideOnBothSidesWhateverItsShare() {
        // A fifth of the baseline's trials and a tenth of the candidate's 50% slower: cleaning one
        // side only (as a cap on outliers did) made a 10% change out of nothing.
        double[] base = new double[20];
        double[] head = new double[20];
        for (int i = 0; i < 20; i++) {
            base[i] = STEADY[i % 10] * (i % 5 == 0 || i == 7 ? 1.5 : 1);
            head[i] = STEADY[(i + 1) % 10] * (i % 10 == 4 ? 1.5 : 1);
        }
        Comparison.Judged j = judge(base, head);
        assertEquals(5, j.baseSetAside().size());
        assertEquals(2, j.headSetAside().size());
        assertEquals(Verdict.UNCHANGED, j.comparison().verdict(), j.comparison().toString());
    }

    @Test
    void ordinaryNoiseIsRarelyFar() {
        Random r = new Random(7);
        int far = 0;
        for (int run = 0; run < 2000; run++) {
            double[] b = new double[10];
            double[] h = new double[10];
            for (int i = 0; i < 10; i++) {
                b[i] = 100 * (1 + 0.03 * r.nextGaussian());
                h[i] = 100 * (1 + 0.03 * r.nextGaussian());
            }
            far += FarTrials.of(b, h, 3).none() ? 0 : 1;
        }
        // Twenty values a run: about one run in forty has a value past five pooled spreads.
        assertTrue(far < 2000 * 0.04, far + " runs of normal noise had a far trial");
    }

    @Test
    void aFarTrialIsMeasuredAgainstOneSpreadForBothSides() {
        // The baseline is tight, the candidate loose: a value 4% off is far for neither, since
        // the pooled spread holds both.
        double[] tight = {100, 100.1, 99.9, 100.05, 99.95};
        double[] loose = {100, 104, 96, 102, 98};
        FarTrials f = FarTrials.of(loose, tight, 3);
        assertTrue(f.none(), f.toString());
    }

    @Test
    void aStepOfTheGridValuesLieOnIsNeverFar() {
        // CPU time in 10 ms clock ticks: most trials on the median, some a tick away (4.8%).
        double[] base = {210, 210, 200, 210, 210, 200, 210, 210, 220, 210};
        double[] head = {210, 200, 210, 210, 210, 210, 200, 210, 210, 210};
        FarTrials f = FarTrials.of(base, head, 3);
        assertTrue(f.none(), f.toString());
        assertEquals(10, f.spread(), 1e-9);
        Comparison c = judge(base, head).comparison();
        assertEquals(10, c.base().n(), "no trial set aside");
        assertEquals(Verdict.UNCHANGED, c.verdict(), c.toString());
        // A hiccup far past the grid's step is still far.
        assertEquals(List.of(4), FarTrials.of(with(base, 4, 2), head, 3).base());
    }

    @Test
    void profilesAreJudgedTheSameWayButNeverClassified() {
        Comparison.Judged j = Comparison.judge(STEADY, with(times(1.05, STEADY), 6, 1.3), LOWER_IS_BETTER, T, true);
        assertEquals(Verdict.PROFILE, j.comparison().verdict());
        assertEquals(List.of(6), j.headSetAside());
    }

    @Test
    void aThroughputIsWorseLower() {
        Comparison c = Comparison.judge(STEADY, with(STEADY, 3, 0.7), HIGHER_IS_BETTER, T, false)
                .comparison();
        assertEquals(Verdict.INCONCLUSIVE, c.verdict(), "a throughput that dropped in one candidate trial");
    }

    @Test
    void significantAloneButNotAmongManyIsTooNoisyToTell() {
        Comparison c =
                Comparison.of(Sample.of(100, 102, 98, 101, 99), Sample.of(105, 102, 106, 103, 104), LOWER_IS_BETTER, T);
        assertEquals(Verdict.REGRESSION, c.verdict());
        Comparison judged = c.atFalseDiscoveryRate(0.12, T);
        assertEquals(Verdict.NOISY, judged.verdict());
        assertTrue(judged.caveats().contains(Caveat.NOT_AMONG_MANY));
        assertEquals(0.12, judged.qValue(), 0.0);
        assertEquals(c.pValue(), judged.pValue(), 0.0, "the figures stay");
        Comparison kept = c.atFalseDiscoveryRate(0.01, T);
        assertEquals(Verdict.REGRESSION, kept.verdict());
        assertEquals(0.01, kept.qValue(), 0.0);
        Comparison big = Comparison.of(
                        Sample.of(100, 120, 80, 110, 90), Sample.of(125, 135, 115, 130, 120), LOWER_IS_BETTER, T)
                .atFalseDiscoveryRate(0.3, T);
        assertEquals(Verdict.INCONCLUSIVE, big.verdict(), "worse past 10%, not confirmed among many");
    }

    @Test
    void significantAtAlphaButShortOfItsLookSaysSoRatherThanNotAmongMany() {
        // +5%, p about 0.005 at the first look of four, whose level is 0.001: not yet a regression,
        // and the reason is the look, not the run's other cells.
        Thresholds look = T.withAdaptive(new Sequential(5, 20)).atLook(1);
        Comparison c = Comparison.of(
                Sample.of(100, 102, 98, 101, 99), Sample.of(105, 107, 103, 106, 104), LOWER_IS_BETTER, look);
        assertTrue(c.pValue() > 0.001 && c.pValue() < 0.05, c.toString());
        assertEquals(Verdict.INCONCLUSIVE, c.verdict(), "worse past the bar, short of its look");
        assertTrue(c.caveats().contains(Caveat.NOT_AT_LOOK), c.caveats().toString());
        assertTrue(c.undecided(T), "more trials settle it");
        // Judged together: q under alpha but over the look's rate is the look's doing too.
        Thresholds last = T.withAdaptive(new Sequential(5, 20)).atLook(4);
        Comparison r = Comparison.of(
                Sample.of(100, 102, 98, 101, 99), Sample.of(110, 112, 108, 111, 109), LOWER_IS_BETTER, last);
        assertEquals(Verdict.REGRESSION, r.verdict());
        Comparison shortOfLook = r.atFalseDiscoveryRate(0.0495, last);
        assertEquals(Verdict.INCONCLUSIVE, shortOfLook.verdict());
        assertTrue(
                shortOfLook.caveats().contains(Caveat.NOT_AT_LOOK),
                shortOfLook.caveats().toString());
        Comparison notAmongMany = r.atFalseDiscoveryRate(0.2, last);
        assertTrue(
                notAmongMany.caveats().contains(Caveat.NOT_AMONG_MANY),
                notAmongMany.caveats().toString());
        // A small change needs only alpha's rate, whatever the look.
        Comparison small = Comparison.of(
                Sample.of(100, 100.2, 99.8, 100.1, 99.9),
                Sample.of(102, 102.2, 101.8, 102.1, 101.9),
                LOWER_IS_BETTER,
                look);
        assertEquals(Verdict.SMALL, small.verdict());
        assertEquals(Verdict.SMALL, small.atFalseDiscoveryRate(0.01, look).verdict());
    }

    @Test
    void manyCellsAreJudgedTogetherByDefault() {
        assertFalse(T.judgedTogether(Thresholds.MANY_CELLS - 1));
        assertTrue(T.judgedTogether(Thresholds.MANY_CELLS));
        assertEquals(T.alpha(), T.fdrRate(), 0.0);
        Thresholds off = new Thresholds(0.05, 3, 10, Thresholds.FDR_OFF);
        assertFalse(off.judgedTogether(1000));
        Thresholds always = new Thresholds(0.05, 3, 10, 0.1);
        assertTrue(always.judgedTogether(2));
        assertEquals(0.1, always.fdrRate(), 0.0);
        Thresholds looks = always.withAdaptive(new Sequential(5, 20));
        Thresholds first = looks.atLook(1);
        assertEquals(
                0.1 * first.testAlpha() / 0.05,
                first.fdrRate(),
                1e-15,
                "a regression's rate shrinks with its look's level");
        assertEquals(0.1, first.nominalFdrRate(), 0.0, "a small change's does not");
        Thresholds second = T.withAdaptive(new Sequential(5, 20)).atLook(2);
        assertEquals(second.testAlpha(), second.fdrRate(), 1e-15, "the default follows the look's level");
        assertEquals(0.05, second.nominalFdrRate(), 0.0);
    }
}
