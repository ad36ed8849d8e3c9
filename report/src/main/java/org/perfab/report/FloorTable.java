package org.perfab.report;

import java.util.List;
import org.perfab.model.Baseline;

/**
 * Measured noise floors, as {@code perfab baseline floor} renders them.
 *
 * @param floors a floor per tier, in the order measured
 * @param multiple what {@code check --budget auto} multiplies a spread by, for the budgets shown; above 0
 */
public record FloorTable(List<Baseline.Floor> floors, double multiple) {
    public FloorTable {
        floors = List.copyOf(floors);
        if (!(multiple > 0)) {
            throw new IllegalArgumentException("the budget's multiple must be above 0, got " + multiple);
        }
    }
}
