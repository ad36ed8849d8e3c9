package org.perfab.model;

import java.util.Comparator;
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
    private static final Comparator<CellId> ORDER = Comparator.comparing(CellId::name).thenComparing(CellId::metric);

    public CellId {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(metric, "metric");
    }

    /** Orders by name, then metric, by UTF-16 code units (locale-independent). */
    @Override
    public int compareTo(CellId other) {
        return ORDER.compare(this, other);
    }

    /** Returns the cell as a person reads it in a message: {@code 'NAME' (METRIC)}. */
    @Override
    public String toString() {
        return "'" + name + "' (" + metric + ")";
    }
}
