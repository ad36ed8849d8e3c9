package org.perfab.ab;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.perfab.exec.Commands;
import org.perfab.failure.BadInputException;
import org.perfab.failure.RunFailedException;
import org.perfab.failure.RunInterruptedException;
import org.perfab.git.Commit;
import org.perfab.model.NoiseFile;
import org.perfab.model.ResultsJson;
import org.perfab.model.RunResults;
import org.perfab.model.Sharding;
import org.perfab.model.Side;
import org.perfab.model.WholeFile;
import org.perfab.workload.Workload;

/**
 * One same-runner A/B run, from refs to {@code results.json}: takes the run's folder, has its plan
 * made ({@link Planner}), prepares the sides ({@link Workspace}), runs the trials round after round
 * ({@link TrialLoop}, with the later looks {@link Looks} decides), and writes the results as each
 * round ends and when a signal stops the run.
 */
public final class AbRun {
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
    public record Context(
            Events events,
            Map<String, String> env,
            Clock clock,
            Function<RunResults, String> comment,
            Function<RunResults, String> report,
            Engine engine) {
        public Context {
            Objects.requireNonNull(events, "events");
            env = Map.copyOf(env);
            Objects.requireNonNull(clock, "clock");
            Objects.requireNonNull(comment, "comment");
            Objects.requireNonNull(report, "report");
            Objects.requireNonNull(engine, "engine");
        }
    }

    private final AbRequest request;
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
    /** The later looks of adaptive trials. */
    private final Looks looks;

    private AbRun(AbRequest request, Context context, RunDir dir, Optional<Plan.Noise> noise) {
        this.request = request;
        this.context = context;
        this.dir = dir;
        this.noise = noise;
        this.floors = noise.map(Plan.Noise::floors);
        this.processes = context.engine().commands().apply(context.env());
        this.looks = new Looks(request, context.events(), context.clock(), ledger, dir, processes);
    }

    private static void checkCache(AbRequest r) {
        if (r.cache().isPresent()
                && Files.exists(r.cache().get())
                && !Files.isDirectory(r.cache().get())) {
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
    public static RunResults run(AbRequest request, Context context) throws IOException, InterruptedException {
        // Absolute: builds and harnesses run in the checkouts, where a relative path would point
        // somewhere else.
        AbRequest r = request.toBuilder()
                .out(request.out().toAbsolutePath().normalize())
                .cache(request.cache().map(c -> c.toAbsolutePath().normalize()))
                .noise(request.noise().map(n -> n.toAbsolutePath().normalize()))
                .build();
        if (r.resume()) {
            try (RunDir dir = RunDir.resume(r.out())) {
                Plan plan = Plan.read(dir.plan());
                AbRequest kept = Resume.settle(r, plan, dir.plan());
                checkCache(kept);
                Optional<Plan.Noise> noise = plan.options().isPresent()
                        ? plan.options().get().noise()
                        : kept.noise().map(Planner::noise);
                return new AbRun(kept, context, dir, noise).run(Optional.of(plan));
            }
        }
        Optional<Plan.Noise> noise = r.noise().map(Planner::noise);
        checkCache(r);
        try (RunDir dir = RunDir.create(r.out(), r.force())) {
            return new AbRun(r, context, dir, noise).run(Optional.empty());
        }
    }

    /** Runs the plan {@code resumed} holds, as far as it ran before; a new plan when empty. */
    private RunResults run(Optional<Plan> resumed) throws IOException, InterruptedException {
        Planner planner = new Planner(request, context.events(), context.clock(), ledger, dir, noise, processes);
        Plan plan = resumed.isPresent() ? planner.resumed(resumed.get()) : planner.fresh();
        Workload workload = plan.workload();
        if (plan.shard().isPresent()) {
            Slices.slicer(workload.harness()); // refused before anything is built
        }
        Engine.Registration hook;
        try {
            hook = context.engine().signals().register("perfab-interrupt", this::interrupted);
        } catch (IllegalStateException e) {
            // A signal came before this run began (between the runs of a bisect): nothing to write.
            throw new RunInterruptedException(
                    "interrupted before the run in " + dir.results().getParent() + " began");
        }
        try {
            if (resumed.isPresent()) {
                TrialLog.recover(dir.trials()).forEach(ledger::resumed);
            }
            Workspace sides = new Workspace(plan, workload, dir, builder(), ledger, context.events());
            HarnessFiles harness = prepare(sides);
            List<Path> shared = sharedPrograms(plan, workload);
            RunResults.Machine machine = context.engine().machine().apply(context.env());
            Sliced sliced = slice(plan, workload, machine);
            Slices.Sided trials = sliced.trials();
            Optional<Sharding> sharding = sliced.sharding();
            synchronized (ledger) {
                assembly = new Assembly(
                        plan,
                        workload,
                        machine,
                        harness,
                        shared,
                        request.failOn(),
                        floors,
                        dir.trialResults(),
                        sharding);
            }
            if (sharding.isPresent()
                    && sharding.get().parts().get(0).benchmarks().isEmpty()) {
                // A slice of no benchmarks (a small suite split many ways) measures nothing, and
                // says so: its results are the shard's place in the merge.
                synchronized (ledger) {
                    return write(false);
                }
            }
            Trial whole = new Trial(
                    processes,
                    trials,
                    dir.trialResults(),
                    dir.trialLogs(),
                    plan.padding(),
                    context.events()::command,
                    context.events()::note,
                    workload.name(),
                    machine.cores(),
                    countCache(plan, workload, harness, sides.leftOut(), machine));
            return measure(plan, workload, whole, trials);
        } finally {
            hook.close(); // while a signal's hook runs, it stays: it writes the results
        }
    }

    /**
     * Returns the programs the harness runs that both sides share, by path under their first
     * checkouts and {@code PATH}; none when the two sides are the same tree.
     */
    private List<Path> sharedPrograms(Plan plan, Workload workload) {
        if (plan.mergeBase().tree().equals(plan.head().tree())) {
            return List.of();
        }
        return Programs.shared(
                workload.harness().argvs(),
                dir.side(Side.BASE, 0).tree(),
                dir.side(Side.HEAD, 0).tree(),
                context.env().get("PATH"));
    }

    /**
     * What a run measures: the harness of its trials, and for a shard, the shard's place among the
     * others.
     *
     * @param trials the harness of each side, narrowed to the shard's slice of the benchmarks
     * @param sharding this shard's part of the split; empty for a run that is not a shard
     */
    private record Sliced(Slices.Sided trials, Optional<Sharding> sharding) {}

    /**
     * Returns what this run measures: every benchmark for a run that is not a shard; for a shard,
     * its slice of the benchmarks listed, which the later looks are told of.
     */
    private Sliced slice(Plan plan, Workload workload, RunResults.Machine machine)
            throws IOException, InterruptedException {
        if (plan.shard().isEmpty()) {
            return new Sliced(Slices.Sided.both(workload.harness()), Optional.empty());
        }
        Sharding.Shard shard = plan.shard().get();
        Slices.Slice slice = Slices.slice(
                shard.index(),
                shard.count(),
                workload.harness(),
                processes,
                dir.firstBuilds(),
                dir.logs(),
                context.events()::note,
                plan.shardTimes());
        looks.listed(slice.listing());
        return new Sliced(slice.harness(), Optional.of(sharding(shard, slice, machine)));
    }

    /** Returns the sharding of {@code shard}, measured on {@code machine}: its one part, {@code slice}. */
    private static Sharding sharding(Sharding.Shard shard, Slices.Slice slice, RunResults.Machine machine) {
        return new Sharding(
                shard.count(),
                List.of(new Sharding.Part(
                        shard.index(),
                        Sharding.State.MEASURED,
                        machine.runner().isBlank() ? machine.cpu() : machine.runner(),
                        slice.listed(),
                        slice.suite(),
                        slice.cut(),
                        slice.benchmarks(),
                        0,
                        slice.listing().all())));
    }

    /** Returns the builder of the sides, which says when it rebuilt a damaged entry of the cache. */
    private Builder builder() {
        return new Builder(
                processes,
                request.cache(),
                dir.logs(),
                w -> {
                    context.events()
                            .note("the cached build " + w.subjects().get(0) + " does not match the digest stored"
                                    + " with it (it was damaged or edited), so "
                                    + w.subjects().get(1) + " was built again and the"
                                    + " entry replaced");
                    ledger.warning(w);
                },
                context.events()::note);
    }

    /**
     * Checks out and builds the {@code sides}, and returns the harness files overlaid; a signal that
     * stopped a checkout or a build interrupts the run, and is not a failure of either.
     */
    private HarnessFiles prepare(Workspace sides) throws IOException, InterruptedException {
        try {
            return sides.prepare();
        } catch (RunFailedException e) {
            if (stop.get()) {
                throw new RunInterruptedException(
                        "interrupted while the sides were prepared, before any trial; continue with --resume");
            }
            throw e;
        }
    }

    /**
     * Runs the trials of {@code plan}, round after round while a later look is due (each with the
     * runner of {@code whole} narrowed to its open cells), and returns the results, written.
     */
    private RunResults measure(Plan plan, Workload workload, Trial whole, Slices.Sided trials)
            throws IOException, InterruptedException {
        TrialLoop loop;
        TrialLoop.End end;
        try (TrialLog log = TrialLog.open(dir.trials())) {
            while (true) {
                Trial runner = plan.open().isEmpty() ? whole : looks.narrowed(whole, trials, workload, plan);
                loop = new TrialLoop(plan, dir, runner, ledger, context.events(), stop);
                end = loop.run(log);
                Optional<Plan> more = end == TrialLoop.End.DONE ? looks.nextRound(plan, assembly) : Optional.empty();
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
    }

    /**
     * Returns the count cache of this run's sides under {@code --cache}, for a workload that counts
     * its benchmarks one at a time; {@link CountCache#NONE} otherwise.
     */
    private CountCache countCache(
            Plan plan, Workload workload, HarnessFiles harness, Set<String> leftOut, RunResults.Machine machine) {
        if (request.cache().isEmpty() || !workload.harness().perBenchmark()) {
            return CountCache.NONE;
        }
        List<CountCache.Keyed> sides = new ArrayList<>();
        for (Side side : Side.values()) {
            Commit commit = side == Side.BASE ? plan.mergeBase() : plan.head();
            Builder.Sources sources = Builder.sources(
                    commit, side == Side.BASE ? harness.copies() : List.of(), workload.build(), leftOut);
            for (int b = 0; b < plan.builds(); b++) {
                SideDir d = dir.side(side, b);
                Trees.Fingerprint outputs =
                        Builder.recorded(d).map(Builder.Result::outputs).orElse(Trees.Fingerprint.NONE);
                sides.add(new CountCache.Keyed(d, CountCache.sources(sources, d, outputs)));
            }
        }
        return new CountCache(
                request.cache(),
                sides,
                machine.cpu() + " " + machine.os(),
                Builder.inherited(processes.environment(), Map.of()),
                context.events()::note);
    }

    /** Runs on SIGINT or SIGTERM: stops the trial running and writes what exists. */
    private void interrupted() {
        stop.set(true);
        processes.stopAll();
        synchronized (ledger) {
            if (!written && assembly != null) {
                try {
                    write(true);
                    context.events()
                            .note("interrupted; wrote the results of "
                                    + ledger.trials().size() + " finished trials to " + dir.results()
                                    + " (continue with --resume)");
                } catch (IOException | RuntimeException e) {
                    context.events().note("interrupted, and could not write the results: " + e);
                }
            } else if (assembly == null) {
                context.events()
                        .note("interrupted while the sides were prepared (checked out and built), before any"
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
        return assembly.results(
                ledger.snapshot(),
                interrupted,
                (System.nanoTime() - startNanos) / 1e9,
                context.clock().instant());
    }

    /**
     * Writes {@code results}: {@code results.json}, {@code comment.md}, {@code report.html}, and for
     * an A/A run that ended, {@code noise.json}.
     */
    private void save(RunResults results) throws IOException {
        WholeFile.write(dir.results(), dir.partialResults(), ResultsJson.write(results));
        Files.writeString(dir.comment(), context.comment().apply(results), StandardCharsets.UTF_8);
        Files.writeString(dir.report(), context.report().apply(results), StandardCharsets.UTF_8);
        if (results.provenance().aa() && results.partial().isEmpty()) {
            Files.writeString(
                    dir.noise(), NoiseFile.of(results).write(results.table().thresholds()), StandardCharsets.UTF_8);
        }
    }

    /** Returns the failure of a run that {@code f} stopped early: which trial failed, why, and where to look. */
    private RunFailedException stopped(TrialLoop.Failing f) {
        RunResults.TrialRecord t = f.last();
        return new RunFailedException(f.what() + ", so the run stopped there; " + shown(t)
                + "\nthe results so far are in " + dir.results() + ", and the output of " + t.named() + " in "
                + dir.trialLogs().resolve(RunDir.stem(t.seq(), t.side(), t.build())) + "*");
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
