package org.perfab.model;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.perfab.stats.SeriesRules;

/**
 * A nightly series as its site shows it: every key's readings in run order, each reading's
 * movement where {@code perfab series check} of its run would report one (new or persisting), the
 * readings on a processor model the key had not run on before, the readings that re-base it (see
 * {@link SeriesCheck.Rebasing}), and the key's noise; with the
 * ratchet baseline beside it when there is one, and where commits and runs are linked.
 *
 * @param rules the rules the movements were found with
 * @param runs the ids of the runs, in run order; the last is the latest
 * @param keys every key, by name
 * @param baseline the ratchet baseline shown beside the series; empty for none
 * @param repoUrl the repository's web address, {@code https://github.com/OWNER/REPO}, that commits
 *     and runs are linked under; empty for no links
 */
public record SeriesHistory(
        SeriesRules.Options rules,
        List<String> runs,
        List<Key> keys,
        Optional<Baseline> baseline,
        Optional<String> repoUrl) {
    public SeriesHistory {
        Objects.requireNonNull(rules, "rules");
        Objects.requireNonNull(baseline, "baseline");
        Objects.requireNonNull(repoUrl, "repoUrl");
        runs = List.copyOf(runs);
        keys = List.copyOf(keys);
    }

    /**
     * One key's history.
     *
     * @param name the key
     * @param readings its readings, in run order; at least one
     * @param noise its noise as the step rule reads it after its last reading (see
     *     {@link SeriesRules#noise}), a fraction; 0 with fewer than three readings
     * @param movements the readings that are movements, in run order
     * @param newCpus the positions in {@code readings} of the readings on a processor model no
     *     earlier reading of the key ran on (the first reading is not one)
     * @param rebasings the readings whose base differs from the key's latest known base before
     *     them, in run order
     */
    public record Key(
            String name,
            List<Series.Reading> readings,
            double noise,
            List<Movement> movements,
            List<Integer> newCpus,
            List<Rebasing> rebasings) {
        public Key {
            Objects.requireNonNull(name, "name");
            readings = List.copyOf(readings);
            movements = List.copyOf(movements);
            newCpus = List.copyOf(newCpus);
            rebasings = List.copyOf(rebasings);
            if (readings.isEmpty()) {
                throw new IllegalArgumentException("key '" + name + "' has no reading");
            }
            for (Movement m : movements) {
                if (m.reading() >= readings.size()) {
                    throw new IllegalArgumentException("key '" + name + "' has a movement past its readings");
                }
            }
            for (Rebasing r : rebasings) {
                if (r.reading() >= readings.size()) {
                    throw new IllegalArgumentException("key '" + name + "' has a re-basing past its readings");
                }
            }
        }

        /** Returns the key's last reading. */
        public Series.Reading latest() {
            return readings.get(readings.size() - 1);
        }

        /** Returns the movement of the key's last reading when that reading is of {@code run}; empty otherwise. */
        public Optional<Movement> movementIn(String run) {
            if (movements.isEmpty() || !latest().run().equals(run)) {
                return Optional.empty();
            }
            Movement last = movements.get(movements.size() - 1);
            return last.reading() == readings.size() - 1 ? Optional.of(last) : Optional.empty();
        }
    }

    /**
     * A reading that is a movement.
     *
     * @param reading its position in its key's readings
     * @param move what the rules found
     * @param isNew whether the key's previous reading was not a movement (what {@code check}
     *     headlines); otherwise it persists
     */
    public record Movement(int reading, SeriesRules.Move move, boolean isNew) {
        public Movement {
            Objects.requireNonNull(move, "move");
            if (reading < 0) {
                throw new IllegalArgumentException("a reading's position is from 0, got " + reading);
            }
        }
    }

    /**
     * A reading that re-bases its key: the rules compare it, and the readings after it, only with
     * readings of its own base.
     *
     * @param reading its position in its key's readings
     * @param from the key's latest known base before it; its own is the reading's
     */
    public record Rebasing(int reading, String from) {
        public Rebasing {
            Objects.requireNonNull(from, "from");
            if (reading < 1) {
                throw new IllegalArgumentException("a re-basing follows an earlier reading, got " + reading);
            }
        }
    }

    /** Returns the latest run's id; empty for a series of no runs. */
    public Optional<String> latestRun() {
        return runs.isEmpty() ? Optional.empty() : Optional.of(runs.get(runs.size() - 1));
    }
}
