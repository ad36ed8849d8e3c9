package org.perfab.stats;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A run's cells judged together keep its headline honest where setting trials aside once did not:
 * an A/A of many cells with a heavy tail (one trial in ten 1.5 times slower) at 5 trials per side
 * headlined a false change in 11% of runs of 50 cells and 26% of 200. Rates over seeded draws, not
 * timings.
 */
class JudgedTogetherTest {
    private static final Thresholds T = Thresholds.DEFAULT;

    /** The most a headline's false-alarm rate may read over {@code runs} runs: alpha and 3 standard errors. */
    private static double most(int runs) {
        return 100 * (T.alpha() + 3 * Math.sqrt(T.alpha() * (1 - T.alpha()) / runs));
    }

    @Test
    void aHeavyTailAtFiveTrialsHeadlinesAFalseChangeNoMoreOftenThanAlpha() {
        int runs = 400;
        for (int cells : new int[] {50, 200}) {
            Calibration.SuiteRates r = Calibration.suite(
                    Calibration.Noise.HEAVY_TAIL_10,
                    cells,
                    0,
                    0,
                    3,
                    5,
                    T.alpha(),
                    runs / (cells / 50),
                    new Random(cells),
                    T);
            assertTrue(r.falseHeadline() <= most(runs / (cells / 50)), cells + " cells: " + r.falseHeadline() + "%");
        }
    }

    @Test
    void judgedCellByCellTheSameRunsHeadlineAChangeMostOfTheTime() {
        // What judging together prevents, on the same noise: without it the test is not idle.
        Calibration.SuiteRates r =
                Calibration.suite(Calibration.Noise.HEAVY_TAIL_10, 50, 0, 0, 3, 5, Double.NaN, 100, new Random(50), T);
        assertTrue(r.falseHeadline() > 50, r.falseHeadline() + "%");
    }
}
