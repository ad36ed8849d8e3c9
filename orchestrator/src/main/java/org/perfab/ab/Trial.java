package org.perfab.ab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.perfab.exec.Commands;
import org.perfab.exec.Counters;
import org.perfab.exec.Processes;
import org.perfab.failure.BadInputException;
import org.perfab.ingest.Formats;
import org.perfab.ingest.MeasurementFormat;
import org.perfab.ingest.Reading;
import org.perfab.model.Cell;
import org.perfab.model.Counted;
import org.perfab.model.Load;
import org.perfab.model.Measurement;
import org.perfab.model.RunResults;
import org.perfab.model.RunResults.Status;
import org.perfab.stats.Direction;
import org.perfab.workload.Workload;

/** The trial stage: runs one trial, the harness against one side, its output read into measurements. */
final class Trial implements TrialLoop.Runner {
    private static final int TAIL_LINES = 20;

    private final Commands processes;
    /** The harness as a whole: its settings, and its counting. */
    private final Workload.Harness harness;
    /** What each side runs of it (see {@link Slices.Sided}). */
    private final Slices.Sided sides;

    private final Path results;
    private final Path logs;
    private final Optional<Long> padding;
    private final Consumer<String> commands;
    private final String counted;
    private final Consumer<String> notes;
    /** The counter of each benchmark of the harness, when the workload counts them one at a time. */
    private final Optional<PerBenchmark> perBenchmark;
    /** The names of the cells the trials measure, when a later look measures only the undecided; empty for all. */
    private final Set<String> open;
    /** With {@code measure: auto}, the benchmarks counted in place of timing them; empty at first. */
    private final Set<String> counting;
    /** Whether the trials run the harness for its own results: false when every open benchmark is counted instead. */
    private final boolean timing;
    /** With {@code measure: auto}, the first trial (from 0) in which the benchmarks counted instead are counted. */
    private final int countFrom;
    /** How many benchmarks are counted at once: the machine's cores. */
    private final int workers;
    /** The counts of earlier runs, which a counted benchmark is taken from when they hold it. */
    private final CountCache cache;

    /**
     * A runner of {@code harness}'s trials (on each side what it runs of it), writing results into
     * {@code results} and output into
     * {@code logs}. With a {@code padding} seed, each trial's environment carries
     * {@code PERFAB_PAD} of a random length from 0 to 4095 bytes, drawn from the seed and the
     * trial's place in the order: the size of the environment moves the stack's alignment, and
     * with it timings (Mytkowicz et al., ASPLOS 2009), which a build cannot vary. {@code commands}
     * hears of each command as it starts (see {@link Events#command}), {@code notes} of what the
     * operator should know.
     *
     * @throws BadInputException when the harness's command cannot be counted a benchmark at a time
     */
    Trial(
            Commands processes,
            Slices.Sided harness,
            Path results,
            Path logs,
            Optional<Long> padding,
            Consumer<String> commands,
            Consumer<String> notes,
            String counted,
            int workers,
            CountCache cache) {
        this.workers = Math.max(1, workers);
        this.cache = cache;
        this.commands = commands;
        this.notes = notes;
        try {
            this.perBenchmark = HarnessTools.counter(harness.harness(), notes);
        } catch (IllegalArgumentException e) {
            throw new BadInputException("the workload's harness 'run': " + e.getMessage());
        }
        this.counted = counted;
        this.processes = processes;
        this.harness = harness.harness();
        this.sides = harness;
        this.results = results;
        this.logs = logs;
        this.padding = padding;
        this.open = Set.of();
        this.counting = Set.of();
        this.timing = true;
        this.countFrom = 0;
    }

    private Trial(
            Trial r, Slices.Sided harness, Set<String> open, Set<String> counting, int countFrom, boolean timing) {
        this.commands = r.commands;
        this.notes = r.notes;
        this.perBenchmark = r.perBenchmark;
        this.counted = r.counted;
        this.processes = r.processes;
        this.harness = harness.harness();
        this.sides = harness;
        this.results = r.results;
        this.logs = r.logs;
        this.padding = r.padding;
        this.open = Set.copyOf(open);
        this.counting = Set.copyOf(counting);
        this.countFrom = countFrom;
        this.timing = timing;
        this.workers = r.workers;
        this.cache = r.cache;
    }

    /**
     * Returns this runner for a later look that measures only the cells named {@code open}, with
     * {@code harness} (narrowed to them where the harness can be) in place of its own: the
     * benchmarks it counts one at a time are those cells' alone, and the sides readied for counting
     * stay ready. Empty {@code open} measures every cell. With {@code measure: auto}, the benchmarks
     * named {@code counting} are counted in the trials from trial {@code countFrom} (from 0) on, and
     * the harness runs for its own timings only when {@code timing}: a trial that does neither
     * measures nothing.
     */
    Trial narrowed(Slices.Sided harness, Set<String> open, Set<String> counting, int countFrom, boolean timing) {
        return new Trial(this, harness, open, counting, countFrom, timing);
    }

    /** Returns the length of the environment padding of the trial at {@code seq} from {@code seed}. */
    static int padding(long seed, int seq) {
        return new Random(seed * 31 + seq).nextInt(4096);
    }

    /**
     * Runs {@code slot} against {@code side} and returns its record. Every command runs with its
     * working directory in the side's own tree, where the side's code is: the harness files are
     * the head's (copied there before the build) unless the workload says {@code from: self}. A
     * failure of the harness is recorded, never thrown. A side that has none of the benchmarks the
     * harness runs (see {@link Slices.Sided}) runs nothing, and its trial measures nothing.
     */
    @Override
    public RunResults.TrialRecord run(TrialOrder.Slot slot, SideDir side) throws IOException, InterruptedException {
        Optional<Workload.Harness> own = sides.of(side.side());
        if (own.isEmpty()) {
            return ok(slot, side, 0, List.of());
        }
        Files.createDirectories(results);
        Files.createDirectories(logs);
        String stem = RunDir.stem(slot.seq(), side.side(), side.build());
        Path harnessDir = side.tree();
        Map<String, String> env = new LinkedHashMap<>(side.isolation());
        padding.ifPresent(seed -> env.put("PERFAB_PAD", "x".repeat(padding(seed, slot.seq()))));
        env.put("PERFAB_HARNESS_DIR", harnessDir.toString());
        env.put("PERFAB_TRIAL", Integer.toString(slot.trial()));
        env.put("PERFAB_WARMUP", slot.warmup() ? "1" : "0");
        Files.createDirectories(side.tmp());
        String trial = side.label() + " " + (slot.warmup() ? "warm-up " : "trial ") + (slot.trial() + 1);
        Map<String, Map<String, Double>> profiles = new LinkedHashMap<>();
        Ran ran = new Ran(
                processes,
                command -> commands.accept(trial + ": " + shell(command.argv())
                        + "  (in " + command.dir() + "; log " + command.stdout()
                        + (command.stderr().equals(command.stdout())
                                ? ""
                                : ", " + command.stderr().getFileName()) + ")"));
        double began = processes.seconds();
        RunResults.TrialRecord r = own.get().format() instanceof Workload.Timed timed
                ? timed(timed, slot, side, harnessDir, stem, env, ran, profiles)
                : harnessRun((Workload.Read) own.get().format(), slot, side, harnessDir, stem, env, ran, profiles);
        if (!profiles.isEmpty() && r.status() == Status.OK) {
            Profiles.write(Profiles.file(results, stem), profiles);
        }
        // Only now, with the output read: a tool's results may be in its standard output.
        long cut = 0;
        for (Path log : ran.logFiles) {
            cut += Processes.bound(log);
        }
        // A count is what a busy machine cannot move: the load of a counted trial says nothing of it,
        // and no trial is set aside, nor the machine called busy, for it.
        // A counted trial's time is how long it took: its counts run several at once. So is a trial of
        // measure: auto that only counts, its timings done.
        boolean counts = harness.counted() || !timing;
        double wall = counts ? processes.seconds() - began : r.wallSeconds();
        return new RunResults.TrialRecord(
                r.seq(),
                r.side(),
                r.build(),
                r.trial(),
                r.warmup(),
                r.status(),
                r.reason(),
                wall,
                r.stderrTail(),
                r.measurements(),
                ran.leftovers,
                cut,
                counts ? Optional.empty() : ran.load(),
                r.seconds(),
                r.cached());
    }

    /** Returns {@code argv} as a shell would take it back: each argument quoted when it needs to be. */
    static String shell(List<String> argv) {
        StringBuilder s = new StringBuilder();
        for (String a : argv) {
            if (s.length() > 0) {
                s.append(' ');
            }
            s.append(!a.isEmpty() && a.matches("[A-Za-z0-9_./=:,+@%^-]+") ? a : "'" + a.replace("'", "'\\''") + "'");
        }
        return s.toString();
    }

    /**
     * The commands of one trial, run one after another, and what they left: their log files
     * (bounded once the trial's output is read), the processes they left running, their loads.
     */
    private static final class Ran {
        private final Commands processes;
        private final List<Path> logFiles = new ArrayList<>();
        private final List<String> leftovers = new ArrayList<>();
        private final List<Load> loads = new ArrayList<>();
        private final Consumer<Processes.Command> starting;
        private int commands;

        Ran(Commands processes, Consumer<Processes.Command> starting) {
            this.processes = processes;
            this.starting = starting;
        }

        /** Runs {@code command} and keeps what it left; commands of one trial may run at once. */
        Processes.Outcome run(Processes.Command command) throws InterruptedException {
            synchronized (this) {
                logFiles.add(command.stdout());
                if (!command.stderr().equals(command.stdout())) {
                    logFiles.add(command.stderr());
                }
                starting.accept(command);
            }
            Processes.Outcome o = processes.run(command);
            synchronized (this) {
                commands++;
                leftovers.addAll(o.leftovers());
                o.load().ifPresent(loads::add);
            }
            return o;
        }

        /** Returns the load of the commands run together; empty when one of them had none. */
        synchronized Optional<Load> load() {
            return loads.size() == commands ? Load.combine(loads) : Optional.empty();
        }
    }

    private RunResults.TrialRecord harnessRun(
            Workload.Read read,
            TrialOrder.Slot slot,
            SideDir side,
            Path harnessDir,
            String stem,
            Map<String, String> env,
            Ran ran,
            Map<String, Map<String, Double>> profiles)
            throws IOException, InterruptedException {
        Path result = results.resolve(stem + ".json");
        Files.deleteIfExists(result);
        env.put("PERFAB_RESULT", result.toString());
        Path out = logs.resolve(stem + ".out");
        Path err = logs.resolve(stem + ".err");
        if (perBenchmark.isPresent()) {
            List<Measurement> ms = new ArrayList<>();
            double wall = 0;
            if (!harness.counted() && timing) { // the tool's own timings too
                RunResults.TrialRecord own = ownResults(read, slot, side, harnessDir, stem, env, ran, result, out, err);
                if (own.status() != Status.OK) {
                    return own;
                }
                ms.addAll(own.measurements());
                wall = own.wallSeconds();
            }
            List<String> cached = new ArrayList<>();
            Map<String, Double> countSeconds = new java.util.concurrent.ConcurrentHashMap<>();
            // measure: auto counts nothing until a look finds benchmarks its timings cannot tell.
            boolean counts = !harness.count().auto() || !counting.isEmpty() && slot.trial() >= countFrom;
            Optional<String> why = counts
                    ? countEach(perBenchmark.get(), slot, side, env, stem, ran, ms, cached, countSeconds, profiles)
                    : Optional.empty();
            if (why.isPresent()) {
                return failure(slot, side, Status.FAILED, why.get(), wall, err);
            }
            RunResults.TrialRecord r = ok(slot, side, wall, ms);
            // A counted trial's benchmarks took what counting each took: what its later shards are cut by.
            Map<String, Double> seconds = slot.warmup()
                    ? calibrate(perBenchmark.get(), slot, side, env, stem, ran)
                    : harness.counted() ? countSeconds : r.seconds();
            return new RunResults.TrialRecord(
                    r.seq(),
                    r.side(),
                    r.build(),
                    r.trial(),
                    r.warmup(),
                    r.status(),
                    r.reason(),
                    r.wallSeconds(),
                    r.stderrTail(),
                    r.measurements(),
                    r.leftovers(),
                    r.logBytesCut(),
                    r.load(),
                    seconds,
                    cached);
        }
        if (harness.counted()) {
            // The whole command counted, as one cell named by the workload: what it reports itself
            // was measured under the counter, and is not read.
            List<Measurement> ms = new ArrayList<>();
            Optional<String> why =
                    count(counted, read.run(), harnessDir, env, stem, out, err, ran, ms, slot, side, profiles);
            return why.isPresent()
                    ? failure(slot, side, Status.FAILED, "the harness " + why.get(), 0, err)
                    : ok(slot, side, 0, ms);
        }
        return ownResults(read, slot, side, harnessDir, stem, env, ran, result, out, err);
    }

    /** Runs the harness and reads the results it reports. */
    private RunResults.TrialRecord ownResults(
            Workload.Read read,
            TrialOrder.Slot slot,
            SideDir side,
            Path harnessDir,
            String stem,
            Map<String, String> env,
            Ran ran,
            Path result,
            Path out,
            Path err)
            throws IOException, InterruptedException {
        Processes.Outcome o =
                ran.run(new Processes.Command(pinned(read.run()), harnessDir, env, harness.timeout(), out, err, false));
        if (!o.succeeded()) {
            return failed(slot, side, o, "the harness " + o.failure(), err);
        }
        // The harness writes $PERFAB_RESULT; for a tool that prints its results (go test -bench,
        // cargo criterion) perfab reads its standard output instead.
        Path source = Files.exists(result) ? result : out;
        if (Files.size(source) > Processes.MAX_OUTPUT_BYTES) {
            return failure(
                    slot,
                    side,
                    Status.FAILED,
                    "the harness wrote " + Files.size(source) / (1024 * 1024)
                            + " MiB to " + (source == result ? "$PERFAB_RESULT" : "its standard output")
                            + ", more than the "
                            + Processes.MAX_OUTPUT_BYTES / (1024 * 1024) + " MiB perfab reads",
                    o.wallSeconds(),
                    err);
        }
        MeasurementFormat format = read.format();
        if (!Files.exists(result) && format == Formats.perfabJson()) {
            return failure(
                    slot,
                    side,
                    Status.FAILED,
                    "the harness wrote nothing to $PERFAB_RESULT (" + result + ")",
                    o.wallSeconds(),
                    err);
        }
        List<Reading> readings;
        try {
            readings = format.read(source);
        } catch (BadInputException | IllegalArgumentException | ArithmeticException e) {
            return failure(
                    slot,
                    side,
                    Status.FAILED,
                    "the harness output does not parse as " + format.id() + ": " + e.getMessage(),
                    o.wallSeconds(),
                    err);
        }
        if (readings.isEmpty()) {
            return failure(
                    slot,
                    side,
                    Status.FAILED,
                    "the harness reported no measurements in " + result,
                    o.wallSeconds(),
                    err);
        }
        RunResults.TrialRecord ok = ok(slot, side, o.wallSeconds(), oneValuePerCell(readings, slot, side));
        return ok.withSeconds(seconds(format, source, ok.measurements()));
    }

    /**
     * Returns how long the harness says it spent in each benchmark (see
     * {@link MeasurementFormat#seconds}), what later shards are cut by; empty when it does not say,
     * or says what is not a time: the values were read, and a time a shard's cut cannot use costs
     * the trial nothing. Only the times of benchmarks the trial measured are kept: a harness's other
     * names would only grow every results file after it.
     */
    private static Map<String, Double> seconds(MeasurementFormat format, Path source, List<Measurement> measured) {
        Map<String, Double> all;
        try {
            all = format.seconds(source);
        } catch (BadInputException | IllegalArgumentException | ArithmeticException e) {
            return Map.of();
        }
        Map<String, Double> kept = new LinkedHashMap<>();
        for (Measurement m : measured) {
            Double s = all.get(m.cell().name());
            if (s != null) {
                kept.put(m.cell().name(), s);
            }
        }
        return kept;
    }

    /**
     * Counts each benchmark of the harness per operation (see {@link PerBenchmark}) and adds their
     * cells to {@code ms}, in the benchmarks' order: the side is readied, and the benchmarks found,
     * in its first trial, warm-up or not; a warm-up counts nothing here (see {@link #calibrate}).
     * The benchmarks are counted {@link #workers} at a time: a count is what the code executed,
     * whoever else runs beside it. The cells taken from the count cache go into {@code cached}, and
     * how long counting each other benchmark took into {@code seconds}, by its cell. Returns why it
     * failed (the first benchmark to fail, or the budget passed); empty when it counted.
     */
    private Optional<String> countEach(
            PerBenchmark counter,
            TrialOrder.Slot slot,
            SideDir side,
            Map<String, String> env,
            String stem,
            Ran ran,
            List<Measurement> ms,
            List<String> cached,
            Map<String, Double> seconds,
            Map<String, Map<String, Double>> profiles)
            throws IOException, InterruptedException {
        if (!processes.has(Counters.VALGRIND)) {
            return Optional.of("the benchmarks were not counted: " + Counters.missing(Counters.VALGRIND));
        }
        String trial = side.label() + " " + (slot.warmup() ? "warm-up " : "trial ") + (slot.trial() + 1);
        long started = System.nanoTime();
        try {
            cache.open(counter, logsOf(stem + "-cache"), ran::run);
            counter.prepare(side.tree(), side.out(), env, logsOf(stem + "-prepare"), ran::run);
        } catch (PerBenchmark.Failure e) {
            return Optional.of(e.getMessage());
        }
        if (slot.warmup()) {
            return Optional.empty();
        }
        List<PerBenchmark.Benchmark> open = counter.benchmarks().stream()
                .filter(b -> (this.open.isEmpty() || this.open.contains(b.cell()))
                        && (!harness.count().auto() || counting.contains(b.cell())))
                .toList();
        Map<PerBenchmark.Benchmark, Optional<PerBenchmark.PerOp>> known = new LinkedHashMap<>();
        for (PerBenchmark.Benchmark b : open) {
            cache.get(side.tree(), slot.trial(), b).ifPresent(c -> {
                known.put(b, c.perOp());
                c.perOp().ifPresent(p -> cached.add(b.cell()));
            });
        }
        List<PerBenchmark.Benchmark> all =
                open.stream().filter(b -> !known.containsKey(b)).toList();
        int threads = Math.max(1, Math.min(workers, all.size()));
        List<Optional<PerBenchmark.PerOp>> counted;
        try {
            counted = countAll(counter, all, threads, side, env, stem, ran, seconds, started);
        } catch (PerBenchmark.Failure e) {
            return Optional.of(e.getMessage());
        }
        Map<PerBenchmark.Benchmark, Optional<PerBenchmark.PerOp>> fresh = new LinkedHashMap<>();
        for (int i = 0; i < all.size(); i++) {
            fresh.put(all.get(i), counted.get(i));
        }
        cache.put(side.tree(), slot.trial(), fresh);
        known.putAll(fresh);
        for (PerBenchmark.Benchmark b : open) {
            Optional<PerBenchmark.PerOp> p = known.get(b);
            if (p.isEmpty()) {
                continue; // a benchmark of the other side only
            }
            ms.add(measurement(
                    b.cell(),
                    Counted.INSTRUCTIONS_PER_OP,
                    "instructions",
                    p.get().instructions(),
                    slot,
                    side));
            ms.add(measurement(
                    b.cell(), Counted.ESTIMATED_CYCLES_PER_OP, "cycles", p.get().estimatedCycles(), slot, side));
            profiles.put(b.cell(), asInTheTree(p.get().byFunction(), side));
        }
        notes.accept(
                all.isEmpty()
                        ? String.format(
                                Locale.ROOT,
                                "%s: %d benchmark%s from the count cache, none counted",
                                trial,
                                cached.size(),
                                cached.size() == 1 ? "" : "s")
                        : String.format(
                                Locale.ROOT,
                                "%s: counted %d benchmark%s in %.0f s, %d at a time%s",
                                trial,
                                all.size(),
                                all.size() == 1 ? "" : "s",
                                (System.nanoTime() - started) / 1e9,
                                threads,
                                cached.isEmpty() ? "" : "; " + cached.size() + " from the count cache"));
        return Optional.empty();
    }

    /**
     * Counts {@code all} the benchmarks on {@code side}, {@code threads} at a time, and returns each
     * one's count by its place (empty where the side has no such benchmark); how long counting each
     * took goes into {@code seconds}, by its cell. Counting stops at the first benchmark that fails,
     * or once it has taken longer than the harness's {@code count.budget} since {@code started}
     * ({@link System#nanoTime}) with benchmarks left.
     *
     * @throws PerBenchmark.Failure saying why counting stopped
     */
    private List<Optional<PerBenchmark.PerOp>> countAll(
            PerBenchmark counter,
            List<PerBenchmark.Benchmark> all,
            int threads,
            SideDir side,
            Map<String, String> env,
            String stem,
            Ran ran,
            Map<String, Double> seconds,
            long started)
            throws PerBenchmark.Failure, IOException, InterruptedException {
        Optional<Duration> budget = harness.count().budget();
        List<Optional<PerBenchmark.PerOp>> counted = new ArrayList<>(Collections.nCopies(all.size(), null));
        AtomicInteger next = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        AtomicReference<String> why = new AtomicReference<>();
        AtomicReference<Exception> thrown = new AtomicReference<>();
        Runnable worker = () -> {
            for (int i = next.getAndIncrement();
                    i < all.size() && why.get() == null && thrown.get() == null;
                    i = next.getAndIncrement()) {
                PerBenchmark.Benchmark b = all.get(i);
                String file = stem + "-" + i + "-" + safe(b.cell());
                try {
                    Path counts = Files.createDirectories(results.resolve(file + ".cachegrind"));
                    Path vlogs = Files.createDirectories(logs.resolve(file + ".valgrind"));
                    double from = processes.seconds();
                    Optional<PerBenchmark.PerOp> perOp =
                            counter.count(b, side.tree(), env, counts, vlogs, logsOf(file), ran::run);
                    counted.set(i, perOp);
                    if (perOp.isPresent()) {
                        seconds.put(b.cell(), processes.seconds() - from);
                    }
                } catch (PerBenchmark.Failure e) {
                    why.compareAndSet(null, e.getMessage());
                    return;
                } catch (IOException | InterruptedException | RuntimeException e) {
                    thrown.compareAndSet(null, e);
                    return;
                }
                int n = done.incrementAndGet();
                double spent = (System.nanoTime() - started) / 1e9;
                if (budget.isPresent() && spent > budget.get().toMillis() / 1000.0 && n < all.size()) {
                    why.compareAndSet(
                            null,
                            String.format(
                                    Locale.ROOT,
                                    "counting took %.0f s, past count.budget (%s),"
                                            + " with %d of %d benchmarks counted: choose fewer with count.benchmarks, or give it more",
                                    spent,
                                    budget.get().toString().substring(2).toLowerCase(Locale.ROOT),
                                    n,
                                    all.size()));
                }
            }
        };
        List<Thread> pool = new ArrayList<>();
        for (int t = 1; t < threads; t++) {
            Thread th = new Thread(worker, "perfab-count-" + t);
            th.start();
            pool.add(th);
        }
        worker.run();
        for (Thread th : pool) {
            th.join();
        }
        if (thrown.get() instanceof IOException e) {
            throw e;
        } else if (thrown.get() instanceof InterruptedException e) {
            throw e;
        } else if (thrown.get() instanceof RuntimeException e) {
            throw e;
        }
        if (why.get() != null) {
            throw new PerBenchmark.Failure(why.get());
        }
        return counted;
    }

    /**
     * Counts one benchmark in a warm-up, once the side is readied, and returns how long counting it
     * took, by its cell's name: what prices a counted trial before the first (see
     * {@link Rounds#estimate}). The warm-ups take the benchmarks in turn, by their place in the order.
     * The count enters no result and no cache, and one that fails prices nothing: the trials that
     * count the benchmark say why. Empty when no benchmark is known yet, or the side has not this one.
     */
    private Map<String, Double> calibrate(
            PerBenchmark counter, TrialOrder.Slot slot, SideDir side, Map<String, String> env, String stem, Ran ran)
            throws IOException, InterruptedException {
        List<PerBenchmark.Benchmark> all = counter.benchmarks();
        if (all.isEmpty()) {
            return Map.of();
        }
        PerBenchmark.Benchmark b = all.get(slot.seq() % all.size());
        String file = stem + "-calibrate-" + safe(b.cell());
        Path counts = Files.createDirectories(results.resolve(file + ".cachegrind"));
        Path vlogs = Files.createDirectories(logs.resolve(file + ".valgrind"));
        double began = processes.seconds();
        try {
            if (counter.count(b, side.tree(), env, counts, vlogs, logsOf(file), ran::run)
                    .isEmpty()) {
                return Map.of();
            }
        } catch (PerBenchmark.Failure e) {
            return Map.of();
        }
        return Map.of(b.cell(), processes.seconds() - began);
    }

    @Override
    public double seconds() {
        return processes.seconds();
    }

    /** Returns how a trial counts the benchmarks of the cells it measures, once they are known. */
    @Override
    public Optional<Rounds.Counted> counted() {
        return perBenchmark
                .map(c -> c.benchmarks().stream()
                        .filter(b -> (open.isEmpty() || open.contains(b.cell()))
                                && (!harness.count().auto() || counting.contains(b.cell())))
                        .count())
                .filter(n -> n > 0)
                .map(n -> new Rounds.Counted(n.intValue(), workers, !harness.counted()));
    }

    /**
     * Returns counts by function ({@code FILE:FUNCTION}) with each file named as in the side's tree
     * or build folder, so that both sides name a function alike.
     */
    private static Map<String, Double> asInTheTree(Map<String, ? extends Number> byFunction, SideDir side) {
        String tree = side.tree().toAbsolutePath() + "/";
        String built = side.out().toAbsolutePath() + "/";
        Map<String, Double> named = new LinkedHashMap<>();
        byFunction.forEach((f, n) -> named.merge(f.replace(tree, "").replace(built, ""), n.doubleValue(), Double::sum));
        return named;
    }

    /** Returns where the commands of a part of a trial write their output: {@code STEM-PART.out} and {@code .err}. */
    private PerBenchmark.Logs logsOf(String stem) {
        return new PerBenchmark.Logs() {
            @Override
            public Path out(String part) {
                return logs.resolve(stem + "-" + part + ".out");
            }

            @Override
            public Path err(String part) {
                return logs.resolve(stem + "-" + part + ".err");
            }
        };
    }

    private RunResults.TrialRecord timed(
            Workload.Timed timed,
            TrialOrder.Slot slot,
            SideDir side,
            Path harnessDir,
            String stem,
            Map<String, String> env,
            Ran ran,
            Map<String, Map<String, Double>> profiles)
            throws IOException, InterruptedException {
        List<Measurement> ms = new ArrayList<>();
        double wall = 0;
        int i = 0;
        for (Map.Entry<String, List<String>> c : timed.commands().entrySet()) {
            String name = c.getKey();
            String file = stem + "-" + i++ + "-" + safe(name);
            Path out = logs.resolve(file + ".out");
            Path err = logs.resolve(file + ".err");
            List<Workload.Measure> m = harness.measure();
            if (m.contains(Workload.Measure.WALL)
                    || m.contains(Workload.Measure.CPU)
                    || m.contains(Workload.Measure.MAXRSS)) {
                Processes.Outcome o = ran.run(new Processes.Command(
                        pinned(c.getValue()), harnessDir, env, harness.timeout(), out, err, true));
                wall += o.wallSeconds();
                if (!o.succeeded()) {
                    return failed(slot, side, o, "command '" + name + "' " + o.failure(), err);
                }
                if (m.contains(Workload.Measure.WALL)) {
                    ms.add(measurement(name, "wall", "s", o.wallSeconds(), slot, side));
                }
                if (m.contains(Workload.Measure.CPU) && o.cpuSeconds().isPresent()) {
                    ms.add(measurement(name, "cpu", "s", o.cpuSeconds().getAsDouble(), slot, side));
                }
                if (m.contains(Workload.Measure.MAXRSS) && o.peakRssKiB().isPresent()) {
                    ms.add(measurement(name, "maxrss", "KiB", o.peakRssKiB().getAsLong(), slot, side));
                }
            }
            Optional<String> why =
                    count(name, c.getValue(), harnessDir, env, file, out, err, ran, ms, slot, side, profiles);
            if (why.isPresent()) {
                return failure(slot, side, Status.FAILED, "command '" + name + "' " + why.get(), wall, err);
            }
        }
        return ok(slot, side, wall, ms);
    }

    /**
     * Runs {@code argv} once under each counter the workload measures (Cachegrind for
     * {@code instructions}, {@code perf stat} for the CPU's counters) and adds the cell
     * {@code name}'s counts to {@code ms}. Returns why it failed, for a failed trial; empty when it
     * counted, or measures no count. A count is never 0 for a command that did not run under its
     * counter: a missing program, a command the counter could not run, or one that exited non-zero
     * under it fails the trial.
     */
    private Optional<String> count(
            String name,
            List<String> argv,
            Path harnessDir,
            Map<String, String> env,
            String file,
            Path out,
            Path err,
            Ran ran,
            List<Measurement> ms,
            TrialOrder.Slot slot,
            SideDir side,
            Map<String, Map<String, Double>> profiles)
            throws IOException, InterruptedException {
        List<Workload.Measure> m = harness.measure();
        if (m.contains(Workload.Measure.INSTRUCTIONS)) {
            if (!processes.has(Counters.VALGRIND)) {
                return Optional.of("was not counted: " + Counters.missing(Counters.VALGRIND));
            }
            // Valgrind's files go beside the trial's results and logs, never into the side's tree.
            Path counts = Files.createDirectories(results.resolve(file + ".cachegrind"));
            Path vlogs = Files.createDirectories(logs.resolve(file + ".valgrind"));
            Processes.Outcome o = ran.run(new Processes.Command(
                    pinned(Counters.cachegrind(counts, vlogs, argv)),
                    harnessDir,
                    env,
                    harness.timeout(),
                    out,
                    err,
                    false));
            if (!o.succeeded()) {
                return Optional.of(o.failure() + " under Valgrind"
                        + Counters.why(vlogs).map(w -> ": " + w).orElse(""));
            }
            Counters.Counted c;
            try {
                c = Counters.read(counts);
            } catch (IOException e) {
                return Optional.of("was not counted: " + e.getMessage()
                        + Counters.why(vlogs).map(w -> " (" + w + ")").orElse(""));
            }
            ms.add(measurement(name, Counted.INSTRUCTIONS, "instructions", c.instructions(), slot, side));
            profiles.put(name, asInTheTree(c.byFunction(), side));
            ms.add(measurement(name, Counted.ESTIMATED_CYCLES, "cycles", c.estimatedCycles(), slot, side));
        }
        if (m.stream().anyMatch(Workload.Measure::hardware)) {
            if (!processes.has(Counters.PERF)) {
                return Optional.of("was not counted: " + Counters.missing(Counters.PERF));
            }
            Path counts = results.resolve(file + ".perf.csv");
            Processes.Outcome o = ran.run(new Processes.Command(
                    pinned(Counters.perfStat(counts, argv)), harnessDir, env, harness.timeout(), out, err, false));
            if (!o.succeeded()) {
                return Optional.of(o.failure() + " under perf stat");
            }
            Map<String, Long> read;
            try {
                read = Counters.readPerf(counts);
            } catch (IOException e) {
                return Optional.of("was not counted: " + e.getMessage());
            }
            if (m.contains(Workload.Measure.HW_INSTRUCTIONS) && read.containsKey("instructions")) {
                ms.add(measurement(
                        name, Counted.HW_INSTRUCTIONS, "instructions", read.get("instructions"), slot, side));
            }
            if (m.contains(Workload.Measure.HW_CYCLES) && read.containsKey("cycles")) {
                ms.add(measurement(name, Counted.HW_CYCLES, "cycles", read.get("cycles"), slot, side));
            }
        }
        return Optional.empty();
    }

    private static Measurement measurement(
            String name, String metric, String unit, double value, TrialOrder.Slot slot, SideDir side) {
        return new Measurement(
                new Cell(name, metric, unit, Direction.LOWER_IS_BETTER),
                side.side(),
                side.build(),
                slot.trial(),
                value);
    }

    /**
     * Returns one measurement per cell: a cell the harness reported several times in one trial
     * (iterations, repetitions) is one value, their mean. One trial is the unit of replication;
     * counting a trial's repetitions as trials would make every p-value too small.
     */
    static List<Measurement> oneValuePerCell(List<Reading> readings, TrialOrder.Slot slot, SideDir side) {
        Map<Cell, double[]> sums = new LinkedHashMap<>();
        for (Reading r : readings) {
            double[] s = sums.computeIfAbsent(r.cell(), k -> new double[2]);
            s[0] += r.value();
            s[1]++;
        }
        List<Measurement> ms = new ArrayList<>();
        sums.forEach((cell, s) -> ms.add(new Measurement(cell, side.side(), side.build(), slot.trial(), s[0] / s[1])));
        return ms;
    }

    private RunResults.TrialRecord failed(
            TrialOrder.Slot slot, SideDir side, Processes.Outcome o, String reason, Path err) {
        if (o.stopped()) {
            return failure(slot, side, Status.INTERRUPTED, "stopped by perfab", o.wallSeconds(), err);
        }
        return failure(
                slot,
                side,
                o.timedOut() ? Status.TIMEOUT : Status.FAILED,
                reason + (o.timedOut() ? " after " + harness.timeout().toSeconds() + " s" : ""),
                o.wallSeconds(),
                err);
    }

    private static RunResults.TrialRecord failure(
            TrialOrder.Slot slot, SideDir side, Status status, String reason, double wall, Path err) {
        return new RunResults.TrialRecord(
                slot.seq(),
                side.side(),
                side.build(),
                slot.trial(),
                slot.warmup(),
                status,
                reason,
                wall,
                Processes.tail(err, TAIL_LINES),
                List.of());
    }

    private static RunResults.TrialRecord ok(TrialOrder.Slot slot, SideDir side, double wall, List<Measurement> ms) {
        return new RunResults.TrialRecord(
                slot.seq(), side.side(), side.build(), slot.trial(), slot.warmup(), Status.OK, "", wall, "", ms);
    }

    /**
     * Returns {@code argv} run under {@code taskset -c CPUS} when the workload pins trials. On a
     * shared machine the CPUs are rarely equal (one may share its core with a busy neighbour), and
     * a trial the scheduler happens to place on the slow one would measure the placement.
     */
    private List<String> pinned(List<String> argv) {
        if (harness.cpus().isEmpty()) {
            return argv;
        }
        List<String> pinned =
                new ArrayList<>(List.of("taskset", "-c", harness.cpus().get()));
        pinned.addAll(argv);
        return pinned;
    }

    /** Returns {@code name} as a short part of a file name: a command's name is the workload's to choose. */
    private static String safe(String name) {
        String s = name.replaceAll("[^A-Za-z0-9._-]", "_");
        return s.length() > 40 ? s.substring(0, 40) : s;
    }
}
