package org.perfab.ingest;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.perfab.model.Cell;
import org.perfab.stats.Direction;

/**
 * A CSV file with a header row, for any tool without a format of its own. Which column holds what
 * is named by {@link Columns} (in a workload, {@code harness.csv}); each data row is one reading.
 * RFC 4180 quoting is understood: a field in double quotes may hold commas, and {@code ""} is a
 * quote.
 */
public final class CsvFormat extends ToolFormat {
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

        public Columns {
            Objects.requireNonNull(cell, "cell");
            Objects.requireNonNull(value, "value");
            Objects.requireNonNull(metric, "metric");
            Objects.requireNonNull(unit, "unit");
            Objects.requireNonNull(direction, "direction");
        }
    }

    private final Columns columns;

    /** Returns the CSV format with {@code columns}. */
    public CsvFormat(Columns columns) {
        this.columns = columns;
    }

    @Override
    public String id() {
        return "csv";
    }

    @Override
    public boolean recognises(String head) {
        int end = head.indexOf('\n');
        List<String> header = split(end < 0 ? head : head.substring(0, end));
        return header.contains(columns.cell()) && header.contains(columns.value());
    }

    @Override
    public List<Reading> read(Path file) {
        String[] lines = text(file).split("\r?\n", -1);
        if (lines.length == 0 || lines[0].isBlank()) {
            throw bad(file, "1", "no header row");
        }
        List<String> header = split(lines[0]);
        int cell = column(file, header, columns.cell(), true);
        int value = column(file, header, columns.value(), true);
        int metric = column(file, header, columns.metric(), false);
        int unit = column(file, header, columns.unit(), false);
        int direction = column(file, header, columns.direction(), false);
        List<Reading> readings = new ArrayList<>();
        for (int i = 1; i < lines.length; i++) {
            if (lines[i].isBlank()) {
                continue;
            }
            String where = Integer.toString(i + 1);
            List<String> f = split(lines[i]);
            if (f.size() != header.size()) {
                throw bad(file, where, f.size() + " fields, but the header has " + header.size());
            }
            String name = f.get(cell);
            String m = metric >= 0 ? f.get(metric) : columns.metric().equals("metric") ? "value" : columns.metric();
            String u = unit >= 0 ? f.get(unit) : columns.unit().equals("unit") ? "" : columns.unit();
            String d = direction >= 0 ? f.get(direction) : columns.direction().equals("direction") ? "" : columns.direction();
            double v;
            try {
                v = Double.parseDouble(f.get(value).trim());
            } catch (NumberFormatException e) {
                throw bad(file, where, "'" + f.get(value) + "' in column " + columns.value() + " is not a number");
            }
            if (!Double.isFinite(v)) {
                throw bad(file, where, "the value of " + name + " is " + f.get(value) + ", not a finite number");
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
            readings.add(new Reading(c, v, file, i + 1, 1));
        }
        return normalise(readings);
    }

    private static int column(Path file, List<String> header, String name, boolean required) {
        int i = header.indexOf(name);
        if (i < 0 && required) {
            throw bad(file, "1", "no column '" + name + "' in the header (" + String.join(", ", header) + ")");
        }
        return i;
    }

    /** Splits one CSV line into fields, honouring double quotes. */
    static List<String> split(String line) {
        List<String> fields = new ArrayList<>();
        StringBuilder f = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    f.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    f.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                fields.add(f.toString().trim());
                f.setLength(0);
            } else {
                f.append(c);
            }
        }
        fields.add(f.toString().trim());
        return fields;
    }
}
