package org.perfab.model;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The one rule for a cell's unit across readings: a cell is shown in the unit it was first read
 * in, and every later value of it, in whatever file, side or trial, is converted into that unit
 * when the two are of one kind ({@code ns} and {@code us}, {@code Mb/s} and {@code MB/s}) and
 * point the same way. Values that do not convert are never taken as equal: the caller refuses them
 * or leaves them out, saying so.
 */
public final class CellUnits {
    private final Map<CellId, Cell> first = new HashMap<>();

    /**
     * Returns {@code value} of {@code cell} in the unit its id was first seen in (and records
     * {@code cell} as the first when it is); empty when the two do not convert.
     */
    public OptionalDouble fit(Cell cell, double value) {
        Cell f = first.putIfAbsent(cell.id(), cell);
        if (f == null || f.equals(cell)) {
            return OptionalDouble.of(value);
        }
        Optional<Double> v =
                f.direction() == cell.direction() ? Units.convert(value, cell.unit(), f.unit()) : Optional.empty();
        return v.isPresent() && Double.isFinite(v.get()) ? OptionalDouble.of(v.get()) : OptionalDouble.empty();
    }

    /** Returns the cell as first seen under {@code id}: the unit and direction its values are in. */
    public Cell first(CellId id) {
        Cell c = first.get(id);
        if (c == null) {
            throw new IllegalArgumentException("no value of cell " + id + " was seen");
        }
        return c;
    }

    /** Returns {@code cell}'s unit and direction as a person reads them: {@code 'us' (lower is better)}. */
    public static String describe(Cell cell) {
        return "unit '" + cell.unit() + "' (" + cell.direction().id() + " is better)";
    }
}
