package org.perfab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DisturbancesTest {
    private static final double[][] NO_LOAD = {new double[10], new double[10]};

    /** Ten trials a side, each {@code value} (a time in seconds, or a share). */
    private static double[][] seconds(double value) {
        double[][] v = {new double[10], new double[10]};
        Arrays.fill(v[0], value);
        Arrays.fill(v[1], value);
        return v;
    }

    /** Ten trials a side of {@code cells} cells, each cell with its own independent 2% noise. */
    private static double[][][] trials(Random r, int cells) {
        double[][][] v = new double[2][10][cells];
        for (int s = 0; s < 2; s++) {
            for (int t = 0; t < 10; t++) {
                for (int c = 0; c < cells; c++) {
                    v[s][t][c] = 100 * (c + 1) * (1 + 0.02 * r.nextGaussian());
                }
            }
        }
        return v;
    }

    private static boolean[] times(int cells) {
        boolean[] up = new boolean[cells];
        Arrays.fill(up, true);
        return up;
    }

    @Test
    void independentNoiseDisturbsNothing() {
        Random r = new Random(3);
        int found = 0;
        for (int run = 0; run < 500; run++) {
            found += Disturbances.of(trials(r, 8), times(8), NO_LOAD, NO_LOAD).size();
        }
        assertTrue(found <= 2, found + " trials of 5,000 found disturbed");
    }

    @Test
    void aTrialWhoseCellsMovedTogetherOnOneSideAloneIsTheCodesUntilTheMachineSaysOtherwise() {
        // A slower path of the candidate's code in one trial moves its cells together too.
        double[][][] v = trials(new Random(5), 8);
        for (int c = 0; c < 8; c++) {
            v[1][4][c] *= c < 6 ? 1.3 : 1.0; // six of eight cells 30% slower
        }
        assertEquals(List.of(), Disturbances.of(v, times(8), NO_LOAD, NO_LOAD), "no word of the machine");
        double[][] wall = seconds(2.0);
        double[][] cpu = seconds(2.0);
        wall[1][4] = 2.6;
        cpu[1][4] = 2.5; // its wall time grew with its own CPU time: the code's
        assertEquals(List.of(), Disturbances.of(v, times(8), NO_LOAD, NO_LOAD, wall, cpu));
        cpu[1][4] = 2.0; // it waited 30% of its CPU time for a CPU: the machine's
        List<Disturbances.Found> found = Disturbances.of(v, times(8), NO_LOAD, NO_LOAD, wall, cpu);
        assertEquals(1, found.size());
        assertEquals(Disturbances.Evidence.WAITED, found.get(0).evidence());
    }

    @Test
    void aTrialThatRanMoreCodeIsTheCodesEvenWhenItAlsoWaited() {
        // On a busy runner the candidate's slow path may land in a trial that also waited for a CPU:
        // its CPU time grew with its cells' move, so it is kept, whatever it waited.
        double[][][] v = trials(new Random(5), 8);
        for (int c = 0; c < 8; c++) {
            v[1][4][c] *= 1.4;
        }
        double[][] wall = seconds(2.0);
        double[][] cpu = seconds(2.0);
        double[][] steal = seconds(0);
        wall[1][4] = 4.2;
        cpu[1][4] = 2.8; // 40% more code, and a wait on top of it
        steal[1][4] = 0.2;
        assertEquals(List.of(), Disturbances.of(v, times(8), NO_LOAD, steal, wall, cpu), "the code ran more");
        cpu[1][4] = 2.3; // 15% more CPU time cannot account for a 40% move: the machine's
        assertEquals(1, Disturbances.of(v, times(8), NO_LOAD, steal, wall, cpu).size());
        // Under the clock's tick, a grown CPU time is not told from the same one.
        wall = seconds(0.010);
        cpu = seconds(0.005);
        wall[1][4] = 0.4;
        cpu[1][4] = 0.015;
        assertEquals(1, Disturbances.of(v, times(8), NO_LOAD, steal, wall, cpu).size(), "a tick's growth is not code");
    }

    @Test
    void trialsWhoseCellsMovedTogetherOnBothSidesAreTheMachines() {
        double[][][] v = trials(new Random(5), 8);
        for (int c = 0; c < 8; c++) {
            v[1][4][c] *= c < 6 ? 1.3 : 1.0; // six of eight cells 30% slower
            v[0][7][c] *= c < 7 ? 1.25 : 1.0;
        }
        List<Disturbances.Found> found = Disturbances.of(v, times(8), NO_LOAD, NO_LOAD);
        assertEquals(2, found.size(), found.toString());
        assertEquals(0, found.get(0).side());
        assertEquals(7, found.get(0).trial());
        found = found.subList(1, 2);
        assertEquals(1, found.size(), found.toString());
        Disturbances.Found f = found.get(0);
        assertEquals(1, f.side());
        assertEquals(4, f.trial());
        assertEquals(6, f.moved());
        assertEquals(8, f.cells());
        assertEquals(30, f.shift(), 4);
    }

    @Test
    void lessThanTwoThirdsMovingIsTheCellsOwnBusiness() {
        double[][][] v = trials(new Random(5), 8);
        for (int c = 0; c < 5; c++) {
            v[0][2][c] *= 1.3; // five of eight
        }
        assertEquals(List.of(), Disturbances.of(v, times(8), NO_LOAD, NO_LOAD));
    }

    @Test
    void aThroughputThatDroppedMovedForTheWorse() {
        double[][][] v = trials(new Random(9), 3);
        for (int c = 0; c < 3; c++) {
            v[0][7][c] *= 0.7;
        }
        boolean[] throughputs = new boolean[3];
        double[][] steal = {new double[10], new double[10]};
        steal[0][7] = 0.1;
        List<Disturbances.Found> found = Disturbances.of(v, throughputs, NO_LOAD, steal);
        assertEquals(1, found.size());
        assertTrue(found.get(0).shift() > 25, "worse by about 30%: " + found.get(0));
    }

    @Test
    void withFewCellsTheMachineMustSayIt() {
        double[][][] v = trials(new Random(11), 1);
        v[1][6][0] *= 1.4;
        double[][] others = {new double[10], new double[10]};
        assertEquals(List.of(), Disturbances.of(v, times(1), others, NO_LOAD), "a slow trial alone may be the code");
        others[1][6] = 1.2; // a neighbour took more than a core meanwhile, but not the trial's
        assertEquals(List.of(), Disturbances.of(v, times(1), others, NO_LOAD), "a busy neighbour may slow no trial");
        double[][] steal = {new double[10], new double[10]};
        steal[1][6] = 0.08; // a hypervisor that took 8% of the CPUs' time meanwhile
        List<Disturbances.Found> found = Disturbances.of(v, times(1), others, steal);
        assertEquals(1, found.size());
        assertEquals(1.2, found.get(0).busier(), 1e-12, "reported beside");
        assertEquals(Disturbances.Evidence.STOLEN, found.get(0).evidence());
    }

    @Test
    void aCellWithTooFewTrialsIsNotJudged() {
        double[][][] v = {{{100, 200, 300}, {101, 202, 303}}, {{130, 260, 390}, {100, 200, 300}}};
        assertEquals(
                List.of(), Disturbances.of(v, times(3), new double[][] {new double[2], new double[2]}, new double[][] {
                    new double[2], new double[2]
                }));
    }
}
