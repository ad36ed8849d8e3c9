package org.perfab.model;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
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
    public record Watch(String key, Optional<LocalDate> since) {
    }

    /**
     * How one setting of the rules fares.
     *
     * @param options the setting
     * @param newTotal movements headlined as new, over every run
     * @param perFullRunMedian the median of new movements per full run
     * @param perFullRunMax the most new movements on one full run
     * @param caught per watched key, the first new movement on it; empty when never caught
     */
    public record Row(SeriesRules.Options options, int newTotal, double perFullRunMedian, int perFullRunMax,
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
    public record Catch(String run, LocalDate date, SeriesRules.Rule rule, boolean noise) {
    }

    /** Replays {@code options} over {@code series}, following {@code watch}. */
    public static SeriesReplay of(Series series, List<SeriesRules.Options> options, List<Watch> watch) {
        List<String> runs = series.runs();
        int largest = runs.stream().mapToInt(r -> series.of(r).size()).max().orElse(0);
        List<String> full = runs.stream().filter(r -> series.of(r).size() >= FULL * largest).toList();
        List<Row> rows = new ArrayList<>();
        for (SeriesRules.Options o : options) {
            int total = 0;
            List<Integer> perFull = new ArrayList<>();
            Map<String, Optional<Catch>> caught = new LinkedHashMap<>();
            watch.forEach(w -> caught.put(w.key(), Optional.empty()));
            for (String run : runs) {
                SeriesCheck check = SeriesCheck.of(series, run, o);
                int fresh = check.newCount();
                total += fresh;
                if (full.contains(run)) {
                    perFull.add(fresh);
                }
                for (Watch w : watch) {
                    if (caught.get(w.key()).isPresent()) {
                        continue;
                    }
                    for (SeriesCheck.Movement m : check.movements()) {
                        if (m.isNew() && m.key().equals(w.key())) {
                            caught.put(w.key(), Optional.of(new Catch(run, check.date(), m.move().rule(),
                                    w.since().map(s -> check.date().isBefore(s)).orElse(false))));
                        }
                    }
                }
            }
            int[] counts = perFull.stream().mapToInt(Integer::intValue).sorted().toArray();
            double median = counts.length == 0 ? 0 : Sample.median(Arrays.stream(counts).asDoubleStream().toArray());
            rows.add(new Row(o, total, median, Arrays.stream(counts).max().orElse(0), caught));
        }
        return new SeriesReplay(runs.size(), full.size(), rows);
    }
}
