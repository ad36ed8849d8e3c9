package org.perfab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NoiseFloorTest {
    private static final double ALPHA = 0.05;
    private static final double POWER = 0.80;
    /** Simulated runs per figure: the share found has a standard error of 0.0063 about 0.80. */
    private static final int RUNS = 4000;
    /** Nearly five standard errors: with the seed fixed it cannot flake, and a model off by 3 points fails. */
    private static final double TOLERANCE = 0.03;

    /**
     * Returns the share of simulated runs of {@code builds} builds and {@code trials} trials per side
     * that find a slowdown of {@code effect} percent significant, each build shifted by a layout
     * offset of spread {@code between} and each trial by noise of spread {@code within} (both
     * relative to the side's level, so the slower side spreads as much wider), judged as perfab
     * judges: Welch's test on each build's median when there are several builds, else on the
     * trials.
     */
    private static double simulatedPower(NoiseFloor noise, int builds, int trials, double effect, long seed) {
        Random random = new Random(seed);
        int perBuild = trials / builds;
        int found = 0;
        for (int r = 0; r < RUNS; r++) {
            Summary[] sides = new Summary[2];
            for (int s = 0; s < 2; s++) {
                double level = s == 0 ? 100 : 100 * (1 + effect / 100);
                double[] values = new double[builds == 1 ? trials : builds];
                for (int b = 0; b < builds; b++) {
                    double layout = builds == 1 ? 0 : random.nextGaussian() * noise.between();
                    double[] each = new double[perBuild];
                    for (int t = 0; t < perBuild; t++) {
                        each[t] = level * (1 + (layout + random.nextGaussian() * noise.within()) / 100);
                    }
                    if (builds == 1) {
                        values = each;
                    } else {
                        Arrays.sort(each);
                        values[b] = perBuild % 2 == 1
                                ? each[perBuild / 2]
                                : (each[perBuild / 2 - 1] + each[perBuild / 2]) / 2;
                    }
                }
                sides[s] = Summary.of(Sample.of(values));
            }
            WelchTest.Result w = WelchTest.test(sides[0], sides[1]);
            if (w.p() < ALPHA && sides[1].mean() > sides[0].mean()) {
                found++;
            }
        }
        return (double) found / RUNS;
    }

    @ParameterizedTest(name = "within {0}%, between {1}%, effect {2}%")
    @CsvSource({
        "1.0, NaN, 3",
        "4.0, NaN, 3",
        "1.0, NaN, 0.145",
        "1.0, NaN, 0.13",
        "1.0, 0.8, 3",
        "0.5, 1.5, 3",
        "3.0, 1.0, 5",
        "5.0, 0.2, 2",
        "1.0, 0.05, 0.3",
        "0.5, 0.05, 0.15",
        "0.2, 0.02, 1",
        "2.0, 1.0, 20",
        "3.0, 0.1, 30"
    })
    void theAdvisedRunFindsWhatItSaysWithEightyPercentPower(double within, double between, double effect) {
        NoiseFloor noise = new NoiseFloor(within, between);
        NoiseFloor.Advice advice = noise.advise(effect, ALPHA, POWER);
        assertTrue(advice.found() && advice.mde() <= effect, advice.toString());
        assertEquals(Double.isNaN(between), advice.builds() == 1, "several builds when layout noise is known");
        // At the change it says it finds (no more than the effect asked), the power it says.
        double power = simulatedPower(noise, advice.builds(), advice.trials(), advice.mde(), 42);
        assertEquals(POWER, power, TOLERANCE, "simulated power at the " + advice.mde() + "% it finds, " + advice);
        // One trial fewer per build would not do.
        int fewer = advice.trials() - advice.builds();
        if (fewer >= Math.max(2, advice.builds())) {
            assertTrue(noise.mde(advice.builds(), fewer, ALPHA, POWER) > effect);
        }
    }

    @Test
    void aRunOfSevenHundredAndEightTrialsFindsWhatItsSizeAllows() {
        // The first way gave 1e-13% here: its integral was NaN from 1,411 degrees of freedom on.
        NoiseFloor noise = new NoiseFloor(1, Double.NaN);
        Sensitivity test = new Sensitivity(ALPHA, POWER);
        double at707 = noise.mde(1, 707, test);
        double at708 = noise.mde(1, 708, test);
        assertTrue(at708 < at707 && at708 > at707 * Math.sqrt(707.0 / 709), at707 + " then " + at708);
        // Near the normal limit by then: (z(0.975) + z(0.8)) standard errors.
        double normal = (1.959964 + 0.841621) * Math.sqrt(2.0 / 1000);
        assertEquals(normal, noise.mde(1, 1000, test), 0.002 * normal);
    }

    @Test
    void pastTheTrialsAnyRunMayHaveTheAdviceSaysSo() {
        NoiseFloor.Advice oneBuild = new NoiseFloor(2, Double.NaN).advise(0.25, ALPHA, POWER);
        assertEquals(new NoiseFloor.Advice(1, NoiseFloor.MAX_TRIALS, Double.NaN, NoiseFloor.Cap.TRIALS), oneBuild);
        NoiseFloor.Advice builds = new NoiseFloor(1, 0.05).advise(0.12, ALPHA, POWER);
        assertEquals(
                new NoiseFloor.Advice(NoiseFloor.MAX_BUILDS, NoiseFloor.MAX_TRIALS, Double.NaN, NoiseFloor.Cap.TRIALS),
                builds);
        assertTrue(new NoiseFloor(1, 0.05).mde(NoiseFloor.MAX_BUILDS, NoiseFloor.MAX_TRIALS, ALPHA, POWER) > 0.12);
    }

    @Test
    void noRunCanOutgrowASpreadBetweenBuildsThatLarge() {
        NoiseFloor.Advice advice = new NoiseFloor(0.1, 40).advise(1, ALPHA, POWER);
        assertEquals(NoiseFloor.Cap.BUILDS, advice.beyond(), advice.toString());
        assertTrue(!advice.found() && Double.isNaN(advice.mde()));
    }

    @Test
    void oneBuildLeavesLayoutOutOfTheTestAndSeveralPutItIn() {
        NoiseFloor noise = new NoiseFloor(1, 2);
        assertEquals(noise.mde(1, 10, ALPHA, POWER), new NoiseFloor(1, Double.NaN).mde(1, 10, ALPHA, POWER));
        assertTrue(noise.mde(3, 30, ALPHA, POWER) > noise.mde(1, 30, ALPHA, POWER));
        assertTrue(Double.isNaN(new NoiseFloor(1, Double.NaN).mde(3, 30, ALPHA, POWER)));
    }

    @Test
    void trialsThatDoNotDivideEvenlyGiveSomeBuildsOneMore() {
        NoiseFloor noise = new NoiseFloor(2, 0.5);
        Sensitivity test = new Sensitivity(ALPHA, POWER);
        double at9 = noise.mde(3, 9, test);
        double at10 = noise.mde(3, 10, test);
        double at12 = noise.mde(3, 12, test);
        assertTrue(at9 > at10 && at10 > at12, at9 + ", " + at10 + ", " + at12);
    }

    @Test
    void aMedianOfOneMoreTrialAlwaysVariesLessSoTheAdviceMayBisect() {
        double before = Double.POSITIVE_INFINITY;
        for (int n = 1; n <= NoiseFloor.MAX_TRIALS; n++) {
            double v = NormalMedian.variance(n);
            assertTrue(v < before, "n=" + n);
            before = v;
        }
        assertEquals(Math.PI / 2, NoiseFloor.MAX_TRIALS * NormalMedian.variance(NoiseFloor.MAX_TRIALS), 0.003);
        Sensitivity test = new Sensitivity(ALPHA, POWER);
        double shift = Double.POSITIVE_INFINITY;
        for (int m : new int[] {2, 3, 4, 5, 6, 8, 11, 15, 20, 30, 50, 100, 300, 707, 708, 1000}) {
            assertTrue(test.shift(m) < shift, "m=" + m);
            shift = test.shift(m);
        }
    }

    /**
     * A runner that moves both trials of a pair alike (a level drawn for each pair, 10% of spread)
     * beside each trial's own noise of 2%: the floor of an A/A judged in pairs finds, with one build
     * of {@code pairs} pairs, the change the paired test on such pairs finds with 80% power (at 5
     * pairs more: Welch's shift at 3 a side, which stands for 4 degrees of freedom, is the larger).
     */
    @ParameterizedTest
    @CsvSource({"5", "10", "11", "21"})
    void aFloorJudgedInPairsFindsWhatThePairedTestFinds(int pairs) {
        NoiseFloor floor = new NoiseFloor(10.2, Double.NaN, 2.0);
        double effect = floor.mde(1, pairs, ALPHA, POWER);
        assertTrue(
                effect < new NoiseFloor(10.2, Double.NaN).mde(1, pairs, ALPHA, POWER) / 3,
                "the pairs take the runner out: " + effect);
        Random random = new Random(pairs);
        int found = 0;
        for (int r = 0; r < RUNS; r++) {
            double[] b = new double[pairs];
            double[] h = new double[pairs];
            boolean[] first = new boolean[pairs];
            for (int i = 0; i < pairs; i++) {
                double level = 100 * (1 + 0.10 * random.nextGaussian());
                b[i] = level * (1 + 0.02 * random.nextGaussian());
                h[i] = level * (1 + effect / 100) * (1 + 0.02 * random.nextGaussian());
                first[i] = i % 2 == 0;
            }
            found += PairedTest.of(new PairedTest.Pairs(b, h, first), false).p() < ALPHA ? 1 : 0;
        }
        double power = (double) found / RUNS;
        if (pairs < 10) {
            assertTrue(power >= POWER - TOLERANCE && power <= 0.9, pairs + " pairs at +" + effect + "%: " + power);
        } else {
            assertEquals(POWER, power, TOLERANCE, pairs + " pairs at +" + effect + "%");
        }
    }
}
