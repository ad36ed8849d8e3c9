package org.perfab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PairSpreadsTest {
    private static final String ANCHOR = "Anchor";
    private static final double[] QUANTILES = {0, 0.1, 0.5, 0.9, 0.95, 0.99, 0.999, 1};

    @Test
    void theSpreadsAreEveryPairsDeviationButTheAnchors() {
        Map<String, Double> one = Map.of(ANCHOR, 1.0, "a", 2.0, "b", 4.0);
        Map<String, Double> two = Map.of(ANCHOR, 1.0, "a", 2.2, "b", 4.0);
        Map<String, Double> three = Map.of(ANCHOR, 1.0, "a", 2.0);
        PairSpreads s = PairSpreads.of(List.of(one, two, three), ANCHOR);
        // pairs: (1,2) a 10%, b 0%; (1,3) a 0%; (2,3) a 2.2/2 - 1 = 10%.
        assertEquals(4, s.size());
        assertEquals(0, s.quantile(0));
        assertEquals(0, s.quantile(1.0 / 3));
        assertEquals(5.0, s.quantile(0.5), 1e-9);
        assertEquals(10.0, s.max(), 1e-9);
        assertEquals(s.max(), s.quantile(1));
    }

    /** The pool sorted, as the figures were computed before: every pair, every benchmark. */
    private static Sample pooled(List<Map<String, Double>> ratios) {
        List<Double> all = new ArrayList<>();
        for (int i = 0; i < ratios.size(); i++) {
            for (int j = i + 1; j < ratios.size(); j++) {
                Map<String, Double> other = ratios.get(j);
                ratios.get(i).forEach((name, r) -> {
                    Double s = other.get(name);
                    if (s != null && !name.equals(ANCHOR)) {
                        all.add((Math.max(r, s) / Math.min(r, s) - 1) * 100);
                    }
                });
            }
        }
        return Sample.of(all.stream().mapToDouble(Double::doubleValue).toArray());
    }

    @Test
    void everyQuantileIsThePooledPairsOwnBitForBit() {
        SplittableRandom random = new SplittableRandom(7);
        for (int trial = 0; trial < 60; trial++) {
            int snapshots = 2 + random.nextInt(40);
            int benchmarks = 1 + random.nextInt(12);
            boolean coarse = trial % 3 == 0; // two-decimal ratios: many ties
            List<Map<String, Double>> ratios = new ArrayList<>();
            for (int s = 0; s < snapshots; s++) {
                Map<String, Double> r = new HashMap<>();
                r.put(ANCHOR, 1.0);
                for (int b = 0; b < benchmarks; b++) {
                    if (random.nextInt(10) == 0) {
                        continue; // a benchmark some snapshots lack
                    }
                    double v = (b + 1) * Math.exp(random.nextGaussian() * (trial % 2 == 0 ? 0.03 : 0.4));
                    r.put("b" + b, coarse ? Math.max(0.01, Math.round(v * 100) / 100.0) : v);
                }
                ratios.add(r);
            }
            Sample expected = pooled(ratios);
            PairSpreads actual = PairSpreads.of(ratios, ANCHOR);
            assertEquals(expected.size(), actual.size(), "trial " + trial);
            for (double q : QUANTILES) {
                assertEquals(expected.quantile(q), actual.quantile(q), 0, "trial " + trial + ", quantile " + q);
            }
        }
    }

    @Test
    void aPoolOfNoPairIsEmpty() {
        PairSpreads s = PairSpreads.of(List.of(Map.of(ANCHOR, 1.0, "a", 2.0)), ANCHOR);
        assertEquals(0, s.size());
        assertTrue(Double.isNaN(s.quantile(0.5)));
        assertTrue(Double.isNaN(s.max()));
    }
}
