package org.perfab.compare;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.perfab.failure.BadInputException;
import org.perfab.ingest.MeasurementFormat;
import org.perfab.ingest.Reading;
import org.perfab.model.Cell;
import org.perfab.model.CellId;
import org.perfab.model.CellUnits;
import org.perfab.model.Measurement;
import org.perfab.model.Side;

/**
 * The values of one file as it is read, each a trial of the file's side: counted within the file,
 * in the unit the file gives. {@link #merge} puts the files together. A value becomes a
 * {@link Measurement} once, as it is read: a file of 200,000 values is not also held as readings.
 */
final class FileTrials implements Consumer<Reading> {

    private final Path file;
    private final MeasurementFormat format;
    private final Side side;
    private final Map<Cell, Cell> shared;
    private final List<Measurement> measurements = new ArrayList<>();
    /** Each cell's first reading, in the order first read. */
    private final Map<Cell, Reading> first = new LinkedHashMap<>();
    /** The count of each cell's values so far: one counter per name and metric, whatever its unit. */
    private final Map<CellId, int[]> counts = new HashMap<>();
    /** Each cell instance a reading came with: its shared instance and its counter. */
    private final Map<Cell, Counter> byInstance = new IdentityHashMap<>();

    /** A cell instance's shared instance and the count of its name and metric's values. */
    private record Counter(Cell cell, int[] count) {
    }

    /**
     * Returns the values of {@code file}, once read.
     *
     * @param shared the cells of every file read at once, so that a cell of two files is one
     *     instance (the table finds a cell's values by it): safe for threads
     */
    FileTrials(Path file, MeasurementFormat format, Side side, Map<Cell, Cell> shared) {
        this.file = file;
        this.format = format;
        this.side = side;
        this.shared = shared;
    }

    /** Reads the file. */
    FileTrials read() {
        format.readings(file, this);
        return this;
    }

    @Override
    public void accept(Reading reading) {
        Cell cell = reading.cell();
        Counter counter = byInstance.get(cell);
        if (counter == null) {
            Cell one = shared.computeIfAbsent(cell, c -> c);
            counter = new Counter(one, counts.computeIfAbsent(cell.id(), id -> new int[1]));
            first.putIfAbsent(one, reading);
            // A format that makes a cell per value has many more instances than cells: those are not kept.
            if (byInstance.size() < 4 * counts.size() + 1024) {
                byInstance.put(cell, counter);
            }
        }
        measurements.add(new Measurement(counter.cell, side, 0, counter.count[0]++, reading.value()));
    }

    /** Returns how many values the file holds. */
    int size() {
        return measurements.size();
    }

    /**
     * Returns the values of {@code files}, file after file, in file order, each a trial of its side
     * counted across the side's files, with every cell in the unit it was first read in: a value in
     * another unit of the same kind ({@code ns} here, {@code us} there) is converted (see
     * {@link CellUnits}).
     *
     * @throws BadInputException naming both places when one cell comes with two directions, or
     *     with units that do not convert
     */
    static List<Measurement> merge(List<FileTrials> files) {
        Map<Side, Long> filesOf = files.stream().collect(Collectors.groupingBy(f -> f.side, Collectors.counting()));
        CellUnits units = new CellUnits();
        Map<CellId, Reading> firstOfId = new HashMap<>();
        // The cells already first read as they are: the files share instances, so most are found here.
        Map<Cell, Boolean> asFirst = new IdentityHashMap<>();
        Map<Side, Map<CellId, Integer>> before = new HashMap<>();
        List<Measurement> all = new ArrayList<>(files.stream().mapToInt(FileTrials::size).sum());
        for (FileTrials f : files) {
            // The cells of the file first read in another unit, as first read; the file's values are
            // kept as they are unless one must change: a unit to convert, or trials after an earlier file's.
            Map<Cell, Cell> as = new HashMap<>();
            boolean change = false;
            for (Map.Entry<Cell, Reading> e : f.first.entrySet()) {
                if (asFirst.containsKey(e.getKey())) {
                    continue;
                }
                Reading r = e.getValue();
                Reading g = firstOfId.putIfAbsent(r.cell().id(), r);
                if (g == null) {
                    units.fit(r.cell(), r.value());
                    asFirst.put(e.getKey(), true);
                } else if (!g.cell().equals(r.cell())) {
                    as.put(e.getKey(), g.cell());
                    change = true;
                }
            }
            Map<CellId, Integer> earlier = before.computeIfAbsent(f.side, s -> new HashMap<>());
            Map<CellId, Integer> offsets = new HashMap<>();
            for (Map.Entry<CellId, int[]> e : filesOf.get(f.side) > 1 ? f.counts.entrySet()
                    : Set.<Map.Entry<CellId, int[]>>of()) {
                int offset = earlier.getOrDefault(e.getKey(), 0);
                offsets.put(e.getKey(), offset);
                earlier.put(e.getKey(), offset + e.getValue()[0]);
                change |= offset > 0;
            }
            if (!change) {
                all.addAll(f.measurements);
                continue;
            }
            for (int k = 0; k < f.measurements.size(); k++) {
                Measurement m = f.measurements.get(k);
                Cell to = as.getOrDefault(m.cell(), m.cell());
                double value = m.value();
                if (to != m.cell()) {
                    OptionalDouble v = units.fit(m.cell(), value);
                    if (v.isEmpty()) {
                        throw f.unconvertible(k, firstOfId.get(to.id()));
                    }
                    value = v.getAsDouble();
                }
                all.add(new Measurement(to, m.side(), 0, m.trial() + offsets.getOrDefault(m.cell().id(), 0), value));
            }
        }
        return all;
    }

    /**
     * Returns the failure of value {@code k}, whose unit does not convert to that of {@code first}:
     * the file is read again for the value's place, which is kept for no value.
     */
    private BadInputException unconvertible(int k, Reading first) {
        Reading r = format.readings(file).get(k);
        return new BadInputException(r.where() + ": cell " + r.cell().id() + " has " + CellUnits.describe(r.cell())
                + " but " + CellUnits.describe(first.cell()) + " at " + first.where() + ", and the two do not convert");
    }
}
