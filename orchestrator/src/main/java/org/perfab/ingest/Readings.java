package org.perfab.ingest;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.perfab.failure.BadInputException;
import org.perfab.model.Cell;
import org.perfab.model.CellId;
import org.perfab.model.CellUnits;

/** What holds for readings from any format, or from several files. */
public final class Readings {
    private Readings() {}

    /**
     * Returns {@code readings}, in order, with every cell in the unit it was first read in: a value
     * in another unit of the same kind ({@code ns} here, {@code us} there) is converted.
     *
     * @throws BadInputException naming both places when one cell comes with two directions, or
     *     with units that do not convert
     */
    public static List<Reading> oneUnitPerCell(List<Reading> readings) {
        CellUnits units = new CellUnits();
        Map<CellId, Reading> first = new HashMap<>();
        List<Reading> out = new ArrayList<>(readings.size());
        // Adapters make one Cell per cell and unit: most readings share their first one's instance.
        Map<Cell, Boolean> asFirst = new IdentityHashMap<>();
        for (Reading r : readings) {
            if (asFirst.containsKey(r.cell())) {
                out.add(r);
                continue;
            }
            Reading f = first.putIfAbsent(r.cell().id(), r);
            if (f == null || f.cell().equals(r.cell())) {
                asFirst.put(r.cell(), true);
            }
            if (f != null && f.cell().equals(r.cell())) {
                out.add(r); // the cell as first read: nothing to convert
                continue;
            }
            OptionalDouble v = units.fit(r.cell(), r.value());
            f = f == null ? r : f;
            if (v.isEmpty()) {
                throw new BadInputException(r.where() + ": cell " + r.cell().id() + " has "
                        + CellUnits.describe(r.cell()) + " but " + CellUnits.describe(f.cell()) + " at " + f.where()
                        + ", and the two do not convert");
            }
            out.add(
                    f.cell().equals(r.cell())
                            ? r
                            : new Reading(f.cell(), v.getAsDouble(), r.file(), r.line(), r.column()));
        }
        return out;
    }
}
