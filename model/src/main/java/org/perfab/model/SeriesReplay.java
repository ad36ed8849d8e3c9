package org.perfab.model;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.perfab.stats.Sample;
import org.perfab.stats.SeriesRules;

/**
 * The rules replayed run by run over a whole series, for several settings: how many movements each
 * headlines as new, in all and per full run, and on which run each named key was first caught. How
 * a maintainer measures the thresholds again when the series has grown.
 *
 * @param runs the runs replayed
 * @param fullRuns the runs with at least {@value #FULL} of the readings of the largest run
 * @param rows one per setting, in the order given
 * @param curation the runs left out of the series before it was replayed; empty when none was asked
 */
public record SeriesReplay(int runs, int fullRuns, List<Row> rows, Optional<SeriesCuration> curation) {
    /** The share of the largest run's readings that makes a run full. */
    public static final double FULL = 0.9;

    public SeriesReplay {
        rows = List.copyOf(rows);
        Objects.requireNonNull(curation, "curation");
    }

    /** A replay of a series as it was, no run left out. */
    public SeriesReplay(int runs, int fullRuns, List<Row> rows) {
        this(runs, fullRuns, rows, Optional.empty());
    }

    /** Returns this replay, of the series without the runs {@code curation} left out. */
    public SeriesReplay with(SeriesCuration curation) {
        return new SeriesReplay(runs, fullRuns, rows, Optional.of(curation));
    }

    /**
     * A key followed through the replay.
     *
     * @param key the key
     * @param since the day its change is known to have appeared; a catch before it is noise.
     *     Empty when not known
     */
    public record Watch(String key, Optional<LocalDate> since) {}

    /**
     * How one setting of the rules fares.
     *
     * @param options the setting
     * @param newTotal movements headlined as new, over every run
     * @param perFullRunMedian the median of new movements per full run
     * @param perFullRunMax the most new movements on one full run
     * @param caught per watched key, the first new movement on it; empty when never caught
     */
    public record Row(
            SeriesRules.Options options,
            int newTotal,
            double perFullRunMedian,
            int perFullRunMax,
            Map<String, Optional<Catch>> caught) {
        public Row {
            caught = Collections.unmodifiableMap(new LinkedHashMap<>(caught));
        }
    }

    /**
     * The first new movement on a watched key.
     *
     * @param run the run
     * @param date its date
     * @param rule the rule that caught it
     * @param noise whether it came before the day the key's change appeared
     */
    public record Catch(String run, LocalDate date, SeriesRules.Rule rule, boolean noise) {}

    /**
     * Replays {@code options} over {@code series}, following {@code watch}: each run checked against
     * the readings before it, as {@link SeriesCheck#of} would, from one pass over each key's history
     * per setting ({@link SeriesCheck#verdicts}), so that a year of nightly runs replays in seconds.
     */
    public static SeriesReplay of(Series series, List<SeriesRules.Options> options, List<Watch> watch) {
        List<String> runs = series.runs();
        Map<String, Integer> sizes = new HashMap<>();
        series.readings().forEach(r -> sizes.merge(r.run(), 1, Integer::sum));
        int largest = sizes.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        Set<String> full = new HashSet<>();
        runs.stream().filter(r -> sizes.get(r) >= FULL * largest).forEach(full::add);
        List<Row> rows = new ArrayList<>();
        for (SeriesRules.Options o : options) {
            Map<String, List<SeriesCheck.Verdict>> verdicts = SeriesCheck.verdicts(series, o);
            Map<String, Integer> fresh = new HashMap<>();
            verdicts.values()
                    .forEach(key -> key.forEach(v -> {
                        if (v.movement().filter(SeriesCheck.Movement::isNew).isPresent()) {
                            fresh.merge(v.reading().run(), 1, Integer::sum);
                        }
                    }));
            Map<String, Optional<Catch>> caught = new LinkedHashMap<>();
            for (Watch w : watch) {
                caught.put(
                        w.key(),
                        verdicts.getOrDefault(w.key(), List.of()).stream()
                                .filter(v -> v.movement()
                                        .filter(SeriesCheck.Movement::isNew)
                                        .isPresent())
                                .findFirst()
                                .map(v -> new Catch(
                                        v.reading().run(),
                                        v.reading().date(),
                                        v.movement().get().move().rule(),
                                        w.since()
                                                .map(since -> v.reading().date().isBefore(since))
                                                .orElse(false))));
            }
            int total = fresh.values().stream().mapToInt(Integer::intValue).sum();
            double[] counts = runs.stream()
                    .filter(full::contains)
                    .mapToDouble(r -> fresh.getOrDefault(r, 0))
                    .toArray();
            double median = counts.length == 0 ? 0 : Sample.median(counts);
            int max = (int) Arrays.stream(counts).max().orElse(0);
            rows.add(new Row(o, total, median, max, caught));
        }
        return new SeriesReplay(runs.size(), full.size(), rows);
    }
}
