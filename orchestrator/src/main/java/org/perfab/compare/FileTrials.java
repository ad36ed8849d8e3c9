package org.perfab.compare;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.Consumer;
import org.perfab.failure.BadInputException;
import org.perfab.ingest.MeasurementFormat;
import org.perfab.ingest.Reading;
import org.perfab.model.Cell;
import org.perfab.model.CellId;
import org.perfab.model.CellUnits;
import org.perfab.model.CellValues;
import org.perfab.model.Side;

/**
 * The values of one file as it is read, each a trial of the file's side: grouped by cell (name and
 * metric) as they are read, each cell's in the order read and in the unit the file gives.
 * {@link #merge} puts the files together. The values are held as numbers in one array per cell, not
 * as an object each nor as readings: a file of 200,000 values holds little more than their 1.6 MB,
 * and the table needs no grouping of its own.
 */
final class FileTrials implements Consumer<Reading> {

    private final Path file;
    private final MeasurementFormat format;
    private final Side side;
    /** Each cell's values, by name and metric, in the order each was first read. */
    private final Map<CellId, Column> columns = new LinkedHashMap<>();
    /** The column of each cell instance a reading came with: most formats give one instance per cell. */
    private final Map<Cell, Column> byInstance = new IdentityHashMap<>();
    private int size;

    /** Returns the values of {@code file}, once read. */
    FileTrials(Path file, MeasurementFormat format, Side side) {
        this.file = file;
        this.format = format;
        this.side = side;
    }

    /**
     * One cell's values in the file (one name and metric), in the order read, with the cell of each:
     * nearly always one cell for all, held once.
     */
    private static final class Column {
        /** The cell's first reading in the file. */
        private final Reading first;
        private double[] values = new double[10];
        private int size;
        /** The cell of each value, when they are not all the first reading's (a unit that changes); else null. */
        private Cell[] cells;

        Column(Reading first) {
            this.first = first;
        }

        void add(Cell cell, double value) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size + (size >> 1));
                if (cells != null) {
                    cells = Arrays.copyOf(cells, values.length);
                }
            }
            if (cells == null && cell != first.cell() && !cell.equals(first.cell())) {
                cells = new Cell[values.length];
                Arrays.fill(cells, 0, size, first.cell());
            }
            if (cells != null) {
                cells[size] = cell;
            }
            values[size++] = value;
        }

        Cell cell(int i) {
            return cells == null ? first.cell() : cells[i];
        }
    }

    /** Reads the file. */
    FileTrials read() {
        format.readings(file, this);
        return this;
    }

    @Override
    public void accept(Reading reading) {
        Cell cell = reading.cell();
        Column column = byInstance.get(cell);
        if (column == null) {
            column = columns.computeIfAbsent(cell.id(), id -> new Column(reading));
            // A format that makes a cell per value has many more instances than cells: those are not kept.
            if (byInstance.size() < 4 * columns.size() + 1024) {
                byInstance.put(cell, column);
            }
        }
        column.add(cell, reading.value());
        size++;
    }

    /** Returns how many values the file holds. */
    int size() {
        return size;
    }

    /** One cell's values over every file: the first reading of it, and each side's values in trial order. */
    private static final class Merged {
        private final Reading first;
        private final double[][] values = {new double[0], new double[0]};
        private final int[] sizes = new int[2];

        Merged(Reading first) {
            this.first = first;
        }

        double[] room(Side side, int more) {
            int s = side.ordinal();
            if (sizes[s] + more > values[s].length) {
                values[s] = Arrays.copyOf(values[s], sizes[s] + more);
            }
            return values[s];
        }

        CellValues values() {
            return CellValues.of(first.cell(), trimmed(Side.BASE), trimmed(Side.HEAD));
        }

        private double[] trimmed(Side side) {
            int s = side.ordinal();
            return values[s].length == sizes[s] ? values[s] : Arrays.copyOf(values[s], sizes[s]);
        }
    }

    /**
     * Returns the values of {@code files} grouped by cell, cells in the order first read (file after
     * file), each side's values in trial order: counted across the side's files in file order. Every
     * cell is in the unit it was first read in: a value in another unit of the same kind ({@code ns}
     * here, {@code us} there) is converted (see {@link CellUnits}).
     *
     * @throws BadInputException naming both places when one cell comes with two directions, or
     *     with units that do not convert
     */
    static List<CellValues> merge(List<FileTrials> files) {
        CellUnits units = new CellUnits();
        Map<CellId, Merged> merged = new LinkedHashMap<>();
        for (FileTrials f : files) {
            for (Column column : f.columns.values()) {
                merged.computeIfAbsent(column.first.cell().id(), id -> {
                    units.fit(column.first.cell(), column.first.value());
                    return new Merged(column.first);
                });
            }
            for (Map.Entry<CellId, Column> e : f.columns.entrySet()) {
                Column column = e.getValue();
                Merged m = merged.get(e.getKey());
                Cell to = m.first.cell();
                double[] into = m.room(f.side, column.size);
                int at = m.sizes[f.side.ordinal()];
                if (column.cells == null && column.first.cell().equals(to)) {
                    System.arraycopy(column.values, 0, into, at, column.size);
                } else {
                    for (int i = 0; i < column.size; i++) {
                        Cell cell = column.cell(i);
                        OptionalDouble v = cell.equals(to) ? OptionalDouble.of(column.values[i])
                                : units.fit(cell, column.values[i]);
                        if (v.isEmpty()) {
                            throw f.unconvertible(merged, units);
                        }
                        into[at + i] = v.getAsDouble();
                    }
                }
                m.sizes[f.side.ordinal()] = at + column.size;
            }
        }
        return merged.values().stream().map(Merged::values).toList();
    }

    /**
     * Returns the failure of the file's first value whose unit does not convert to that of its cell's
     * first reading: the file is read again for the value's place, which is kept for no value.
     */
    private BadInputException unconvertible(Map<CellId, Merged> merged, CellUnits units) {
        for (Reading r : format.readings(file)) {
            Reading first = merged.get(r.cell().id()).first;
            if (!r.cell().equals(first.cell()) && units.fit(r.cell(), r.value()).isEmpty()) {
                return new BadInputException(r.where() + ": cell " + r.cell().id() + " has "
                        + CellUnits.describe(r.cell()) + " but " + CellUnits.describe(first.cell()) + " at "
                        + first.where() + ", and the two do not convert");
            }
        }
        throw new IllegalStateException(file + ": a value did not convert, and does not on reading the file again");
    }
}
