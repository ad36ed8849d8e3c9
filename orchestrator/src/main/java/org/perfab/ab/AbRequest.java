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
 * What an A/B run ({@link AbRun}) is asked to do, and the rule of its size: each setting checked as
 * far as the request alone can say, then layered over the workload's ({@link #size}). A request to
 * resume a run ({@code resume}) gives only what the command line gave again: the run goes on with
 * the settings it began with (see {@link Resume}), and a setting given again must say the same;
 * {@code repository}, {@code base}, {@code head} and {@code workload} are null there when not given.
 *
 * @param repository the git repository
 * @param base the base ref as typed; the baseline is merge-base(base, head); empty for the
 *     repository's default branch ({@link GitRepo#defaultBranch}); a resumed run takes its plan's
 * @param head the head ref as typed
 * @param workload the workload file's path in the head's tree
 * @param trials counted trials per side, and where they were given; empty for the workload's
 *     number
 * @param builds builds per side, from 1, and where they were given; empty for the workload's,
 *     else 1
 * @param out the folder the run writes into
 * @param cache a folder of reusable builds; empty for none
 * @param seed a seed that shuffles each pair's order; empty for the workload's, else alternation
 * @param overrides verdict settings from the command line; each wins over the workload's
 * @param resume whether to continue the run already in {@code out}
 * @param force whether to write into an {@code out} that holds files perfab did not write
 *     (beside them, never over them)
 * @param failOn the verdicts that fail the job; empty for an advisory run
 * @param padding whether each trial's environment is padded by a random length (see
 *     {@link Trial}), and where that was given; empty for no padding
 * @param noise a {@code noise.json} of an A/A run, to mark the cells whose change lies inside
 *     their noise floor; empty for none
 * @param adaptive the most trials per side of a run with adaptive trials, and where it was
 *     given: while some cell is undecided, rounds of {@code trials} more trials per side run, up to
 *     this many (see {@link Sequential}); 0 for a run of a fixed size; empty for the workload's
 *     choice, else
 *     {@link Workload#DEFAULT_ADAPTIVE} with one build per side
 * @param budget the time trials may take in all, those of the earlier processes of a resumed run
 *     with them: no round of adaptive trials starts that would pass it, judging by the trials so
 *     far; empty for no limit
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
        Optional<Setting<Integer>> trials,
        Optional<Setting<Integer>> builds,
        Path out,
        Optional<Path> cache,
        Optional<Long> seed,
        ThresholdSettings overrides,
        boolean resume,
        boolean force,
        List<Verdict> failOn,
        Optional<Setting<Boolean>> padding,
        Optional<Path> noise,
        Optional<Setting<Integer>> adaptive,
        Optional<Duration> budget,
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
        Objects.requireNonNull(padding, "padding");
        Objects.requireNonNull(trials, "trials");
        Objects.requireNonNull(builds, "builds");
        Objects.requireNonNull(adaptive, "adaptive");
        Objects.requireNonNull(budget, "budget");
        // Checked here as far as the request alone can say; the workload's layer is checked
        // with them when the run is planned (settings).
        builds.ifPresent(AbRequest::checkBuilds);
        trials.ifPresent(AbRequest::checkTrials);
        adaptive.ifPresent(AbRequest::checkAdaptive);
        trials.ifPresent(t -> checkTrialsPerBuild(t, builds.orElse(ONE_BUILD)));
        adaptive.ifPresent(a -> checkAdaptiveBuilds(a, builds.orElse(ONE_BUILD)));
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
                Optional.empty(),
                Optional.empty(),
                out,
                Optional.empty(),
                Optional.empty(),
                ThresholdSettings.NONE,
                false,
                false,
                List.of(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
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
            trials = r.trials;
            builds = r.builds;
            out = r.out;
            cache = r.cache;
            seed = r.seed;
            overrides = r.overrides;
            resume = r.resume;
            force = r.force;
            failOn = r.failOn;
            padding = r.padding;
            noise = r.noise;
            adaptive = r.adaptive;
            budget = r.budget;
            undecided = r.undecided;
            shard = r.shard;
            shardTimes = r.shardTimes;
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
                    trials,
                    builds,
                    out,
                    cache,
                    seed,
                    overrides,
                    resume,
                    force,
                    failOn,
                    padding,
                    noise,
                    adaptive,
                    budget,
                    undecided,
                    shard,
                    shardTimes);
        }
    }

    /** The workload path in the head's tree when none is given. */
    public static final String DEFAULT_WORKLOAD = "perfab.yaml";

    /** One build per side: what runs when nothing says otherwise. */
    private static final Setting<Integer> ONE_BUILD = new Setting<>(1, "the default");

    private static void checkBuilds(Setting<Integer> builds) {
        if (builds.value() < 1 || builds.value() > Workload.MAX_BUILDS) {
            throw new BadInputException(
                    builds.from() + " must be from 1 to " + Workload.MAX_BUILDS + ", got " + builds.value());
        }
    }

    private static void checkTrials(Setting<Integer> trials) {
        if (trials.value() < 2 || trials.value() > Workload.MAX_TRIALS) {
            throw new BadInputException(
                    trials.from() + " must be from 2 to " + Workload.MAX_TRIALS + ", got " + trials.value());
        }
    }

    private static void checkAdaptive(Setting<Integer> most) {
        if (most.value() > Workload.MAX_TRIALS) {
            throw new BadInputException(most.from() + " must be at most " + Workload.MAX_TRIALS + " trials per side,"
                    + " got " + most.value());
        }
    }

    /**
     * Refuses {@code trials} per side when some of the side's {@code builds} would run none: trials
     * take turns among the builds, so each build needs one.
     */
    private static void checkTrialsPerBuild(Setting<Integer> trials, Setting<Integer> builds) {
        if (trials.value() < builds.value()) {
            int idle = builds.value() - trials.value();
            throw new BadInputException(trials.value() + " trials per side (" + trials.from() + ") among "
                    + builds.value() + " builds per side (" + builds.from() + ") leave " + idle
                    + (idle == 1 ? " build" : " builds") + " of each side without a trial: trials take turns among the"
                    + " builds, at least one each. Give --trials " + builds.value() + " or more, or --builds "
                    + trials.value() + " or fewer");
        }
    }

    /** Refuses adaptive trials of more than one build per side: the builds' medians decide. */
    private static void checkAdaptiveBuilds(Setting<Integer> most, Setting<Integer> builds) {
        if (most.value() > 0 && builds.value() > 1) {
            throw new BadInputException(most.from() + " needs one build per side: with " + builds.value() + " builds ("
                    + builds.from() + ") the medians of the builds decide, and more trials do not add builds");
        }
    }

    /** The run's size as its layers give it, each naming where it was given. */
    record Size(Setting<Integer> trials, Setting<Integer> builds, Setting<Integer> adaptive) {}

    /**
     * Returns the run's size, layered once: this request (the command line over its preset) over
     * the workload {@code w} (named {@code shown}) over perfab's defaults, and checked as a whole.
     */
    Size size(Workload w, String shown) {
        Setting<Integer> trials = Setting.first(new Setting<>(w.trials(), "'trials' of " + shown), trials());
        checkTrials(trials);
        Setting<Integer> builds =
                Setting.first(ONE_BUILD, builds(), w.builds().map(b -> new Setting<>(b, "'builds' of " + shown)));
        checkTrialsPerBuild(trials, builds);
        adaptive().ifPresent(a -> checkAdaptiveBuilds(a, builds));
        // A run of several builds is judged on their medians, which more trials do not add to: it
        // runs its first round only, whatever the workload's choice.
        Setting<Integer> adaptive = builds.value() > 1
                ? new Setting<>(0, builds.from())
                : Setting.first(
                        new Setting<>(Workload.DEFAULT_ADAPTIVE, "the default"),
                        adaptive(),
                        w.adaptive().map(a -> new Setting<>(a, "'adaptive' of " + shown)));
        // A workload's or the default's most below a larger first round (--trials 30) gives a run
        // of that size; the command line's is a mistake said now.
        if (adaptive().isPresent() && adaptive.value() > 0 && adaptive.value() < trials.value()) {
            throw new BadInputException(adaptive.from() + " " + adaptive.value() + " is fewer trials per side than the"
                    + " first round's " + trials.value() + " (" + trials.from() + ")");
        }
        return new Size(trials, builds, adaptive);
    }
}
