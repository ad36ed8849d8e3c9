package org.perfab.model;

import java.util.Comparator;
import java.util.Objects;
import org.perfab.stats.Direction;

/**
 * What one row of a comparison measures: a benchmark (its {@code name}) and one of its metrics.
 * Two cells are the same row when their name and metric agree; unit and direction describe it.
 *
 * @param name the benchmark's name as the harness reports it, e.g. {@code publish/256B/1sub};
 *     not empty
 * @param metric what was measured, e.g. {@code throughput} or {@code p50}; not empty
 * @param unit the unit of every value, e.g. {@code msg/s}; may be empty when the harness gives none
 * @param direction which way is better
 */
public record Cell(String name, String metric, String unit, Direction direction) {

    /** Orders cells by name, then metric, by their UTF-16 code units (locale-independent). */
    public static final Comparator<Cell> ORDER = (a, b) -> {
        int byName = a.name.compareTo(b.name);
        return byName != 0 ? byName : a.metric.compareTo(b.metric);
    };

    public Cell {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(unit, "unit");
        Objects.requireNonNull(direction, "direction");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("a cell name must not be empty");
        }
        if (metric.isEmpty()) {
            throw new IllegalArgumentException("cell '" + name + "': the metric must not be empty");
        }
    }

    /** Returns what identifies the row: the name and the metric. */
    public CellId id() {
        return new CellId(name, metric);
    }

    /**
     * Returns the hash a record's own would be, written out: a table of a million values looks each
     * cell up by it, and the record's generated one is several times slower without the optimizing
     * compiler.
     */
    @Override
    public int hashCode() {
        return ((name.hashCode() * 31 + metric.hashCode()) * 31 + unit.hashCode()) * 31 + direction.hashCode();
    }

    /** Returns whether {@code o} is a cell of the same four parts: a record's equality, written out (see {@link #hashCode}). */
    @Override
    public boolean equals(Object o) {
        return o == this
                || o instanceof Cell c
                        && name.equals(c.name)
                        && metric.equals(c.metric)
                        && unit.equals(c.unit)
                        && direction == c.direction;
    }
}
