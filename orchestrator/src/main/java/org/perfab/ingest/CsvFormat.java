package org.perfab.ingest;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.perfab.failure.BadInputException;
import org.perfab.model.Cell;
import org.perfab.stats.Direction;

/**
 * A CSV file with a header row, for any tool without a format of its own. Which column holds what
 * is named by {@link Columns} (in a workload, {@code harness.csv}); each data row is one reading.
 * The file is read by Jackson's CSV parser, as RFC 4180 says: a field in double quotes may hold
 * commas and line breaks, and {@code ""} is a quote. A byte order mark at the start is left out; a
 * column it reads that the header names twice is an error naming the column.
 */
public final class CsvFormat extends ToolFormat {
    private static final CsvMapper CSV = CsvMapper.builder()
            .enable(CsvParser.Feature.WRAP_AS_ARRAY)
            .enable(CsvParser.Feature.TRIM_SPACES)
            .build();

    /**
     * Where each field of a reading comes from. {@code cell} and {@code value} name columns; each of
     * {@code metric}, {@code unit} and {@code direction} names a column when the header has one of
     * that name, and is otherwise the field's text itself ({@code unit: ns}).
     *
     * @param cell the column of the cell name
     * @param value the column of the value
     * @param metric a column, or the metric of every row
     * @param unit a column, or the unit of every row
     * @param direction a column, or {@code lower}/{@code higher} for every row; empty to take it
     *     from the unit
     */
    public record Columns(String cell, String value, String metric, String unit, String direction) {
        /** {@code cell,metric,unit,direction,value}: the columns of perfab-json. */
        public static final Columns DEFAULT = new Columns("cell", "value", "metric", "unit", "direction");
        /** The fields a mapping may name. */
        public static final List<String> FIELDS = List.of("cell", "value", "metric", "unit", "direction");

        public Columns {
            Objects.requireNonNull(cell, "cell");
            Objects.requireNonNull(value, "value");
            Objects.requireNonNull(metric, "metric");
            Objects.requireNonNull(unit, "unit");
            Objects.requireNonNull(direction, "direction");
        }

        /**
         * Returns the columns {@code mapping} names, field by field; a field it leaves out keeps its
         * default. The one reading of a mapping, for a workload's {@code harness.csv} and for
         * {@code compare --csv-columns} alike.
         *
         * @throws IllegalArgumentException naming a field that is not one of {@link #FIELDS}, or
         *     an empty column
         */
        public static Columns of(Map<String, String> mapping) {
            for (Map.Entry<String, String> e : mapping.entrySet()) {
                if (!FIELDS.contains(e.getKey())) {
                    throw new IllegalArgumentException(
                            "'" + e.getKey() + "' is not one of " + String.join(", ", FIELDS));
                }
                if (e.getValue() == null || e.getValue().isBlank()) {
                    throw new IllegalArgumentException("the column of '" + e.getKey() + "' is empty");
                }
            }
            return new Columns(
                    mapping.getOrDefault("cell", DEFAULT.cell()),
                    mapping.getOrDefault("value", DEFAULT.value()),
                    mapping.getOrDefault("metric", DEFAULT.metric()),
                    mapping.getOrDefault("unit", DEFAULT.unit()),
                    mapping.getOrDefault("direction", DEFAULT.direction()));
        }

        /**
         * Returns the columns {@code spec} names: {@code FIELD=COLUMN} pairs between commas, such
         * as {@code cell=name,value=ns,unit=ns}.
         *
         * @throws IllegalArgumentException naming a pair that is not {@code FIELD=COLUMN}
         */
        public static Columns parse(String spec) {
            Map<String, String> mapping = new LinkedHashMap<>();
            for (String pair : spec.split(",", -1)) {
                String[] kv = pair.split("=", 2);
                if (kv.length != 2) {
                    throw new IllegalArgumentException("'" + pair + "' is not FIELD=COLUMN");
                }
                if (mapping.put(kv[0].trim(), kv[1].trim()) != null) {
                    throw new IllegalArgumentException("'" + kv[0].trim() + "' is named twice");
                }
            }
            return of(mapping);
        }
    }

    private final Columns columns;

    /** Returns the CSV format with {@code columns}. */
    public CsvFormat(Columns columns) {
        this.columns = columns;
    }

    /** Returns which column holds what. */
    public Columns columns() {
        return columns;
    }

    @Override
    public String id() {
        return "csv";
    }

    @Override
    public boolean recognises(String head) {
        int end = head.indexOf('\n');
        try (MappingIterator<String[]> rows =
                CSV.readerFor(String[].class).readValues(end < 0 ? head : head.substring(0, end))) {
            List<String> header = rows.hasNext() ? List.of(rows.next()) : List.of();
            return header.contains(columns.cell()) && header.contains(columns.value());
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    @Override
    public List<Reading> readings(Path file) {
        List<Reading> readings = new ArrayList<>();
        try (MappingIterator<String[]> rows = CSV.readerFor(String[].class).readValues(BadInputException.read(file))) {
            if (!rows.hasNext()) {
                throw bad(file, "1", "no header row");
            }
            List<String> header = List.of(rows.next());
            int cell = column(file, header, columns.cell(), true);
            int value = column(file, header, columns.value(), true);
            int metric = column(file, header, columns.metric(), false);
            int unit = column(file, header, columns.unit(), false);
            int direction = column(file, header, columns.direction(), false);
            while (rows.hasNext()) {
                // Where the row starts: the parser has read up to the end of the last one.
                int line = rows.getCurrentLocation().getLineNr();
                String where = Integer.toString(line);
                String[] f;
                try {
                    f = rows.next();
                } catch (RuntimeException e) {
                    throw bad(file, where, "not CSV: " + e.getMessage());
                }
                if (f.length == 0 || f.length == 1 && f[0].isEmpty()) {
                    continue;
                }
                if (f.length != header.size()) {
                    throw bad(file, where, f.length + " fields, but the header has " + header.size());
                }
                readings.add(reading(file, where, f, cell, value, metric, unit, direction, line));
            }
        } catch (IOException e) {
            throw new BadInputException(file + ": not CSV: " + e.getMessage(), e);
        }
        return readings;
    }

    private Reading reading(
            Path file, String where, String[] f, int cell, int value, int metric, int unit, int direction, int line) {
        String name = f[cell];
        String m = metric >= 0 ? f[metric] : columns.metric().equals("metric") ? "value" : columns.metric();
        String u = unit >= 0 ? f[unit] : columns.unit().equals("unit") ? "" : columns.unit();
        String d = direction >= 0 ? f[direction] : columns.direction().equals("direction") ? "" : columns.direction();
        double v;
        try {
            v = Double.parseDouble(f[value]);
        } catch (NumberFormatException e) {
            throw bad(file, where, "'" + f[value] + "' in column " + columns.value() + " is not a number");
        }
        if (!Double.isFinite(v)) {
            throw bad(file, where, "the value of " + name + " is " + f[value] + ", not a finite number");
        }
        if (name.isEmpty()) {
            throw bad(file, where, "the cell name is empty");
        }
        Cell c;
        if (d.isBlank()) {
            c = cell(file, where, name, m, u);
        } else {
            try {
                c = new Cell(name, m, u, Direction.fromId(d.trim()));
            } catch (IllegalArgumentException e) {
                throw bad(file, where, e.getMessage());
            }
        }
        return new Reading(c, v, file, line, 1);
    }

    /**
     * Returns the index of column {@code name} in {@code header}, or -1 when it has none and the
     * column is not {@code required}.
     *
     * @throws BadInputException when a required column is missing, or the header names the column
     *     twice (which of the two is meant cannot be told)
     */
    private static int column(Path file, List<String> header, String name, boolean required) {
        int i = header.indexOf(name);
        if (i < 0 && required) {
            throw bad(file, "1", "no column '" + name + "' in the header (" + String.join(", ", header) + ")");
        }
        int again = header.lastIndexOf(name);
        if (again != i) {
            throw bad(
                    file,
                    "1",
                    "column '" + name + "' is in the header twice (fields " + (i + 1) + " and " + (again + 1)
                            + "), and which of the two to read cannot be told");
        }
        return i;
    }
}
