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

    /**
     * Returns the share of simulated runs of {@code advice}'s size that find a slowdown of
     * {@code effect} percent significant, each build shifted by a layout offset of spread
     * {@code between} and each trial by noise of spread {@code within}, judged as perfab judges:
     * on each build's median when there are several builds, else on the trials.
     */
    private static double simulatedPower(NoiseFloor noise, NoiseFloor.Advice advice, double effect, long seed) {
        Random random = new Random(seed);
        int runs = 2000;
        int found = 0;
        for (int r = 0; r < runs; r++) {
            double[][] sides = new double[2][];
            for (int s = 0; s < 2; s++) {
                double level = s == 0 ? 100 : 100 * (1 + effect / 100);
                int perBuild = advice.trials() / advice.builds();
                double[] values = new double[advice.builds() == 1 ? advice.trials() : advice.builds()];
                for (int b = 0; b < advice.builds(); b++) {
                    double layout = advice.builds() == 1 ? 0 : random.nextGaussian() * noise.between();
                    double[] trials = new double[perBuild];
                    for (int t = 0; t < perBuild; t++) {
                        trials[t] = level * (1 + (layout + random.nextGaussian() * noise.within()) / 100);
                    }
                    if (advice.builds() == 1) {
                        values = trials;
                    } else {
                        Arrays.sort(trials);
                        values[b] = perBuild % 2 == 1 ? trials[perBuild / 2]
                                : (trials[perBuild / 2 - 1] + trials[perBuild / 2]) / 2;
                    }
                }
                sides[s] = values;
            }
            Comparison c = Comparison.of(Sample.of(sides[0]), Sample.of(sides[1]), Direction.LOWER_IS_BETTER,
                    Thresholds.DEFAULT);
            if (c.pValue() < ALPHA && c.pctChange() > 0) {
                found++;
            }
        }
        return (double) found / runs;
    }

    @ParameterizedTest(name = "within {0}%, between {1}%, effect {2}%")
    @CsvSource({"1.0, NaN, 3", "4.0, NaN, 3", "1.0, 0.8, 3", "0.5, 1.5, 3", "3.0, 1.0, 5"})
    void theAdviceFindsTheEffectWithEightyPercentPower(double within, double between, double effect) {
        NoiseFloor noise = new NoiseFloor(within, between);
        NoiseFloor.Advice advice = noise.advise(effect, ALPHA, POWER).orElseThrow();
        assertTrue(advice.mde() <= effect, advice.toString());
        assertEquals(Double.isNaN(between), advice.builds() == 1, "several builds when layout noise is known");
        double power = simulatedPower(noise, advice, effect, 42);
        assertTrue(power >= 0.72 && power <= 0.95, "simulated power " + power + " of " + advice);
        // One trial fewer per side would not do.
        if (advice.builds() == 1 && advice.trials() > 2) {
            assertTrue(noise.mde(1, advice.trials() - 1, ALPHA, POWER) > effect);
        }
    }

    @Test
    void noRunCanOutgrowASpreadBetweenBuildsThatLarge() {
        assertTrue(new NoiseFloor(0.1, 40).advise(1, ALPHA, POWER).isEmpty());
    }

    @Test
    void oneBuildLeavesLayoutOutOfTheTestAndSeveralPutItIn() {
        NoiseFloor noise = new NoiseFloor(1, 2);
        assertEquals(noise.mde(1, 10, ALPHA, POWER), new NoiseFloor(1, Double.NaN).mde(1, 10, ALPHA, POWER));
        assertTrue(noise.mde(3, 30, ALPHA, POWER) > noise.mde(1, 30, ALPHA, POWER));
        assertTrue(Double.isNaN(new NoiseFloor(1, Double.NaN).mde(3, 30, ALPHA, POWER)));
    }
}
