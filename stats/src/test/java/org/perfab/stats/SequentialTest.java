package org.perfab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SequentialTest {
    private static final Thresholds T = Thresholds.DEFAULT;

    @Test
    void looksComeEveryRoundUpToTheMost() {
        assertEquals(List.of(5, 10, 15, 20), new Sequential(5, 20).looks());
        assertEquals(List.of(10, 15), new Sequential(10, 15).looks());
        assertEquals(List.of(5), new Sequential(5, 5).looks());
        assertThrows(IllegalArgumentException.class, () -> new Sequential(5, 4));
        assertThrows(IllegalArgumentException.class, () -> new Sequential(1, 4));
    }

    @Test
    void earlyLooksTestAtASmallLevelAndTheLastNearlyAtAlpha() {
        Sequential s = new Sequential(5, 20);
        for (int k = 1; k <= 3; k++) {
            assertEquals(0.001, s.alpha(k, 0.05), 1e-15, "Haybittle and Peto's early level");
        }
        assertEquals(0.0492, s.alpha(4, 0.05), 1e-4);
        assertEquals(0.05, new Sequential(5, 5).alpha(1, 0.05));
        assertThrows(IllegalArgumentException.class, () -> s.alpha(5, 0.05));
        // So many looks that alpha / 50 each would spend more than a quarter of alpha: each is cut.
        Sequential many = new Sequential(2, 60);
        assertEquals(0.05 / 4 / 29, many.alpha(1, 0.05), 1e-15);
        // Past the looks integrated exactly, the last takes what the union bound leaves.
        Sequential most = new Sequential(2, 1000);
        assertEquals(0.05 - 0.05 / 4, most.alpha(most.looks().size(), 0.05), 1e-12);
    }

    @Test
    void theLastLevelMakesTheChanceOfAFalseCallAtAnyLookAlphaAsScipyComputesIt() throws IOException {
        try (InputStream in = getClass().getResourceAsStream("/reference/sequential-reference.json")) {
            assertNotNull(in, "reference/sequential-reference.json is on the test class path");
            JsonNode root = new ObjectMapper().readTree(in);
            for (JsonNode c : root.get("cases")) {
                Sequential s =
                        new Sequential(c.get("first").asInt(), c.get("max").asInt());
                int looks = s.looks().size();
                assertEquals(c.get("early").asDouble(), s.alpha(1, 0.05), 1e-15, c.toString());
                // scipy's multivariate normal integrates to about 1e-5; the recursion closer.
                assertEquals(c.get("last").asDouble(), s.alpha(looks, 0.05), 2e-5, c.toString());
            }
        }
    }

    @Test
    void anUnchangedCellIsFlaggedAtSomeLookNoMoreOftenThanAlpha() {
        // With the bar at 0 every significant look is a regression or an improvement, so this is
        // the false-alarm rate of the test itself, looked at four times. Judging every look at the
        // full alpha instead shows what the sharing prevents.
        Thresholds noBar = new Thresholds(0.05, 0, 0);
        Sequential looks = new Sequential(5, 20);
        Thresholds shared = noBar.withAdaptive(looks);
        Random random = new Random(3);
        int runs = 6000;
        int flagged = 0;
        int naive = 0;
        for (int r = 0; r < runs; r++) {
            double[] base = normal(20, random);
            double[] head = normal(20, random);
            List<Comparison> seen = new ArrayList<>();
            boolean anyAtFullAlpha = false;
            for (int k = 1; k <= 4; k++) {
                int n = looks.looks().get(k - 1);
                Sample b = Sample.of(Arrays.copyOf(base, n));
                Sample h = Sample.of(Arrays.copyOf(head, n));
                seen.add(Comparison.of(b, h, Direction.LOWER_IS_BETTER, shared.atLook(k)));
                anyAtFullAlpha |=
                        Comparison.of(b, h, Direction.LOWER_IS_BETTER, noBar).pValue() < 0.05;
            }
            Verdict v = seen.get(Sequential.standing(
                            seen.stream().map(Comparison::verdict).toList()))
                    .verdict();
            flagged += v == Verdict.REGRESSION || v == Verdict.IMPROVEMENT ? 1 : 0;
            naive += anyAtFullAlpha ? 1 : 0;
        }
        double rate = (double) flagged / runs;
        double naiveRate = (double) naive / runs;
        // 3 standard errors above alpha at 6000 runs.
        assertTrue(rate < 0.05 + 3 * Math.sqrt(0.05 * 0.95 / runs), "flagged " + rate);
        assertTrue(naiveRate > 0.08, "four looks at full alpha: " + naiveRate);
    }

    @Test
    void aCellIsUndecidedWhileItsIntervalReachesTheBarOrItIsInconclusive() {
        Comparison clear = Comparison.of(
                Sample.of(100, 100.2, 99.8, 100.1, 99.9),
                Sample.of(100.1, 100, 99.9, 100.2, 99.8),
                Direction.LOWER_IS_BETTER,
                T);
        assertEquals(Verdict.UNCHANGED, clear.verdict());
        assertFalse(clear.undecided(T));
        Comparison wide = Comparison.of(Sample.of(95, 105, 100), Sample.of(96, 106, 101), Direction.LOWER_IS_BETTER, T);
        assertEquals(Verdict.NOISY, wide.verdict());
        assertTrue(wide.undecided(T), "a 3% slowdown is not ruled out");
        Comparison faster =
                Comparison.of(Sample.of(95, 105, 100), Sample.of(96, 106, 101), Direction.HIGHER_IS_BETTER, T);
        assertTrue(faster.undecided(T), "for a throughput, worse is lower");
        Comparison inconclusive =
                Comparison.of(Sample.of(80, 120, 100), Sample.of(95, 140, 110), Direction.LOWER_IS_BETTER, T);
        assertEquals(Verdict.INCONCLUSIVE, inconclusive.verdict());
        assertTrue(inconclusive.undecided(T));
        Comparison regression =
                Comparison.of(Sample.of(100, 101, 99), Sample.of(110, 111, 109), Direction.LOWER_IS_BETTER, T);
        assertFalse(regression.undecided(T));
    }

    @Test
    void theLastLookStandsUnlessOnlyAnEarlierOneFoundAChange() {
        Verdict unchanged = Verdict.UNCHANGED;
        Verdict regression = Verdict.REGRESSION;
        assertEquals(2, Sequential.standing(List.of(unchanged, unchanged, unchanged)));
        assertEquals(2, Sequential.standing(List.of(regression, unchanged, regression)));
        assertEquals(1, Sequential.standing(List.of(unchanged, regression, unchanged)));
    }

    private static double[] normal(int n, Random random) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = 100 + random.nextGaussian();
        }
        return v;
    }
}
