package org.perfab.report;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.perfab.model.Cell;
import org.perfab.model.CellComparison;
import org.perfab.model.ComparisonTable;
import org.perfab.model.Measurement;
import org.perfab.model.Side;
import org.perfab.stats.Direction;
import org.perfab.stats.Thresholds;

class NotesTest {
    /** A row 1% slower, with {@code floor} as its A/A noise floor. */
    private static CellComparison row(double floor) {
        Cell cell = new Cell("speed/run", "time", "ns", Direction.LOWER_IS_BETTER);
        double[][] values = {{100, 102, 98, 101, 99}, {101, 103, 99, 102, 100}};
        List<Measurement> m = new ArrayList<>();
        for (Side side : Side.values()) {
            for (int t = 0; t < values[side.ordinal()].length; t++) {
                m.add(new Measurement(cell, side, 0, t, values[side.ordinal()][t]));
            }
        }
        return ComparisonTable.of("base", "head", m, Thresholds.DEFAULT, c -> false).withNoiseFloors(r -> floor)
                .rows().get(0);
    }

    @Test
    void aChangeInsideTheNoiseFloorSaysWhatARunOfThisSizeFinds() {
        assertTrue(Notes.of(row(4.25)).contains("the change lies inside this cell's A/A noise floor: a run of this"
                + " size finds only changes past 4.3%"), Notes.of(row(4.25)).toString());
        assertTrue(Notes.of(row(Double.POSITIVE_INFINITY)).contains("the change lies inside this cell's A/A noise"
                + " floor: a run of this size finds no change, however large, with 80% power"),
                Notes.of(row(Double.POSITIVE_INFINITY)).toString());
    }
}
