package org.perfab.ab;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import org.perfab.failure.BadInputException;
import org.perfab.git.GitRepo;
import org.perfab.model.CellComparison;
import org.perfab.model.ComparisonTable;
import org.perfab.model.Sharding;
import org.perfab.stats.Sequential;
import org.perfab.stats.ThresholdSettings;
import org.perfab.stats.Verdict;
import org.perfab.workload.Workload;

/**
 * What an A/B run ({@link AbRun}) is asked to do: its settings ({@link RunSettings}) checked as far
 * as the request alone can say, then layered over the workload's when the run is planned. A request to
 * resume a run ({@code resume}) gives only what the command line gave again: the run goes on with
 * the settings it began with (see {@link Resume}), and a setting given again must say the same;
 * {@code repository}, {@code base}, {@code head} and {@code workload} are null there when not given.
 *
 * @param repository the git repository
 * @param base the base ref as typed; the baseline is merge-base(base, head); empty for the
 *     repository's default branch ({@link GitRepo#defaultBranch}); a resumed run takes its plan's
 * @param head the head ref as typed
 * @param workload the workload file's path in the head's tree
 * @param settings the run's settings the command line gives over its profile: counted trials and
 *     builds per side, adaptive trials, the budget, padding and verdict settings, each layered over
 *     the workload's ({@link RunSettings})
 * @param out the folder the run writes into
 * @param cache a folder of reusable builds; empty for none
 * @param seed a seed that shuffles each pair's order; empty for the workload's, else alternation
 * @param resume whether to continue the run already in {@code out}
 * @param force whether to write into an {@code out} that holds files perfab did not write
 *     (beside them, never over them)
 * @param failOn the verdicts that fail the job; empty for an advisory run
 * @param noise a {@code noise.json} of an A/A run, to mark the cells whose change lies inside
 *     their noise floor; empty for none
 * @param undecided the caller's rule for a cell that needs another round of adaptive trials (a
 *     bisect follows a few cells of a harness that measures many, and decides them by its own
 *     rule); empty for the run's own ({@link ComparisonTable#undecided}: any cell). A rule is
 *     code, not kept with the plan: a caller that resumes a run gives it again
 * @param shard the shard of the suite the run measures, its slice of the benchmarks the harness
 *     lists (see {@link Slices}); empty for the whole suite
 * @param shardTimes how long each benchmark (a cell's name) took a trial pair in an earlier run
 *     (see {@link RunResults#benchmarkTimes}): the shard's suite is cut at equal time by them; empty to cut by
 *     count
 */
public record AbRequest(
        Path repository,
        Optional<String> base,
        String head,
        String workload,
        RunSettings settings,
        Path out,
        Optional<Path> cache,
        Optional<Long> seed,
        boolean resume,
        boolean force,
        List<Verdict> failOn,
        Optional<Path> noise,
        Optional<Predicate<CellComparison>> undecided,
        Optional<Sharding.Shard> shard,
        Map<String, Double> shardTimes) {
    public AbRequest {
        Objects.requireNonNull(base, "base");
        Objects.requireNonNull(shard, "shard");
        shardTimes = Map.copyOf(shardTimes);
        Objects.requireNonNull(undecided, "undecided");
        failOn = List.copyOf(failOn);
        Objects.requireNonNull(out, "out");
        if (!resume) {
            Objects.requireNonNull(workload, "workload");
        }
        // Checked here as far as the request alone can say; the workload's layer is checked
        // with them when the run is planned.
        Objects.requireNonNull(settings, "settings").check();
    }

    /** Counted trials per side, and where they were given; empty for the workload's number. */
    public Optional<Setting<Integer>> trials() {
        return settings.trials();
    }

    /** Builds per side, from 1, and where they were given; empty for the workload's, else 1. */
    public Optional<Setting<Integer>> builds() {
        return settings.builds();
    }

    /** Verdict settings from the command line; each wins over the workload's. */
    public ThresholdSettings overrides() {
        return settings.thresholds();
    }

    /**
     * Whether each trial's environment is padded by a random length (see {@link Trial}), and where
     * that was given; empty for no padding.
     */
    public Optional<Setting<Boolean>> padding() {
        return settings.padding();
    }

    /**
     * The most trials per side of a run with adaptive trials, and where it was given: while some
     * cell is undecided, rounds of {@code trials} more trials per side run, up to this many (see
     * {@link Sequential}); 0 for a run of a fixed size; empty for the workload's choice, else
     * {@link Workload#DEFAULT_ADAPTIVE} with one build per side.
     */
    public Optional<Setting<Integer>> adaptive() {
        return settings.adaptive();
    }

    /**
     * The time trials may take in all, those of the earlier processes of a resumed run with them:
     * no round of adaptive trials starts that would pass it, judging by the trials so far; empty
     * for no limit.
     */
    public Optional<Duration> budget() {
        return settings.budget();
    }

    /**
     * Returns the request to measure {@code head} against {@code base} in {@code repository}, into
     * {@code out}, with every other setting at its default (the workload's): to set more of them.
     */
    public static Builder of(Path repository, String base, String head, Path out) {
        return of(repository, Optional.of(base), head, out);
    }

    /**
     * Returns the request to measure {@code head} against {@code base}, or against the
     * repository's default branch when it is empty, as {@link #of(Path, String, String, Path)} does.
     */
    public static Builder of(Path repository, Optional<String> base, String head, Path out) {
        return new Builder(new AbRequest(
                repository,
                base,
                head,
                DEFAULT_WORKLOAD,
                RunSettings.NONE,
                out,
                Optional.empty(),
                Optional.empty(),
                false,
                false,
                List.of(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Map.of()));
    }

    /** Returns a builder that starts from this request. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** A request set by name, component by component; {@link #build} checks it as a whole. */
    public static final class Builder {
        private Path repository;
        private Optional<String> base;
        private String head;
        private String workload;
        private Optional<Setting<Integer>> trials;
        private Optional<Setting<Integer>> builds;
        private Path out;
        private Optional<Path> cache;
        private Optional<Long> seed;
        private ThresholdSettings overrides;
        private boolean resume;
        private boolean force;
        private List<Verdict> failOn;
        private Optional<Setting<Boolean>> padding;
        private Optional<Path> noise;
        private Optional<Setting<Integer>> adaptive;
        private Optional<Duration> budget;
        private Optional<Predicate<CellComparison>> undecided;
        private Optional<Sharding.Shard> shard;
        private Map<String, Double> shardTimes;

        private Builder(AbRequest r) {
            repository = r.repository;
            base = r.base;
            head = r.head;
            workload = r.workload;
            settings(r.settings);
            out = r.out;
            cache = r.cache;
            seed = r.seed;
            resume = r.resume;
            force = r.force;
            failOn = r.failOn;
            noise = r.noise;
            undecided = r.undecided;
            shard = r.shard;
            shardTimes = r.shardTimes;
        }

        /**
         * The run's settings, the command line's over its profile's, each setting of them as the
         * setters below set it.
         */
        public Builder settings(RunSettings v) {
            trials = v.trials();
            builds = v.builds();
            adaptive = v.adaptive();
            budget = v.budget();
            padding = v.padding();
            overrides = v.thresholds();
            return this;
        }

        /** The shard of the suite to measure; empty for the whole suite. */
        public Builder shard(Optional<Sharding.Shard> v) {
            shard = v;
            return this;
        }

        /** Each benchmark's time in a trial pair of an earlier run, to cut the shards by; empty to cut by count. */
        public Builder shardTimes(Map<String, Double> v) {
            shardTimes = v;
            return this;
        }

        /** The workload file's path in the head's tree. */
        public Builder workload(String v) {
            workload = v;
            return this;
        }

        /** Counted trials per side, as {@code --trials} gives them; empty for the workload's. */
        public Builder trials(Optional<Integer> v) {
            return trialsFrom(Setting.option("--trials", v));
        }

        /** Counted trials per side, and where they were given; empty for the workload's. */
        public Builder trialsFrom(Optional<Setting<Integer>> v) {
            trials = v;
            return this;
        }

        /** Builds per side, as {@code --builds} gives them; empty for the workload's. */
        public Builder builds(Optional<Integer> v) {
            return buildsFrom(Setting.option("--builds", v));
        }

        /** Builds per side, and where they were given; empty for the workload's. */
        public Builder buildsFrom(Optional<Setting<Integer>> v) {
            builds = v;
            return this;
        }

        /** The folder the run writes into. */
        public Builder out(Path v) {
            out = v;
            return this;
        }

        /** A folder of reusable builds; empty for none. */
        public Builder cache(Optional<Path> v) {
            cache = v;
            return this;
        }

        /** The seed that shuffles each pair's order; empty for the workload's. */
        public Builder seed(Optional<Long> v) {
            seed = v;
            return this;
        }

        /** Verdict settings that win over the workload's. */
        public Builder overrides(ThresholdSettings v) {
            overrides = v;
            return this;
        }

        /** Whether to continue the run already in the out folder. */
        public Builder resume(boolean v) {
            resume = v;
            return this;
        }

        /** Whether to write beside files perfab did not write. */
        public Builder force(boolean v) {
            force = v;
            return this;
        }

        /** The verdicts that fail the job. */
        public Builder failOn(List<Verdict> v) {
            failOn = v;
            return this;
        }

        /** Whether each trial's environment is padded by a random length, as {@code --[no-]env-padding} says. */
        public Builder padding(boolean v) {
            return paddingFrom(Optional.of(new Setting<>(v, v ? "--env-padding" : "--no-env-padding")));
        }

        /** Whether each trial's environment is padded, and where that was given; empty for no padding. */
        public Builder paddingFrom(Optional<Setting<Boolean>> v) {
            padding = v;
            return this;
        }

        /** An A/A run's noise file; empty for none. */
        public Builder noise(Optional<Path> v) {
            noise = v;
            return this;
        }

        /**
         * The most trials per side of adaptive trials, 0 for off, as {@code --adaptive} gives
         * it; empty for the workload's.
         */
        public Builder adaptive(Optional<Integer> v) {
            adaptive = Setting.option("--adaptive", v);
            return this;
        }

        /** The time the trials may take in all; empty for no limit. */
        public Builder budget(Optional<Duration> v) {
            budget = v;
            return this;
        }

        /** The caller's rule for a cell that needs another round; empty for the run's own. */
        public Builder undecided(Optional<Predicate<CellComparison>> v) {
            undecided = v;
            return this;
        }

        /**
         * Returns the request.
         *
         * @throws BadInputException when a setting is out of range, naming its option
         */
        public AbRequest build() {
            return new AbRequest(
                    repository,
                    base,
                    head,
                    workload,
                    new RunSettings(trials, builds, adaptive, budget, padding, overrides),
                    out,
                    cache,
                    seed,
                    resume,
                    force,
                    failOn,
                    noise,
                    undecided,
                    shard,
                    shardTimes);
        }
    }

    /** The workload path in the head's tree when none is given. */
    public static final String DEFAULT_WORKLOAD = "perfab.yaml";
}
