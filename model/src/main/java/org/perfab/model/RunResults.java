package org.perfab.model;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeMap;
import org.perfab.stats.Sequential;
import org.perfab.stats.Verdict;

/**
 * Everything one A/B run produced: where its sides came from, the machine, the settings, every
 * trial and measurement, and the classified table. Written as {@code results.json}.
 *
 * @param name the workload's name
 * @param provenance the refs and commits compared
 * @param machine what ran the trials
 * @param settings how the run was set up
 * @param startedAt when the run began
 * @param finishedAt when it ended; empty while running: results written after a look of adaptive
 *     trials, while later looks run (see {@link #partial})
 * @param interrupted whether it was stopped before its last trial
 * @param trials every trial, warm-ups and failures included, in the order run
 * @param timing where the run's time went
 * @param table the classified cells and the run's warnings
 * @param sharding for a run of one shard of a suite, or shards merged, which benchmarks each
 *     shard measured; empty for a run of the whole suite
 */
public record RunResults(
        String name,
        Provenance provenance,
        Machine machine,
        Settings settings,
        Instant startedAt,
        Optional<Instant> finishedAt,
        boolean interrupted,
        Timing timing,
        List<TrialRecord> trials,
        ComparisonTable table,
        Optional<Sharding> sharding) {

    public RunResults {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(provenance, "provenance");
        Objects.requireNonNull(machine, "machine");
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(finishedAt, "finishedAt");
        Objects.requireNonNull(timing, "timing");
        trials = List.copyOf(trials);
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(sharding, "sharding");
    }

    /** A run of the whole suite: no shards. */
    public RunResults(
            String name,
            Provenance provenance,
            Machine machine,
            Settings settings,
            Instant startedAt,
            Optional<Instant> finishedAt,
            boolean interrupted,
            Timing timing,
            List<TrialRecord> trials,
            ComparisonTable table) {
        this(
                name,
                provenance,
                machine,
                settings,
                startedAt,
                finishedAt,
                interrupted,
                timing,
                trials,
                table,
                Optional.empty());
    }

    /**
     * Returns these results as those of a run that goes on: written after a look of adaptive trials,
     * with no end yet, so that a reader sees the rows decided so far while later looks run.
     */
    public RunResults goingOn() {
        return new RunResults(
                name,
                provenance,
                machine,
                settings,
                startedAt,
                Optional.empty(),
                interrupted,
                timing,
                trials,
                table,
                sharding);
    }

    /**
     * Returns how far a run that goes on had come when these results were written: the look its
     * trials per side reached, of the most its adaptive trials may take (1 of 1 without them). Empty
     * for a run that ended, whatever way.
     */
    public Optional<Partial> partial() {
        if (finishedAt.isPresent()) {
            return Optional.empty();
        }
        List<Integer> looks =
                table.thresholds().adaptive().map(Sequential::looks).orElse(List.of(settings.trials()));
        int reached = (int) looks.stream().filter(n -> n <= settings.trials()).count();
        return Optional.of(new Partial(Math.max(1, reached), looks.size()));
    }

    /**
     * How far a run that goes on had come: look {@code look} of at most {@code looks}.
     *
     * @param look the last look its trials reached, from 1
     * @param looks the most looks it may take
     */
    public record Partial(int look, int looks) {
        public Partial {
            if (look < 1 || looks < look) {
                throw new IllegalArgumentException("look " + look + " of " + looks);
            }
        }
    }

    /** Returns these results with {@code table} in place of their own. */
    public RunResults withTable(ComparisonTable other) {
        return new RunResults(
                name,
                provenance,
                machine,
                settings,
                startedAt,
                finishedAt,
                interrupted,
                timing,
                trials,
                other,
                sharding);
    }

    /**
     * Returns every counted measurement (of the trials that succeeded, warm-ups excluded), in the
     * order the trials ran: what the table classifies. Derived from the trials, never kept twice.
     */
    public List<Measurement> measurements() {
        return counted(trials);
    }

    /** Returns the counted measurements of {@code trials}: those of successful trials that are not warm-ups. */
    public static List<Measurement> counted(List<TrialRecord> trials) {
        List<Measurement> all = new ArrayList<>();
        for (TrialRecord t : trials) {
            if (!t.warmup() && t.status() == Status.OK) {
                all.addAll(t.measurements());
            }
        }
        return all;
    }

    /**
     * Returns what tells this run from any other run: its commits, the instant it began, the runner
     * it ran on, and a digest of what it measured.
     */
    public Identity identity() {
        java.security.MessageDigest sha;
        try {
            sha = java.security.MessageDigest.getInstance("SHA-256");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        java.nio.ByteBuffer bits = java.nio.ByteBuffer.allocate(20);
        List<Measurement> all = counted(trials);
        for (Measurement m : all) {
            sha.update((m.cell().name() + "\n" + m.cell().metric() + "\n")
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8));
            bits.clear();
            bits.putInt(m.side().ordinal())
                    .putInt(m.build())
                    .putInt(m.trial())
                    .putLong(Double.doubleToLongBits(m.value()));
            sha.update(bits.array());
        }
        String measured = all.isEmpty()
                ? ""
                : java.util.HexFormat.of().formatHex(sha.digest()).substring(0, 16);
        return new Identity(provenance, startedAt, machine.runner(), measured);
    }

    /**
     * Returns the sides whose counted trials all ran one build's code, so that the spread between
     * builds says nothing of code layout for them: both sides of a run with one build per side
     * ({@code settings.builds} 1); otherwise the sides the run's {@link Warning.Kind#UNPERTURBED_BUILDS}
     * warning names: several builds with byte-identical outputs, or, for a workload without a build
     * step, several identical checkouts (both sides). Empty when every side's builds differed or
     * were not known to be the same (a build that wrote nothing perfab could compare; files written
     * before perfab warned of a workload without a build step).
     */
    public Set<Side> oneBuildSides() {
        Set<Side> same = EnumSet.noneOf(Side.class);
        if (settings.builds() < 2) {
            same.addAll(EnumSet.allOf(Side.class));
        }
        for (Warning w : table.warnings()) {
            if (w.kind() == Warning.Kind.UNPERTURBED_BUILDS) {
                for (Side side : Side.values()) {
                    if (w.subjects().contains(side.id())) {
                        same.add(side);
                    }
                }
            }
        }
        return Collections.unmodifiableSet(same);
    }

    /**
     * What tells one run from another (see {@link #sameRunAs}).
     *
     * @param provenance the run's refs and commits
     * @param startedAt when it began
     * @param runner the runner it names (empty when it names none)
     * @param measured the first 16 hex digits of the SHA-256 of its counted measurements (each
     *     cell, side, build, trial and value, in order); empty when it measured nothing
     */
    public record Identity(Provenance provenance, Instant startedAt, String runner, String measured) {
        public Identity {
            Objects.requireNonNull(provenance, "provenance");
            Objects.requireNonNull(startedAt, "startedAt");
            Objects.requireNonNull(runner, "runner");
            Objects.requireNonNull(measured, "measured");
        }

        /**
         * Returns whether {@code other} is this run: the same commits, start and runner (a copy, or
         * the run written again as it went on), or the same values measured, whatever the file
         * says of its start and runner (two machines never measure the same values, to the bit).
         */
        public boolean sameRunAs(Identity other) {
            return provenance.equals(other.provenance)
                            && startedAt.equals(other.startedAt)
                            && runner.equals(other.runner)
                    || !measured.isEmpty() && measured.equals(other.measured);
        }
    }

    /**
     * One side's commit.
     *
     * @param typed the ref as typed ({@code main}, {@code HEAD~3})
     * @param commit the commit id it resolved to
     */
    public record Ref(String typed, String commit) {}

    /**
     * The refs and commits of a run.
     *
     * @param repository the repository as given on the command line
     * @param base the base ref as typed and resolved (the tip of the target branch)
     * @param head the head ref as typed and resolved
     * @param mergeBase the commit measured as the baseline: merge-base(base, head)
     * @param baseTree the baseline's tree id
     * @param headTree the candidate's tree id
     * @param aa whether both sides are one commit: an A/A run, which measures the noise floor
     */
    public record Provenance(
            String repository, Ref base, Ref head, String mergeBase, String baseTree, String headTree, boolean aa) {}

    /**
     * The machine the trials ran on.
     *
     * @param cpu the CPU model, e.g. from {@code /proc/cpuinfo}; "unknown" when not told
     * @param cores the processors available to perfab
     * @param os the operating system and version
     * @param kernel the kernel release
     * @param jvm the JVM that ran perfab
     * @param runner the CI runner's name and class when the environment tells; empty otherwise
     */
    public record Machine(String cpu, int cores, String os, String kernel, String jvm, String runner) {}

    /**
     * How the run was set up.
     *
     * @param workload the workload file, as a path in the head's tree
     * @param trials counted trials per side
     * @param warmup uncounted trials per side
     * @param builds builds per side
     * @param harnessFrom whose harness drove the trials: {@code head} or {@code self}
     * @param format the harness's output format
     * @param seed the seed that shuffled the trial order; empty for the alternating order
     * @param profiles the cell patterns shown but never classified
     * @param harnessFiles with the head's harness, its files: copied from the head's tree into the
     *     base's before the base was built; empty with each side's own harness
     * @param failOn the verdicts that fail the job ({@code --fail-on}); empty for an advisory run
     * @param padding the seed of the trials' environment padding; empty when they had none
     */
    public record Settings(
            String workload,
            int trials,
            int warmup,
            int builds,
            String harnessFrom,
            String format,
            Optional<Long> seed,
            List<String> profiles,
            List<HarnessFile> harnessFiles,
            List<Verdict> failOn,
            Optional<Long> padding) {
        public Settings {
            profiles = List.copyOf(profiles);
            harnessFiles = List.copyOf(harnessFiles);
            failOn = List.copyOf(failOn);
            Objects.requireNonNull(padding, "padding");
        }
    }

    /**
     * A harness file of the head, as the base's trials ran it.
     *
     * @param path its path in the tree
     * @param state how the base's own copy compared
     */
    public record HarnessFile(String path, State state) {
        public HarnessFile {
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(state, "state");
        }

        /** How the base's own copy of a harness file compared with the head's. */
        public enum State {
            /** The base had the same file: nothing was copied. */
            SAME("same"),
            /** The base had another version: the head's replaced it. */
            CHANGED("changed"),
            /** The base had no such file: the head's was added. */
            ADDED("added");

            private final String id;

            State(String id) {
                this.id = id;
            }

            /** The name used in files. */
            public String id() {
                return id;
            }

            /** Returns the state named {@code id}. */
            public static State of(String id) {
                for (State s : values()) {
                    if (s.id.equals(id)) {
                        return s;
                    }
                }
                throw new IllegalArgumentException("unknown harness file state '" + id + "'");
            }
        }
    }

    /**
     * Where a run's wall time went, in seconds. What is left of {@code total} after the other three
     * is perfab's own overhead.
     *
     * @param total from start to results
     * @param checkout writing the sides' trees
     * @param build building the sides (or copying them from the cache)
     * @param trials running trials, warm-ups included
     */
    public record Timing(double total, double checkout, double build, double trials) {
        /** Returns the seconds spent on none of the three. */
        public double overhead() {
            return total - checkout - build - trials;
        }
    }

    /** How a trial ended. */
    public enum Status {
        /** It ran and its output was read. */
        OK("ok"),
        /** It exited non-zero, could not start, or wrote output that does not parse. */
        FAILED("failed"),
        /** It ran past its timeout and was killed. */
        TIMEOUT("timeout"),
        /**
         * perfab was stopped while it ran and killed it: no result of the code under test, so it
         * is never kept, and a resumed run runs it again.
         */
        INTERRUPTED("interrupted");

        private final String id;

        Status(String id) {
            this.id = id;
        }

        /** The name used in files. */
        public String id() {
            return id;
        }
    }

    /**
     * One trial.
     *
     * @param seq its position in the run's order, from 0
     * @param side the side it measured
     * @param build the build of that side, from 0
     * @param trial its number among the side's counted trials (or warm-ups), from 0
     * @param warmup whether it is an uncounted warm-up
     * @param status how it ended
     * @param reason why it failed; empty when it did not
     * @param wallSeconds how long it took
     * @param stderrTail the last lines of its standard error when it failed; empty otherwise
     * @param measurements what it measured (none when it failed)
     * @param leftovers the processes it left running after it ended, which perfab killed, each as
     *     {@code PID COMMAND}; empty when it left none
     * @param logBytesCut how many bytes of its output perfab cut from the middle of its logs to
     *     keep them bounded; 0 when none
     * @param load what the machine was doing while it ran; empty where {@code /proc} could not tell
     *     (not Linux) and in files written before perfab recorded it
     * @param seconds how long the harness says it spent in each benchmark, by the benchmark's name
     *     (a cell's name), where its output says (Go's iterations times ns/op, Google Benchmark's
     *     iterations times real time, pytest-benchmark's total; for a benchmark counted on its own,
     *     how long counting it took, and in a counted warm-up the one benchmark it counted to price
     *     the trials): what a later run's shards are cut by
     *     (see {@link Sharding#assign(java.util.Map, int)}); for a warm-up of a workload that counts
     *     each benchmark, how long counting the one benchmark it counted took, which prices a counted
     *     trial; empty where the output does not say
     * @param cached the cells whose counts this trial took from perfab's count cache, not counted in
     *     this run: an earlier run counted the same tree, build, toolchain and workload; empty when
     *     it counted all it measured
     */
    public record TrialRecord(
            int seq,
            Side side,
            int build,
            int trial,
            boolean warmup,
            Status status,
            String reason,
            double wallSeconds,
            String stderrTail,
            List<Measurement> measurements,
            List<String> leftovers,
            long logBytesCut,
            Optional<Load> load,
            Map<String, Double> seconds,
            List<String> cached) {
        public TrialRecord {
            seconds = Map.copyOf(seconds);
            cached = List.copyOf(cached);
            for (Map.Entry<String, Double> e : seconds.entrySet()) {
                if (e.getKey().isEmpty() || !Double.isFinite(e.getValue()) || e.getValue() < 0) {
                    throw new IllegalArgumentException("benchmark '" + e.getKey() + "' took " + e.getValue()
                            + " s: a time is a finite number, 0 or more, of a named benchmark");
                }
            }
            Objects.requireNonNull(side, "side");
            Objects.requireNonNull(status, "status");
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(stderrTail, "stderrTail");
            measurements = List.copyOf(measurements);
            leftovers = List.copyOf(leftovers);
            if (logBytesCut < 0) {
                throw new IllegalArgumentException("logBytesCut must not be negative");
            }
            Objects.requireNonNull(load, "load");
        }

        /** A trial without leftovers, cut logs, a known load, benchmark times or cached counts. */
        public TrialRecord(
                int seq,
                Side side,
                int build,
                int trial,
                boolean warmup,
                Status status,
                String reason,
                double wallSeconds,
                String stderrTail,
                List<Measurement> measurements) {
            this(
                    seq,
                    side,
                    build,
                    trial,
                    warmup,
                    status,
                    reason,
                    wallSeconds,
                    stderrTail,
                    measurements,
                    List.of(),
                    0,
                    Optional.empty(),
                    Map.of(),
                    List.of());
        }

        /** Returns how a reader names this trial: "base trial 1", "head warm-up 2". */
        public String named() {
            return named(side, warmup, trial);
        }

        /** Returns how a reader names a trial: "base trial 1", "head warm-up 2" ({@code trial} from 0). */
        public static String named(Side side, boolean warmup, int trial) {
            return side.id() + (warmup ? " warm-up " : " trial ") + (trial + 1);
        }

        /** Returns this trial with {@code measurements} in place of its own. */
        public TrialRecord withMeasurements(List<Measurement> measurements) {
            return new TrialRecord(
                    seq,
                    side,
                    build,
                    trial,
                    warmup,
                    status,
                    reason,
                    wallSeconds,
                    stderrTail,
                    measurements,
                    leftovers,
                    logBytesCut,
                    load,
                    seconds,
                    cached);
        }

        /** Returns this trial with {@code leftovers} and {@code logBytesCut} in place of its own. */
        public TrialRecord withLeftovers(List<String> leftovers, long logBytesCut) {
            return new TrialRecord(
                    seq,
                    side,
                    build,
                    trial,
                    warmup,
                    status,
                    reason,
                    wallSeconds,
                    stderrTail,
                    measurements,
                    leftovers,
                    logBytesCut,
                    load,
                    seconds,
                    cached);
        }

        /** Returns this trial with {@code load} in place of its own. */
        public TrialRecord withLoad(Optional<Load> load) {
            return new TrialRecord(
                    seq,
                    side,
                    build,
                    trial,
                    warmup,
                    status,
                    reason,
                    wallSeconds,
                    stderrTail,
                    measurements,
                    leftovers,
                    logBytesCut,
                    load,
                    seconds,
                    cached);
        }

        /** Returns this trial with {@code seconds} in place of its own benchmark times. */
        public TrialRecord withSeconds(Map<String, Double> seconds) {
            return new TrialRecord(
                    seq,
                    side,
                    build,
                    trial,
                    warmup,
                    status,
                    reason,
                    wallSeconds,
                    stderrTail,
                    measurements,
                    leftovers,
                    logBytesCut,
                    load,
                    seconds,
                    cached);
        }
    }

    /**
     * Returns how long each benchmark (a cell's name) took a trial pair in a run of {@code trials},
     * to cut a suite into shards at equal time by ({@link Sharding#assign(Map, int)}):
     * twice the mean of its time (see {@link TrialRecord#seconds}) over the counted trials
     * that give it, else over the warm-ups (a shard stopped before its counted trials still says
     * what its benchmarks cost). A time of 0, or past {@link Sharding#LONGEST_TIME}, is none: a harness's
     * output is the pull request's to write. Empty when no trial gives a time.
     */
    public static Map<String, Double> benchmarkTimes(List<TrialRecord> trials) {
        Map<String, double[]> counted = new TreeMap<>();
        Map<String, double[]> warmups = new TreeMap<>();
        for (TrialRecord t : trials) {
            Map<String, double[]> sums = t.warmup() ? warmups : counted;
            new TreeMap<>(t.seconds()).forEach((name, s) -> {
                if (s > 0 && s <= Sharding.LONGEST_TIME) {
                    double[] sum = sums.computeIfAbsent(name, k -> new double[2]);
                    sum[0] += s;
                    sum[1]++;
                }
            });
        }
        warmups.forEach(counted::putIfAbsent);
        Map<String, Double> times = new TreeMap<>();
        counted.forEach((name, sum) -> times.put(name, 2 * sum[0] / sum[1]));
        return times;
    }

    /**
     * Returns {@code trials} with every cell in the unit it was first seen in (see
     * {@link CellUnits#fit}): a value in another unit of the same kind is converted (a pull request
     * that changes a benchmark's output unit from us to ns); one that cannot be converted is left
     * out, with a warning.
     */
    public static List<TrialRecord> oneUnitPerCell(List<TrialRecord> trials, List<Warning> warnings) {
        CellUnits units = new CellUnits();
        Map<List<String>, Long> dropped = new LinkedHashMap<>();
        List<TrialRecord> out = new ArrayList<>(trials.size());
        for (TrialRecord t : trials) {
            List<Measurement> fitted = new ArrayList<>(t.measurements().size());
            for (Measurement m : t.measurements()) {
                OptionalDouble v = units.fit(m.cell(), m.value());
                Cell first = units.first(m.cell().id());
                if (v.isPresent()) {
                    fitted.add(
                            first.equals(m.cell())
                                    ? m
                                    : new Measurement(first, m.side(), m.build(), m.trial(), v.getAsDouble()));
                } else if (!t.warmup()) {
                    dropped.merge(
                            List.of(m.cell().name(), m.cell().metric(), m.cell().unit(), first.unit()), 1L, Long::sum);
                }
            }
            out.add(t.withMeasurements(fitted));
        }
        dropped.forEach(
                (about, n) -> warnings.add(Warning.of(Warning.Kind.UNCONVERTIBLE_UNITS, about, Map.of("values", n))));
        return out;
    }
}
