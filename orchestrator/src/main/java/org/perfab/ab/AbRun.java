package org.perfab.ab;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.perfab.exec.Counters;
import org.perfab.exec.Commands;
import org.perfab.failure.BadInputException;
import org.perfab.failure.RunFailedException;
import org.perfab.failure.RunInterruptedException;
import org.perfab.git.Commit;
import org.perfab.git.GitRepo;
import org.perfab.model.CellComparison;
import org.perfab.model.CellId;
import org.perfab.model.ComparisonTable;
import org.perfab.model.Counted;
import org.perfab.model.NoiseFile;
import org.perfab.model.ResultsJson;
import org.perfab.model.RunResults;
import org.perfab.model.Sharding;
import org.perfab.model.Side;
import org.perfab.model.Warning;
import org.perfab.stats.Sequential;
import org.perfab.stats.ThresholdSettings;
import org.perfab.stats.Thresholds;
import org.perfab.stats.Comparison;
import org.perfab.stats.Sensitivity;
import org.perfab.stats.Verdict;
import org.perfab.workload.Workload;
import org.perfab.workload.WorkloadLoader;


/** One same-runner A/B run, from refs to {@code results.json}. */
public final class AbRun {
    /** The workload path in the head's tree when none is given. */
    public static final String DEFAULT_WORKLOAD = "perfab.yaml";

    /**
     * What to run. A request to resume a run ({@code resume}) gives only what the command line gave
     * again: the run goes on with the settings it began with (see {@link Resume}), and a setting
     * given again must say the same; {@code repository}, {@code base}, {@code head} and
     * {@code workload} are null there when not given.
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
     *     {@link TrialRunner}), and where that was given; empty for no padding
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
     *     (see {@link Sharding#times}): the shard's suite is cut at equal time by them; empty to cut by
     *     count
     */
    public record Request(Path repository, Optional<String> base, String head, String workload,
            Optional<Setting<Integer>> trials, Optional<Setting<Integer>> builds, Path out, Optional<Path> cache,
            Optional<Long> seed, ThresholdSettings overrides, boolean resume, boolean force, List<Verdict> failOn,
            Optional<Setting<Boolean>> padding, Optional<Path> noise, Optional<Setting<Integer>> adaptive,
            Optional<Duration> budget, Optional<Predicate<CellComparison>> undecided, Optional<Sharding.Shard> shard,
            Map<String, Double> shardTimes) {
        public Request {
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
            builds.ifPresent(AbRun::checkBuilds);
            trials.ifPresent(AbRun::checkTrials);
            adaptive.ifPresent(AbRun::checkAdaptive);
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
            return new Builder(new Request(repository, base, head, DEFAULT_WORKLOAD, Optional.empty(), Optional.empty(),
                    out, Optional.empty(), Optional.empty(), ThresholdSettings.NONE, false, false, List.of(),
                    Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                    Optional.empty(), Map.of()));
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

            private Builder(Request r) {
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
            public Request build() {
                return new Request(repository, base, head, workload, trials, builds, out, cache, seed, overrides, resume,
                        force, failOn, padding, noise, adaptive, budget, undecided, shard, shardTimes);
            }
        }
    }

    /** One build per side: what runs when nothing says otherwise. */
    private static final Setting<Integer> ONE_BUILD = new Setting<>(1, "the default");

    private static void checkBuilds(Setting<Integer> builds) {
        if (builds.value() < 1 || builds.value() > Workload.MAX_BUILDS) {
            throw new BadInputException(builds.from() + " must be from 1 to " + Workload.MAX_BUILDS + ", got "
                    + builds.value());
        }
    }

    private static void checkTrials(Setting<Integer> trials) {
        if (trials.value() < 2 || trials.value() > Workload.MAX_TRIALS) {
            throw new BadInputException(trials.from() + " must be from 2 to " + Workload.MAX_TRIALS + ", got "
                    + trials.value());
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

    /**
     * Where the run talks to.
     *
     * @param events what the run tells as it goes: notes and trials
     * @param env the environment perfab runs in (for the CI runner's name and PATH)
     * @param clock the wall clock for timestamps
     * @param comment renders the pull-request comment of results ({@code comment.md})
     * @param report renders the HTML report of results ({@code report.html})
     * @param engine what the run takes from the machine: its commands, signals and description
     */
    public record Context(Events events, Map<String, String> env, Clock clock,
            Function<RunResults, String> comment, Function<RunResults, String> report, Engine engine) {
        public Context {
            Objects.requireNonNull(events, "events");
            env = Map.copyOf(env);
            Objects.requireNonNull(clock, "clock");
            Objects.requireNonNull(comment, "comment");
            Objects.requireNonNull(report, "report");
            Objects.requireNonNull(engine, "engine");
        }
    }

    private final Request request;
    private final Context context;
    private final RunDir dir;
    private final Commands processes;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final Ledger ledger = new Ledger();
    private final long startNanos = System.nanoTime();
    private Assembly assembly;
    private boolean written;

    /** The noise file of an A/A run the cells are marked by, as the run read it; empty for none. */
    private final Optional<Plan.Noise> noise;
    /** The noise floors {@link #noise} holds. */
    private final Optional<NoiseFile> floors;
    /** Every benchmark the harness lists, when a shard or a later look has listed them. */
    private Optional<Slices.Listing> listing = Optional.empty();
    /** Whether the later looks have tried to list the harness's benchmarks. */
    private boolean listed;
    /** Whether the run has said that its later looks run the harness whole. */
    private boolean saidWhole;
    /** Whether the run has said that Valgrind, which measure: auto would count with, is missing. */
    private boolean saidNoValgrind;

    private AbRun(Request request, Context context, RunDir dir, Optional<Plan.Noise> noise) {
        this.request = request;
        this.context = context;
        this.dir = dir;
        this.noise = noise;
        this.floors = noise.map(Plan.Noise::floors);
        this.processes = context.engine().commands().get();
    }

    /**
     * Returns the noise file at {@code file}, as read now.
     *
     * @throws BadInputException naming the file when it cannot be read or is not a noise file
     */
    private static Plan.Noise noise(Path file) {
        Plan.Noise noise;
        try {
            noise = new Plan.Noise(file, Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new BadInputException("--noise " + file + ": cannot read: " + RunDir.reason(e), e);
        }
        noise.floors(); // a file that is not a noise file is refused before the run begins
        return noise;
    }

    private static void checkCache(Request r) {
        if (r.cache().isPresent() && Files.exists(r.cache().get()) && !Files.isDirectory(r.cache().get())) {
            throw new BadInputException("--cache " + r.cache().get() + " is a file, not a folder");
        }
    }

    /**
     * Runs the A/B and returns its results, already written to {@code results.json},
     * {@code comment.md} and {@code report.html} in the request's folder. A look of adaptive trials
     * that leaves cells open writes them too, as those of a run that goes on (see
     * {@link RunResults#partial}), before the next look runs.
     *
     * @throws BadInputException for an unknown ref, a missing or bad workload, a folder that
     *     already holds another run or is in use
     * @throws RunFailedException when a build fails, or every trial of a side failed: at the end of
     *     the run, or early, once the harness plainly does not work on a side (see
     *     {@link TrialLoop.Failing}); the results are written first
     */
    public static RunResults run(Request request, Context context) throws IOException, InterruptedException {
        // Absolute: builds and harnesses run in the checkouts, where a relative path would point
        // somewhere else.
        Request r = request.toBuilder().out(request.out().toAbsolutePath().normalize())
                .cache(request.cache().map(c -> c.toAbsolutePath().normalize()))
                .noise(request.noise().map(n -> n.toAbsolutePath().normalize())).build();
        if (r.resume()) {
            try (RunDir dir = RunDir.resume(r.out())) {
                Plan plan = Plan.read(dir.plan());
                Request kept = Resume.settle(r, plan, dir.plan());
                checkCache(kept);
                Optional<Plan.Noise> noise = plan.options().isPresent() ? plan.options().get().noise()
                        : kept.noise().map(AbRun::noise);
                return new AbRun(kept, context, dir, noise).run(Optional.of(plan));
            }
        }
        Optional<Plan.Noise> noise = r.noise().map(AbRun::noise);
        checkCache(r);
        try (RunDir dir = RunDir.create(r.out(), r.force())) {
            return new AbRun(r, context, dir, noise).run(Optional.empty());
        }
    }

    /** Runs the plan {@code resumed} holds, as far as it ran before; a new plan when empty. */
    private RunResults run(Optional<Plan> resumed) throws IOException, InterruptedException {
        Plan plan = resumed.isPresent() ? resumePlan(resumed.get()) : newPlan();
        Workload workload = plan.workload();
        if (plan.shard().isPresent()) {
            Slices.slicer(workload.harness()); // refused before anything is built
        }
        Engine.Registration hook;
        try {
            hook = context.engine().signals().register("perfab-interrupt", this::interrupted);
        } catch (IllegalStateException e) {
            // A signal came before this run began (between the runs of a bisect): nothing to write.
            throw new RunInterruptedException("interrupted before the run in " + dir.results().getParent() + " began");
        }
        try {
            if (resumed.isPresent()) {
                TrialLog.recover(dir.trials()).forEach(ledger::resumed);
            }
            Builder builder = new Builder(processes, request.cache(), dir.logs(), w -> {
                context.events().note("the cached build " + w.subjects().get(0) + " does not match the digest stored"
                        + " with it (it was damaged or edited), so " + w.subjects().get(1) + " was built again and the"
                        + " entry replaced");
                ledger.warning(w);
            }, context.events()::note);
            HarnessFiles harness;
            Sides sides = new Sides(plan, workload, dir, builder, ledger, context.events());
            try {
                harness = sides.prepare();
            } catch (RunFailedException e) {
                if (stop.get()) { // the signal stopped a checkout or a build: not a failure of either
                    throw new RunInterruptedException("interrupted while the sides were prepared, before any trial;"
                            + " continue with --resume");
                }
                throw e;
            }
            List<Path> shared = plan.mergeBase().tree().equals(plan.head().tree()) ? List.of()
                    : Programs.shared(workload.harness().argvs(), dir.side(Side.BASE, 0).tree(),
                            dir.side(Side.HEAD, 0).tree(), context.env().get("PATH"));
            RunResults.Machine machine = context.engine().machine().apply(context.env());
            Slices.Sided trials = Slices.Sided.both(workload.harness());
            Optional<Sharding> sharding = Optional.empty();
            listing = Optional.empty();
            if (plan.shard().isPresent()) {
                Sharding.Shard shard = plan.shard().get();
                Slices.Slice slice = Slices.slice(shard.index(), shard.count(), workload.harness(), processes,
                        listed(), dir.logs(), context.events()::note, plan.shardTimes());
                trials = slice.harness();
                listing = Optional.of(slice.listing());
                sharding = Optional.of(new Sharding(shard.count(), List.of(new Sharding.Part(shard.index(),
                        Sharding.State.MEASURED, machine.runner().isBlank() ? machine.cpu() : machine.runner(),
                        slice.listed(), slice.suite(), slice.cut(), slice.benchmarks(), 0, slice.listing().all()))));
            }
            synchronized (ledger) {
                assembly = new Assembly(plan, workload, machine, harness, shared, request.failOn(), floors,
                        dir.trialResults(), sharding);
            }
            if (sharding.isPresent() && sharding.get().parts().get(0).benchmarks().isEmpty()) {
                // A slice of no benchmarks (a small suite split many ways) measures nothing, and
                // says so: its results are the shard's place in the merge.
                synchronized (ledger) {
                    return write(false);
                }
            }
            TrialRunner whole = new TrialRunner(processes, trials, dir.trialResults(), dir.trialLogs(),
                    plan.padding(), context.events()::command, context.events()::note, workload.name(), machine.cores(),
                    countCache(plan, workload, harness, sides.leftOut(), machine));
            TrialLoop loop;
            TrialLoop.End end;
            try (TrialLog log = TrialLog.open(dir.trials())) {
                while (true) {
                    TrialRunner runner = plan.open().isEmpty() ? whole : narrowed(whole, trials, workload, plan);
                    loop = new TrialLoop(plan, dir, runner, ledger, context.events(), stop);
                    end = loop.run(log);
                    Optional<Plan> more = end == TrialLoop.End.DONE ? nextRound(plan) : Optional.empty();
                    if (more.isEmpty()) {
                        if (end == TrialLoop.End.DONE) {
                            // A replacement measures what its round measured: the runner of the last.
                            end = loop.replace(log, Assembly.replacements(plan.trials()));
                        }
                        break;
                    }
                    synchronized (ledger) {
                        // The table so far, for a reader while the next look runs: the last write replaces it.
                        save(results(false).goingOn());
                    }
                    plan = more.get();
                    plan.write(dir.plan());
                    synchronized (ledger) {
                        assembly = assembly.with(plan);
                    }
                }
            }
            RunResults results;
            synchronized (ledger) {
                if (end == TrialLoop.End.INTERRUPTED) {
                    throw new RunInterruptedException("interrupted; the results so far are in " + dir.results());
                }
                results = write(false);
            }
            if (end == TrialLoop.End.FAILING) {
                throw stopped(loop.failing().orElseThrow());
            }
            failIfASideHasNoData(results);
            return results;
        } finally {
            hook.close(); // while a signal's hook runs, it stays: it writes the results
        }
    }

    /**
     * Returns the count cache of this run's sides under {@code --cache}, for a workload that counts
     * its benchmarks one at a time; {@link CountCache#NONE} otherwise.
     */
    private CountCache countCache(Plan plan, Workload workload, HarnessFiles harness, Set<String> leftOut,
            RunResults.Machine machine) {
        if (request.cache().isEmpty() || !workload.harness().perBenchmark()) {
            return CountCache.NONE;
        }
        List<CountCache.Keyed> sides = new ArrayList<>();
        for (Side side : Side.values()) {
            Commit commit = side == Side.BASE ? plan.mergeBase() : plan.head();
            Builder.Sources sources = Builder.sources(commit, side == Side.BASE ? harness.copies() : List.of(),
                    workload.build(), leftOut);
            for (int b = 0; b < plan.builds(); b++) {
                SideDir d = dir.side(side, b);
                Trees.Fingerprint outputs = Builder.recorded(d).map(Builder.Result::outputs)
                        .orElse(Trees.Fingerprint.NONE);
                sides.add(new CountCache.Keyed(d, CountCache.sources(sources, d, outputs)));
            }
        }
        return new CountCache(request.cache(), sides, machine.cpu() + " " + System.getProperty("os.arch"),
                context.events()::note);
    }

    private Plan newPlan() throws IOException {
        Instant started = context.clock().instant();
        try (GitRepo git = GitRepo.open(request.repository())) {
            Commit baseTip = git.resolve(request.base().orElseGet(() -> {
                GitRepo.DefaultBranch d = git.defaultBranch();
                context.events().note("base: " + d.ref() + ", the repository's default branch (" + d.found() + ")");
                return d.ref();
            }));
            Commit head = request.head().equals(GitRepo.WORKTREE)
                    ? git.snapshot(Stream.concat(Stream.of(request.out()), request.cache().stream()).toList(),
                            context.events()::note)
                    : git.resolve(request.head());
            if (request.head().equals(GitRepo.WORKTREE)) {
                Commit tip = git.resolve("HEAD");
                context.events().note("the head is " + head.subject() + ": " + head.shortId());
                if (!tip.id().equals(head.id())) {
                    ledger.warning(Warning.of(Warning.Kind.UNCOMMITTED_HEAD, List.of(tip.shortId(), head.shortId()),
                            Map.of("files", (long) git.changedFiles(tip, head))));
                }
            }
            List<Commit> bases = git.mergeBases(baseTip, head);
            Commit mergeBase = bases.get(0);
            if (bases.size() > 1) {
                List<String> ids = bases.stream().map(Commit::shortId).toList();
                context.events().note("base and head have " + bases.size() + " merge-bases (a criss-cross merge): "
                        + String.join(", ", ids) + "; the baseline is " + mergeBase.shortId());
                ledger.warning(Warning.of(Warning.Kind.SEVERAL_MERGE_BASES, ids, Map.of()));
            }
            String workload = workloadPath(git, head);
            String shown = workload + " at " + request.head() + " (" + head.shortId() + ")";
            byte[] yaml = git.read(head, workload).orElseThrow(() -> noWorkload(git, workload, shown));
            Workload w = WorkloadLoader.parse(new String(yaml, StandardCharsets.UTF_8), shown);
            if (w.harness().measure().stream().anyMatch(Workload.Measure::hardware)) {
                Optional<String> problem = Counters.hardwareProblem();
                if (problem.isPresent()) {
                    throw new BadInputException(shown + ": harness measure hw-instructions and hw-cycles read the CPU's"
                            + " counters, and this machine cannot: " + problem.get());
                }
            }
            Settings settings = settings(w, shown);
            int trialCount = settings.trials().value();
            Thresholds thresholds = thresholds(w);
            if (settings.adaptive().value() > trialCount) {
                thresholds = thresholds.withAdaptive(new Sequential(trialCount, settings.adaptive().value()));
            }
            Optional<Long> seed = request.seed().or(w::seed);
            Plan p = new Plan(request.repository().toString(), baseTip, head, mergeBase, workload,
                    new String(yaml, StandardCharsets.UTF_8), trialCount, w.warmup(), settings.builds().value(),
                    seed, request.padding().map(Setting::value).orElse(false)
                            ? Optional.of(seed.orElseGet(() -> new Random().nextLong())) : Optional.empty(),
                    thresholds, started, request.shard(), request.shardTimes(), List.of(), List.of(),
                    Optional.of(options()));
            p.write(dir.plan());
            return p;
        }
    }

    /** Returns the options of this run that its plan keeps beside the trial order. */
    private Plan.Options options() {
        return new Plan.Options(request.budget(), request.failOn(), noise, request.cache());
    }

    /** The run's size as its layers give it, each naming where it was given. */
    private record Settings(Setting<Integer> trials, Setting<Integer> builds, Setting<Integer> adaptive) {
    }

    /**
     * Returns the run's size, layered once: the request (the command line over its profile) over
     * the workload {@code w} (named {@code shown}) over perfab's defaults, and checked as a whole.
     */
    private Settings settings(Workload w, String shown) {
        Setting<Integer> trials = Setting.first(new Setting<>(w.trials(), "'trials' of " + shown), request.trials());
        checkTrials(trials);
        Setting<Integer> builds = Setting.first(ONE_BUILD, request.builds(),
                w.builds().map(b -> new Setting<>(b, "'builds' of " + shown)));
        checkTrialsPerBuild(trials, builds);
        request.adaptive().ifPresent(a -> checkAdaptiveBuilds(a, builds));
        // A run of several builds is judged on their medians, which more trials do not add to: it
        // runs its first round only, whatever the workload's choice.
        Setting<Integer> adaptive = builds.value() > 1 ? new Setting<>(0, builds.from())
                : Setting.first(new Setting<>(Workload.DEFAULT_ADAPTIVE, "the default"), request.adaptive(),
                        w.adaptive().map(a -> new Setting<>(a, "'adaptive' of " + shown)));
        // A workload's or the default's most below a larger first round (--trials 30) gives a run
        // of that size; the command line's is a mistake said now.
        if (request.adaptive().isPresent() && adaptive.value() > 0 && adaptive.value() < trials.value()) {
            throw new BadInputException(adaptive.from() + " " + adaptive.value() + " is fewer trials per side than the"
                    + " first round's " + trials.value() + " (" + trials.from() + ")");
        }
        return new Settings(trials, builds, adaptive);
    }

    /**
     * Returns the workload's path in the head's tree. A path given in a subfolder of the working tree
     * names a file of that subfolder, as git's paths do, unless only the tree's root has it; the
     * default is taken from the root.
     */
    private String workloadPath(GitRepo git, Commit head) {
        String prefix = git.prefixOf(request.repository()).orElse("");
        if (prefix.isEmpty() || request.workload().equals(DEFAULT_WORKLOAD)) {
            return request.workload();
        }
        String inFolder = Path.of(prefix + request.workload()).normalize().toString().replace('\\', '/');
        return git.read(head, inFolder).isEmpty() && git.read(head, request.workload()).isPresent()
                ? request.workload() : inFolder;
    }

    /** Says why the head has no workload file at {@code path}, and what to do. */
    private BadInputException noWorkload(GitRepo git, String path, String shown) {
        Optional<Path> onDisk = git.workTree().map(root -> root.resolve(path)).filter(Files::isRegularFile);
        if (onDisk.isPresent() && !request.head().equals(GitRepo.WORKTREE)) {
            return new BadInputException("no workload file: " + shown + " is not in that commit, though the working"
                    + " tree has " + path + " (uncommitted, or on another branch): commit it, or measure the working"
                    + " tree with --head " + GitRepo.WORKTREE);
        }
        return new BadInputException("no workload file: " + shown + " does not exist (give its path with --workload)");
    }

    /** Returns the sides whose trees the harness's benchmarks are listed in, the head's first. */
    private List<SideDir> listed() {
        return List.of(dir.side(Side.HEAD, 0), dir.side(Side.BASE, 0));
    }

    /**
     * Returns the runner of a later round of {@code plan}, which measures only its open cells: the
     * harness narrowed to the benchmarks they belong to, through the harness's own filter, and only
     * their benchmarks counted. A harness perfab cannot filter (or list) runs whole, and is said once;
     * the cells it measures beside the open ones are judged at the looks their trials reach.
     */
    private TrialRunner narrowed(TrialRunner whole, Slices.Sided trials, Workload workload, Plan plan)
            throws IOException, InterruptedException {
        Set<String> open = Set.copyOf(plan.open());
        Workload.Harness harness = trials.harness();
        if (harness.counted() && harness.format() instanceof Workload.Read) {
            // Counted, its output unread: the benchmarks counted one at a time are chosen by name,
            // and a whole command counted is one cell.
            return whole.narrowed(trials, open, Set.of(), 0, true);
        }
        // measure: auto: the benchmarks counted in place of timing them are chosen by name, and the
        // harness runs for the timings of the rest, if any.
        Set<String> counting = plan.counting().stream().filter(open::contains).collect(Collectors.toSet());
        Set<String> timed = open.stream().filter(n -> !counting.contains(n)).collect(Collectors.toSet());
        // Two trials a side decide a count: the round counts in its last two, whatever its size (the
        // last, so that the round's trials reach its look, which the table reads from the measurements).
        int countFrom = Math.max(Rounds.previous(plan.thresholds().adaptive().orElseThrow().looks(), plan.trials()),
                plan.trials() - Workload.COUNTED_TRIALS);
        if (timed.isEmpty()) {
            return whole.narrowed(trials, open, counting, countFrom, false);
        }
        if (listing.isEmpty() && !listed && harness.format() instanceof Workload.Read) {
            listed = true;
            Optional<HarnessTool.Slicer> slicer = Slices.of(harness);
            if (slicer.isPresent()) {
                try {
                    listing = Optional.of(Slices.listing(slicer.get(), Slices.Why.LOOK, harness, processes, listed(),
                            dir.logs(), context.events()::note));
                } catch (RunFailedException e) {
                    context.events().note(e.getMessage() + "; the later looks run the harness whole");
                }
            }
        }
        // A shard's harness is narrowed from the whole suite's: its filter names the open cells' benchmarks.
        Optional<Slices.Sided> narrow = Slices.narrowed(listing.isPresent() ? workload.harness() : harness, listing,
                timed);
        if (narrow.isEmpty()) {
            if (!saidWhole) {
                saidWhole = true;
                context.events().note("the later looks run the harness whole: perfab cannot run only the undecided"
                        + " benchmarks of this harness (" + harness.format().id() + "); 'harness.shard' in the workload"
                        + " says how to list and filter it (docs/workloads.md)");
            }
            return whole.narrowed(trials, open, counting, countFrom, true);
        }
        context.events().note("look " + (plan.thresholds().adaptive().orElseThrow().looks().indexOf(plan.trials()) + 1)
                + " measures only the " + timed.size() + " undecided cell name" + (timed.size() == 1 ? "" : "s") + ": "
                + String.join(" ", narrow.get().harness().argvs().get(0)));
        return whole.narrowed(narrow.get(), open, counting, countFrom, true);
    }

    /**
     * Returns whether a later round of {@code harness} runs only the benchmarks of the open cells,
     * as {@link #narrowed} would have it: counted ones chosen by name, named commands, or a harness
     * perfab lists and filters, unless its listing failed. A harness run whole costs a later round
     * whole trials.
     */
    private boolean narrows(Workload.Harness harness) {
        return !saidWhole && (harness.format() instanceof Workload.Timed
                || harness.counted() && harness.format() instanceof Workload.Read || Slices.of(harness).isPresent());
    }

    /**
     * Returns the plan of the next round of a run with adaptive trials, when some cell is still
     * undecided, the most trials per side are not reached, and the round keeps the trials within the
     * budget; empty otherwise. A look that leaves cells open says what it decided and what the next
     * costs ({@link Events#looked}), or why the run stops there ({@link Events#overBudget}).
     */
    private Optional<Plan> nextRound(Plan plan) {
        Optional<Sequential> looks = plan.thresholds().adaptive();
        if (looks.isEmpty()) {
            if (plan.workload().harness().count().auto()) {
                context.events().note("measure: auto counts, at a later look, the benchmarks its timings cannot"
                        + " tell; this run has one look (adaptive off, or several builds), so it times them only");
            }
            return Optional.empty();
        }
        List<CellComparison> undecided;
        ComparisonTable table;
        synchronized (ledger) {
            table = assembly.results(ledger.snapshot(), false, 0, context.clock().instant()).table();
            undecided = request.undecided().isPresent()
                    ? table.rows().stream().filter(request.undecided().get()).toList() : table.undecided();
        }
        List<Integer> sizes = looks.get().looks();
        int look = sizes.indexOf(plan.trials()) + 1;
        String at = "look " + look + " of at most " + sizes.size() + " (" + plan.trials() + " trials per side): ";
        if (undecided.isEmpty()) {
            context.events().note(at + "every cell is decided");
            return Optional.empty();
        }
        String names = undecided.stream().limit(5).map(r -> r.cell().name() + " " + r.cell().metric())
                .collect(Collectors.joining(", ")) + (undecided.size() > 5 ? " and " + (undecided.size() - 5) + " more"
                        : "");
        if (look >= sizes.size()) {
            context.events().note(at + undecided.size() + " cell" + (undecided.size() == 1 ? " is" : "s are")
                    + " still undecided at the most trials asked (" + names + "); perfab plan " + dir.results()
                    + " says how many trials and builds they need");
            return Optional.empty();
        }
        int next = sizes.get(look);
        List<String> counting = counting(plan, undecided, sizes.get(sizes.size() - 1));
        List<String> open = undecided.stream().map(r -> r.cell().name()).distinct().sorted().toList();
        Ledger.Snapshot done = ledger.snapshot();
        Events.Look found = look(table, undecided, look, sizes.size(), next - plan.trials(), open.size(),
                price(plan, sizes, next, open, done.trials()));
        if (request.budget().isPresent()) {
            // The budget is the whole run's: a resumed run counts what its earlier processes spent.
            double round = Double.isNaN(found.nextSeconds()) ? 0 : found.nextSeconds();
            double spent = done.spentSeconds();
            if (spent + round > request.budget().get().toMillis() / 1000.0) {
                Duration enough = Rounds.enough(spent + round);
                context.events().overBudget(found, request.budget().get(), spent, enough);
                ledger.warning(budgetStop(found, plan.trials(), request.budget().get(), spent, enough));
                return Optional.empty();
            }
        }
        context.events().looked(found);
        return Optional.of(plan.withRound(next, open, counting));
    }

    /**
     * Returns the warning that the run stops at look {@code found}, at {@code trials} per side,
     * since its next look would pass {@code budget}, with {@code spentSeconds} of trials spent:
     * what the results say of the stop, and the budget ({@code enough}) that lets the next look run.
     */
    private static Warning budgetStop(Events.Look found, int trials, Duration budget, double spentSeconds,
            Duration enough) {
        Map<String, Long> figures = new java.util.HashMap<>(Map.of("look", (long) found.look(), "looks",
                (long) found.looks(), "trials", (long) trials, "more", (long) found.trials(), "benchmarks",
                (long) found.benchmarks(), "budgetMillis", budget.toMillis(), "spentMillis",
                Math.round(spentSeconds * 1000), "enoughMillis", enough.toMillis()));
        if (!Double.isNaN(found.nextSeconds())) {
            figures.put("nextMillis", Math.round(found.nextSeconds() * 1000));
        }
        return Warning.of(Warning.Kind.BUDGET_STOP, found.open().stream().map(c -> c.name() + " " + c.metric())
                .toList(), figures);
    }

    /**
     * Returns the benchmarks the next round of a {@code measure: auto} run counts in place of
     * timing them: those already counted, and the undecided whose timings cannot tell, too noisy
     * for the bar even at the most trials ({@code most} a side), which is said. A choice made on
     * the spread alone, never on the change measured: an undecided time row whose sides' spreads
     * would, at the most trials, still hide a change at the bar 1 time in 5 (see
     * {@link Sensitivity#detectable}). Where the run
     * cannot count them (no Valgrind) it says so, once, and times them on; a benchmark
     * count.benchmarks leaves out is timed on.
     */
    private List<String> counting(Plan plan, List<CellComparison> undecided, int most) {
        Workload.Harness h = plan.workload().harness();
        if (!h.count().auto()) {
            return List.of();
        }
        java.util.Set<String> counting = new java.util.TreeSet<>(plan.counting());
        List<String> hopeless = new ArrayList<>();
        Sensitivity test = new Sensitivity(plan.thresholds().alpha(), Comparison.POWER);
        for (CellComparison r : undecided) {
            // Where the pairs judged, the spread they see, not each side's with the runner's drift in it.
            double atMost = r.comparison().detectableAt(most, test);
            if (!Counted.is(r.cell().metric()) && !counting.contains(r.cell().name())
                    && atMost > plan.thresholds().minEffect()
                    && h.count().benchmarks().map(p -> p.matcher(r.cell().name()).find()).orElse(true)
                    && !hopeless.contains(r.cell().name())) {
                hopeless.add(r.cell().name());
            }
        }
        if (hopeless.isEmpty()) {
            return List.copyOf(counting);
        }
        String names = hopeless.stream().limit(5).collect(Collectors.joining(", "))
                + (hopeless.size() > 5 ? " and " + (hopeless.size() - 5) + " more" : "");
        if (!processes.has(Counters.VALGRIND)) {
            if (!saidNoValgrind) {
                saidNoValgrind = true;
                context.events().note(hopeless.size() + " benchmark" + (hopeless.size() == 1 ? " is" : "s are")
                        + " too noisy to time on this machine (" + names + "), and measure: auto would count them,"
                        + " under Valgrind, which is not installed (Debian and Ubuntu: apt-get install valgrind);"
                        + " they are timed on");
            }
            return List.copyOf(counting);
        }
        context.events().note(hopeless.size() + " benchmark" + (hopeless.size() == 1 ? " is" : "s are") + " too noisy"
                + " to time on this machine even at " + most + " trials a side (" + names + "): counted from now on,"
                + " in place of their timings");
        counting.addAll(hopeless);
        return List.copyOf(counting);
    }

    /**
     * Returns the seconds of the round that takes {@code plan} to {@code next} trials per side
     * measuring the cells named {@code open}, by the trials {@code done}: two sides of the new trials,
     * each as long as the open cells' share of a trial of the last round, or a whole trial of a
     * harness that runs whole (see {@link Rounds#next}).
     */
    private double price(Plan plan, List<Integer> sizes, int next, List<String> open,
            List<RunResults.TrialRecord> done) {
        Workload.Harness h = plan.workload().harness();
        int workers = h.perBenchmark() && h.counted() ? Math.max(1, assembly.machine().cores()) : 1;
        return Rounds.next(done, sizes, plan.trials(), next, narrows(h) ? open : List.of(), workers);
    }

    /**
     * Returns what look {@code look} of at most {@code looks} found in {@code table}, whose open cells
     * are {@code undecided}: the next look adds {@code trials} per side, runs {@code benchmarks}
     * benchmarks and takes {@code seconds} (NaN when unknown).
     */
    private static Events.Look look(ComparisonTable table, List<CellComparison> undecided, int look, int looks,
            int trials, int benchmarks, double seconds) {
        List<CellId> open = undecided.stream().map(r -> r.cell().id()).toList();
        Set<CellId> opened = Set.copyOf(open);
        Map<Verdict, Integer> decided = new EnumMap<>(Verdict.class);
        int cells = 0;
        for (CellComparison r : table.rows()) {
            if (r.sameAs().isEmpty() && !r.countedInstead()) { // a row counted instead claims nothing
                cells++;
                if (!opened.contains(r.cell().id())) {
                    decided.merge(r.comparison().verdict(), 1, Integer::sum);
                }
            }
        }
        return new Events.Look(look, looks, cells, decided, open, benchmarks, trials, seconds);
    }

    /**
     * Returns {@code p}, the plan of the run being resumed, with the options it goes on with: a plan
     * of an earlier perfab, which did not keep them, keeps this request's from now on.
     */
    private Plan resumePlan(Plan p) throws IOException {
        context.events().note("resuming the run in " + dir.root() + " (" + p.head().typed() + " against "
                + p.baseTip().typed() + ") with the settings it began with");
        if (p.options().isEmpty()) {
            p = p.withOptions(options());
            p.write(dir.plan());
        }
        return p;
    }

    private Thresholds thresholds(Workload w) {
        try {
            return request.overrides().or(w.thresholds()).over(Thresholds.DEFAULT);
        } catch (IllegalArgumentException e) {
            throw new BadInputException("thresholds of " + request.workload() + " with the command line: "
                    + e.getMessage());
        }
    }

    /** Runs on SIGINT or SIGTERM: stops the trial running and writes what exists. */
    private void interrupted() {
        stop.set(true);
        processes.stopAll();
        synchronized (ledger) {
            if (!written && assembly != null) {
                try {
                    write(true);
                    context.events().note("interrupted; wrote the results of " + ledger.trials().size()
                            + " finished trials to " + dir.results() + " (continue with --resume)");
                } catch (IOException | RuntimeException e) {
                    context.events().note("interrupted, and could not write the results: " + e);
                }
            } else if (assembly == null) {
                context.events().note("interrupted while the sides were prepared (checked out and built), before any"
                        + " trial: nothing measured yet; continue with --resume");
            }
        }
    }

    /**
     * Writes {@code results.json}, {@code comment.md} and {@code report.html} from the trials so
     * far. Holds the ledger's lock.
     */
    private RunResults write(boolean interrupted) throws IOException {
        RunResults results = results(interrupted);
        save(results);
        written = true;
        return results;
    }

    /** Returns the results of the trials so far. Holds the ledger's lock. */
    private RunResults results(boolean interrupted) {
        return assembly.results(ledger.snapshot(), interrupted, (System.nanoTime() - startNanos) / 1e9,
                context.clock().instant());
    }

    /**
     * Writes {@code results}: {@code results.json}, {@code comment.md}, {@code report.html}, and for
     * an A/A run that ended, {@code noise.json}.
     */
    private void save(RunResults results) throws IOException {
        Path tmp = dir.partialResults();
        Files.writeString(tmp, ResultsJson.write(results), StandardCharsets.UTF_8);
        Files.move(tmp, dir.results(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        Files.writeString(dir.comment(), context.comment().apply(results), StandardCharsets.UTF_8);
        Files.writeString(dir.report(), context.report().apply(results), StandardCharsets.UTF_8);
        if (results.provenance().aa() && results.partial().isEmpty()) {
            Files.writeString(dir.noise(), NoiseFile.of(results).write(results.table().thresholds()),
                    StandardCharsets.UTF_8);
        }
    }

    /** Returns the failure of a run that {@code f} stopped early: which trial failed, why, and where to look. */
    private RunFailedException stopped(TrialLoop.Failing f) {
        RunResults.TrialRecord t = f.last();
        return new RunFailedException(f.what() + ", so the run stopped there; " + shown(t)
                + "\nthe results so far are in " + dir.results() + ", and the output of " + t.named() + " in "
                + dir.trialLogs().resolve(TrialRunner.stem(t.seq(), t.side(), t.build())) + "*");
    }

    /** Returns failed trial {@code t} for a message: its name, why it failed, and the tail of its stderr below. */
    private static String shown(RunResults.TrialRecord t) {
        return t.named() + ": " + t.reason()
                + (t.stderrTail().isEmpty() ? "" : "\n    " + t.stderrTail().replace("\n", "\n    "));
    }

    private void failIfASideHasNoData(RunResults results) {
        for (Side side : Side.values()) {
            boolean any = results.trials().stream()
                    .anyMatch(t -> t.side() == side && !t.warmup() && t.status() == RunResults.Status.OK);
            if (!any) {
                RunResults.TrialRecord last = null;
                for (RunResults.TrialRecord t : results.trials()) {
                    if (t.side() == side) {
                        last = t;
                    }
                }
                throw new RunFailedException("every trial of " + side.id() + " failed"
                        + (last == null ? "" : "; the last, " + shown(last))
                        + "\nthe results so far are in " + dir.results());
            }
        }
    }
}
