package org.perfab.series;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.perfab.failure.BadInputException;
import org.perfab.model.Cell;
import org.perfab.model.CellComparison;
import org.perfab.model.CellId;
import org.perfab.model.Measurement;
import org.perfab.model.RunResults;
import org.perfab.model.Series;
import org.perfab.model.Side;
import org.perfab.workload.Workload;

/**
 * Where the readings of a nightly series come from: a run's results (each cell against the cell
 * its workload names as its baseline, or each cell's head against its base), or a CSV of ratios
 * another tool wrote (a BenchmarkDotNet {@code Ratio} column, say).
 */
public final class SeriesSources {
    private static final CsvMapper CSV = CsvMapper.builder()
            .enable(CsvParser.Feature.WRAP_AS_ARRAY)
            .enable(CsvParser.Feature.TRIM_SPACES)
            .build();

    private SeriesSources() {}

    /**
     * What every reading of one recording shares.
     *
     * @param date the run's day
     * @param run the run's id
     * @param commit the commit measured
     * @param cpu the processor model
     * @param base what the ratios are relative to: the A/B's base commit for head/base ratios;
     *     empty when unknown or when no commit is (a ratio between two cells of one commit)
     * @param time when the run started; empty when not known
     */
    public record Stamp(LocalDate date, String run, String commit, String cpu, String base, Optional<Instant> time) {
        public Stamp {
            Objects.requireNonNull(base, "base");
            Objects.requireNonNull(time, "time");
        }
    }

    /**
     * The readings a source gave, and what it left out.
     *
     * @param readings the readings
     * @param skipped what was left out and why, a line each
     */
    public record Extract(List<Series.Reading> readings, List<String> skipped) {
        public Extract {
            readings = List.copyOf(readings);
            skipped = List.copyOf(skipped);
        }
    }

    /** Returns the key of a cell in a series: {@code NAME:METRIC} (see {@link Series#key}). */
    public static String key(CellId cell) {
        return Series.key(':', List.of(cell.name(), cell.metric()));
    }

    /**
     * Returns each cell's head/base ratio of means: a nightly A/B of main against the last release
     * is a same-runner ratio too. Cells without a ratio (no data on a side, a mean of 0) are left
     * out.
     */
    public static Extract abRatios(RunResults results, Stamp stamp) {
        List<Series.Reading> readings = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        for (CellComparison row : results.table().rows()) {
            double ratio =
                    row.comparison().head().mean() / row.comparison().base().mean();
            if (!(ratio > 0) || Double.isInfinite(ratio)) {
                skipped.add(key(row.cell().id()) + ": no head/base ratio (a side has no data or a mean of 0)");
                continue;
            }
            readings.add(reading(stamp, key(row.cell().id()), ratio));
        }
        return new Extract(readings, skipped);
    }

    /**
     * Returns, for each cell the workload gives a {@code ratio_to}, the ratio of its mean to that
     * baseline cell's mean over the same trials: the head's in an A/B, both sides' in an A/A (one
     * commit measured twice).
     *
     * @throws BadInputException when the workload gives no cell a {@code ratio_to}
     */
    public static Extract baselineRatios(RunResults results, Workload workload, Stamp stamp) {
        Map<CellId, double[]> sums = new LinkedHashMap<>();
        Map<CellId, Cell> cells = new HashMap<>();
        for (Measurement m : results.measurements()) {
            if (results.provenance().aa() || m.side() == Side.HEAD) {
                double[] s = sums.computeIfAbsent(m.cell().id(), k -> new double[2]);
                s[0] += m.value();
                s[1]++;
                cells.putIfAbsent(m.cell().id(), m.cell());
            }
        }
        List<Series.Reading> readings = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        boolean any = false;
        for (Map.Entry<CellId, double[]> e : sums.entrySet()) {
            Optional<CellId> to = workload.ratioTo(cells.get(e.getKey()));
            if (to.isEmpty()) {
                continue;
            }
            any = true;
            double[] base = sums.get(to.get());
            if (base == null) {
                skipped.add(key(e.getKey()) + ": its baseline " + key(to.get()) + " was not measured");
                continue;
            }
            double ratio = (e.getValue()[0] / e.getValue()[1]) / (base[0] / base[1]);
            if (!(ratio > 0) || Double.isInfinite(ratio)) {
                skipped.add(key(e.getKey()) + ": no ratio to " + key(to.get()) + " (a mean of 0 or below)");
                continue;
            }
            readings.add(reading(stamp, key(e.getKey()), ratio));
        }
        if (!any) {
            List<String> globs = workload.cells().stream()
                    .filter(p -> p.ratioTo().isPresent())
                    .map(p -> "'" + p.match() + "'")
                    .toList();
            if (globs.isEmpty()) {
                throw new BadInputException("the workload gives no cell a 'ratio_to' (cells: [{match: GLOB, ratio_to:"
                        + " BASELINE}]), so no cell measured has a baseline to be a ratio of");
            }
            List<String> measured =
                    cells.keySet().stream().map(SeriesSources::key).toList();
            throw new BadInputException("the workload's 'ratio_to' cells (match " + String.join(", ", globs)
                    + ") match no cell the run measured (" + measured.size() + ": "
                    + String.join(", ", measured.subList(0, Math.min(8, measured.size())))
                    + (measured.size() > 8 ? ", …" : "")
                    + ")");
        }
        return new Extract(readings, skipped);
    }

    /**
     * Returns the ratios of a CSV another tool wrote: its header names the columns; the key is the
     * {@code keyColumns} joined by {@code /}, the ratio the {@code ratioColumn}. A row whose ratio
     * is not a positive number (BenchmarkDotNet writes {@code ?} and {@code baseline}) is left out
     * and said. Commas or semicolons separate the fields, whichever the header has more of. Two rows
     * of one key are an error naming both lines: the key columns do not tell them apart.
     *
     * @param keyColumns the key's columns; empty for {@code key} when the header has it, else
     *     {@code Method}
     * @param ratioColumn the ratio's column; empty for {@code ratio}, else {@code Ratio}
     * @throws BadInputException naming the file, and the line and column, of what is wrong
     */
    public static Extract csvRatios(Path file, List<String> keyColumns, Optional<String> ratioColumn, Stamp stamp) {
        String text = BadInputException.read(file);
        String first = text.lines().findFirst().orElse("");
        char separator = first.chars().filter(c -> c == ';').count()
                        > first.chars().filter(c -> c == ',').count()
                ? ';'
                : ',';
        List<Series.Reading> readings = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        try (MappingIterator<String[]> rows = CSV.readerFor(String[].class)
                .with(CsvSchema.emptySchema().withColumnSeparator(separator))
                .readValues(text)) {
            if (!rows.hasNext()) {
                throw new BadInputException(file + ":1: no header row");
            }
            List<String> header = List.of(rows.next());
            List<String> keys = keyColumns.isEmpty() ? List.of(header.contains("key") ? "key" : "Method") : keyColumns;
            String ratio = ratioColumn.orElse(header.contains("ratio") ? "ratio" : "Ratio");
            List<Integer> keyAt = new ArrayList<>();
            for (String k : keys) {
                keyAt.add(column(file, header, k));
            }
            int ratioAt = column(file, header, ratio);
            Map<String, Integer> lineOf = new HashMap<>();
            while (rows.hasNext()) {
                int line = rows.getCurrentLocation().getLineNr();
                String[] row = rows.next();
                if (row.length == 1 && row[0].isBlank()) {
                    continue;
                }
                if (row.length != header.size()) {
                    throw new BadInputException(file + ":" + line + ": the row has " + row.length + " fields, the"
                            + " header " + header.size());
                }
                List<String> parts = new ArrayList<>();
                keyAt.forEach(i -> parts.add(row[i]));
                String key = Series.key('/', parts);
                Integer before = key.isBlank() ? null : lineOf.putIfAbsent(key, line);
                if (before != null) {
                    throw new BadInputException(file + ":" + line + ": key '" + key + "' is the key of line " + before
                            + " too: its columns (" + String.join(", ", keys) + ") do not tell the two rows apart;"
                            + " name more with --key-columns");
                }
                String value = row[ratioAt];
                double r;
                try {
                    r = Double.parseDouble(value);
                } catch (NumberFormatException e) {
                    r = Double.NaN;
                }
                if (key.isBlank() || !(r > 0) || Double.isInfinite(r)) {
                    skipped.add(file + ":" + line + ": " + (key.isBlank() ? "no key" : "'" + key + "'") + ", ratio '"
                            + value + "' is not a positive number");
                    continue;
                }
                readings.add(reading(stamp, key, r));
            }
        } catch (IOException | RuntimeException e) {
            if (e instanceof BadInputException b) {
                throw b;
            }
            throw new BadInputException(file + ": not a CSV: " + e.getMessage(), e);
        }
        return new Extract(readings, skipped);
    }

    /**
     * Returns the index of column {@code name} in {@code header}.
     *
     * @throws BadInputException when the header has no such column, or names it twice (which of the
     *     two is meant cannot be told)
     */
    private static int column(Path file, List<String> header, String name) {
        int i = header.indexOf(name);
        if (i < 0) {
            throw new BadInputException(
                    file + ":1: no column '" + name + "' (the header has " + String.join(", ", header) + ")");
        }
        if (header.lastIndexOf(name) != i) {
            throw new BadInputException(file + ":1: column '" + name + "' is in the header twice (fields " + (i + 1)
                    + " and " + (header.lastIndexOf(name) + 1) + "), and which of the two to read cannot be told");
        }
        return i;
    }

    private static Series.Reading reading(Stamp stamp, String key, double ratio) {
        return new Series.Reading(
                stamp.date(), stamp.run(), stamp.commit(), stamp.cpu(), key, ratio, stamp.base(), stamp.time());
    }
}
