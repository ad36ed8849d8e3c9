package org.perfab.ab;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.perfab.exec.Processes;
import org.perfab.failure.BadInputException;
import org.perfab.failure.RunFailedException;
import org.perfab.git.Commit;
import org.perfab.git.GitRepo;
import org.perfab.model.Cell;
import org.perfab.model.CellUnits;
import org.perfab.model.ComparisonTable;
import org.perfab.model.Measurement;
import org.perfab.model.ResultsJson;
import org.perfab.model.RunResults;
import org.perfab.model.Side;
import org.perfab.model.Warning;
import org.perfab.report.Format;
import org.perfab.report.Report;
import org.perfab.stats.Thresholds;
import org.perfab.stats.Verdict;
import org.perfab.workload.Workload;
import org.perfab.workload.WorkloadLoader;

/** One same-runner A/B run, from refs to {@code results.json}. */
public final class AbRun {
    /** The workload path in the head's tree when none is given. */
    public static final String DEFAULT_WORKLOAD = "perfab.yaml";

    /**
     * What to run.
     *
     * @param repository the git repository
     * @param base the base ref as typed; the baseline is merge-base(base, head)
     * @param head the head ref as typed
     * @param workload the workload file's path in the head's tree
     * @param trials counted trials per side; empty for the workload's number
     * @param builds builds per side, at least 1
     * @param out the folder the run writes into
     * @param cache a folder of reusable builds; empty for none
     * @param seed a seed that shuffles each pair's order; empty for alternation
     * @param overrides verdict settings from the command line; each wins over the workload's
     * @param resume whether to continue the run already in {@code out}
     * @param force whether to write into an {@code out} that holds files perfab did not write
     *     (beside them, never over them)
     * @param failOn the verdicts that fail the job; empty for an advisory run
     */
    public record Request(Path repository, String base, String head, String workload, Optional<Integer> trials,
            int builds, Path out, Optional<Path> cache, Optional<Long> seed,
            Workload.ThresholdSettings overrides, boolean resume, boolean force, List<Verdict> failOn) {
        public Request {
            failOn = List.copyOf(failOn);
            Objects.requireNonNull(out, "out");
            Objects.requireNonNull(workload, "workload");
            if (builds < 1 || builds > Workload.MAX_BUILDS) {
                throw new BadInputException("--builds must be from 1 to " + Workload.MAX_BUILDS + ", got " + builds);
            }
            trials.ifPresent(AbRun::checkTrials);
        }
    }

    private static void checkTrials(int n) {
        if (n < 2 || n > Workload.MAX_TRIALS) {
            throw new BadInputException("--trials must be from 2 to " + Workload.MAX_TRIALS + ", got " + n);
        }
    }

    /**
     * Where the run talks to.
     *
     * @param err progress and notes
     * @param env the environment perfab runs in (for the CI runner's name)
     * @param terminal whether {@code err} is a terminal, for the live progress line
     * @param clock the wall clock for timestamps
     */
    public record Context(PrintStream err, Map<String, String> env, boolean terminal, Clock clock) {
    }

    private final Request request;
    private final Context context;
    private final Processes processes = new Processes();
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final Object lock = new Object();
    private final List<RunResults.TrialRecord> trials = new ArrayList<>();
    private final Map<SideDir, Builder.Result> builds = new HashMap<>();
    private RunDir dir;
    private Plan plan;
    private Workload workload;
    private HarnessFiles harnessFiles = HarnessFiles.NONE;
    private List<Path> sharedPrograms = List.of();
    private final List<Warning> buildWarnings = new ArrayList<>();
    private RunResults.Machine machine;
    private long startNanos;
    private double checkoutSeconds;
    private double buildSeconds;
    private double trialSeconds;
    private boolean written;

    private AbRun(Request request, Context context) {
        // Absolute: builds and harnesses run in the checkouts, where a relative path would point
        // somewhere else.
        this.request = new Request(request.repository(), request.base(), request.head(), request.workload(),
                request.trials(), request.builds(), request.out().toAbsolutePath().normalize(),
                request.cache().map(c -> c.toAbsolutePath().normalize()), request.seed(), request.overrides(),
                request.resume(), request.force(), request.failOn());
        this.context = context;
    }

    /**
     * Runs the A/B and returns its results, already written to {@code results.json} and
     * {@code comment.md} in the request's folder.
     *
     * @throws BadInputException for an unknown ref, a missing or bad workload, a folder that
     *     already holds another run
     * @throws RunFailedException when a build fails, or every trial of a side failed (the results
     *     are written first)
     */
    public static RunResults run(Request request, Context context) throws IOException, InterruptedException {
        AbRun run = new AbRun(request, context);
        checkCache(run.request.cache());
        try (RunDir dir = request.resume() ? RunDir.resume(run.request.out())
                : RunDir.create(run.request.out(), request.force())) {
            run.dir = dir;
            return run.run();
        }
    }

    private static void checkCache(Optional<Path> cache) {
        if (cache.isPresent() && Files.exists(cache.get()) && !Files.isDirectory(cache.get())) {
            throw new BadInputException("--cache " + cache.get() + " is a file, not a folder");
        }
    }

    private RunResults run() throws IOException, InterruptedException {
        startNanos = System.nanoTime();
        plan = request.resume() ? resumePlan() : newPlan();
        workload = plan.workload();
        machine = MachineProbe.probe(context.env());
        Thread hook = new Thread(this::interrupted, "perfab-interrupt");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            if (request.resume()) {
                trials.addAll(TrialLog.recover(dir.trials()));
            }
            prepareSides();
            if (!plan.mergeBase().tree().equals(plan.head().tree())) {
                sharedPrograms = Programs.shared(workload.harness().argvs(), dir.side(Side.BASE, 0).tree(),
                        dir.side(Side.HEAD, 0).tree(), context.env().get("PATH"));
            }
            runTrials();
            RunResults results;
            synchronized (lock) {
                if (stopping.get()) {
                    throw new RunFailedException("interrupted; the results so far are in " + dir.results());
                }
                results = write(false);
            }
            failIfASideHasNoData(results);
            return results;
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook is running and writes the results
            }
        }
    }

    private Plan newPlan() throws IOException {
        Instant started = context.clock().instant();
        try (GitRepo git = GitRepo.open(request.repository())) {
            Commit baseTip = git.resolve(request.base());
            Commit head = git.resolve(request.head());
            Commit mergeBase = git.mergeBase(baseTip, head);
            String shown = request.workload() + " at " + request.head() + " (" + head.shortId() + ")";
            byte[] yaml = git.read(head, request.workload()).orElseThrow(() -> new BadInputException(
                    "no workload file: " + shown + " does not exist (give its path with --workload)"));
            Workload w = WorkloadLoader.parse(new String(yaml, StandardCharsets.UTF_8), shown);
            int trialCount = request.trials().orElse(w.trials());
            checkTrials(trialCount);
            Plan p = new Plan(request.repository().toString(), baseTip, head, mergeBase, request.workload(),
                    new String(yaml, StandardCharsets.UTF_8), trialCount, w.warmup(), request.builds(),
                    request.seed(), thresholds(w), started);
            p.write(dir.plan());
            return p;
        }
    }

    private Plan resumePlan() {
        Plan p = Plan.read(dir.plan());
        context.err().println("perfab: resuming the run in " + dir.root() + " (" + p.head().typed() + " against "
                + p.baseTip().typed() + ")");
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

    /**
     * Checks out and builds every side that has no finished build yet. With the head's harness,
     * the head's harness files are copied into each base checkout before it is built.
     */
    private void prepareSides() throws IOException, InterruptedException {
        Builder builder = new Builder(processes, request.cache(), dir.logs(), w -> {
            note("the cached build " + w.subjects().get(0) + " does not match the digest stored with it (it was"
                    + " damaged or edited), so " + w.subjects().get(1) + " was built again and the entry replaced");
            synchronized (lock) {
                buildWarnings.add(w);
            }
        });
        try (GitRepo git = GitRepo.open(Path.of(plan.repository()))) {
            harnessFiles = HarnessFiles.of(workload.harness(), plan.workloadPath(), git.files(plan.head()),
                    git.files(plan.mergeBase()));
            noteHarnessFiles();
            for (Side side : Side.values()) {
                Commit commit = side == Side.BASE ? plan.mergeBase() : plan.head();
                List<GitRepo.Entry> copies = side == Side.BASE ? harnessFiles.copies() : List.of();
                for (int b = 0; b < plan.builds(); b++) {
                    SideDir sideDir = dir.side(side, b);
                    Optional<Builder.Result> done = Builder.recorded(sideDir);
                    if (done.isPresent() && Files.isDirectory(sideDir.tree())) {
                        synchronized (lock) {
                            builds.put(sideDir, done.get());
                        }
                        continue;
                    }
                    dir.delete(dir.root().relativize(sideDir.root()).toString());
                    long t0 = System.nanoTime();
                    git.checkout(commit, sideDir.tree());
                    git.overlay(plan.head(), copies, sideDir.tree());
                    Map<String, Trees.Stamp> snapshot = Trees.snapshot(sideDir.tree());
                    long t1 = System.nanoTime();
                    checkoutSeconds += (t1 - t0) / 1e9;
                    if (workload.build().isPresent()) {
                        note("building " + sideDir.label() + " (" + commit.shortId() + ")");
                    }
                    Builder.Result r = builder.build(sideDir, Builder.sources(commit, copies), workload.build(), snapshot);
                    buildSeconds += (System.nanoTime() - t1) / 1e9;
                    if (r.cached()) {
                        note(String.format(java.util.Locale.ROOT,
                                "%s: build taken from the cache in %.1f s (it took %.1f s to build)",
                                sideDir.label(), r.seconds(), r.savedSeconds()));
                    }
                    synchronized (lock) {
                        builds.put(sideDir, r);
                    }
                }
            }
        }
    }

    private void noteHarnessFiles() {
        List<String> changed = new ArrayList<>();
        for (RunResults.HarnessFile f : harnessFiles.files()) {
            if (f.state() != RunResults.HarnessFile.State.SAME) {
                changed.add(f.path() + " (" + f.state().id() + ")");
            }
        }
        if (!changed.isEmpty()) {
            note("the base runs the head's harness: copied " + String.join(", ", changed.subList(0,
                    Math.min(8, changed.size()))) + (changed.size() > 8 ? " and " + (changed.size() - 8) + " more" : "")
                    + " into its tree");
        }
    }

    private void runTrials() throws IOException, InterruptedException {
        TrialOrder order = plan.order();
        Set<Integer> done = new HashSet<>();
        for (RunResults.TrialRecord t : trials) {
            done.add(t.seq());
        }
        TrialRunner runner = new TrialRunner(processes, workload.harness(), dir.trialResults(), dir.trialLogs());
        Progress progress = new Progress(context.err(), context.terminal(), order.size());
        try (TrialLog log = TrialLog.open(dir.trials())) {
            for (TrialOrder.Slot slot : order) {
                if (done.contains(slot.seq())) {
                    continue;
                }
                SideDir side = dir.side(slot.side(), slot.build());
                int ofSide = slot.warmup() ? plan.warmup() : plan.trials();
                progress.starting(slot, ofSide);
                long t0 = System.nanoTime();
                RunResults.TrialRecord record = runner.run(slot, side);
                synchronized (lock) {
                    if (stopping.get()) {
                        return; // killed by the interrupt: not a result of the code under test
                    }
                    trialSeconds += (System.nanoTime() - t0) / 1e9;
                    log.append(record);
                    trials.add(record);
                }
                progress.finished(slot, ofSide, record.wallSeconds(),
                        record.status() == RunResults.Status.OK ? "ok" : record.status().id() + ": " + record.reason());
            }
        }
    }

    /** Runs on SIGINT or SIGTERM: stops the trial running and writes what exists. */
    private void interrupted() {
        stopping.set(true);
        processes.stopAll();
        synchronized (lock) {
            if (!written && plan != null) {
                try {
                    write(true);
                    context.err().println("\nperfab: interrupted; wrote the results of " + trials.size()
                            + " finished trials to " + dir.results()
                            + " (continue with --resume)");
                } catch (IOException | RuntimeException e) {
                    context.err().println("perfab: interrupted, and could not write the results: " + e);
                }
            }
        }
    }

    /**
     * Writes {@code results.json}, {@code comment.md} and {@code report.html} from the trials so
     * far. Holds the lock.
     */
    private RunResults write(boolean interrupted) throws IOException {
        RunResults results = assemble(interrupted);
        Path tmp = dir.partialResults();
        Files.writeString(tmp, ResultsJson.write(results), StandardCharsets.UTF_8);
        Files.move(tmp, dir.results(), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        Files.writeString(dir.comment(),
                Format.MARKDOWN.renderer().render(Report.of(results)), StandardCharsets.UTF_8);
        Files.writeString(dir.report(),
                Format.HTML.renderer().render(Report.of(results)), StandardCharsets.UTF_8);
        written = true;
        return results;
    }

    private RunResults assemble(boolean interrupted) {
        List<Warning> unitWarnings = new ArrayList<>();
        List<RunResults.TrialRecord> fitted = oneUnitPerCell(trials, unitWarnings);
        List<Measurement> measurements = RunResults.counted(fitted);
        String baseLabel = "merge-base of " + plan.baseTip().typed() + " and " + plan.head().typed() + " ("
                + plan.mergeBase().shortId() + ")";
        String headLabel = plan.head().typed() + " (" + plan.head().shortId() + ")";
        ComparisonTable table = ComparisonTable.of(baseLabel, headLabel, measurements, plan.thresholds(),
                workload::isProfile).withWarnings(warnings(interrupted)).withWarnings(unitWarnings);
        Workload.Harness h = workload.harness();
        RunResults.Settings settings = new RunResults.Settings(plan.workloadPath(), plan.trials(), plan.warmup(),
                plan.builds(), h.from().name().toLowerCase(java.util.Locale.ROOT), h.format(), plan.seed(),
                workload.cells().stream().filter(c -> c.role() == Workload.Role.PROFILE)
                        .map(c -> c.match().toString()).toList(), harnessFiles.files(), request.failOn());
        RunResults.Provenance provenance = new RunResults.Provenance(plan.repository(),
                new RunResults.Ref(plan.baseTip().typed(), plan.baseTip().id()),
                new RunResults.Ref(plan.head().typed(), plan.head().id()), plan.mergeBase().id(),
                plan.mergeBase().tree(), plan.head().tree(), plan.aa());
        RunResults.Timing timing = new RunResults.Timing((System.nanoTime() - startNanos) / 1e9, checkoutSeconds,
                buildSeconds, trialSeconds);
        return new RunResults(workload.name(), provenance, machine, settings, plan.startedAt(),
                Optional.of(context.clock().instant()), interrupted, timing, fitted, table);
    }

    /**
     * Returns {@code trials} with every cell in the unit it was first seen in (see
     * {@link CellUnits}): a value in another unit of the same kind is converted (a pull request
     * that changes a benchmark's output unit from us to ns); one that cannot be converted is left
     * out, with a warning.
     */
    static List<RunResults.TrialRecord> oneUnitPerCell(List<RunResults.TrialRecord> trials, List<Warning> warnings) {
        CellUnits units = new CellUnits();
        Map<List<String>, Long> dropped = new LinkedHashMap<>();
        List<RunResults.TrialRecord> out = new ArrayList<>(trials.size());
        for (RunResults.TrialRecord t : trials) {
            List<Measurement> fitted = new ArrayList<>(t.measurements().size());
            for (Measurement m : t.measurements()) {
                OptionalDouble v = units.fit(m.cell(), m.value());
                Cell first = units.first(m.cell().id());
                if (v.isPresent()) {
                    fitted.add(first.equals(m.cell()) ? m
                            : new Measurement(first, m.side(), m.build(), m.trial(), v.getAsDouble()));
                } else if (!t.warmup()) {
                    dropped.merge(List.of(m.cell().name(), m.cell().metric(), m.cell().unit(), first.unit()), 1L,
                            Long::sum);
                }
            }
            out.add(new RunResults.TrialRecord(t.seq(), t.side(), t.build(), t.trial(), t.warmup(), t.status(),
                    t.reason(), t.wallSeconds(), t.stderrTail(), fitted, t.leftovers(), t.logBytesCut()));
        }
        dropped.forEach((about, n) -> warnings.add(Warning.of(Warning.Kind.UNCONVERTIBLE_UNITS, about,
                Map.of("values", n))));
        return out;
    }

    private List<Warning> warnings(boolean interrupted) {
        List<Warning> warnings = new ArrayList<>();
        if (plan.aa()) {
            warnings.add(Warning.of(Warning.Kind.AA_RUN, plan.head().shortId()));
        } else if (plan.mergeBase().tree().equals(plan.head().tree())) {
            warnings.add(Warning.of(Warning.Kind.SAME_SOURCES, plan.head().tree().substring(0, 12)));
        } else if (harnessFiles.erasesTheChange()) {
            warnings.add(Warning.of(Warning.Kind.HARNESS_IS_THE_CHANGE, harnessFiles.files().stream()
                    .filter(f -> f.state() != RunResults.HarnessFile.State.SAME).map(RunResults.HarnessFile::path)
                    .toList(), Map.of()));
        } else {
            List<String> identical = new ArrayList<>();
            long files = 0;
            for (int b = 0; b < plan.builds(); b++) {
                Builder.Result base = builds.get(dir.side(Side.BASE, b));
                Builder.Result head = builds.get(dir.side(Side.HEAD, b));
                if (base != null && head != null && workload.build().isPresent() && base.outputs().files() > 0
                        && base.outputs().equals(head.outputs())) {
                    identical.add(Integer.toString(b));
                    files = Math.max(files, base.outputs().files());
                }
            }
            if (!identical.isEmpty()) {
                warnings.add(Warning.of(Warning.Kind.IDENTICAL_BUILDS, identical, Map.of("files", files)));
            }
        }
        warnings.addAll(buildWarnings);
        if (!sharedPrograms.isEmpty()) {
            warnings.add(Warning.of(Warning.Kind.SHARED_PROGRAMS,
                    sharedPrograms.stream().map(Path::toString).toList(), Map.of()));
        }
        Map<Side, Integer> ok = new EnumMap<>(Side.class);
        List<String> failures = new ArrayList<>();
        List<String> leftovers = new ArrayList<>();
        for (RunResults.TrialRecord t : trials) {
            String which = t.side().id() + (t.warmup() ? " warm-up " : " trial ") + (t.trial() + 1) + ": ";
            if (t.status() == RunResults.Status.OK) {
                if (!t.warmup()) {
                    ok.merge(t.side(), 1, Integer::sum);
                }
            } else {
                failures.add(which + t.reason());
            }
            if (!t.leftovers().isEmpty()) {
                leftovers.add(which + String.join(", ", t.leftovers()));
            }
        }
        if (!leftovers.isEmpty()) {
            warnings.add(Warning.of(Warning.Kind.LEFTOVER_PROCESSES, leftovers, Map.of()));
        }
        if (!failures.isEmpty()) {
            warnings.add(Warning.of(Warning.Kind.FAILED_TRIALS, failures, Map.of("trials", (long) trials.size())));
        }
        for (Side side : Side.values()) {
            int n = ok.getOrDefault(side, 0);
            if (n < plan.trials()) {
                warnings.add(Warning.of(Warning.Kind.MISSING_TRIALS, List.of(side.id()), Map.of("measured", (long) n,
                        "asked", (long) plan.trials(), "interrupted", interrupted ? 1L : 0L)));
            }
        }
        return warnings;
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
                        + (last == null ? "" : "; the last: " + last.reason()
                                + (last.stderrTail().isEmpty() ? "" : "\n    " + last.stderrTail().replace("\n", "\n    ")))
                        + "\nthe results so far are in " + dir.results());
            }
        }
    }

    private void note(String message) {
        context.err().println("perfab: " + message);
    }
}
