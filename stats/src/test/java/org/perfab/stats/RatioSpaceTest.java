package org.perfab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RatioSpaceTest {
    private static final String ANCHOR = "anchor";

    /**
     * A snapshot: the anchor at {@code anchor}, benchmarks a to f at 2, 5, 10, 15, 25 and 40 times
     * it, each scaled by {@code host}, and the first by {@code scale}.
     */
    private static Map<String, Double> snapshot(double host, double anchor, double... scale) {
        Map<String, Double> s = new LinkedHashMap<>();
        s.put(ANCHOR, 100 * host * anchor);
        String[] names = {"a", "b", "c", "d", "e", "f"};
        double[] level = {200, 500, 1000, 1500, 2500, 4000};
        for (int i = 0; i < names.length; i++) {
            s.put(names[i], level[i] * host * (i < scale.length ? scale[i] : 1));
        }
        return s;
    }

    @Test
    void keepsAHostThatWasUniformlyFastAndRejectsAMixedCapture() {
        List<Map<String, Double>> window = new ArrayList<>(List.of(
                snapshot(1.00, 1, 1.01, 0.99, 1.0),
                snapshot(1.03, 1, 0.99, 1.01, 1.0),
                snapshot(0.776, 1),
                snapshot(0.98, 1.15),
                snapshot(1.01, 1, 1.0, 1.0, 1.02)));
        RatioSpace.Reduction r = RatioSpace.reduce(window, ANCHOR, 5);
        RatioSpace.Fit fast = r.fits().get(2);
        assertEquals(RatioSpace.Fate.ACCEPTED, fast.fate());
        assertEquals(-22.4, fast.anchorDeviation(), 1.5, "the host ran 22% fast");
        assertEquals(0, fast.offset(), 0.6, "and its ratios agree with the window");
        RatioSpace.Fit mixed = r.fits().get(3);
        assertEquals(RatioSpace.Fate.INCOHERENT, mixed.fate());
        assertEquals((1 / 1.15 - 1) * 100, mixed.offset(), 1.0, "every ratio 13% low together");
        assertEquals(4, r.accepted());
        assertEquals(1.0, r.ratios().get(ANCHOR).ratio());
        assertEquals(2.0, r.ratios().get("a").ratio(), 0.02);
        assertEquals(10.0, r.ratios().get("c").ratio(), 0.02);
        assertEquals(100 * 0.995 * 1.0, r.anchor(), 2.5, "the median anchor of the accepted snapshots");
    }

    @Test
    void reducesByTheMedianNotTheMinimum() {
        List<Map<String, Double>> window = List.of(
                snapshot(1, 1, 1.0),
                snapshot(1, 1, 0.96),
                snapshot(1, 1, 1.04),
                snapshot(1, 1, 1.02),
                snapshot(1, 1, 0.98));
        RatioSpace.Reduction r = RatioSpace.reduce(window, ANCHOR, 5);
        assertEquals(2.0, r.ratios().get("a").ratio(), 1e-12);
        assertEquals(5, r.ratios().get("a").seen());
    }

    @ParameterizedTest(name = "seen in {0} of {1}: seeded {2}")
    @CsvSource({"1, 5, false", "2, 5, false", "3, 5, true", "2, 4, true", "1, 1, true", "0, 3, false"})
    void seedsABenchmarkOnlyWhenSeenInHalfTheWindowOrMore(int seen, int of, boolean seeded) {
        List<Map<String, Double>> window = new ArrayList<>();
        for (int i = 0; i < of; i++) {
            Map<String, Double> s = snapshot(1, 1);
            if (i < seen) {
                s.put("rare", 50.0);
            }
            window.add(s);
        }
        RatioSpace.Reduction r = RatioSpace.reduce(window, ANCHOR, 5);
        assertEquals(seeded, r.ratios().containsKey("rare"));
        assertEquals(!seeded && seen > 0, r.thin().containsKey("rare"));
    }

    @Test
    void judgesCoherenceOnlyAmongThreeSnapshotsOrMore() {
        RatioSpace.Reduction two = RatioSpace.reduce(List.of(snapshot(1, 1), snapshot(1, 1.3)), ANCHOR, 5);
        assertEquals(2, two.accepted(), "with two, neither can be told wrong");
        assertTrue(Double.isNaN(two.fits().get(1).offset()));
        RatioSpace.Reduction three =
                RatioSpace.reduce(List.of(snapshot(1, 1), snapshot(1, 1.3), snapshot(1, 1)), ANCHOR, 5);
        assertEquals(RatioSpace.Fate.INCOHERENT, three.fits().get(1).fate());
    }

    @Test
    void judgesCoherenceOnlyOverFiveBenchmarksOrMore() {
        List<Map<String, Double>> window = new ArrayList<>();
        for (double a : new double[] {1, 1.3, 1, 0.8}) {
            Map<String, Double> s = snapshot(1, a);
            s.keySet().retainAll(List.of(ANCHOR, "a", "b", "c", "d"));
            window.add(s);
        }
        RatioSpace.Reduction r = RatioSpace.reduce(window, ANCHOR, 5);
        assertEquals(RatioSpace.Gate.TOO_FEW, r.gate(), "four benchmarks: an offset is their own noise");
        assertEquals(4, r.accepted());
    }

    @Test
    void aToleranceBelowTheWindowsNoiseRejectsNothing() {
        List<Map<String, Double>> window =
                List.of(snapshot(1, 1), snapshot(1, 1.2), snapshot(1, 0.8), snapshot(1, 1.4), snapshot(1, 1));
        RatioSpace.Reduction r = RatioSpace.reduce(window, ANCHOR, 5);
        assertEquals(RatioSpace.Gate.TOO_NOISY, r.gate(), "three of five past it: the tolerance is below the noise");
        assertEquals(5, r.accepted());
        RatioSpace.Reduction one = RatioSpace.reduce(
                List.of(snapshot(1, 1), snapshot(1, 1.2), snapshot(1, 1), snapshot(1, 1.01), snapshot(1, 1)),
                ANCHOR,
                5);
        assertEquals(RatioSpace.Gate.JUDGED, one.gate());
        assertEquals(4, one.accepted());
    }

    @Test
    void aSnapshotWithoutTheAnchorIsLeftOut() {
        Map<String, Double> none = snapshot(1, 1);
        none.remove(ANCHOR);
        RatioSpace.Reduction r =
                RatioSpace.reduce(List.of(snapshot(1, 1), none, snapshot(1, 1), snapshot(1, 1)), ANCHOR, 5);
        assertEquals(RatioSpace.Fate.NO_ANCHOR, r.fits().get(1).fate());
        assertEquals(3, r.accepted());
    }

    @Test
    void theToleranceIsABoundary() {
        // In one snapshot a sits 10% off, b to d 5%: the median offset of the six is exactly +5%.
        List<Map<String, Double>> window =
                List.of(snapshot(1, 1), snapshot(1, 1), snapshot(1, 1), snapshot(1, 1, 1.10, 1.05, 1.05, 1.05));
        double offset = RatioSpace.reduce(window, ANCHOR, 5).fits().get(3).offset();
        assertEquals(5.0, offset, 1e-9);
        assertEquals(
                RatioSpace.Fate.ACCEPTED,
                RatioSpace.reduce(window, ANCHOR, Math.nextUp(offset))
                        .fits()
                        .get(3)
                        .fate());
        assertEquals(
                RatioSpace.Fate.INCOHERENT,
                RatioSpace.reduce(window, ANCHOR, Math.nextDown(offset))
                        .fits()
                        .get(3)
                        .fate());
    }

    @Test
    void ownSpreadIsARobustNinetyFifthPercentileOfPairs() {
        List<Map<String, Double>> controls = new ArrayList<>();
        for (double v : new double[] {1.00, 1.02, 0.98, 1.10, 1.01}) {
            controls.add(Map.of(ANCHOR, 1.0, "a", v));
        }
        // numpy: v = [1.00, 1.02, 0.98, 1.10, 1.01]; m = median(v);
        // 1.959963984540054 * sqrt(2) * 1.482602218505602 * median(abs(v / m - 1) * 100)
        Map<String, Double> own = RatioSpace.ownSpread(controls, ANCHOR);
        assertEquals(4.068800167556896, own.get("a"), 1e-9);
        assertEquals(Map.of("a", own.get("a")), own, "the anchor has none");
        controls.set(3, Map.of(ANCHOR, 1.0, "a", 3.0));
        assertEquals(
                4.068800167556896,
                RatioSpace.ownSpread(controls, ANCHOR).get("a"),
                1e-9,
                "one wild control run moves it not at all");
    }

    @Test
    void refusesValuesThatAreNotCosts() {
        Map<String, Double> bad = snapshot(1, 1);
        bad.put("a", 0.0);
        assertThrows(IllegalArgumentException.class, () -> RatioSpace.reduce(List.of(bad), ANCHOR, 5));
        assertThrows(IllegalArgumentException.class, () -> RatioSpace.reduce(List.of(snapshot(1, 1)), ANCHOR, 0));
    }

    /** Reference quantiles from numpy.quantile (linear interpolation, its default) on the same values. */
    @ParameterizedTest(name = "q={0}")
    @CsvSource({"0, 1", "0.25, 3.25", "0.5, 5.5", "0.9, 18", "0.95, 27", "1, 36"})
    void quantileInterpolatesAsNumpyDoes(double q, double expected) {
        // python3 -c "import numpy as np; print(np.quantile([1, 2, 3, 4, 5, 6, 7, 8, 36, 16], q))"
        Sample s = Sample.of(1, 2, 3, 4, 5, 6, 7, 8, 36, 16);
        assertEquals(expected, s.quantile(q), 1e-9);
    }

    @Test
    void theMedianOfAnEvenSampleIsTheMeanOfTheMiddleTwo() {
        assertEquals(5.5, Sample.of(1, 2, 3, 4, 5, 6, 7, 8, 36, 16).median());
        assertEquals(3.0, Sample.of(5, 1, 3).median());
        assertTrue(Double.isNaN(Sample.empty().median()));
        assertThrows(IllegalArgumentException.class, () -> Sample.of(1).quantile(1.5));
    }
}
