package org.perfab.model;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.perfab.stats.SeriesRules;

/**
 * What the rules find in one run of a series (see {@link SeriesRules}): the movements of its
 * readings, each new or persisting, and the keys whose base changed in it. A movement is new unless
 * the key's previous reading was already one: after a step the reference median lags for several
 * nights, and the same movement is not headlined again each night. A re-based key is not compared
 * across its re-basing: it is listed as re-based, never as a step.
 *
 * <p>{@link #verdicts} gives the same judgement for every reading of a whole series at once, for a
 * page that marks every night.
 *
 * @param run the run checked
 * @param date its date
 * @param options the rules' settings
 * @param readings how many readings the run has
 * @param compared how many of them had enough earlier readings of the same base to be compared
 * @param movements the movements, new ones first, each group in the run's order
 * @param rebasings the keys re-based in this run, in the run's order
 */
public record SeriesCheck(
        String run,
        LocalDate date,
        SeriesRules.Options options,
        int readings,
        int compared,
        List<Movement> movements,
        List<Rebasing> rebasings) {

    public SeriesCheck {
        Objects.requireNonNull(run, "run");
        movements = List.copyOf(movements);
        rebasings = List.copyOf(rebasings);
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
     * @param base the base of this reading; empty when unknown
     */
    public record Movement(
            String key,
            boolean isNew,
            SeriesRules.Move move,
            String cpu,
            List<String> referenceCpus,
            boolean newCpu,
            String commit,
            String base) {
        public Movement {
            referenceCpus = List.copyOf(referenceCpus);
        }
    }

    /**
     * A key whose base changed: its reading starts a new segment, compared only with readings of
     * the new base once there are enough of them.
     *
     * @param key the key
     * @param from the key's previous known base
     * @param to this reading's base
     * @param ratio this reading's ratio
     * @param commit this reading's commit
     */
    public record Rebasing(String key, String from, String to, double ratio, String commit) {}

    /**
     * What the rules find in one reading, as {@link #of} would report it in the reading's run.
     *
     * @param reading the reading
     * @param compared whether it had enough earlier readings of the same base to be compared
     * @param movement its movement, new or persisting; empty when none
     * @param rebasing its re-basing, when it starts a new segment; empty otherwise
     */
    public record Verdict(
            Series.Reading reading, boolean compared, Optional<Movement> movement, Optional<Rebasing> rebasing) {
        public Verdict {
            Objects.requireNonNull(reading, "reading");
            Objects.requireNonNull(movement, "movement");
            Objects.requireNonNull(rebasing, "rebasing");
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
        List<Rebasing> rebasings = new ArrayList<>();
        int compared = 0;
        Map<String, List<Series.Reading>> keys = series.byKey();
        for (Series.Reading r : tonight) {
            List<Series.Reading> all = keys.get(r.key());
            List<Verdict> history = judge(all.subList(0, all.indexOf(r) + 1), options);
            Verdict v = history.get(history.size() - 1);
            compared += v.compared() ? 1 : 0;
            v.movement().ifPresent(m -> (m.isNew() ? fresh : persisting).add(m));
            v.rebasing().ifPresent(rebasings::add);
        }
        List<Movement> all = new ArrayList<>(fresh);
        all.addAll(persisting);
        return new SeriesCheck(run, tonight.get(0).date(), options, tonight.size(), compared, all, rebasings);
    }

    /**
     * Returns, for every key of {@code series} (in order of first appearance), the verdict on each
     * of its readings (in run order): its movement, new or persisting, and its re-basing, exactly
     * as {@link #of} reports them in each reading's run. How a page marks every night of a history
     * without a check per run: linear in the readings, times the rules' window and the logarithm of
     * a key's history (see {@link SeriesRules#judgeAll}).
     */
    public static Map<String, List<Verdict>> verdicts(Series series, SeriesRules.Options options) {
        Map<String, List<Verdict>> all = new LinkedHashMap<>();
        series.byKey().forEach((key, history) -> all.put(key, judge(history, options)));
        return all;
    }

    /** Returns the verdict on each reading of one key's {@code history}. */
    private static List<Verdict> judge(List<Series.Reading> history, SeriesRules.Options options) {
        List<SeriesRules.Judgement> judged = SeriesRules.judgeAll(Series.points(history), options);
        List<Verdict> verdicts = new ArrayList<>(history.size());
        Set<String> cpusBefore = new HashSet<>();
        for (int i = 0; i < history.size(); i++) {
            Series.Reading r = history.get(i);
            SeriesRules.Judgement j = judged.get(i);
            Optional<Movement> movement = j.move().map(move -> {
                Set<String> cpus = new LinkedHashSet<>();
                move.references().forEach(k -> cpus.add(history.get(k).cpu()));
                return new Movement(
                        r.key(),
                        j.isNew(),
                        move,
                        r.cpu(),
                        List.copyOf(cpus),
                        !cpusBefore.contains(r.cpu()),
                        r.commit(),
                        r.base());
            });
            Optional<Rebasing> rebasing =
                    j.rebasedFrom().map(from -> new Rebasing(r.key(), from, r.base(), r.ratio(), r.commit()));
            verdicts.add(new Verdict(r, j.compared(), movement, rebasing));
            cpusBefore.add(r.cpu());
        }
        return verdicts;
    }
}
