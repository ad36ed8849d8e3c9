package org.perfab.model;

import java.util.Objects;

/**
 * What makes two cells one row: the benchmark's name and the metric. The only key of a cell: a
 * joined string would take cell {@code x:y} with metric {@code z} for cell {@code x} with metric
 * {@code y:z}.
 *
 * @param name the benchmark's name, e.g. {@code publish/256B/1sub}
 * @param metric what was measured, e.g. {@code throughput}
 */
public record CellId(String name, String metric) implements Comparable<CellId> {
    public CellId {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(metric, "metric");
    }

    /** Orders by name, then metric, by UTF-16 code units (locale-independent). */
    @Override
    public int compareTo(CellId other) {
        int byName = name.compareTo(other.name);
        return byName != 0 ? byName : metric.compareTo(other.metric);
    }

    /** Returns the hash a record's own would be, written out, as {@link Cell#hashCode} does and for its reason. */
    @Override
    public int hashCode() {
        return name.hashCode() * 31 + metric.hashCode();
    }

    /** Returns whether {@code o} has the same name and metric: a record's equality, written out. */
    @Override
    public boolean equals(Object o) {
        return o == this || o instanceof CellId c && name.equals(c.name) && metric.equals(c.metric);
    }

    /** Returns the cell as a person reads it in a message: {@code 'NAME' (METRIC)}. */
    @Override
    public String toString() {
        return "'" + name + "' (" + metric + ")";
    }
}
