package org.perfab.model;

import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.perfab.stats.SeriesRules;

/**
 * A nightly series of ratios: one reading per run and key, kept as a CSV in the user's repository
 * ({@link SeriesFile}). Only ratios are kept: a ratio against a baseline measured in the same run
 * is comparable across nights on different machines, an absolute time is not.
 *
 * <p>Runs are ordered by date, and within a date by when they ran, never by where they stand in the
 * file: by their recorded time when every run of the date has one, else by run id, numerically
 * when the ids are numbers (GitHub's run ids grow with time), else as text (numbers first). So a
 * history merged in later, in whatever order, changes no key's history. A key's history is its
 * readings in that order.
 *
 * @param readings every reading, in run order and, within a run, in file order; at most one per
 *     run and key
 */
public record Series(List<Reading> readings) {
    private static final Pattern NUMBER = Pattern.compile("[0-9]+");

    /**
     * One reading.
     *
     * @param date the day of its run
     * @param run the run's id
     * @param commit the commit it measured
     * @param cpu the processor model of the machine that ran it
     * @param key what the ratio is of (a cell against its baseline)
     * @param ratio the ratio, finite and above 0
     * @param base what the ratio is relative to: the base commit of a head/base ratio; empty when
     *     unknown. A change of a key's known base is a re-basing (see {@link SeriesRules#judgeAll})
     * @param time when its run started; empty when not recorded. Orders the runs of one date
     */
    public record Reading(
            LocalDate date,
            String run,
            String commit,
            String cpu,
            String key,
            double ratio,
            String base,
            Optional<Instant> time) {
        public Reading {
            Objects.requireNonNull(date, "date");
            Objects.requireNonNull(run, "run");
            Objects.requireNonNull(commit, "commit");
            Objects.requireNonNull(cpu, "cpu");
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(base, "base");
            Objects.requireNonNull(time, "time");
            if (run.isBlank() || key.isBlank()) {
                throw new IllegalArgumentException("a reading needs a run and a key");
            }
            checkBase(base);
            if (!(ratio > 0) || Double.isInfinite(ratio)) {
                throw new IllegalArgumentException("a ratio must be finite and above 0, got " + ratio);
            }
        }

        /** A reading of unknown base and time. */
        public Reading(LocalDate date, String run, String commit, String cpu, String key, double ratio) {
            this(date, run, commit, cpu, key, ratio, "", Optional.empty());
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
     * without the separator or {@code %} in its later parts reads as they are joined. A control or
     * format character in any part (a hostile benchmark's line break or escape) is written
     * {@code %XX} ({@code %uXXXX} past U+00FF), so a series file never holds one, whoever wrote it.
     */
    public static String key(char separator, List<String> parts) {
        StringBuilder key = new StringBuilder();
        for (int i = 0; i < parts.size(); i++) {
            String p = parts.get(i);
            if (i > 0) {
                key.append(separator);
                p = p.replace("%", "%25")
                        .replace(String.valueOf(separator), String.format(Locale.ROOT, "%%%02X", (int) separator));
            }
            p.codePoints().forEach(cp -> {
                if (CsvField.control(cp)) {
                    key.append(String.format(Locale.ROOT, cp < 0x100 ? "%%%02X" : "%%u%04X", cp));
                } else {
                    key.appendCodePoint(cp);
                }
            });
        }
        return key.toString();
    }

    /**
     * Checks that {@code base} can be a reading's base: one word, without spaces or control
     * characters, so that it is one line and one argument wherever it is printed or passed.
     *
     * @throws IllegalArgumentException saying so when it is not
     */
    public static void checkBase(String base) {
        if (base.chars().anyMatch(c -> Character.isWhitespace(c) || Character.isISOControl(c))) {
            throw new IllegalArgumentException("a base is one word (a commit), without spaces or control characters");
        }
    }

    /** The empty series. */
    public static Series empty() {
        return new Series(List.of());
    }

    private static List<Reading> order(List<Reading> readings) {
        Map<String, LocalDate> dates = new HashMap<>();
        Map<String, Instant> times = new HashMap<>();
        Map<String, Set<String>> keysOfRun = new HashMap<>();
        for (Reading r : readings) {
            LocalDate d = dates.putIfAbsent(r.run(), r.date());
            if (d != null && !d.equals(r.date())) {
                throw new IllegalArgumentException("run '" + r.run() + "' has two dates, " + d + " and " + r.date());
            }
            if (r.time().isPresent()) {
                Instant t = times.putIfAbsent(r.run(), r.time().get());
                if (t != null && !t.equals(r.time().get())) {
                    throw new IllegalArgumentException("run '" + r.run() + "' has two times, " + t + " and "
                            + r.time().get());
                }
            }
            if (!keysOfRun.computeIfAbsent(r.run(), run -> new HashSet<>()).add(r.key())) {
                throw new IllegalArgumentException("run '" + r.run() + "' has two readings of key '" + r.key() + "'");
            }
        }
        Map<LocalDate, Boolean> timed = new HashMap<>();
        dates.forEach((run, date) -> timed.merge(date, times.containsKey(run), Boolean::logicalAnd));
        Comparator<String> byTime =
                Comparator.comparing(run -> timed.get(dates.get(run)) ? times.get(run) : Instant.EPOCH);
        List<String> runs = new ArrayList<>(dates.keySet());
        runs.sort(Comparator.comparing((String run) -> dates.get(run))
                .thenComparing(byTime)
                .thenComparing(Series::compareIds));
        Map<String, Integer> rank = new HashMap<>();
        runs.forEach(run -> rank.put(run, rank.size()));
        List<List<Reading>> byRun = new ArrayList<>();
        runs.forEach(run -> byRun.add(new ArrayList<>()));
        readings.forEach(r -> byRun.get(rank.get(r.run())).add(r));
        List<Reading> sorted = new ArrayList<>(readings.size());
        byRun.forEach(sorted::addAll);
        return List.copyOf(sorted);
    }

    /** Compares run ids: numbers by value and before any other id, other ids as text. */
    private static int compareIds(String a, String b) {
        boolean na = NUMBER.matcher(a).matches();
        boolean nb = NUMBER.matcher(b).matches();
        if (na != nb) {
            return na ? -1 : 1;
        }
        if (na) {
            String x = a.replaceFirst("^0+(?=.)", "");
            String y = b.replaceFirst("^0+(?=.)", "");
            int c = x.length() != y.length() ? Integer.compare(x.length(), y.length()) : x.compareTo(y);
            if (c != 0) {
                return c;
            }
        }
        return a.compareTo(b);
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

    /** Returns the points the rules read of {@code history}: each reading's date, ratio and base. */
    public static List<SeriesRules.Point> points(List<Reading> history) {
        return history.stream()
                .map(r -> new SeriesRules.Point(r.date(), r.ratio(), r.base()))
                .toList();
    }
}
