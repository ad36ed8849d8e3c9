package org.perfab.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.perfab.stats.Direction;
import org.perfab.stats.Thresholds;
import org.perfab.stats.Verdict;

/** One benchmark measured as a time and as a throughput computed from it gets one verdict. */
class SameMeasurementTest {
    private static final Cell TIME = new Cell("Sum64/4B", "time", "ns/op", Direction.LOWER_IS_BETTER);
    private static final Cell SPEED = new Cell("Sum64/4B", "throughput", "MB/s", Direction.HIGHER_IS_BETTER);

    /**
     * Go's way: each trial's value is the mean of three runs, of the time and of the throughput
     * the run computed from it; a busy machine spreads the runs by {@code cv}.
     */
    private static List<Measurement> goTrials(double headFactor, double cv, long seed) {
        Random r = new Random(seed);
        List<Measurement> m = new ArrayList<>();
        for (Side side : Side.values()) {
            for (int t = 0; t < 5; t++) {
                double time = 0;
                double speed = 0;
                for (int run = 0; run < 3; run++) {
                    double ns = 3.0 * (side == Side.HEAD ? headFactor : 1) * (1 + cv * Math.abs(r.nextGaussian()));
                    time += ns / 3;
                    speed += 4 / ns * 1000 / 3;
                }
                m.add(new Measurement(TIME, side, 0, t, time));
                m.add(new Measurement(SPEED, side, 0, t, speed));
            }
        }
        return m;
    }

    @Test
    void aThroughputComputedFromTheTimeFollowsIt() {
        for (long seed = 0; seed < 20; seed++) {
            ComparisonTable t = ComparisonTable.of("b", "h", goTrials(3, 0.2, seed), Thresholds.DEFAULT, c -> false);
            CellComparison speed = t.rows().stream()
                    .filter(r -> r.cell().equals(SPEED))
                    .findFirst()
                    .orElseThrow();
            CellComparison time = t.rows().stream()
                    .filter(r -> r.cell().equals(TIME))
                    .findFirst()
                    .orElseThrow();
            assertEquals(Optional.of(TIME.id()), speed.sameAs(), "seed " + seed);
            assertEquals(time.comparison().verdict(), speed.comparison().verdict());
            assertEquals(
                    1,
                    t.benchmarks().values().stream().mapToInt(Integer::intValue).sum(),
                    "one benchmark");
            assertEquals(
                    1, t.counts().values().stream().mapToInt(Integer::intValue).sum(), "one counted cell");
        }
    }

    @Test
    void twoMeasurementsThatMerelyMoveTogetherStayApart() {
        // A latency and a throughput of one benchmark, each with noise of its own.
        Random r = new Random(1);
        Cell p50 = new Cell("publish", "p50", "us", Direction.LOWER_IS_BETTER);
        Cell rate = new Cell("publish", "throughput", "msg/s", Direction.HIGHER_IS_BETTER);
        List<Measurement> m = new ArrayList<>();
        for (Side side : Side.values()) {
            for (int t = 0; t < 8; t++) {
                double load = 1 + 0.1 * r.nextGaussian();
                m.add(new Measurement(p50, side, 0, t, 70 * load * (1 + 0.05 * r.nextGaussian())));
                m.add(new Measurement(rate, side, 0, t, 12000 / load * (1 + 0.05 * r.nextGaussian())));
            }
        }
        ComparisonTable t = ComparisonTable.of("b", "h", m, Thresholds.DEFAULT, c -> false);
        assertTrue(
                t.rows().stream().allMatch(row -> row.sameAs().isEmpty()),
                t.rows().toString());
        assertEquals(2, t.counts().values().stream().mapToInt(Integer::intValue).sum());
    }

    @Test
    void aFollowerTakesItsCellsVerdictAfterTheRunIsJudgedTogether() {
        List<Measurement> m = new ArrayList<>(goTrials(1.2, 0.01, 4));
        // Twenty more benchmarks that did not change: the run judges its cells together.
        Random r = new Random(2);
        for (int b = 0; b < 20; b++) {
            Cell c = new Cell("other/" + b, "time", "ns/op", Direction.LOWER_IS_BETTER);
            for (Side side : Side.values()) {
                for (int t = 0; t < 5; t++) {
                    m.add(new Measurement(c, side, 0, t, 10 * (1 + 0.01 * r.nextGaussian())));
                }
            }
        }
        ComparisonTable t = ComparisonTable.of("b", "h", m, Thresholds.DEFAULT, c -> false);
        assertTrue(Thresholds.DEFAULT.judgedTogether(t.tested()));
        CellComparison speed = t.rows().stream()
                .filter(r2 -> r2.cell().equals(SPEED))
                .findFirst()
                .orElseThrow();
        assertEquals(Verdict.REGRESSION, speed.comparison().verdict());
        assertEquals(1, t.benchmarks().get(Verdict.REGRESSION));
    }
}
