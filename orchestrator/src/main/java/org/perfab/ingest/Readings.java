package org.perfab.ingest;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.function.Consumer;
import org.perfab.failure.BadInputException;
import org.perfab.model.Cell;
import org.perfab.model.CellId;
import org.perfab.model.CellUnits;

/**
 * The readings of one file, in the order read, held by column: a run of 10,000 benchmarks x 20
 * counts is 200,000 values a file, so a reading is kept as a cell's number, a value and a place,
 * not as an object. {@link #oneUnitPerCell} puts every cell of one or more files in one unit: the
 * one place that rule is applied to what formats read.
 */
public final class Readings implements Consumer<Reading> {
    private final Path file;
    private final List<Cell> cells = new ArrayList<>();
    private final Map<Cell, Integer> numbers = new HashMap<>();
    private Cell lastCell;
    private int lastNumber;
    private int size;
    /** Blocks of {@link #BLOCK} readings: growing adds one, and copies none. */
    private final List<int[]> cellOf = new ArrayList<>();
    private final List<double[]> valueOf = new ArrayList<>();
    private final List<int[]> lineOf = new ArrayList<>();
    private final List<int[]> columnOf = new ArrayList<>();
    private static final int SHIFT = 12;
    private static final int BLOCK = 1 << SHIFT;

    /** Returns an empty holder of the readings of {@code file}. */
    public Readings(Path file) {
        this.file = Objects.requireNonNull(file, "file");
    }

    /**
     * Adds {@code reading} after the others.
     *
     * @throws IllegalArgumentException when it was read from another file
     */
    @Override
    public void accept(Reading reading) {
        if (reading.file() != file && !reading.file().equals(file)) {
            throw new IllegalArgumentException(reading.where() + " is not in " + file);
        }
        Cell cell = reading.cell();
        int number;
        if (cell == lastCell) {
            number = lastNumber;
        } else {
            number = numbers.computeIfAbsent(cell, c -> {
                cells.add(c);
                return cells.size() - 1;
            });
            lastCell = cell;
            lastNumber = number;
        }
        int at = size & (BLOCK - 1);
        if (at == 0) {
            cellOf.add(new int[BLOCK]);
            valueOf.add(new double[BLOCK]);
            lineOf.add(new int[BLOCK]);
            columnOf.add(new int[BLOCK]);
        }
        int block = size++ >>> SHIFT;
        cellOf.get(block)[at] = number;
        valueOf.get(block)[at] = reading.value();
        lineOf.get(block)[at] = reading.line();
        columnOf.get(block)[at] = reading.column();
    }

    /** Returns how many readings there are. */
    public int size() {
        return size;
    }

    /** Returns reading {@code i} as read, in the unit its file gave. */
    private Reading reading(int i) {
        return new Reading(cells.get(cellOf.get(i >>> SHIFT)[i & (BLOCK - 1)]), value(i), file, line(i), column(i));
    }

    private double value(int i) {
        return valueOf.get(i >>> SHIFT)[i & (BLOCK - 1)];
    }

    private int line(int i) {
        return lineOf.get(i >>> SHIFT)[i & (BLOCK - 1)];
    }

    private int column(int i) {
        return columnOf.get(i >>> SHIFT)[i & (BLOCK - 1)];
    }

    /** What is done with each reading once its cell is in one unit. */
    public interface Visitor {
        /**
         * Takes reading {@code index} of part {@code part}.
         *
         * @param cell the cell as first read, in whose unit {@code value} now is
         */
        void reading(int part, int index, Cell cell, double value);
    }

    /**
     * Hands every reading of {@code parts}, part after part and in order within each, to
     * {@code visitor}, with every cell in the unit it was first read in: a value in another unit of
     * the same kind ({@code ns} here, {@code us} there) is converted. All readings of one cell are
     * handed with one {@link Cell} instance.
     *
     * @throws BadInputException naming both places when one cell comes with two directions, or
     *     with units that do not convert
     */
    public static void oneUnitPerCell(List<Readings> parts, Visitor visitor) {
        CellUnits units = new CellUnits();
        Map<CellId, Reading> first = new HashMap<>();
        for (int p = 0; p < parts.size(); p++) {
            Readings part = parts.get(p);
            // Each distinct cell of the part: the cell as first read, and whether its values convert.
            Cell[] as = new Cell[part.cells.size()];
            boolean[] convert = new boolean[as.length];
            for (int i = 0; i < part.size; i++) {
                int c = part.cellOf.get(i >>> SHIFT)[i & (BLOCK - 1)];
                Cell cell = part.cells.get(c);
                if (as[c] == null) {
                    Reading f = first.putIfAbsent(cell.id(), part.reading(i));
                    if (f == null) {
                        units.fit(cell, part.value(i)); // the cell as first read, for the units of the others
                    }
                    as[c] = f == null ? cell : f.cell();
                    convert[c] = f != null && !f.cell().equals(cell);
                }
                double value = part.value(i);
                if (convert[c]) {
                    OptionalDouble v = units.fit(cell, value);
                    if (v.isEmpty()) {
                        Reading f = first.get(cell.id());
                        throw new BadInputException(part.reading(i).where() + ": cell " + cell.id() + " has "
                                + CellUnits.describe(cell) + " but " + CellUnits.describe(f.cell()) + " at "
                                + f.where() + ", and the two do not convert");
                    }
                    value = v.getAsDouble();
                }
                visitor.reading(p, i, as[c], value);
            }
        }
    }

    /** Returns the readings, in order, with every cell in one unit (see {@link #oneUnitPerCell}). */
    public List<Reading> inOneUnit() {
        List<Reading> out = new ArrayList<>(size);
        oneUnitPerCell(List.of(this), (part, i, cell, value) ->
                out.add(new Reading(cell, value, file, line(i), column(i))));
        return out;
    }
}
