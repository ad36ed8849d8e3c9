package org.perfab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * perfab's rules on the interleaved order's pairs ({@link KnownTests#PAIRS}) and the run's choice
 * of test ({@link Pairing}): a trial set aside takes its partner out, no rule that sets trials aside
 * hides a change of the code, and the choice never reads the means.
 */
class PairsJudgeTest {
    private static final Direction LOWER = Direction.LOWER_IS_BETTER;
    private static final Thresholds T = Thresholds.DEFAULT;

    /** The runner's speed at each place of a run of {@code n} pairs: a wave of 20% over the run. */
    private static double[] wave(int n) {
        double[] level = new double[2 * n];
        for (int i = 0; i < level.length; i++) {
            level[i] = 1 + 0.2 * Math.sin(2 * Math.PI * i / level.length);
        }
        return level;
    }

    /**
     * Returns a cell's trials on a runner at {@code level}: pair {@code k} runs the base first when k
     * is even, each trial with 1% of noise of its own, the head's cost {@code head} times the base's
     * and {@code slower[k]} times more in pair k.
     */
    private static Trials[] cell(double[] level, double head, double[] slower, long seed) {
        int n = level.length / 2;
        Random random = new Random(seed);
        double[][] values = new double[2][n];
        int[][] places = new int[2][n];
        int[] pairs = new int[n];
        for (int k = 0; k < n; k++) {
            pairs[k] = k;
            for (int s = 0; s < 2; s++) {
                int place = 2 * k + (k % 2 == 0 ? s : 1 - s);
                double cost = s == 0 ? 100 : 100 * head * slower[k];
                values[s][k] = cost * level[place] * (1 + 0.01 * random.nextGaussian());
                places[s][k] = place;
            }
        }
        return new Trials[] {
            Trials.inPairs(values[0], new int[n], pairs, places[0]),
            Trials.inPairs(values[1], new int[n], pairs, places[1])
        };
    }

    private static double[] ones(int n) {
        double[] v = new double[n];
        java.util.Arrays.fill(v, 1);
        return v;
    }

    private static Comparison.Judged pairs(Trials[] c) {
        return KnownTests.PAIRS.judge(c[0], c[1], LOWER, T, false);
    }

    @Test
    void pairsFindWhatTheRunnersDriftHidesFromWelch() {
        Trials[] c = cell(wave(10), 1.05, ones(10), 1);
        Comparison paired = pairs(c).comparison();
        Comparison welch = KnownTests.TRIALS.judge(c[0], c[1], LOWER, T, false).comparison();
        assertEquals(Verdict.REGRESSION, paired.verdict(), paired.toString());
        assertEquals(Statistic.Kind.PAIRED_T, paired.statistic().kind());
        assertNotEquals(Verdict.REGRESSION, welch.verdict(), welch.toString());
        assertEquals(welch.pctChange(), paired.pctChange(), 1e-9, "in the ABBA order the estimate is Welch's");
    }

    @Test
    void aFarTrialSetAsideTakesItsPartnerOutOfThePairs() {
        Trials[] c = cell(ones(20), 1.0, ones(10), 2);
        double[][] v = {c[0].values().clone(), c[1].values().clone()};
        // A hiccup of the machine on each side, in two different pairs: set aside on both sides.
        v[0][3] *= 1.6;
        v[1][7] *= 1.6;
        int[] pairs = new int[10];
        int[][] places = new int[2][10];
        for (int k = 0; k < 10; k++) {
            pairs[k] = k;
            places[0][k] = 2 * k + (k % 2 == 0 ? 0 : 1);
            places[1][k] = 2 * k + (k % 2 == 0 ? 1 : 0);
        }
        Comparison.Judged judged = KnownTests.PAIRS.judge(
                Trials.inPairs(v[0], new int[10], pairs, places[0]),
                Trials.inPairs(v[1], new int[10], pairs, places[1]),
                LOWER,
                T,
                false);
        assertEquals(List.of(3), judged.baseSetAside());
        assertEquals(List.of(7), judged.headSetAside());
        assertEquals(8, judged.comparison().base().n(), "pairs 3 and 7 left out whole: " + judged.comparison());
        assertEquals(8, judged.comparison().head().n());
        assertEquals(Statistic.Kind.PAIRED_T, judged.comparison().statistic().kind());
    }

    @Test
    void aTrialWithoutAPartnerIsLeftOutOfThePairs() {
        // A replacement trial of the base (pair 10) whose head has none: the other ten pairs judge.
        Trials[] c = cell(wave(10), 1.05, ones(10), 3);
        double[] base = java.util.Arrays.copyOf(c[0].values(), 11);
        base[10] = 150;
        int[] pairs = new int[11];
        int[] places = new int[11];
        for (int k = 0; k < 11; k++) {
            pairs[k] = k;
            places[k] = k < 10 ? 2 * k + (k % 2 == 0 ? 0 : 1) : 25;
        }
        Comparison judged = KnownTests.PAIRS
                .judge(Trials.inPairs(base, new int[11], pairs, places), c[1], LOWER, T, false)
                .comparison();
        assertEquals(10, judged.base().n(), judged.toString());
        assertEquals(Verdict.REGRESSION, judged.verdict(), judged.toString());
    }

    @Test
    void aSlowdownInOneTrialInFiveIsNeverPassedInPairs() {
        // The head's code is 30% slower in 4 of its 20 trials, and the runner drifts: setting the slow
        // trials aside would pass the change; the pairs keep it in the cell's verdict.
        double[] slower = ones(20);
        for (int k : new int[] {2, 7, 11, 16}) {
            slower[k] = 1.3;
        }
        for (long seed = 0; seed < 20; seed++) {
            Comparison c = pairs(cell(wave(20), 1.0, slower, seed)).comparison();
            assertFalse(
                    c.verdict() == Verdict.UNCHANGED
                            || c.verdict() == Verdict.IMPROVEMENT
                            || c.verdict() == Verdict.SMALL,
                    seed + ": " + c);
        }
    }

    @Test
    void twoSpeedsOfTheRunnerNeverGiveAVerdictTheTrialsAsAWholeDoNot() {
        // Half the trials of each side 40% slower, drawn apart from the pairs: like is compared with like.
        Random random = new Random(5);
        int wrong = 0;
        for (int r = 0; r < 200; r++) {
            double[] level = new double[40];
            for (int i = 0; i < level.length; i++) {
                level[i] = random.nextBoolean() ? 1.4 : 1;
            }
            Comparison c = pairs(cell(level, 1.05, ones(20), r)).comparison();
            wrong += c.verdict() == Verdict.IMPROVEMENT || c.verdict() == Verdict.UNCHANGED ? 1 : 0;
        }
        assertTrue(wrong <= 2, wrong + " of 200 passed or sped up a 5% slowdown");
    }

    @Test
    void trialsThatDoNotPairAreJudgedByWelchsTest() {
        Comparison c = KnownTests.PAIRS
                .judge(Trials.of(100, 101, 99, 100.5), Trials.of(105, 106, 104, 105.5), LOWER, T, false)
                .comparison();
        assertEquals(Statistic.Kind.WELCH_T, c.statistic().kind());
        assertEquals(
                KnownTests.TRIALS
                        .judge(Trials.of(100, 101, 99, 100.5), Trials.of(105, 106, 104, 105.5), LOWER, T, false)
                        .comparison(),
                c);
    }

    @Test
    void aSideHasOneTrialInEachPairAtMost() {
        assertThrows(
                IllegalArgumentException.class,
                () -> Trials.inPairs(new double[] {1, 2}, new int[2], new int[] {0, 0}, new int[] {0, 2}));
    }

    @Test
    void theChoiceOfTestReadsNoMeans() {
        Random random = new Random(9);
        for (int r = 0; r < 30; r++) {
            double[] level = r % 2 == 0 ? wave(8) : ones(16);
            List<Trials[]> cells = new ArrayList<>();
            List<Trials[]> moved = new ArrayList<>();
            for (int c = 0; c < 4; c++) {
                long seed = random.nextLong();
                cells.add(cell(level, 1.0, ones(8), seed));
                moved.add(cell(level, r % 3 == 0 ? 1.3 : 0.7, ones(8), seed));
            }
            Pairing a = Pairing.decide(TrialTest.AUTO, cells);
            Pairing b = Pairing.decide(TrialTest.AUTO, moved);
            assertEquals(a.inPairs(), b.inPairs(), r + ": " + a + " against " + b);
            assertEquals(a.p(), b.p(), 1e-9, "the evidence is the same whatever the head's mean");
        }
    }

    @Test
    void aDriftingRunnerChoosesPairsAndAnIndependentOneWelch() {
        Random random = new Random(3);
        List<Trials[]> drifting = new ArrayList<>();
        List<Trials[]> independent = new ArrayList<>();
        for (int c = 0; c < 5; c++) {
            drifting.add(cell(wave(10), 1.0, ones(10), c));
            double[] own = new double[20];
            for (int i = 0; i < own.length; i++) {
                own[i] = 1 + 0.05 * random.nextGaussian();
            }
            independent.add(cell(own, 1.0, ones(10), c));
        }
        Pairing d = Pairing.decide(TrialTest.AUTO, drifting);
        assertTrue(d.inPairs() && d.p() < Pairing.LEVEL && d.cells() == 5, d.toString());
        assertTrue(d.moved() > 30 && d.narrower() > 2, d.toString());
        Pairing i = Pairing.decide(TrialTest.AUTO, independent);
        assertFalse(i.inPairs(), i.toString());
        assertEquals("welch", i.judged());
        assertTrue(Pairing.decide(TrialTest.PAIRED, independent).inPairs(), "asked for, pairs judge");
        assertFalse(Pairing.decide(TrialTest.WELCH, drifting).inPairs(), "asked for, Welch's test judges");
        List<Trials[]> unpaired = new ArrayList<>();
        unpaired.add(new Trials[] {Trials.of(1, 2, 3), Trials.of(1, 2, 3)});
        assertFalse(
                Pairing.decide(TrialTest.PAIRED, unpaired).inPairs(),
                "nothing pairs: Welch's test judges whatever is asked");
    }

    @Test
    void whatSetsTheRankFormReadsOnlyTheSizesOfThePairsRatios() {
        Random random = new Random(4);
        for (int r = 0; r < 50; r++) {
            int n = 8 + random.nextInt(10);
            double[] b = new double[n];
            double[] h = new double[n];
            boolean[] first = new boolean[n];
            for (int i = 0; i < n; i++) {
                b[i] = 100 * Math.exp(0.2 * random.nextGaussian());
                h[i] = b[i] * Math.exp((random.nextDouble() < 0.2 ? 0.3 : 0.02) * random.nextGaussian());
                first[i] = i % 2 == 0;
            }
            double[] bs = b.clone();
            double[] hs = h.clone();
            for (int i = 0; i < n; i += 3) {
                bs[i] = h[i];
                hs[i] = b[i];
            }
            assertEquals(
                    PairedTest.straddled(new PairedTest.Pairs(b, h, first)),
                    PairedTest.straddled(new PairedTest.Pairs(bs, hs, first)),
                    "signs flipped: " + r);
        }
    }

    @Test
    void aPairThatStraddlesAChangeOfTheRunnerIsJudgedByRanks() {
        // Sixteen pairs alike, and two whose trials the runner's slow mode split.
        double[] b = new double[18];
        double[] h = new double[18];
        boolean[] first = new boolean[18];
        Random random = new Random(6);
        for (int i = 0; i < 18; i++) {
            b[i] = 100 * (1 + 0.01 * random.nextGaussian());
            h[i] = 105 * (1 + 0.01 * random.nextGaussian());
            first[i] = i % 2 == 0;
        }
        b[4] *= 1.4;
        h[11] *= 1.4;
        PairedTest.Pairs p = new PairedTest.Pairs(b, h, first);
        assertTrue(PairedTest.straddled(p));
        Comparison c = Comparison.paired(p, LOWER, T, false);
        assertEquals(Statistic.Kind.SIGNED_RANK, c.statistic().kind());
        assertEquals(Verdict.REGRESSION, c.verdict(), c.toString());
        assertTrue(c.ciLow() > 3 && c.ciHigh() < 7, "Hodges-Lehmann's interval, about the change: " + c);
    }

    @Test
    void thePairsSpreadIsTheNoiseOfATrialTheyLeaveAndWelchsRowsHaveNone() {
        // The wave moves each side 14% from trial to trial; each trial's own noise is 1%.
        Trials[] c = cell(wave(20), 1.0, ones(20), 7);
        Comparison paired = pairs(c).comparison();
        assertEquals(Statistic.Kind.PAIRED_T, paired.statistic().kind());
        double spread = paired.pairedSpread(T);
        assertTrue(spread > 0.5 && spread < 2.5, "about each trial's own 1%, not the wave: " + spread);
        assertTrue(paired.base().cv() > 10, paired.base().toString());
        assertTrue(Double.isNaN(KnownTests.TRIALS
                .judge(c[0], c[1], LOWER, T, false)
                .comparison()
                .pairedSpread(T)));
    }

    @Test
    void whatARunOfMoreTrialsCouldSeeIsOfThePairsSpreadWhereTheyJudgedElseOfEachSides() {
        Trials[] c = cell(wave(20), 1.0, ones(20), 7);
        Sensitivity test = new Sensitivity(T.alpha(), Comparison.POWER);
        Comparison paired = pairs(c).comparison();
        double spread = paired.pairedSpread(T);
        assertEquals(test.detectable(spread, spread, 40), paired.detectableAt(40, test), 1e-12);
        Comparison welch = KnownTests.TRIALS.judge(c[0], c[1], LOWER, T, false).comparison();
        assertEquals(test.detectable(welch.base().cv(), welch.head().cv(), 40), welch.detectableAt(40, test), 1e-12);
        assertTrue(paired.detectableAt(40, test) < welch.detectableAt(40, test), "the wave is no spread of the pairs");
        Comparison one = Comparison.of(Sample.of(1.0), Sample.of(1.0, 2.0), LOWER, T);
        assertTrue(Double.isNaN(one.detectableAt(40, test)), "a side of one value has no spread");
    }
}
