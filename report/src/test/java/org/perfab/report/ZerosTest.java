package org.perfab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.perfab.model.Cell;
import org.perfab.model.ComparisonTable;
import org.perfab.model.Measurement;
import org.perfab.model.Side;
import org.perfab.stats.Direction;
import org.perfab.stats.Thresholds;

class ZerosTest {
    /** A table of {@code names}, each with a time and the zero metrics {@code zero}. */
    private static ComparisonTable table(List<String> names, List<String> zero) {
        List<Measurement> m = new ArrayList<>();
        for (String name : names) {
            Cell time = new Cell(name, "time", "ns/op", Direction.LOWER_IS_BETTER);
            for (Side side : Side.values()) {
                for (int t = 0; t < 3; t++) {
                    m.add(new Measurement(time, side, 0, t, 100 + t));
                    for (String metric : zero) {
                        m.add(new Measurement(
                                new Cell(name, metric, metric, Direction.LOWER_IS_BETTER), side, 0, t, 0));
                    }
                }
            }
        }
        return ComparisonTable.of("base", "head", m, Thresholds.DEFAULT, c -> false);
    }

    @Test
    void namesEachBenchmarkOnceWithTheMetricsThatAreZero() {
        ComparisonTable t =
                table(List.of("Count", "Iterate", "Leaf", "Rank", "Shrink", "Sum"), List.of("B/op", "allocs/op"));
        assertEquals(
                "12 cells 0 on both sides in every trial: B/op and allocs/op of 6 benchmarks (Count, Iterate,"
                        + " Leaf, Rank and 2 more)",
                Zeros.line(t.rows(), Untrusted::plain));
    }

    @Test
    void namesOneBenchmarkAndItsMetric() {
        assertEquals(
                "1 cell 0 on both sides in every trial: allocs/op of Leaf",
                Zeros.line(table(List.of("Leaf"), List.of("allocs/op")).rows(), Untrusted::plain));
        assertEquals("", Zeros.line(table(List.of("Leaf"), List.of()).rows(), Untrusted::plain));
    }

    @Test
    void benchmarksOfOtherZeroMetricsAreNamedApartAndTheRestCounted() {
        List<Measurement> m = new ArrayList<>();
        List<String> metrics = List.of("a", "b", "c", "d", "e", "f");
        for (int i = 0; i < metrics.size(); i++) {
            for (int k = 0; k <= i; k++) {
                Cell cell = new Cell("bench" + i, metrics.get(k), "x", Direction.LOWER_IS_BETTER);
                for (Side side : Side.values()) {
                    for (int t = 0; t < 3; t++) {
                        m.add(new Measurement(cell, side, 0, t, 0));
                    }
                }
            }
        }
        ComparisonTable t = ComparisonTable.of("base", "head", m, Thresholds.DEFAULT, c -> false);
        assertEquals(
                "21 cells 0 on both sides in every trial: a of bench0; a and b of bench1; a, b and c of bench2;"
                        + " and 15 more cells",
                Zeros.line(t.rows(), Untrusted::plain));
        List<String> many = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            many.add("m" + i);
        }
        assertEquals(
                "7 cells 0 on both sides in every trial: m0, m1, m2, m3 and 3 more metrics of x",
                Zeros.line(table(List.of("x"), many).rows(), Untrusted::plain));
    }
}
