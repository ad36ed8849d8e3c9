package org.perfab.ingest;

import java.nio.file.Path;
import java.util.Objects;
import org.perfab.failure.BadInputException;
import org.perfab.model.Cell;
import org.perfab.model.Units;
import org.perfab.stats.Direction;

/**
 * One value read from a file, before it is placed on a side and a trial.
 *
 * @param cell what was measured
 * @param value the value, finite; 0 or more when the cell's unit is a time or a cost (one whose unit
 *     says lower is better: {@code ns/op}, {@code B/op}, {@code allocs/op})
 * @param file the file it was read from
 * @param line the line where its record starts, from 1; 0 when the format has no lines to name (a
 *     JSON tree)
 * @param column the column where its record starts, from 1; 0 with line 0
 */
public record Reading(Cell cell, double value, Path file, int line, int column) {
    /**
     * Validates the value: every format's readings pass here, so the rule holds for all of them.
     *
     * @throws BadInputException naming where, the cell and the value when the value is not finite,
     *     or is a negative time or cost (a zero is kept: 0 allocs/op is common)
     */
    public Reading {
        Objects.requireNonNull(cell, "cell");
        Objects.requireNonNull(file, "file");
        if (!Double.isFinite(value)) {
            throw new BadInputException(
                    where(file, line, column) + ": cell " + cell.id() + ": value " + value + " is not finite");
        }
        if (value < 0 && Units.direction(cell.unit()).orElse(null) == Direction.LOWER_IS_BETTER) {
            throw new BadInputException(where(file, line, column) + ": cell " + cell.id() + ": value "
                    + Double.toString(value).replaceAll("\\.0$", "") + " " + cell.unit() + " is negative, and a time"
                    + " or a cost cannot be");
        }
    }

    /** Returns where the value was read, {@code FILE:LINE:COLUMN} (or {@code FILE}), for messages. */
    public String where() {
        return where(file, line, column);
    }

    private static String where(Path file, int line, int column) {
        return line > 0 ? file + ":" + line + ":" + column : file.toString();
    }
}
