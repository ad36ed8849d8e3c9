package org.perfab.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvGenerator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.perfab.failure.BadInputException;
import org.perfab.model.Series.Reading;

/**
 * A series file as its user keeps it: the CSV of a nightly {@link Series}, with its header and its
 * rows in the file's own order, every cell of every row kept as written, the columns perfab does
 * not read among them. Adding to it ({@link #with}) appends rows at the end and columns at the
 * right and leaves the rest as it was, so a committed series changes by the lines added; the
 * analysis reads {@link #series()}, which orders runs by date and time (see {@link Series}).
 *
 * @param columns the header: the columns of {@link #REQUIRED}, those of {@link #COLUMNS} it has
 *     (in any order; a file read has each once, else the first of a name is read), and any others
 * @param rows the rows, in file order
 */
public record SeriesFile(List<String> columns, List<Row> rows) {
    /**
     * The columns perfab reads, in the order it writes them in a new file: those of
     * {@link #REQUIRED}, then {@code base} (what each ratio is relative to, the A/B's base commit)
     * and {@code time} (when the run started, an ISO-8601 instant), which a file may lack: an older
     * file reads with every base and time unknown.
     */
    public static final List<String> COLUMNS = List.of("date", "run", "commit", "cpu", "key", "ratio", "base", "time");
    /** The columns every series file has. */
    public static final List<String> REQUIRED = COLUMNS.subList(0, 6);

    private static final CsvMapper CSV = CsvMapper.builder()
            .enable(CsvParser.Feature.WRAP_AS_ARRAY)
            .enable(CsvGenerator.Feature.STRICT_CHECK_FOR_QUOTING)
            .build();

    /**
     * One row of the file.
     *
     * @param reading what perfab reads of it
     * @param cells its cells as written, one per column of the file; those of {@link #COLUMNS} the
     *     file has are what {@code reading} was read from
     */
    public record Row(Reading reading, List<String> cells) {
        public Row {
            Objects.requireNonNull(reading, "reading");
            cells = List.copyOf(cells);
        }
    }

    /**
     * Validates the file: every column of {@link #REQUIRED} in the header, a cell per column in
     * every row, and rows that make a {@link Series} (one date per run, one reading per run and key).
     *
     * @throws IllegalArgumentException saying what is wrong
     */
    public SeriesFile {
        columns = List.copyOf(columns);
        rows = List.copyOf(rows);
        for (String c : REQUIRED) {
            if (!columns.contains(c)) {
                throw new IllegalArgumentException(
                        "the header has no column '" + c + "' (a series has " + String.join(",", REQUIRED) + ")");
            }
        }
        for (Row r : rows) {
            if (r.cells().size() != columns.size()) {
                throw new IllegalArgumentException(
                        "a row has " + r.cells().size() + " cells, the header " + columns.size());
            }
        }
        new Series(rows.stream().map(Row::reading).toList());
    }

    /** The file of no readings, with the header {@link #COLUMNS}. */
    public static SeriesFile empty() {
        return new SeriesFile(COLUMNS, List.of());
    }

    /** Returns a new file of {@code readings}, in their order, with the header {@link #COLUMNS}. */
    public static SeriesFile of(List<Reading> readings) {
        return new SeriesFile(
                COLUMNS,
                readings.stream()
                        .map(r -> new Row(
                                r,
                                List.of(
                                        r.date().toString(),
                                        r.run(),
                                        r.commit(),
                                        r.cpu(),
                                        r.key(),
                                        new BigDecimal(Double.toString(r.ratio()))
                                                .stripTrailingZeros()
                                                .toPlainString(),
                                        r.base(),
                                        r.time().map(Instant::toString).orElse(""))))
                        .toList());
    }

    /** Returns the series of the file's readings, its runs in date order (see {@link Series}). */
    public Series series() {
        return new Series(rows.stream().map(Row::reading).toList());
    }

    /**
     * Returns this file with the rows of {@code other} added. A row whose run and key this file
     * holds is left out (adding is idempotent), and counted. Every row of this file stays as it is
     * and where it is; the rows added follow, in {@code other}'s order. The header is this file's,
     * then each column of {@code other}'s it lacks, in {@code other}'s order; a row gets an empty
     * cell for a column its file did not have (the first of a name this file has twice).
     *
     * @throws IllegalArgumentException when {@code other} names a column twice (which of this file's
     *     columns each fills cannot be told), or the two disagree on a run's date or time
     */
    public Merge with(SeriesFile other) {
        twice(other.columns, c -> true).ifPresent(at -> {
            throw new IllegalArgumentException(twiceMessage(other.columns, at));
        });
        List<String> union = new ArrayList<>(columns);
        int[] to = new int[other.columns.size()];
        for (int i = 0; i < to.length; i++) {
            String c = other.columns.get(i);
            to[i] = union.indexOf(c);
            if (to[i] < 0) {
                union.add(c);
                to[i] = union.size() - 1;
            }
        }
        List<String> pad = Collections.nCopies(union.size() - columns.size(), "");
        List<Row> all = new ArrayList<>();
        Map<List<String>, Reading> have = new HashMap<>();
        for (Row r : rows) {
            all.add(pad.isEmpty() ? r : new Row(r.reading(), concat(r.cells(), pad)));
            have.put(List.of(r.reading().run(), r.reading().key()), r.reading());
        }
        int same = 0;
        List<Conflict> differ = new ArrayList<>();
        for (Row r : other.rows) {
            Reading old =
                    have.putIfAbsent(List.of(r.reading().run(), r.reading().key()), r.reading());
            if (old == null) {
                String[] cells = new String[union.size()];
                Arrays.fill(cells, "");
                for (int i = 0; i < to.length; i++) {
                    cells[to[i]] = r.cells().get(i);
                }
                all.add(new Row(r.reading(), List.of(cells)));
            } else if (old.ratio() == r.reading().ratio()) {
                same++;
            } else {
                differ.add(new Conflict(
                        old.run(), old.key(), old.ratio(), r.reading().ratio()));
            }
        }
        return new Merge(new SeriesFile(union, all), all.size() - rows.size(), same, differ);
    }

    /**
     * Returns this file with the history {@code other} folded in, as {@link #with} adds it, when no
     * run it adds is dated after {@code last}: a run from the future would be the series' latest
     * run (see {@link Series}) every night until its date, the one {@code series check} checks and
     * whose base a nightly pins, whatever the series' own nights say.
     *
     * @throws IllegalArgumentException naming the first such run in run order, and how many there
     *     are; or as {@link #with} does
     */
    public Merge fold(SeriesFile other, LocalDate last) {
        Merge merged = with(other);
        Set<String> own = new HashSet<>(series().runs());
        Map<String, LocalDate> later = new LinkedHashMap<>();
        for (Reading r : other.series().readings()) {
            if (r.date().isAfter(last) && !own.contains(r.run())) {
                later.putIfAbsent(r.run(), r.date());
            }
        }
        if (!later.isEmpty()) {
            Map.Entry<String, LocalDate> first = later.entrySet().iterator().next();
            int more = later.size() - 1;
            throw new IllegalArgumentException("run '" + first.getKey() + "' is dated " + first.getValue() + ", after "
                    + last
                    + (more == 0 ? "" : more == 1 ? " (1 other run is too)" : " (" + more + " other runs are too)")
                    + ": it would be the series' latest run every night till then, the one"
                    + " 'series check' checks and whose base a nightly pins");
        }
        return merged;
    }

    /**
     * Returns the position of the first column of {@code columns} that {@code checked} takes and whose
     * name an earlier one has; empty when none.
     */
    private static Optional<Integer> twice(List<String> columns, Predicate<String> checked) {
        for (int i = 1; i < columns.size(); i++) {
            if (checked.test(columns.get(i)) && columns.subList(0, i).contains(columns.get(i))) {
                return Optional.of(i);
            }
        }
        return Optional.empty();
    }

    /** Returns what is wrong with column {@code at} of {@code columns}, whose name an earlier one has. */
    private static String twiceMessage(List<String> columns, int at) {
        String name = columns.get(at);
        return "column '" + name + "' is in the header twice (fields " + (columns.indexOf(name) + 1) + " and "
                + (at + 1) + "), and which of the two to read cannot be told";
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /**
     * What adding rows to a series file did.
     *
     * @param file the file with them
     * @param added the rows added
     * @param already the rows left out because the file held the same reading
     * @param conflicts the rows left out because the file held another ratio for their run and key
     *     (the file's own is kept), in the order they were added
     */
    public record Merge(SeriesFile file, int added, int already, List<Conflict> conflicts) {
        public Merge {
            Objects.requireNonNull(file, "file");
            conflicts = List.copyOf(conflicts);
        }

        /** Returns how many rows were left out for holding another ratio than the file's. */
        public int conflicting() {
            return conflicts.size();
        }
    }

    /**
     * A reading added that the file held with another ratio: the file's is kept.
     *
     * @param run the run
     * @param key the benchmark key
     * @param kept the file's ratio, which stays
     * @param other the ratio of the reading added, left out
     */
    public record Conflict(String run, String key, double kept, double other) {
        public Conflict {
            Objects.requireNonNull(run, "run");
            Objects.requireNonNull(key, "key");
        }
    }

    /**
     * Returns the file {@code text}, a CSV whose header names the columns {@link #REQUIRED} and
     * any of the others of {@link #COLUMNS} (in any order, each once; other columns are kept, not
     * read, and may repeat a name). An empty or missing base is unknown, an empty or missing time is
     * not recorded. Blank lines are skipped. An empty text is {@link #empty()}.
     *
     * @throws BadInputException naming {@code shown}, the line and the column of what is wrong
     */
    public static SeriesFile read(String text, String shown) {
        return read(text, shown, false);
    }

    /**
     * Returns the file {@code text} as {@link #read} does, held to what a history from elsewhere
     * must be to be folded into a series ({@link #fold}), whose file a person may open in a
     * spreadsheet: every column named once, and no field, of the header or a row, that holds a
     * control or format character or that a spreadsheet would run as a formula (see
     * {@link CsvField}). What is refused is refused whole, never rewritten: the file is someone's
     * data, and a field changed on the way in would be a reading changed.
     *
     * @throws BadInputException naming {@code shown}, the line and the column of what is wrong
     */
    public static SeriesFile readHistory(String text, String shown) {
        return read(text, shown, true);
    }

    private static SeriesFile read(String text, String shown, boolean history) {
        if (text.isBlank()) {
            return empty();
        }
        List<String> header;
        List<Row> rows = new ArrayList<>();
        try (MappingIterator<String[]> lines = CSV.readerFor(String[].class).readValues(text)) {
            header = List.of(lines.next());
            Map<String, Integer> at = columns(header, shown, history);
            while (lines.hasNext()) {
                int line = lines.getCurrentLocation().getLineNr();
                String[] row = lines.next();
                if (row.length == 1 && row[0].isBlank()) {
                    continue;
                }
                String where = shown + ":" + line + ": ";
                if (row.length != header.size()) {
                    throw new BadInputException(
                            where + "the row has " + row.length + " fields, the header " + header.size());
                }
                if (history) {
                    foreign(List.of(row), header, false, where);
                }
                try {
                    rows.add(new Row(reading(row, at, where), List.of(row)));
                } catch (IllegalArgumentException e) {
                    throw new BadInputException(where + e.getMessage());
                }
            }
        } catch (IOException | RuntimeException e) {
            if (e instanceof BadInputException b) {
                throw b;
            }
            throw new BadInputException(shown + ": not a CSV series: " + e.getMessage(), e);
        }
        try {
            return new SeriesFile(header, rows);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(shown + ": " + e.getMessage());
        }
    }

    /**
     * Returns the column of each of {@link #COLUMNS} in {@code header}, -1 for one it lacks.
     *
     * @throws BadInputException naming {@code shown} where a required column is missing, one is there twice,
     *     or a history's header holds what it must not
     */
    private static Map<String, Integer> columns(List<String> header, String shown, boolean history) {
        Map<String, Integer> at = new HashMap<>();
        for (String c : COLUMNS) {
            int i = header.indexOf(c);
            if (i < 0 && REQUIRED.contains(c)) {
                throw new BadInputException(shown + ":1: the header has no column '" + c + "' (a series has "
                        + String.join(",", REQUIRED) + ", and may have "
                        + String.join(",", COLUMNS.subList(REQUIRED.size(), COLUMNS.size())) + ")");
            }
            at.put(c, i);
        }
        twice(header, c -> history || COLUMNS.contains(c)).ifPresent(i -> {
            throw new BadInputException(shown + ":1: " + twiceMessage(header, i));
        });
        if (history) {
            foreign(header, header, true, shown + ":1: ");
        }
        return at;
    }

    /**
     * Returns the reading of one {@code row}, its fields at the columns {@code at}.
     *
     * @throws BadInputException starting with {@code where}, naming the column whose field does not read
     * @throws IllegalArgumentException where the reading refuses its fields
     */
    private static Reading reading(String[] row, Map<String, Integer> at, String where) {
        LocalDate date;
        try {
            date = LocalDate.parse(row[at.get("date")].trim());
        } catch (DateTimeParseException e) {
            throw new BadInputException(
                    where + "column 'date': '" + row[at.get("date")] + "' is not an ISO date (2026-09-01)");
        }
        String ratioText = row[at.get("ratio")].trim();
        double ratio;
        try {
            ratio = Double.parseDouble(ratioText);
        } catch (NumberFormatException e) {
            throw new BadInputException(where + "column 'ratio': '" + ratioText + "' is not a number");
        }
        String timeText = at.get("time") < 0 ? "" : row[at.get("time")].trim();
        Optional<Instant> time;
        try {
            time = timeText.isEmpty() ? Optional.empty() : Optional.of(instant(timeText));
        } catch (DateTimeParseException e) {
            throw new BadInputException(
                    where + "column 'time': '" + timeText + "' is not an ISO-8601 instant (2026-09-01T02:13:07Z)");
        }
        String base = at.get("base") < 0 ? "" : row[at.get("base")].trim();
        return new Reading(
                date,
                row[at.get("run")].trim(),
                row[at.get("commit")].trim(),
                row[at.get("cpu")].trim(),
                row[at.get("key")].trim(),
                ratio,
                base,
                time);
    }

    /**
     * Refuses the first of {@code fields}, of the header ({@code isHeader}) or of a row under
     * {@code header}, that a history folded into a series must not hold (see {@link #readHistory}).
     *
     * @throws BadInputException starting with {@code where}, naming the field and its column
     */
    private static void foreign(List<String> fields, List<String> header, boolean isHeader, String where) {
        for (int i = 0; i < fields.size(); i++) {
            String f = fields.get(i);
            String column =
                    "field " + (i + 1) + (isHeader ? " of the header" : " (column '" + bounded(header.get(i)) + "')");
            int control = f.codePoints().filter(CsvField::control).findFirst().orElse(-1);
            if (control >= 0) {
                throw new BadInputException(
                        where + column + " holds the control character " + String.format(Locale.ROOT, "U+%04X", control)
                                + ", which a series folded into this one may not bring in");
            }
            if (CsvField.formula(f.strip())) {
                throw new BadInputException(where + column + ": '" + bounded(f) + "' starts with '"
                        + f.strip().charAt(0) + "' and is not a number: a spreadsheet would run"
                        + " it as a formula, and a series folded into this one may not bring one in");
            }
        }
    }

    /** Returns {@code text} for a message: its first 40 characters, and an ellipsis when there are more. */
    private static String bounded(String text) {
        return text.length() > 40 ? text.substring(0, 40) + "…" : text;
    }

    /** Returns the instant {@code text}: UTC ({@code Z}) or with an offset. */
    private static Instant instant(String text) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            return OffsetDateTime.parse(text).toInstant();
        }
    }

    /** Returns the file as CSV: its header, then its rows, every cell as it is held. */
    public String write() {
        List<String[]> lines = new ArrayList<>();
        lines.add(columns.toArray(String[]::new));
        rows.forEach(r -> lines.add(r.cells().toArray(String[]::new)));
        try {
            return CSV.writeValueAsString(lines);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a series failed to serialise", e);
        }
    }
}
