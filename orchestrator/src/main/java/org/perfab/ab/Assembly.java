package org.perfab.ab;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.perfab.model.ComparisonTable;
import org.perfab.model.Counted;
import org.perfab.model.Disturbed;
import org.perfab.model.Ids;
import org.perfab.model.Judge;
import org.perfab.model.Load;
import org.perfab.model.NoiseFile;
import org.perfab.model.RunResults;
import org.perfab.model.Sharding;
import org.perfab.model.Side;
import org.perfab.model.Warning;
import org.perfab.stats.Comparison;
import org.perfab.stats.Disturbances;
import org.perfab.stats.NoiseFloor;
import org.perfab.stats.Sensitivity;
import org.perfab.stats.Verdict;
import org.perfab.workload.Workload;

/**
 * Turns what a run has done into its results: the trials with every cell in one unit, the
 * classified table, and the warnings the run found, as data. A function of its inputs: no files,
 * no processes, no clock of its own.
 *
 * @param plan the run's plan
 * @param workload its workload
 * @param machine what ran the trials
 * @param harnessFiles the harness files the base took from the head
 * @param sharedPrograms what both sides' commands start outside their trees (see {@link Programs})
 * @param failOn the verdicts that fail the job
 * @param noise the noise floors of an A/A run, to mark changes that lie inside them
 * @param trialResults the folder of the trials' results, where a counted trial keeps its counts by function
 * @param sharding the run's shard of the suite, its trials not yet counted; empty for the whole suite
 */
record Assembly(
        Plan plan,
        Workload workload,
        RunResults.Machine machine,
        HarnessFiles harnessFiles,
        List<Path> sharedPrograms,
        List<Verdict> failOn,
        Optional<NoiseFile> noise,
        Path trialResults,
        Optional<Sharding> sharding) {
    /**
     * The busy cores of other processes, on average over the counted trials, from which a run
     * warns that the machine was busy. perfab's sampling and a CI runner's agent take a few
     * hundredths of a core; half a core taken from the trials for their whole time is a neighbour
     * at work, which takes a core from a two-threaded benchmark half the time.
     */
    static final double BUSY_OTHERS_CORES = 0.5;
    /**
     * The mean run queue per core past which a run warns that the machine was busy: with more
     * tasks runnable than cores, some wait for a CPU, and a trial's threads wait with them.
     */
    static final double BUSY_RUN_QUEUE_PER_CORE = 1.0;
    /**
     * The share of time taken by the hypervisor past which a run warns that the machine was busy:
     * a few percent is common on shared clouds; past 5% a virtual machine loses time slices often
     * enough that timings of milliseconds carry it.
     */
    static final double BUSY_STEAL_SHARE = 0.05;

    Assembly {
        sharedPrograms = List.copyOf(sharedPrograms);
        failOn = List.copyOf(failOn);
    }

    /** Returns this assembly for {@code next}, the plan of the next round of adaptive trials. */
    Assembly with(Plan next) {
        return new Assembly(
                next, workload, machine, harnessFiles, sharedPrograms, failOn, noise, trialResults, sharding);
    }

    /**
     * Returns the results of {@code done}.
     *
     * @param interrupted whether the run was stopped before its last trial
     * @param totalSeconds how long the run has taken
     * @param now when the results are made
     */
    RunResults results(Ledger.Snapshot done, boolean interrupted, double totalSeconds, Instant now) {
        List<Warning> unitWarnings = new ArrayList<>();
        List<RunResults.TrialRecord> fitted = RunResults.oneUnitPerCell(done.trials(), unitWarnings);
        ComparisonTable table = table(done, interrupted, fitted, unitWarnings);
        RunResults.Provenance provenance = new RunResults.Provenance(
                plan.repository(),
                new RunResults.Ref(plan.baseTip().typed(), plan.baseTip().id()),
                new RunResults.Ref(plan.head().typed(), plan.head().id()),
                plan.mergeBase().id(),
                plan.mergeBase().tree(),
                plan.head().tree(),
                plan.aa());
        RunResults.Timing timing =
                new RunResults.Timing(totalSeconds, done.checkoutSeconds(), done.buildSeconds(), done.trialSeconds());
        return new RunResults(
                workload.name(),
                provenance,
                machine,
                settings(),
                plan.startedAt(),
                Optional.of(now),
                interrupted,
                timing,
                fitted,
                table,
                shard(interrupted, fitted.size()));
    }

    /**
     * Returns the classified table of the {@code fitted} trials of {@code done}, each cell in one
     * unit: with the run's warnings, the noise floors of an A/A run, the time rows that counts stand
     * in for, and where a count under Cachegrind moved, the functions that moved it.
     *
     * @param unitWarnings the warnings of putting each cell in one unit
     */
    private ComparisonTable table(
            Ledger.Snapshot done,
            boolean interrupted,
            List<RunResults.TrialRecord> fitted,
            List<Warning> unitWarnings) {
        String baseLabel = "merge-base of " + plan.baseTip().typed() + " and "
                + plan.head().typed() + " (" + plan.mergeBase().shortId() + ")";
        String headLabel = plan.head().typed() + " (" + plan.head().shortId() + ")";
        // A trial a disturbance of the machine spoiled decides no cell (see Disturbed).
        List<Disturbed> disturbed = Disturbed.of(fitted);
        ComparisonTable table = Judge.table(
                        baseLabel, headLabel, List.of(fitted), plan.thresholds(), workload::isProfile)
                .withWarnings(warnings(done, interrupted))
                .withWarnings(disturbed(disturbed, done.trials()))
                .withWarnings(unitWarnings);
        if (noise.isPresent()) {
            Sensitivity test = new Sensitivity(plan.thresholds().alpha(), Comparison.POWER);
            boolean inPairs = table.pairing().inPairs();
            table = table.withNoiseFloors(r -> {
                NoiseFloor floor = noise.get().cells().get(r.cell().id());
                // The floor of the test that judged this run: the pairs' spread only where pairs judged.
                NoiseFloor judged = floor == null || inPairs ? floor : new NoiseFloor(floor.within(), floor.between());
                return judged == null ? Double.NaN : judged.mde(plan.builds(), plan.trials(), test);
            });
        }
        // measure: auto: the time rows of the benchmarks counted in their place claim nothing.
        if (!plan.counting().isEmpty()) {
            java.util.Set<String> counting = java.util.Set.copyOf(plan.counting());
            table = table.countedInstead(r ->
                    counting.contains(r.cell().name()) && !Counted.is(r.cell().metric()));
        }
        // Where a count under Cachegrind moved: the functions whose counts moved most.
        return table.withFunctions(r -> r.cell().metric().equals(Counted.INSTRUCTIONS)
                        || r.cell().metric().equals(Counted.INSTRUCTIONS_PER_OP)
                ? Profiles.moved(trialResults, done.trials(), r.cell().name())
                : List.of());
    }

    /** Returns the settings the run measured with, as its results record them. */
    private RunResults.Settings settings() {
        Workload.Harness h = workload.harness();
        return new RunResults.Settings(
                plan.workloadPath(),
                plan.trials(),
                plan.warmup(),
                plan.builds(),
                h.from().name().toLowerCase(Locale.ROOT),
                h.format().id(),
                plan.seed(),
                workload.cells().stream()
                        .filter(c -> c.role() == Workload.Role.PROFILE)
                        .map(c -> c.match().toString())
                        .toList(),
                harnessFiles.files(),
                failOn,
                plan.padding());
    }

    /**
     * Returns the run's shard of the suite with its {@code counted} trials, interrupted when the
     * run was; empty for a run of the whole suite.
     */
    private Optional<Sharding> shard(boolean interrupted, int counted) {
        return sharding.map(s -> {
            Sharding.Part p = s.parts().get(0);
            return new Sharding(
                    s.count(),
                    List.of(new Sharding.Part(
                            p.index(),
                            interrupted ? Sharding.State.INTERRUPTED : p.state(),
                            p.runner(),
                            p.listed(),
                            p.suite(),
                            p.cut(),
                            p.benchmarks(),
                            counted,
                            p.listing())));
        });
    }

    /**
     * The most replacement trials a side gets for its disturbed trials: a fifth of its counted
     * trials, at least 1. A machine that disturbs more than that is the run's noise, and the
     * results say so rather than run on.
     */
    static int replacements(int trials) {
        return Math.max(1, (trials + 4) / 5);
    }

    /** Returns whether {@code t} replaced a disturbed trial: it ran after the run's order. */
    boolean replacement(RunResults.TrialRecord t) {
        return !t.warmup() && t.seq() >= plan.order().size();
    }

    /**
     * Returns the warning that trials were disturbed and set aside, naming each with how its cells
     * moved, and how many replacements ran; empty when none was.
     */
    List<Warning> disturbed(List<Disturbed> disturbed, List<RunResults.TrialRecord> trials) {
        if (disturbed.isEmpty()) {
            return List.of();
        }
        List<String> subjects = new ArrayList<>();
        for (Disturbed d : disturbed) {
            subjects.add(
                    named(d.trial()) + ": " + d.moved() + " of " + d.cells() + " cell" + (d.cells() == 1 ? "" : "s")
                            + " " + String.format(Locale.ROOT, "%+.1f%%", d.shift())
                            + ", "
                            + switch (d.evidence()) {
                                case WAITED -> "it waited for a CPU";
                                case STOLEN -> "the hypervisor stole its time";
                                case BOTH_SIDES -> "as trials of the other side did";
                            }
                            + (d.busier() >= Disturbances.BUSIER_CORES
                                    ? String.format(Locale.ROOT, ", other processes %.1f cores busier", d.busier())
                                    : ""));
        }
        long replaced = trials.stream().filter(this::replacement).count();
        return List.of(Warning.of(Warning.Kind.DISTURBED_TRIALS, subjects, Map.of("replaced", replaced, "most", (long)
                replacements(plan.trials()))));
    }

    /**
     * Returns how a warning names {@code trial}: "base trial 1", and in a shard's run "base trial 1
     * of shard 3", since the shards merged have a base trial 1 each.
     */
    private String named(RunResults.TrialRecord trial) {
        return trial.named() + ofShard();
    }

    /**
     * Returns {@code w} with the figures {@code shard} and {@code shards} of a shard's run, so that a
     * merge of shards says whose trials it speaks of; {@code w} itself in a run of the whole suite.
     */
    private Warning ofThisShard(Warning w) {
        if (sharding.isEmpty()) {
            return w;
        }
        Map<String, Long> figures = new HashMap<>(w.figures());
        figures.put("shard", (long) sharding.get().parts().get(0).index());
        figures.put("shards", (long) sharding.get().count());
        return Warning.of(w.kind(), w.subjects(), figures);
    }

    /** Returns " of shard K" in a shard's run; empty in a run of the whole suite. */
    private String ofShard() {
        return sharding.map(s -> " of shard " + s.parts().get(0).index()).orElse("");
    }

    /** Returns the warning that counts came from the count cache, naming the sides that took them; empty when none did. */
    static Optional<Warning> cachedCounts(List<RunResults.TrialRecord> trials) {
        java.util.Set<String> sides = new java.util.LinkedHashSet<>();
        long taken = 0;
        long counted = 0;
        long from = 0;
        for (RunResults.TrialRecord t : trials) {
            if (t.warmup() || t.status() != RunResults.Status.OK) {
                continue;
            }
            long cells = t.measurements().stream()
                    .map(m -> m.cell().name())
                    .distinct()
                    .count();
            counted += Math.max(0, cells - t.cached().size());
            if (!t.cached().isEmpty()) {
                sides.add(t.side().id() + (t.build() == 0 ? "" : " build " + t.build()));
                taken += t.cached().size();
                from++;
            }
        }
        return sides.isEmpty()
                ? Optional.empty()
                : Optional.of(Warning.of(
                        Warning.Kind.CACHED_COUNTS,
                        List.copyOf(sides),
                        Map.of("trials", from, "counts", taken, "counted", counted)));
    }

    /** Returns what a reader of the results must know about the run, in the order it matters. */
    List<Warning> warnings(Ledger.Snapshot done, boolean interrupted) {
        List<Warning> warnings = new ArrayList<>();
        if (plan.aa()) {
            warnings.add(Warning.of(Warning.Kind.AA_RUN, plan.head().shortId()));
        } else if (plan.mergeBase().tree().equals(plan.head().tree())) {
            warnings.add(Warning.of(
                    Warning.Kind.SAME_SOURCES, Ids.shortId(plan.head().tree())));
        } else if (harnessFiles.erasesTheChange()) {
            warnings.add(Warning.of(
                    Warning.Kind.HARNESS_IS_THE_CHANGE,
                    harnessFiles.files().stream()
                            .filter(f -> f.state() != RunResults.HarnessFile.State.SAME)
                            .map(RunResults.HarnessFile::path)
                            .toList(),
                    Map.of()));
        } else {
            identicalBuilds(done).ifPresent(warnings::add);
        }
        unperturbed(done).ifPresent(warnings::add);
        warnings.addAll(done.warnings());
        if (!sharedPrograms.isEmpty()) {
            warnings.add(Warning.of(
                    Warning.Kind.SHARED_PROGRAMS,
                    sharedPrograms.stream().map(Path::toString).toList(),
                    Map.of()));
        }
        Map<Side, Integer> ok = new EnumMap<>(Side.class);
        List<String> failures = new ArrayList<>();
        List<String> leftovers = new ArrayList<>();
        List<String> ticks = new ArrayList<>();
        long told = 0;
        for (RunResults.TrialRecord t : done.trials()) {
            String which = named(t) + ": ";
            Load.CpuClock clock = t.load().map(Load::cpuClock).orElse(Load.CpuClock.UNTOLD);
            told += clock == Load.CpuClock.UNTOLD ? 0 : 1;
            if (clock == Load.CpuClock.TICKS) {
                ticks.add(named(t));
            }
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
        cachedCounts(done.trials()).ifPresent(warnings::add);
        if (!leftovers.isEmpty()) {
            warnings.add(Warning.of(Warning.Kind.LEFTOVER_PROCESSES, leftovers, Map.of()));
        }
        if (!ticks.isEmpty() && ticks.size() < told) {
            warnings.add(
                    Warning.of(Warning.Kind.CPU_CLOCKS, ticks, Map.of("ticks", (long) ticks.size(), "trials", told)));
        }
        busyMachine(done.trials(), machine.cores()).map(this::ofThisShard).ifPresent(warnings::add);
        if (!failures.isEmpty()) {
            warnings.add(Warning.of(Warning.Kind.FAILED_TRIALS, failures, Map.of("trials", (long)
                    done.trials().size())));
        }
        for (Side side : Side.values()) {
            int n = ok.getOrDefault(side, 0);
            if (n < plan.trials()) {
                warnings.add(Warning.of(
                        Warning.Kind.MISSING_TRIALS,
                        List.of(side.id() + ofShard()),
                        Map.of(
                                "measured",
                                (long) n,
                                "asked",
                                (long) plan.trials(),
                                "interrupted",
                                interrupted ? 1L : 0L)));
            }
        }
        return warnings;
    }

    /**
     * Returns the warning that the machine was busy while the counted trials of {@code trials} ran,
     * on a machine of {@code cores} cores: other processes kept {@value #BUSY_OTHERS_CORES} of a
     * core or more busy, the run queue passed {@value #BUSY_RUN_QUEUE_PER_CORE} per core, or the
     * hypervisor took more than {@value #BUSY_STEAL_SHARE} of the time, on average over the trials'
     * time. Empty when it was not, or no counted trial's load is known.
     */
    static Optional<Warning> busyMachine(List<RunResults.TrialRecord> trials, int cores) {
        List<Load> loads = trials.stream()
                .filter(t -> !t.warmup() && t.status() == RunResults.Status.OK)
                .flatMap(t -> t.load().stream())
                .toList();
        Optional<Load> all = Load.combine(loads);
        if (all.isEmpty()) {
            return Optional.empty();
        }
        Load l = all.get();
        if (l.othersCores() < BUSY_OTHERS_CORES
                && l.runQueueMean() <= BUSY_RUN_QUEUE_PER_CORE * cores
                && l.stealShare() <= BUSY_STEAL_SHARE) {
            return Optional.empty();
        }
        return Optional.of(Warning.of(
                Warning.Kind.BUSY_MACHINE,
                List.of(),
                Map.of(
                        "othersMillicores",
                        Math.round(l.othersCores() * 1000),
                        "cores",
                        (long) cores,
                        "runQueueMilli",
                        Math.round(l.runQueueMean() * 1000),
                        "runQueueMax",
                        (long) l.runQueueMax(),
                        "stealPermille",
                        Math.round(l.stealShare() * 1000),
                        "trials",
                        (long) loads.size())));
    }

    /**
     * Returns the warning that a side's several builds may not differ in code layout: built without
     * {@code build.perturb}, or built byte-identical with it, or not built at all (a workload
     * without a build step checks each side out K times, identically); empty with one build per
     * side. Its subjects are the sides whose builds are known to be the same: both, without a build
     * step.
     */
    private Optional<Warning> unperturbed(Ledger.Snapshot done) {
        if (plan.builds() < 2) {
            return Optional.empty();
        }
        if (workload.build().isEmpty()) {
            return Optional.of(Warning.of(
                    Warning.Kind.UNPERTURBED_BUILDS,
                    List.of(Side.BASE.id(), Side.HEAD.id()),
                    Map.of("builds", (long) plan.builds(), "perturbed", 0L, "noBuildStep", 1L)));
        }
        boolean perturbed = workload.build().get().perturb().isPresent();
        List<String> identical = new ArrayList<>();
        for (Side side : Side.values()) {
            List<Trees.Fingerprint> outputs = done.builds().entrySet().stream()
                    .filter(e -> e.getKey().side() == side)
                    .map(e -> e.getValue().outputs())
                    .distinct()
                    .toList();
            if (outputs.size() == 1 && outputs.get(0).files() > 0) {
                identical.add(side.id());
            }
        }
        if (perturbed && identical.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(Warning.of(
                Warning.Kind.UNPERTURBED_BUILDS,
                identical,
                Map.of("builds", (long) plan.builds(), "perturbed", perturbed ? 1L : 0L, "noBuildStep", 0L)));
    }

    /**
     * Returns the warning that builds of the two sides wrote byte-identical outputs from different
     * sources, naming each build where they did; empty when none did or nothing was built.
     */
    private Optional<Warning> identicalBuilds(Ledger.Snapshot done) {
        if (workload.build().isEmpty()) {
            return Optional.empty();
        }
        Map<List<Object>, Builder.Result> byBuild = new LinkedHashMap<>();
        done.builds().forEach((dir, r) -> byBuild.put(List.of(dir.side(), dir.build()), r));
        List<String> identical = new ArrayList<>();
        long files = 0;
        for (int b = 0; b < plan.builds(); b++) {
            Builder.Result base = byBuild.get(List.of(Side.BASE, b));
            Builder.Result head = byBuild.get(List.of(Side.HEAD, b));
            if (base != null
                    && head != null
                    && base.outputs().files() > 0
                    && base.outputs().equals(head.outputs())) {
                identical.add(Integer.toString(b));
                files = Math.max(files, base.outputs().files());
            }
        }
        return identical.isEmpty()
                ? Optional.empty()
                : Optional.of(Warning.of(Warning.Kind.IDENTICAL_BUILDS, identical, Map.of("files", files)));
    }
}
