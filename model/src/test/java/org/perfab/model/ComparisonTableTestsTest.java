package org.perfab.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.perfab.stats.Direction;
import org.perfab.stats.KnownTests;
import org.perfab.stats.Statistic;
import org.perfab.stats.Thresholds;
import org.perfab.stats.Verdict;

/** The table judges its cells by the test it is given, and by perfab's own by default. */
class ComparisonTableTestsTest {
    private static final Cell CELL = new Cell("work", "time", "ns", Direction.LOWER_IS_BETTER);
    private static final Thresholds FIXED = new Thresholds(0.05, 3, 10, Thresholds.FDR_OFF);

    /** Three builds a side, three trials each; the head's third build is 40% slower in one trial. */
    private static List<Measurement> measurements() {
        double[][] base = {{100, 101, 99}, {100.5, 99.5, 100}, {101, 100, 99.5}};
        double[][] head = {{105, 106, 104}, {105.5, 104.5, 105}, {106, 147, 104.5}};
        List<Measurement> m = new ArrayList<>();
        for (int b = 0; b < 3; b++) {
            for (int t = 0; t < 3; t++) {
                m.add(new Measurement(CELL, Side.BASE, b, 3 * b + t, base[b][t]));
                m.add(new Measurement(CELL, Side.HEAD, b, 3 * b + t, head[b][t]));
            }
        }
        return m;
    }

    @Test
    void perfabsTestLetsTheBuildMediansDecideWithTheTrialsBeside() {
        CellComparison row = ComparisonTable.of("b", "h", measurements(), FIXED, c -> false)
                .rows()
                .get(0);
        assertTrue(row.byBuilds());
        assertEquals(3, row.comparison().base().n());
        assertEquals(Verdict.REGRESSION, row.comparison().verdict());
        assertEquals(1, row.outliers().size(), "the trials' own comparison set the slow trial aside");
    }

    @Test
    void aRowJudgedAgainAmongTheRunsCellsShowsTheDetectableChangeOfItsNewVerdict() {
        // 4% slower at p 0.004 alone; among 31 cells its adjusted p is 0.12, and it is too noisy to
        // tell, a claim that takes in the worse end of its interval.
        double[] base = {100, 102, 98, 101, 99};
        double[] head = {104, 106, 102, 105, 103};
        List<Measurement> m = new ArrayList<>();
        for (int c = 0; c <= 30; c++) {
            Cell cell = new Cell(c == 0 ? "work" : "other/" + c, "time", "ns", Direction.LOWER_IS_BETTER);
            for (int i = 0; i < 5; i++) {
                m.add(new Measurement(cell, Side.BASE, 0, i, base[(i + c) % 5]));
                m.add(new Measurement(cell, Side.HEAD, 0, i, c == 0 ? head[i] : base[(i + c + 2) % 5]));
            }
        }
        ComparisonTable table = ComparisonTable.of("b", "h", m, Thresholds.DEFAULT, c -> false);
        CellComparison row = table.rows().stream()
                .filter(r -> r.cell().name().equals("work"))
                .findFirst()
                .orElseThrow();
        assertEquals(Verdict.NOISY, row.comparison().verdict(), row.toString());
        for (CellComparison r : table.rows()) {
            assertEquals(r.comparison().detectable(table.thresholds()), r.detectable(), 0.0, r.toString());
        }
        assertTrue(row.detectable() >= row.comparison().worseEnd(), row.toString());
    }

    @Test
    void anotherTestJudgesEveryTrialItsOwnWay() {
        CellComparison row = ComparisonTable.of("b", "h", measurements(), FIXED, c -> false, KnownTests.MANN_WHITNEY)
                .rows()
                .get(0);
        assertTrue(!row.byBuilds());
        assertEquals(9, row.comparison().base().n());
        assertEquals(Verdict.REGRESSION, row.comparison().verdict());
        assertEquals(Statistic.Kind.MANN_WHITNEY_U, row.comparison().statistic().kind());
        assertEquals(
                81.0, row.comparison().statistic().value(), 0.0, "every head trial above every base trial: U = 9 x 9");
        assertEquals(List.of(), row.outliers());
    }
}
