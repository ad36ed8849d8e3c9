package org.perfab.workload;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.perfab.ingest.MeasurementFormat;
import org.perfab.model.Cell;
import org.perfab.model.CellId;
import org.perfab.stats.ThresholdSettings;

/**
 * A workload file, validated: everything {@code perfab ab} needs to know about the project.
 *
 * @param name names the comment and the results; not blank
 * @param trials counted trials per side, at least 2
 * @param warmup uncounted trials per side, run first, at least 0
 * @param build how to build each side's checkout; empty when there is nothing to build
 * @param harness what drives the trials
 * @param cells per-cell policies; the first whose pattern matches a cell applies
 * @param thresholds verdict settings the workload chooses; command-line flags override each
 * @param adaptive the most trials per side of a run with adaptive trials ({@code adaptive: 20}), 0
 *     for a run of a fixed size ({@code adaptive: off}); empty for the default,
 *     {@link #DEFAULT_ADAPTIVE}
 * @param builds builds per side ({@code builds: 3}); empty for the command line's, else 1
 * @param seed the seed that shuffles which side goes first in each pair ({@code seed: 42}); empty
 *     for the command line's, else alternation
 * @param submodules the submodules the build and harness need checked out
 */
public record Workload(
        String name,
        int trials,
        int warmup,
        Optional<Build> build,
        Harness harness,
        List<CellPolicy> cells,
        ThresholdSettings thresholds,
        Optional<Integer> adaptive,
        Optional<Integer> builds,
        Optional<Long> seed,
        Submodules submodules) {

    /** The number of trials when the workload does not say. */
    public static final int DEFAULT_TRIALS = 5;
    /** The number of trials when the workload does not say and only counts: they barely vary. */
    public static final int COUNTED_TRIALS = 2;
    /** The number of warm-up trials when the workload does not say. */
    public static final int DEFAULT_WARMUP = 1;
    /**
     * The most counted trials per side a run may ask for. Release checks run 15-20; a thousand is
     * far past any use and still small enough that a typo cannot tie up a machine for weeks.
     */
    public static final int MAX_TRIALS = 1000;
    /** The most warm-up trials per side. */
    public static final int MAX_WARMUP = 100;
    /** The most builds per side. */
    public static final int MAX_BUILDS = 20;
    /**
     * The most trials per side a run with one build per side takes by default: after the first
     * round, rounds of as many while a cell is undecided. On the same draws as runs of 5 and of 20
     * trials, adaptive trials keep the false alarms of 5 and find what 20 find, taking 5 to 10
     * trials per side where the answer is plain and 20 where the noise is (perfab calibrate).
     */
    public static final int DEFAULT_ADAPTIVE = 20;

    public Workload {
        Objects.requireNonNull(adaptive, "adaptive");
        Objects.requireNonNull(builds, "builds");
        Objects.requireNonNull(seed, "seed");
        Objects.requireNonNull(build, "build");
        Objects.requireNonNull(harness, "harness");
        Objects.requireNonNull(thresholds, "thresholds");
        Objects.requireNonNull(submodules, "submodules");
        cells = List.copyOf(cells);
    }

    /**
     * Which submodules a workload needs ({@code submodules:}): every one ({@code required}), those
     * at the paths listed, or none ({@code optional}, the default). A submodule the clone has not
     * checked out that is not needed is left out of both sides' trees, named in the results; one
     * that is needed stops the run, saying how to check it out.
     *
     * @param all whether every submodule is needed
     * @param paths the paths of the submodules needed, from the top of the tree; empty with {@code all}
     */
    public record Submodules(boolean all, List<String> paths) {
        /** No submodule needed: the default. */
        public static final Submodules OPTIONAL = new Submodules(false, List.of());

        public Submodules {
            paths = List.copyOf(paths);
            if (all && !paths.isEmpty()) {
                throw new IllegalArgumentException("every submodule, or those listed, not both");
            }
        }

        /** Returns whether the submodule at {@code path} is needed: listed, or below one listed. */
        public boolean needs(String path) {
            return all || paths.stream().anyMatch(p -> path.equals(p) || path.startsWith(p + "/"));
        }
    }

    /** Returns whether {@code cell} is a profile: shown, never classified. */
    public boolean isProfile(Cell cell) {
        for (CellPolicy p : cells) {
            if (p.match().matches(cell)) {
                return p.role() == Role.PROFILE;
            }
        }
        return false;
    }

    /**
     * How each side is built.
     *
     * @param run the command, an argv list run in the side's checkout
     * @param timeout how long a build may take
     * @param env extra environment variables for the build
     * @param perturb an argv run in the checkout before each build, with {@code PERFAB_BUILD} set,
     *     that makes a harmless change which shifts code layout (a no-op in a cold function, a
     *     padding symbol); empty when the workload gives none
     */
    public record Build(List<String> run, Duration timeout, Map<String, String> env, Optional<List<String>> perturb) {
        /** How long a build may take when the workload does not say. */
        public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(30);

        public Build {
            run = List.copyOf(run);
            env = Map.copyOf(env);
            perturb = perturb.map(List::copyOf);
        }
    }

    /**
     * Which benchmarks of a harness of named benchmarks are counted, and how long a side's counted
     * trial may take.
     *
     * @param benchmarks the benchmarks counted, of those the harness runs: those whose names (without
     *     {@code Benchmark}) this finds; empty for all
     * @param budget the most a counted trial of one side may take, as the first one measured it: a
     *     run whose counting would take longer stops before its trials and says by how much; empty
     *     for no limit
     * @param auto whether the benchmarks are timed first, and only those whose timings cannot tell
     *     are counted ({@code measure: auto}); false when every benchmark is counted in every trial
     */
    public record Counting(Optional<java.util.regex.Pattern> benchmarks, Optional<Duration> budget, boolean auto) {
        /** Every benchmark, in any time. */
        public static final Counting ALL = new Counting(Optional.empty(), Optional.empty(), false);

        public Counting {
            Objects.requireNonNull(benchmarks, "benchmarks");
            Objects.requireNonNull(budget, "budget");
        }

        /** Returns this choice of benchmarks, counted only where their timings cannot tell. */
        public Counting asAuto() {
            return new Counting(benchmarks, budget, true);
        }
    }

    /**
     * How a harness's benchmarks are listed, and how it runs a slice of them: the workload's
     * {@code harness.shard}.
     *
     * @param list a command, run in each side's tree as a trial is, that prints the name of each
     *     benchmark on a line of its own
     * @param filter the arguments added to the harness's command to run only a slice: in each,
     *     {@value #REGEX} is the slice as a regular expression that matches those names whole
     *     ({@code ^(A|B)$}); an argument that holds {@value #NAME} is repeated for each name
     */
    public record Slicing(List<String> list, List<String> filter) {
        /** Stands for the slice, as a regular expression. */
        public static final String REGEX = "{regex}";
        /** Stands for each name of the slice, in an argument repeated for each. */
        public static final String NAME = "{name}";

        public Slicing {
            list = List.copyOf(list);
            filter = List.copyOf(filter);
        }
    }

    /**
     * Whose harness files a side's trials run. Either way a trial runs in its own side's tree, so
     * that the code it measures is that side's.
     */
    public enum From {
        /** The head's harness files, copied into the base's tree before it is built (the default). */
        HEAD,
        /** Each side's own harness files. */
        SELF
    }

    /**
     * What drives the trials.
     *
     * @param from whose harness files the trials run
     * @param format how a trial is run and its measurements read
     * @param timeout how long one trial may take
     * @param cpus the CPUs every trial is pinned to, in {@code taskset -c} form ({@code 0},
     *     {@code 2-3}, {@code 0,2}); empty for no pinning
     * @param files with {@code from: head}, the harness files: paths, folders and globs in the
     *     head's tree, copied into the base's tree before it is built; empty for the default (the
     *     workload file and every argument of the commands that names a file)
     * @param measure what perfab measures of the commands itself, in the workload's order: with
     *     {@code format: time} the timings (wall, CPU, peak memory) and counts; with a harness
     *     that reports its own results, empty (its results) or counts of the whole command, or,
     *     for go test and Google Benchmark, of each benchmark (with {@code wall}: its results too)
     * @param count which benchmarks a harness of named benchmarks counts, and in how long
     * @param shard how to list the harness's benchmarks and run a slice of them, for a run of one
     *     shard of the suite ({@code perfab ab --shard}); empty for the harness's own way, where
     *     perfab knows one
     */
    public record Harness(
            From from,
            HarnessFormat format,
            Duration timeout,
            Optional<String> cpus,
            List<String> files,
            List<Measure> measure,
            Counting count,
            Optional<Slicing> shard) {
        /** How long a trial may take when the workload does not say. */
        public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(10);

        public Harness {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(format, "format");
            Objects.requireNonNull(timeout, "timeout");
            Objects.requireNonNull(cpus, "cpus");
            files = List.copyOf(files);
            measure = List.copyOf(measure);
            Objects.requireNonNull(count, "count");
            Objects.requireNonNull(shard, "shard");
        }

        /** Returns this harness running {@code format} in place of its own: one slice of its benchmarks. */
        public Harness with(HarnessFormat other) {
            return new Harness(from, other, timeout, cpus, files, measure, count, shard);
        }

        /** Returns whether the trials are counted, not timed: every measure is a count. */
        public boolean counted() {
            return !measure.isEmpty() && measure.stream().allMatch(Measure::count);
        }

        /**
         * Returns whether each benchmark of the harness is counted on its own, per operation: go
         * test's or Google Benchmark's, when the workload measures {@code instructions}.
         */
        public boolean perBenchmark() {
            return measure.contains(Measure.INSTRUCTIONS)
                    && format instanceof Read r
                    && r.format().countsEachBenchmark();
        }

        /** Returns every command a trial starts: the harness's, or each timed command. */
        public List<List<String>> argvs() {
            return format.argvs();
        }
    }

    /**
     * What perfab measures of a command it runs: a timing, or a count that a busy machine cannot
     * move (instructions executed, counted by Valgrind's Cachegrind or the CPU's own counters).
     */
    public enum Measure {
        /** Wall seconds. */
        WALL("wall", false),
        /** CPU seconds of the command's whole process tree. */
        CPU("cpu", false),
        /** Peak resident memory of any process of the tree, in KiB. */
        MAXRSS("maxrss", false),
        /**
         * Instructions executed, and an estimate of cycles from the simulated caches' hits and
         * misses: the command runs under {@code valgrind --tool=cachegrind}, children included.
         */
        INSTRUCTIONS("instructions", true),
        /** User-space instructions retired, from the CPU's counters ({@code perf stat}). */
        HW_INSTRUCTIONS("hw-instructions", true),
        /** User-space cycles, from the CPU's counters ({@code perf stat}). */
        HW_CYCLES("hw-cycles", true);

        /** What {@code format: time} measures when the workload does not say. */
        public static final List<Measure> TIMED = List.of(WALL, CPU, MAXRSS);

        private final String id;
        private final boolean count;

        Measure(String id, boolean count) {
            this.id = id;
            this.count = count;
        }

        /** The name a workload gives it. */
        public String id() {
            return id;
        }

        /** Returns whether it is a count, which a busy machine cannot move, rather than a timing. */
        public boolean count() {
            return count;
        }

        /** Returns whether it reads the CPU's own counters. */
        public boolean hardware() {
            return this == HW_INSTRUCTIONS || this == HW_CYCLES;
        }

        /** Returns the measure a workload names {@code id}; empty for none. */
        public static Optional<Measure> byId(String id) {
            for (Measure m : values()) {
                if (m.id.equals(id)) {
                    return Optional.of(m);
                }
            }
            return Optional.empty();
        }
    }

    /** How a trial is run, and how its measurements are read. */
    public sealed interface HarnessFormat permits Timed, Read {
        /** The name a workload gives it: {@code time}, or a measurement format's. */
        String id();

        /** Returns every command a trial starts. */
        List<List<String>> argvs();
    }

    /**
     * perfab times named commands itself: wall time, and CPU time and peak memory from
     * {@code /proc}.
     *
     * @param commands the commands, by name, in order
     */
    public record Timed(Map<String, List<String>> commands) implements HarnessFormat {
        public Timed {
            Map<String, List<String>> copy = new LinkedHashMap<>();
            commands.forEach((k, v) -> copy.put(k, List.copyOf(v)));
            commands = Collections.unmodifiableMap(copy);
        }

        @Override
        public String id() {
            return "time";
        }

        @Override
        public List<List<String>> argvs() {
            return List.copyOf(commands.values());
        }
    }

    /**
     * The harness runs one command per trial, and perfab reads what it wrote.
     *
     * @param run the command, an argv list
     * @param format how its measurements are read: from {@code $PERFAB_RESULT}, else its output
     */
    public record Read(List<String> run, MeasurementFormat format) implements HarnessFormat {
        public Read {
            run = List.copyOf(run);
            Objects.requireNonNull(format, "format");
        }

        @Override
        public String id() {
            return format.id();
        }

        @Override
        public List<List<String>> argvs() {
            return List.of(run);
        }
    }

    /** What a cell is for. */
    public enum Role {
        /** Classified by the verdict rules (the default). */
        @JsonProperty("measure")
        MEASURE,
        /** Shown, never classified: e.g. the latency of a saturating cell, which is queue depth. */
        @JsonProperty("profile")
        PROFILE
    }

    /**
     * A policy for the cells a pattern matches.
     *
     * @param match which cells
     * @param role what they are for
     */
    public record CellPolicy(CellGlob match, Role role, Optional<String> ratioTo) {
        public CellPolicy {
            Objects.requireNonNull(match, "match");
            Objects.requireNonNull(role, "role");
            Objects.requireNonNull(ratioTo, "ratioTo");
            if (ratioTo.isPresent()
                    && ratioTo.get().chars().filter(c -> c == ':').count() > 1) {
                throw new IllegalArgumentException(
                        "'ratio_to' is NAME or NAME:METRIC, with one ':' at most, got '" + ratioTo.get() + "'");
            }
        }

        /** A policy with no baseline of its own. */
        public CellPolicy(CellGlob match, Role role) {
            this(match, role, Optional.empty());
        }
    }

    /**
     * Returns the cell whose ratio {@code cell} is kept as in a nightly series (the first policy
     * matching it with a {@code ratio_to}): its name, and its metric when the policy names one,
     * else the cell's own. Empty when no policy gives one.
     */
    public Optional<CellId> ratioTo(Cell cell) {
        for (CellPolicy p : cells) {
            if (p.match().matches(cell) && p.ratioTo().isPresent()) {
                String to = p.ratioTo().get();
                int colon = to.indexOf(':');
                return Optional.of(
                        colon < 0
                                ? new CellId(to, cell.metric())
                                : new CellId(to.substring(0, colon), to.substring(colon + 1)));
            }
        }
        return Optional.empty();
    }
}
