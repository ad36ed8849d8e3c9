package org.perfab.ingest;

import java.nio.file.Path;
import java.util.Objects;
import org.perfab.model.Cell;

/**
 * One value read from a file, before it is placed on a side and a trial.
 *
 * @param cell what was measured
 * @param value the value, finite
 * @param file the file it was read from
 * @param line the line where its record starts, from 1
 * @param column the column where its record starts, from 1
 */
public record Reading(Cell cell, double value, Path file, int line, int column) {
    public Reading {
        Objects.requireNonNull(cell, "cell");
        Objects.requireNonNull(file, "file");
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException(file + ":" + line + ":" + column + ": value " + value
                    + " is not finite");
        }
    }

    /** Returns where the value was read, {@code FILE:LINE:COLUMN}, for messages. */
    public String where() {
        return file + ":" + line + ":" + column;
    }
}
