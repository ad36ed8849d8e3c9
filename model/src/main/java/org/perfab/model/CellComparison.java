package org.perfab.model;

import java.util.Objects;
import org.perfab.stats.Comparison;

/**
 * One row of a comparison: a cell and how its candidate compares with its baseline.
 *
 * @param cell the cell
 * @param comparison the statistics and verdict
 */
public record CellComparison(Cell cell, Comparison comparison) {
    public CellComparison {
        Objects.requireNonNull(cell, "cell");
        Objects.requireNonNull(comparison, "comparison");
    }
}
