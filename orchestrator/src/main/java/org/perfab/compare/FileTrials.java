package org.perfab.compare;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
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
 * metric), each cell's in the order read and in the unit the file gives. {@link #merge} puts the
 * files together. The values are held as numbers, not as an object each nor as readings: as read, in
 * fixed blocks with the cell of each (a value costs 12 bytes and is never copied to make room); once
 * read, in one array per cell, of its exact size, which the table takes as it is.
 */
final class FileTrials implements Consumer<Reading> {
    /** Values a block holds: 96 KiB a block, a few dozen for a file of a million values. */
    private static final int BLOCK = 1 << 13;

    private final Path file;
    private final MeasurementFormat format;
    private final Side side;
    /** Each cell's values, by name and metric. */
    private final Map<CellId, Column> columns = new HashMap<>();
    /** The columns by number: in the order first read. */
    private final List<Column> numbered = new ArrayList<>();
    /** The column of each cell instance a reading came with: most formats give one instance per cell. */
    private final Map<Cell, Column> byInstance = new IdentityHashMap<>();
    /** The values as read, and the number of each one's column, a block at a time. */
    private final List<double[]> values = new ArrayList<>();

    private final List<int[]> columnOf = new ArrayList<>();
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
        private final CellId id;
        /** The cell's first reading in the file. */
        private final Reading first;

        private final int number;
        private int size;
        /** The values, once the file is read. */
        private double[] values;
        /** The cell of each value, when they are not all the first reading's (a unit that changes); else null. */
        private Cell[] cells;

        Column(CellId id, Reading first, int number) {
            this.id = id;
            this.first = first;
            this.number = number;
        }

        /** Counts a value of {@code cell}, keeping its cell when it is not the first reading's. */
        void count(Cell cell) {
            if (cells == null && cell != first.cell() && !cell.equals(first.cell())) {
                cells = new Cell[Math.max(16, size * 2)];
                Arrays.fill(cells, 0, size, first.cell());
            }
            if (cells != null) {
                if (size == cells.length) {
                    cells = Arrays.copyOf(cells, size * 2);
                }
                cells[size] = cell;
            }
            size++;
        }

        Cell cell(int i) {
            return cells == null ? first.cell() : cells[i];
        }

        /** Returns whether every value is of the first reading's cell. */
        boolean oneCell() {
            return cells == null;
        }
    }

    /**
     * Reads the file. Each cell's values are then put in their own array here, on the file's own
     * thread, so that {@link #merge}, on one, hands a side's only file's arrays on as they are.
     */
    FileTrials read() {
        format.readings(file, this);
        int[] filled = new int[numbered.size()];
        for (Column c : numbered) {
            c.values = new double[c.size];
        }
        Column[] byNumber = numbered.toArray(new Column[0]);
        for (int b = 0; b < values.size(); b++) {
            double[] v = values.get(b);
            int[] of = columnOf.get(b);
            for (int i = 0, n = Math.min(BLOCK, size - b * BLOCK); i < n; i++) {
                byNumber[of[i]].values[filled[of[i]]++] = v[i];
            }
        }
        values.clear();
        columnOf.clear();
        return this;
    }

    @Override
    public void accept(Reading reading) {
        Cell cell = reading.cell();
        Column column = byInstance.get(cell);
        if (column == null) {
            column = columns.computeIfAbsent(cell.id(), id -> {
                Column c = new Column(id, reading, numbered.size());
                numbered.add(c);
                return c;
            });
            // A format that makes a cell per value has many more instances than cells: those are not kept.
            if (byInstance.size() < 4 * columns.size() + 1024) {
                byInstance.put(cell, column);
            }
        }
        column.count(cell);
        int i = size % BLOCK;
        if (i == 0) {
            values.add(new double[BLOCK]);
            columnOf.add(new int[BLOCK]);
        }
        values.get(values.size() - 1)[i] = reading.value();
        columnOf.get(columnOf.size() - 1)[i] = column.number;
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

        /**
         * Adds {@code column}'s values to {@code side}'s, converted to the unit of the cell's first
         * reading: the column's own array when the side has none yet and none converts, else a copy.
         *
         * @return whether every value converted
         */
        boolean add(Side side, Column column, CellUnits units) {
            int s = side.ordinal();
            Cell to = first.cell();
            if (sizes[s] == 0 && column.oneCell() && column.first.cell().equals(to)) {
                values[s] = column.values;
                sizes[s] = column.size;
                return true;
            }
            if (sizes[s] + column.size > values[s].length) {
                values[s] = Arrays.copyOf(values[s], sizes[s] + column.size);
            }
            for (int i = 0; i < column.size; i++) {
                Cell cell = column.cell(i);
                OptionalDouble v =
                        cell.equals(to) ? OptionalDouble.of(column.values[i]) : units.fit(cell, column.values[i]);
                if (v.isEmpty()) {
                    return false;
                }
                values[s][sizes[s]++] = v.getAsDouble();
            }
            return true;
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
            // Every cell of the file is placed before any value is converted: a value that does not
            // convert is reported against the first reading of its cell.
            Merged[] into = new Merged[f.numbered.size()];
            for (Column column : f.numbered) {
                into[column.number] = merged.computeIfAbsent(column.id, id -> {
                    units.fit(column.first.cell(), column.first.value());
                    return new Merged(column.first);
                });
            }
            for (Column column : f.numbered) {
                if (!into[column.number].add(f.side, column, units)) {
                    throw f.unconvertible(merged, units);
                }
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
