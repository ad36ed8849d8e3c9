package org.perfab.ingest;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.perfab.failure.BadInputException;
import org.perfab.model.Cell;

/** What holds for readings from any format, or from several files. */
public final class Readings {
    private Readings() {
    }

    /**
     * Returns {@code readings}, in order, with every cell in the unit it was first read in: a value
     * in another unit of the same kind ({@code ns} here, {@code us} there) is converted.
     *
     * @throws BadInputException naming both places when one cell comes with two directions, or
     *     with units that do not convert
     */
    public static List<Reading> oneUnitPerCell(List<Reading> readings) {
        Map<String, Reading> first = new HashMap<>();
        List<Reading> out = new ArrayList<>(readings.size());
        for (Reading r : readings) {
            Reading f = first.putIfAbsent(r.cell().key(), r);
            Cell c = f == null ? r.cell() : f.cell();
            if (c.equals(r.cell())) {
                out.add(r);
                continue;
            }
            Optional<Double> converted = valueIn(c, r.cell(), r.value());
            if (converted.isEmpty()) {
                throw new BadInputException(r.where() + ": cell '" + r.cell().key() + "' has " + describe(r.cell())
                        + " but " + describe(c) + " at " + f.where() + ", and the two do not convert");
            }
            out.add(new Reading(c, converted.get(), r.file(), r.line(), r.column()));
        }
        return out;
    }

    /**
     * Returns {@code value}, measured as {@code from}, in the unit of {@code target}: the same cell
     * in another unit of its kind. Empty when the directions differ or the units do not convert.
     */
    public static Optional<Double> valueIn(Cell target, Cell from, double value) {
        return target.direction() == from.direction() ? Units.convert(value, from.unit(), target.unit())
                : Optional.empty();
    }

    private static String describe(Cell cell) {
        return "unit '" + cell.unit() + "' (" + cell.direction().id() + " is better)";
    }
}
