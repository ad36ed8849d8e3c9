package org.perfab.model;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.perfab.stats.SeriesRules;

/**
 * What the rules find in one run of a series (see {@link SeriesRules}): the movements of its
 * readings, each new or persisting. A movement is new unless the key's previous reading was already
 * one: after a step the reference median lags for several nights, and the same movement is not
 * headlined again each night.
 *
 * @param run the run checked
 * @param date its date
 * @param options the rules' settings
 * @param readings how many readings the run has
 * @param compared how many of them had enough earlier readings to be compared
 * @param movements the movements, new ones first, each group in the run's order
 */
public record SeriesCheck(String run, LocalDate date, SeriesRules.Options options, int readings, int compared,
        List<Movement> movements) {

    public SeriesCheck {
        Objects.requireNonNull(run, "run");
        movements = List.copyOf(movements);
    }

    /**
     * A movement of one key.
     *
     * @param key the key
     * @param isNew whether the key's previous reading was not a movement
     * @param move what the rule found
     * @param cpu the processor model of this reading
     * @param referenceCpus the processor models of the readings the reference is the median of,
     *     in order of first appearance
     * @param newCpu whether no earlier reading of the key ran on this reading's processor model: a
     *     new model can move a ratio by itself
     * @param commit the commit of this reading
     */
    public record Movement(String key, boolean isNew, SeriesRules.Move move, String cpu, List<String> referenceCpus,
            boolean newCpu, String commit) {
        public Movement {
            referenceCpus = List.copyOf(referenceCpus);
        }
    }

    /** Returns how many movements are new. */
    public int newCount() {
        return (int) movements.stream().filter(Movement::isNew).count();
    }

    /** Returns the movements of {@code series} in {@code run} under {@code options}. */
    public static SeriesCheck of(Series series, String run, SeriesRules.Options options) {
        List<Series.Reading> tonight = series.of(run);
        if (tonight.isEmpty()) {
            throw new IllegalArgumentException("the series has no run '" + run + "'");
        }
        List<Movement> fresh = new ArrayList<>();
        List<Movement> persisting = new ArrayList<>();
        int compared = 0;
        Map<String, List<Series.Reading>> keys = series.byKey();
        for (Series.Reading r : tonight) {
            List<Series.Reading> all = keys.get(r.key());
            List<Series.Reading> history = all.subList(0, all.indexOf(r) + 1);
            List<SeriesRules.Point> points = Series.points(history);
            int i = points.size() - 1;
            compared += i >= options.minEarlier() ? 1 : 0;
            Optional<SeriesRules.Move> move = SeriesRules.judge(points, i, options);
            if (move.isEmpty()) {
                continue;
            }
            boolean isNew = i == 0 || SeriesRules.judge(points.subList(0, i), i - 1, options).isEmpty();
            Set<String> cpus = new LinkedHashSet<>();
            move.get().references().forEach(k -> cpus.add(history.get(k).cpu()));
            boolean newCpu = i > 0 && history.subList(0, i).stream().noneMatch(h -> h.cpu().equals(r.cpu()));
            Movement m = new Movement(r.key(), isNew, move.get(), r.cpu(), List.copyOf(cpus), newCpu, r.commit());
            (isNew ? fresh : persisting).add(m);
        }
        List<Movement> all = new ArrayList<>(fresh);
        all.addAll(persisting);
        return new SeriesCheck(run, tonight.get(0).date(), options, tonight.size(), compared, all);
    }
}
