package org.perfab.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class OutliersTest {
    private static final double[] CLEAN = {100, 101, 99, 100.5, 99.5, 100.2, 99.8, 100.1, 99.9, 100.3};

    @Test
    void setsAsideOneHiccupAmongTen() {
        double[] v = CLEAN.clone();
        v[6] = 130;
        assertEquals(List.of(6), Outliers.of(v, 3));
        assertArrayEquals(new double[] {100, 101, 99, 100.5, 99.5, 100.2, 100.1, 99.9, 100.3},
                Outliers.without(v, List.of(6)));
    }

    @Test
    void neverSetsAsideASideThatIsSimplySlower() {
        double[] slower = CLEAN.clone();
        for (int i = 0; i < slower.length; i++) {
            slower[i] *= 1.3;
        }
        assertEquals(List.of(), Outliers.of(slower, 3));
    }

    @Test
    void leavesOrdinaryNoiseAndSmallMovesAlone() {
        assertEquals(List.of(), Outliers.of(CLEAN, 3));
        double[] v = CLEAN.clone();
        v[2] = 102.5; // many spreads off, but less than the bar from the median
        assertEquals(List.of(), Outliers.of(v, 3));
    }

    @Test
    void callsNothingAnOutlierInAHeavyTailOrASmallSample() {
        double[] tail = CLEAN.clone();
        tail[1] = 130;
        tail[4] = 140;
        tail[7] = 150;
        assertEquals(List.of(), Outliers.of(tail, 3), "three in ten is the side's own spread");
        assertEquals(List.of(), Outliers.of(new double[] {100, 101, 99, 150}, 3), "four values cannot tell");
    }

    @Test
    void aFarValueAmongFiveNeedsTheEsdTestToo() {
        // Three of five values close together make the median absolute deviation tiny, so 103.5
        // is dozens of robust spreads off and past the bar; but beside 97 it is ordinary spread,
        // and the ESD test does not call it an outlier.
        assertEquals(List.of(), Outliers.of(new double[] {100, 100.05, 99.95, 97, 103.5}, 3));
        // Four values within 0.1% and one 4.5% away: that one is.
        assertEquals(List.of(4), Outliers.of(new double[] {100, 100.1, 99.9, 100, 104.5}, 3));
    }

    @Test
    void theEsdTestFindsWhatRosnersProcedureFinds() {
        // Two far values among twenty: the procedure takes out both; the third candidate fails.
        double[] v = new double[20];
        for (int i = 0; i < v.length; i++) {
            v[i] = 100 + (i % 5 - 2) * 0.5;
        }
        v[3] = 120;
        v[11] = 85;
        assertEquals(List.of(3, 11), Outliers.esd(v, 4));
        assertEquals(List.of(3), Outliers.esd(v, 1));
        assertEquals(List.of(), Outliers.esd(new double[] {1, 1, 1, 1, 1}, 1), "no spread, no outlier");
    }
}
