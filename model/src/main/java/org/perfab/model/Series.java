package org.perfab.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvGenerator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.perfab.failure.BadInputException;
import org.perfab.stats.SeriesRules;

/**
 * A nightly series of ratios: one reading per run and key, kept as a CSV in the user's repository
 * ({@code date,run,commit,cpu,key,ratio}). Only ratios are kept: a ratio against a baseline
 * measured in the same run is comparable across nights on different machines, an absolute time is
 * not.
 *
 * <p>Runs are ordered by date, then by where each first appears in the file; a key's history is
 * its readings in that order.
 *
 * @param readings every reading, in run order and, within a run, in file order; at most one per
 *     run and key
 */
public record Series(List<Reading> readings) {
    /** The columns of a series file, in the order perfab writes them. */
    public static final List<String> COLUMNS = List.of("date", "run", "commit", "cpu", "key", "ratio");
    private static final CsvMapper CSV = CsvMapper.builder().enable(CsvParser.Feature.WRAP_AS_ARRAY)
            .enable(CsvGenerator.Feature.STRICT_CHECK_FOR_QUOTING).build();

    /**
     * One reading.
     *
     * @param date the day of its run
     * @param run the run's id
     * @param commit the commit it measured
     * @param cpu the processor model of the machine that ran it
     * @param key what the ratio is of (a cell against its baseline)
     * @param ratio the ratio, finite and above 0
     */
    public record Reading(LocalDate date, String run, String commit, String cpu, String key, double ratio) {
        public Reading {
            Objects.requireNonNull(date, "date");
            Objects.requireNonNull(run, "run");
            Objects.requireNonNull(commit, "commit");
            Objects.requireNonNull(cpu, "cpu");
            Objects.requireNonNull(key, "key");
            if (run.isBlank() || key.isBlank()) {
                throw new IllegalArgumentException("a reading needs a run and a key");
            }
            if (!(ratio > 0) || Double.isInfinite(ratio)) {
                throw new IllegalArgumentException("a ratio must be finite and above 0, got " + ratio);
            }
        }
    }

    public Series {
        readings = order(readings);
    }

    /**
     * Returns the key of a reading made of {@code parts} joined by {@code separator}: the first part
     * as it is, and in each later one {@code %} and the separator written {@code %25} and
     * {@code %XX}, so that no two lists of parts share a key (cell {@code x:y} with metric {@code z}
     * is {@code x:y:z}, cell {@code x} with metric {@code y:z} is {@code x:y%3Az}). A key of names
     * without the separator or {@code %} in its later parts reads as they are joined.
     */
    public static String key(char separator, List<String> parts) {
        StringBuilder key = new StringBuilder();
        for (int i = 0; i < parts.size(); i++) {
            String p = parts.get(i);
            if (i > 0) {
                key.append(separator);
                p = p.replace("%", "%25").replace(String.valueOf(separator),
                        String.format(Locale.ROOT, "%%%02X", (int) separator));
            }
            key.append(p);
        }
        return key.toString();
    }

    /** The empty series. */
    public static Series empty() {
        return new Series(List.of());
    }

    private static List<Reading> order(List<Reading> readings) {
        Map<String, Integer> first = new HashMap<>();
        Map<String, LocalDate> dates = new HashMap<>();
        Set<List<String>> seen = new HashSet<>();
        for (Reading r : readings) {
            first.putIfAbsent(r.run(), first.size());
            LocalDate d = dates.putIfAbsent(r.run(), r.date());
            if (d != null && !d.equals(r.date())) {
                throw new IllegalArgumentException("run '" + r.run() + "' has two dates, " + d + " and " + r.date());
            }
            if (!seen.add(List.of(r.run(), r.key()))) {
                throw new IllegalArgumentException("run '" + r.run() + "' has two readings of key '" + r.key() + "'");
            }
        }
        List<Reading> sorted = new ArrayList<>(readings);
        sorted.sort(Comparator.comparing(Reading::date).thenComparing(r -> first.get(r.run())));
        return List.copyOf(sorted);
    }

    /** Returns the ids of the runs, in order. */
    public List<String> runs() {
        LinkedHashMap<String, Boolean> runs = new LinkedHashMap<>();
        readings.forEach(r -> runs.put(r.run(), true));
        return List.copyOf(runs.keySet());
    }

    /** Returns the readings of {@code run}, in file order. */
    public List<Reading> of(String run) {
        return readings.stream().filter(r -> r.run().equals(run)).toList();
    }

    /** Returns each key's readings, in run order. */
    public Map<String, List<Reading>> byKey() {
        Map<String, List<Reading>> keys = new LinkedHashMap<>();
        for (Reading r : readings) {
            keys.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r);
        }
        return keys;
    }

    /** Returns the points the rules read of {@code history}. */
    public static List<SeriesRules.Point> points(List<Reading> history) {
        return history.stream().map(r -> new SeriesRules.Point(r.date(), r.ratio())).toList();
    }

    /**
     * Returns this series with {@code more} added: a reading whose run and key the series already
     * holds is left out (recording is idempotent), and counted.
     */
    public Merge with(List<Reading> more) {
        Map<List<String>, Reading> have = new HashMap<>();
        readings.forEach(r -> have.put(List.of(r.run(), r.key()), r));
        List<Reading> all = new ArrayList<>(readings);
        int same = 0;
        int differ = 0;
        for (Reading r : more) {
            Reading old = have.putIfAbsent(List.of(r.run(), r.key()), r);
            if (old == null) {
                all.add(r);
            } else if (old.ratio() == r.ratio()) {
                same++;
            } else {
                differ++;
            }
        }
        return new Merge(new Series(all), all.size() - readings.size(), same, differ);
    }

    /**
     * What adding readings to a series did.
     *
     * @param series the series with them
     * @param added the readings added
     * @param already the readings left out because the series held the same
     * @param conflicting the readings left out because the series held another ratio for their run
     *     and key (the series' own is kept)
     */
    public record Merge(Series series, int added, int already, int conflicting) {
    }

    /**
     * Returns the series in {@code text}, a CSV whose header names the columns {@link #COLUMNS} (in
     * any order; other columns are ignored). An empty text is the empty series.
     *
     * @throws BadInputException naming {@code shown}, the line and the column of what is wrong
     */
    public static Series read(String text, String shown) {
        if (text.isBlank()) {
            return empty();
        }
        List<Reading> readings = new ArrayList<>();
        try (MappingIterator<String[]> rows = CSV.readerFor(String[].class).readValues(text)) {
            List<String> header = List.of(rows.next());
            Map<String, Integer> at = new HashMap<>();
            for (String c : COLUMNS) {
                int i = header.indexOf(c);
                if (i < 0) {
                    throw new BadInputException(shown + ":1: the header has no column '" + c + "' (a series has "
                            + String.join(",", COLUMNS) + ")");
                }
                at.put(c, i);
            }
            while (rows.hasNext()) {
                int line = rows.getCurrentLocation().getLineNr();
                String[] row = rows.next();
                if (row.length == 1 && row[0].isBlank()) {
                    continue;
                }
                String where = shown + ":" + line + ": ";
                if (row.length != header.size()) {
                    throw new BadInputException(where + "the row has " + row.length + " fields, the header "
                            + header.size());
                }
                LocalDate date;
                try {
                    date = LocalDate.parse(row[at.get("date")].trim());
                } catch (DateTimeParseException e) {
                    throw new BadInputException(where + "column 'date': '" + row[at.get("date")]
                            + "' is not an ISO date (2026-09-01)");
                }
                String ratioText = row[at.get("ratio")].trim();
                double ratio;
                try {
                    ratio = Double.parseDouble(ratioText);
                } catch (NumberFormatException e) {
                    throw new BadInputException(where + "column 'ratio': '" + ratioText + "' is not a number");
                }
                try {
                    readings.add(new Reading(date, row[at.get("run")].trim(), row[at.get("commit")].trim(),
                            row[at.get("cpu")].trim(), row[at.get("key")].trim(), ratio));
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
            return new Series(readings);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(shown + ": " + e.getMessage());
        }
    }

    /** Returns the series as CSV, with the header {@link #COLUMNS}. */
    public String write() {
        List<String[]> rows = new ArrayList<>();
        rows.add(COLUMNS.toArray(String[]::new));
        for (Reading r : readings) {
            rows.add(new String[] {r.date().toString(), r.run(), r.commit(), r.cpu(), r.key(),
                new BigDecimal(Double.toString(r.ratio())).stripTrailingZeros().toPlainString()});
        }
        try {
            return CSV.writeValueAsString(rows);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a series failed to serialise", e);
        }
    }
}
