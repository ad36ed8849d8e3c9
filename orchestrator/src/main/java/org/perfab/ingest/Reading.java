package org.perfab.ingest;

import java.util.Objects;
import org.perfab.report.Cell;

/**
 * One value read from a file, before it is placed on a side and a trial.
 *
 * @param cell what was measured
 * @param value the value, finite
 * @param where where it was read, {@code FILE:LINE:COLUMN}, for messages
 */
public record Reading(Cell cell, double value, String where) {
    public Reading {
        Objects.requireNonNull(cell, "cell");
        Objects.requireNonNull(where, "where");
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException(where + ": value " + value + " is not finite");
        }
    }
}
