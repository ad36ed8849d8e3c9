package org.perfab.ab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.perfab.model.Cell;
import org.perfab.model.Load;
import org.perfab.model.Measurement;
import org.perfab.model.RunResults;
import org.perfab.model.Sharding;
import org.perfab.model.Side;
import org.perfab.model.Warning;
import org.perfab.stats.Direction;
import org.perfab.stats.Verdict;
import org.perfab.workload.WorkloadLoader;

class AssemblyTest {
    private static final RunResults.Machine MACHINE = new RunResults.Machine("cpu", 2, "os", "k", "jvm", "");
    private static final Instant NOW = Instant.parse("2026-11-01T10:05:00Z");

    private static Assembly assembly(Plan plan) {
        return assembly(plan, Optional.empty());
    }

    private static Assembly assembly(Plan plan, Optional<Sharding> sharding) {
        return new Assembly(
                plan,
                WorkloadLoader.parse(plan.workloadText(), "w"),
                MACHINE,
                HarnessFiles.NONE,
                List.of(),
                List.of(Verdict.REGRESSION),
                Optional.empty(),
                Path.of("no-trial-results"),
                sharding);
    }

    private static RunResults.TrialRecord trial(
            int seq, Side side, int trial, RunResults.Status status, String unit, double value) {
        Cell cell = new Cell("a", "time", unit, Direction.LOWER_IS_BETTER);
        return new RunResults.TrialRecord(
                seq,
                side,
                0,
                trial,
                false,
                status,
                status == RunResults.Status.OK ? "" : "boom",
                1,
                "",
                status == RunResults.Status.OK ? List.of(new Measurement(cell, side, 0, trial, value)) : List.of());
    }

    private static SideDir side(Side side, int build) {
        return SideDir.of(Path.of("work"), side, build);
    }

    private static Builder.Result built(String digest) {
        return new Builder.Result(new Trees.Fingerprint(digest, 3, 300), 1, false, 0);
    }

    @Test
    void convertsAUnitTheHeadChangedAndClassifies() {
        List<RunResults.TrialRecord> trials = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            trials.add(trial(2 * i, Side.BASE, i, RunResults.Status.OK, "us", 100 + i));
            trials.add(trial(2 * i + 1, Side.HEAD, i, RunResults.Status.OK, "ns", 120_000 + 1000 * i));
        }
        Ledger.Snapshot done = new Ledger.Snapshot(trials, Map.of(), List.of(), 1, 2, 3);
        RunResults r = assembly(Plans.plan(3, 0, 1)).results(done, false, 10, NOW);
        assertEquals(1, r.table().rows().size());
        assertEquals("us", r.table().rows().get(0).cell().unit());
        assertEquals(121.0, r.table().rows().get(0).comparison().head().mean(), 1e-9);
        assertEquals(Verdict.REGRESSION, r.table().rows().get(0).comparison().verdict());
        assertEquals(List.of(Verdict.REGRESSION), r.settings().failOn());
        assertEquals(new RunResults.Timing(10, 1, 2, 3), r.timing());
        assertEquals(List.of(), r.table().warnings());
    }

    @Test
    void leavesOutValuesThatDoNotConvertAndSaysHowMany() {
        List<RunResults.TrialRecord> trials = List.of(
                trial(0, Side.BASE, 0, RunResults.Status.OK, "us", 1),
                trial(1, Side.HEAD, 0, RunResults.Status.OK, "KiB", 1),
                trial(2, Side.HEAD, 1, RunResults.Status.OK, "KiB", 1),
                trial(3, Side.BASE, 1, RunResults.Status.OK, "us", 1));
        RunResults r = assembly(Plans.plan(2, 0, 1))
                .results(new Ledger.Snapshot(trials, Map.of(), List.of(), 0, 0, 0), false, 1, NOW);
        assertTrue(
                r.table()
                        .warnings()
                        .contains(Warning.of(
                                Warning.Kind.UNCONVERTIBLE_UNITS,
                                List.of("a", "time", "KiB", "us"),
                                Map.of("values", 2L))),
                r.table().warnings().toString());
        assertTrue(
                r.table()
                                .warnings()
                                .contains(Warning.of(
                                        Warning.Kind.MISSING_TRIALS,
                                        List.of("head"),
                                        Map.of("measured", 2L, "asked", 2L, "interrupted", 0L)))
                        == false,
                "both head trials ran");
        assertEquals(Verdict.NO_DATA, r.table().rows().get(0).comparison().verdict());
    }

    @Test
    void warnsOfIdenticalBuildsFailedAndMissingTrials() {
        List<RunResults.TrialRecord> trials = List.of(
                trial(0, Side.BASE, 0, RunResults.Status.OK, "us", 1),
                trial(1, Side.HEAD, 0, RunResults.Status.FAILED, "us", 0));
        Map<SideDir, Builder.Result> builds = Map.of(
                side(Side.BASE, 0),
                built("x"),
                side(Side.HEAD, 0),
                built("x"),
                side(Side.BASE, 1),
                built("y"),
                side(Side.HEAD, 1),
                built("z"));
        List<Warning> w =
                assembly(Plans.plan(2, 0, 2)).warnings(new Ledger.Snapshot(trials, builds, List.of(), 0, 0, 0), true);
        assertEquals(
                List.of(
                        Warning.of(Warning.Kind.IDENTICAL_BUILDS, List.of("0"), Map.of("files", 3L)),
                        Warning.of(
                                Warning.Kind.UNPERTURBED_BUILDS,
                                List.of(),
                                Map.of("builds", 2L, "perturbed", 0L, "noBuildStep", 0L)),
                        Warning.of(Warning.Kind.FAILED_TRIALS, List.of("head trial 1: boom"), Map.of("trials", 2L)),
                        Warning.of(
                                Warning.Kind.MISSING_TRIALS,
                                List.of("base"),
                                Map.of("measured", 1L, "asked", 2L, "interrupted", 1L)),
                        Warning.of(
                                Warning.Kind.MISSING_TRIALS,
                                List.of("head"),
                                Map.of("measured", 0L, "asked", 2L, "interrupted", 1L))),
                w);
    }

    @Test
    void severalBuildsWithoutABuildStepNameBothSidesAsOneBuild() {
        String unbuilt = "name: unit\nharness:\n  run: [sh, bench.sh]\n";
        List<Warning> w = assembly(Plans.plan(6, 0, 3, unbuilt))
                .warnings(new Ledger.Snapshot(List.of(), Map.of(), List.of(), 0, 0, 0), false);
        assertTrue(
                w.contains(Warning.of(
                        Warning.Kind.UNPERTURBED_BUILDS,
                        List.of("base", "head"),
                        Map.of("builds", 3L, "perturbed", 0L, "noBuildStep", 1L))),
                w.toString());
        List<Warning> one = assembly(Plans.plan(6, 0, 1, unbuilt))
                .warnings(new Ledger.Snapshot(List.of(), Map.of(), List.of(), 0, 0, 0), false);
        assertTrue(
                one.stream().noneMatch(x -> x.kind() == Warning.Kind.UNPERTURBED_BUILDS), "one build: nothing to say");
    }

    @Test
    void perturbedBuildsThatDifferSayNothingAndIdenticalOnesNameTheirSide() {
        String perturbed = Plans.WORKLOAD + "  perturb: [sh, perturb.sh]\n";
        Map<SideDir, Builder.Result> differ = Map.of(
                side(Side.BASE, 0),
                built("a"),
                side(Side.BASE, 1),
                built("b"),
                side(Side.HEAD, 0),
                built("c"),
                side(Side.HEAD, 1),
                built("d"));
        assertTrue(assembly(Plans.plan(2, 0, 2, perturbed))
                .warnings(new Ledger.Snapshot(List.of(), differ, List.of(), 0, 0, 0), false)
                .stream()
                .noneMatch(x -> x.kind() == Warning.Kind.UNPERTURBED_BUILDS));
        Map<SideDir, Builder.Result> headSame = Map.of(
                side(Side.BASE, 0),
                built("a"),
                side(Side.BASE, 1),
                built("b"),
                side(Side.HEAD, 0),
                built("c"),
                side(Side.HEAD, 1),
                built("c"));
        assertTrue(assembly(Plans.plan(2, 0, 2, perturbed))
                .warnings(new Ledger.Snapshot(List.of(), headSame, List.of(), 0, 0, 0), false)
                .contains(Warning.of(
                        Warning.Kind.UNPERTURBED_BUILDS,
                        List.of("head"),
                        Map.of("builds", 2L, "perturbed", 1L, "noBuildStep", 0L))));
    }

    @Test
    void anAaRunSaysSoInsteadOfComparingBuilds() {
        Map<SideDir, Builder.Result> builds = Map.of(side(Side.BASE, 0), built("x"), side(Side.HEAD, 0), built("x"));
        List<Warning> w =
                assembly(Plans.aa(2)).warnings(new Ledger.Snapshot(List.of(), builds, List.of(), 0, 0, 0), false);
        assertEquals(Warning.of(Warning.Kind.AA_RUN, "aaaaaaaaaaaa"), w.get(0));
        assertTrue(w.stream().noneMatch(x -> x.kind() == Warning.Kind.IDENTICAL_BUILDS), w.toString());
    }

    private static RunResults.TrialRecord loaded(int seq, boolean warmup, RunResults.Status status, Load load) {
        Side side = seq % 2 == 0 ? Side.BASE : Side.HEAD;
        return new RunResults.TrialRecord(seq, side, 0, seq / 2, warmup, status, "", load.wallSeconds(), "", List.of())
                .withLoad(Optional.of(load));
    }

    private static Load others(double cores) {
        return new Load(1, 0.9, cores, 0, 1, 1);
    }

    @Test
    void warnsOfABusyMachineFromHalfACoreOfOthers() {
        double bar = Assembly.BUSY_OTHERS_CORES;
        assertEquals(
                Optional.empty(),
                Assembly.busyMachine(List.of(loaded(0, false, RunResults.Status.OK, others(Math.nextDown(bar)))), 2));
        Warning w = Assembly.busyMachine(List.of(loaded(0, false, RunResults.Status.OK, others(bar))), 2)
                .orElseThrow();
        assertEquals(
                Warning.of(
                        Warning.Kind.BUSY_MACHINE,
                        List.of(),
                        Map.of(
                                "othersMillicores",
                                500L,
                                "cores",
                                2L,
                                "runQueueMilli",
                                1000L,
                                "runQueueMax",
                                1L,
                                "stealPermille",
                                0L,
                                "trials",
                                1L)),
                w);
    }

    @Test
    void warnsOfABusyMachineFromARunQueueLongerThanTheCores() {
        Load queue = new Load(2, 1.9, 0, 0, 4, 7);
        assertEquals(Optional.empty(), Assembly.busyMachine(List.of(loaded(0, false, RunResults.Status.OK, queue)), 4));
        Load longer = new Load(2, 1.9, 0, 0, Math.nextUp(4.0), 7);
        Warning w = Assembly.busyMachine(List.of(loaded(0, false, RunResults.Status.OK, longer)), 4)
                .orElseThrow();
        assertEquals(4000L, w.figure("runQueueMilli"));
        assertEquals(7L, w.figure("runQueueMax"));
    }

    @Test
    void warnsOfABusyMachineFromStealPastFivePercent() {
        double bar = Assembly.BUSY_STEAL_SHARE;
        Load at = new Load(1, 1, 0, bar, 1, 1);
        assertEquals(Optional.empty(), Assembly.busyMachine(List.of(loaded(0, false, RunResults.Status.OK, at)), 2));
        Load past = new Load(1, 1, 0, Math.nextUp(bar), 1, 1);
        assertEquals(
                50L,
                Assembly.busyMachine(List.of(loaded(0, false, RunResults.Status.OK, past)), 2)
                        .orElseThrow()
                        .figure("stealPermille"));
    }

    @Test
    void judgesTheMachineOverTheCountedTrialsWeightedByTheirTime() {
        // A busy warm-up and a busy failed trial are not counted; one long quiet trial outweighs a short busy one.
        List<RunResults.TrialRecord> trials = List.of(
                loaded(0, true, RunResults.Status.OK, others(1.9)),
                loaded(1, false, RunResults.Status.FAILED, others(1.9)),
                loaded(2, false, RunResults.Status.OK, new Load(9, 8, 0.1, 0, 1, 2)),
                loaded(3, false, RunResults.Status.OK, new Load(1, 1, 1.9, 0, 1, 2)),
                trial(4, Side.BASE, 2, RunResults.Status.OK, "us", 1));
        assertEquals(Optional.empty(), Assembly.busyMachine(trials, 2), "(9 * 0.1 + 1.9) / 10 = 0.28 cores");
        assertEquals(
                Optional.empty(),
                Assembly.busyMachine(List.of(trial(0, Side.BASE, 0, RunResults.Status.OK, "us", 1)), 2),
                "no load known: nothing to say");
    }

    @Test
    void aBusyRunSaysSoAmongItsWarnings() {
        List<RunResults.TrialRecord> trials = List.of(
                loaded(0, false, RunResults.Status.OK, others(1.8)),
                loaded(1, false, RunResults.Status.OK, others(1.8)));
        List<Warning> w = assembly(Plans.plan(1, 0, 1))
                .warnings(new Ledger.Snapshot(trials, Map.of(), List.of(), 0, 0, 0), false);
        assertTrue(
                w.stream()
                        .anyMatch(x -> x.kind() == Warning.Kind.BUSY_MACHINE
                                && x.figure("othersMillicores") == 1800
                                && x.figure("cores") == MACHINE.cores()),
                w.toString());
    }

    @Test
    void aShardsBusyMachineNamesTheShard() {
        List<RunResults.TrialRecord> trials = List.of(
                loaded(0, false, RunResults.Status.OK, others(1.8)),
                loaded(1, false, RunResults.Status.OK, others(1.8)));
        Sharding third = new Sharding(
                4, List.of(new Sharding.Part(3, Sharding.State.MEASURED, "r", 8, "s", "count", List.of("a", "b"), 0)));
        Warning w = assembly(Plans.plan(1, 0, 1), Optional.of(third))
                .warnings(new Ledger.Snapshot(trials, Map.of(), List.of(), 0, 0, 0), false)
                .stream()
                .filter(x -> x.kind() == Warning.Kind.BUSY_MACHINE)
                .findFirst()
                .orElseThrow();
        assertEquals(3, w.figure("shard"));
        assertEquals(4, w.figure("shards"));
        assertEquals(1800, w.figure("othersMillicores"));
    }

    @Test
    void trialsWhoseCpuTimeWasCountedInTicksAmongCgroupOnesAreNamed() {
        Load cgroup = new Load(1, 0.9, 0, 0, 1, 1, Load.CpuClock.CGROUP);
        Load ticks = new Load(1, 0.9, 0, 0, 1, 1, Load.CpuClock.TICKS);
        List<RunResults.TrialRecord> mixed = List.of(
                loaded(0, false, RunResults.Status.OK, cgroup),
                loaded(1, false, RunResults.Status.OK, cgroup),
                loaded(2, false, RunResults.Status.OK, ticks));
        List<Warning> w =
                assembly(Plans.plan(1, 0, 2)).warnings(new Ledger.Snapshot(mixed, Map.of(), List.of(), 0, 0, 0), false);
        Warning clocks = w.stream()
                .filter(x -> x.kind() == Warning.Kind.CPU_CLOCKS)
                .findFirst()
                .orElseThrow(() -> new AssertionError(w.toString()));
        assertEquals(1L, clocks.figure("ticks"));
        assertEquals(3L, clocks.figure("trials"));
        assertEquals(1, clocks.subjects().size(), clocks.toString());
        for (Load same : List.of(cgroup, ticks)) {
            List<RunResults.TrialRecord> one =
                    List.of(loaded(0, false, RunResults.Status.OK, same), loaded(1, false, RunResults.Status.OK, same));
            assertTrue(
                    assembly(Plans.plan(1, 0, 1))
                            .warnings(new Ledger.Snapshot(one, Map.of(), List.of(), 0, 0, 0), false)
                            .stream()
                            .noneMatch(x -> x.kind() == Warning.Kind.CPU_CLOCKS),
                    "one clock: nothing to say");
        }
    }
}
