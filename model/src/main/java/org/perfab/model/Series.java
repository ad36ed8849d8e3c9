package org.perfab.model;

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
import java.util.Set;
import org.perfab.stats.SeriesRules;

/**
 * A nightly series of ratios: one reading per run and key, kept as a CSV in the user's repository
 * ({@link SeriesFile}). Only ratios are kept: a ratio against a baseline measured in the same run
 * is comparable across nights on different machines, an absolute time is not.
 *
 * <p>Runs are ordered by date, then by where each first appears in the file; a key's history is
 * its readings in that order. The order is the analysis's: the file keeps its own.
 *
 * @param readings every reading, in run order and, within a run, in file order; at most one per
 *     run and key
 */
public record Series(List<Reading> readings) {
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
}
