package org.perfab.model;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.perfab.stats.Thresholds;
import org.perfab.stats.Verdict;

/**
 * The shards of one A/B, merged into one run: every shard's trials, and one table of every cell
 * judged together, as one run of the whole suite on the same values would judge them. The
 * false-discovery control is over every cell of the suite, not of a shard; with adaptive trials
 * each cell is judged at the looks its own shard took (see {@link Judge}).
 */
public final class Shards {
    private Shards() {
    }

    /**
     * Returns the shards {@code runs} merged into one run, shards that were not given named
     * {@link Sharding.State#MISSING}. {@code sources} names each run (its file) in a refusal.
     *
     * @throws IllegalArgumentException when a run is not a shard's own, the runs are not of one
     *     A/B (other commits, workloads or counts of shards), a shard is given twice, or two
     *     shards measured one cell
     */
    public static RunResults merge(List<RunResults> runs, List<String> sources) {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("no shards to merge");
        }
        RunResults first = runs.get(0);
        int count = -1;
        Map<Integer, Integer> byIndex = new TreeMap<>();
        for (int i = 0; i < runs.size(); i++) {
            RunResults r = runs.get(i);
            String source = sources.get(i) + ": ";
            Sharding s = r.sharding().orElseThrow(() -> new IllegalArgumentException(source + "not a shard: the run holds"
                    + " the whole suite (it ran without --shard)"));
            if (s.parts().size() != 1) {
                throw new IllegalArgumentException(source + "already merged: it holds " + s.parts().size() + " shards;"
                        + " give the results of each shard's own run");
            }
            if (count < 0) {
                count = s.count();
            } else if (s.count() != count) {
                throw new IllegalArgumentException(source + "it is a shard of " + s.count() + " where " + sources.get(0)
                        + " is one of " + count + ": shards of one A/B are split alike");
            }
            if (!r.provenance().mergeBase().equals(first.provenance().mergeBase())
                    || !r.provenance().head().commit().equals(first.provenance().head().commit())) {
                throw new IllegalArgumentException(source + "not a shard of the same A/B: it measured " + r.provenance().mergeBase()
                        + " against " + r.provenance().head().commit() + " where " + sources.get(0) + " measured "
                        + first.provenance().mergeBase() + " against " + first.provenance().head().commit());
            }
            if (!r.settings().workload().equals(first.settings().workload()) || !r.name().equals(first.name())) {
                throw new IllegalArgumentException(source + "not a shard of the same workload: '" + r.name() + "' ("
                        + r.settings().workload() + ") where " + sources.get(0) + " is '" + first.name() + "' ("
                        + first.settings().workload() + ")");
            }
            if (!r.table().thresholds().equals(first.table().thresholds())) {
                throw new IllegalArgumentException(source + "judged by other settings than " + sources.get(0) + " (alpha, min"
                        + " effect, adaptive trials or false-discovery rate): shards of one A/B share them");
            }
            Sharding.Part part = s.parts().get(0);
            Sharding.Part firstPart = first.sharding().get().parts().get(0);
            if (!part.suite().equals(firstPart.suite())) {
                throw new IllegalArgumentException(source + "its harness listed another suite than " + sources.get(0)
                        + "'s (" + part.listed() + " benchmarks against " + firstPart.listed() + "), so their slices"
                        + " do not fit together: a listing that differs from runner to runner leaves benchmarks in no"
                        + " shard or in two");
            }
            if (!part.cut().equals(firstPart.cut())) {
                throw new IllegalArgumentException(source + "its suite was cut " + cutWords(part.cut()) + ", and "
                        + sources.get(0) + "'s " + cutWords(firstPart.cut()) + ", so their slices do not fit together:"
                        + " give every shard the same --shard-times, or none");
            }
            Integer other = byIndex.putIfAbsent(part.index(), i);
            if (other != null) {
                throw new IllegalArgumentException(source + "shard " + s.parts().get(0).index() + " of " + count + " is "
                        + sources.get(other) + " too: give each shard once");
            }
        }
        // Disjoint slices measure disjoint cells: a cell of two shards would be judged twice.
        Map<CellId, Integer> measuredBy = new HashMap<>();
        for (int i = 0; i < runs.size(); i++) {
            for (CellComparison row : runs.get(i).table().rows()) {
                Integer other = measuredBy.putIfAbsent(row.cell().id(), i);
                if (other != null && other != i) {
                    throw new IllegalArgumentException("cell " + row.cell().id() + " is in both " + sources.get(other)
                            + " and " + sources.get(i) + ": the shards overlap (a harness that runs other benchmarks"
                            + " than its filter names?)");
                }
            }
        }
        List<Sharding.Part> parts = new ArrayList<>();
        List<List<RunResults.TrialRecord>> trialsByShard = new ArrayList<>();
        List<RunResults.TrialRecord> trials = new ArrayList<>();
        List<Warning> warnings = new ArrayList<>();
        Set<CellId> profiles = new HashSet<>();
        Map<CellId, CellComparison> rows = new HashMap<>();
        Instant started = first.startedAt();
        Optional<Instant> finished = first.finishedAt();
        boolean interrupted = false;
        double[] timing = new double[4];
        int listed = first.sharding().get().parts().get(0).listed();
        String suite = first.sharding().get().parts().get(0).suite();
        String cut = first.sharding().get().parts().get(0).cut();
        for (int k = 1; k <= count; k++) {
            Integer i = byIndex.get(k);
            if (i == null) {
                parts.add(new Sharding.Part(k, Sharding.State.MISSING, "", listed, suite, cut, List.of(), 0));
                continue;
            }
            RunResults r = runs.get(i);
            Sharding.Part own = r.sharding().get().parts().get(0);
            parts.add(new Sharding.Part(k, state(r), runner(r), own.listed(), own.suite(), own.cut(), own.benchmarks(),
                    r.trials().size()));
            trialsByShard.add(r.trials());
            trials.addAll(r.trials());
            for (Warning w : r.table().warnings()) {
                if (!warnings.contains(w)) {
                    warnings.add(w);
                }
            }
            for (CellComparison row : r.table().rows()) {
                rows.put(row.cell().id(), row);
                if (row.comparison().verdict() == Verdict.PROFILE) {
                    profiles.add(row.cell().id());
                }
            }
            started = r.startedAt().isBefore(started) ? r.startedAt() : started;
            finished = finished.isPresent() && r.finishedAt().isPresent()
                    ? Optional.of(r.finishedAt().get().isAfter(finished.get()) ? r.finishedAt().get() : finished.get())
                    : Optional.empty();
            interrupted |= r.interrupted();
            RunResults.Timing t = r.timing();
            timing[0] = Math.max(timing[0], t.total());
            timing[1] = Math.max(timing[1], t.checkout());
            timing[2] = Math.max(timing[2], t.build());
            timing[3] = Math.max(timing[3], t.trials());
        }
        Thresholds thresholds = first.table().thresholds();
        ComparisonTable table = Judge.table(first.table().baseLabel(), first.table().headLabel(), trialsByShard,
                thresholds, cell -> profiles.contains(cell.id())).withWarnings(warnings)
                .withFunctions(r -> Optional.ofNullable(rows.get(r.cell().id())).map(CellComparison::functions)
                        .orElse(List.of()))
                .withNoiseFloors(r -> Optional.ofNullable(rows.get(r.cell().id())).map(CellComparison::noiseFloor)
                        .orElse(Double.NaN))
                .countedInstead(r -> Optional.ofNullable(rows.get(r.cell().id())).map(CellComparison::countedInstead)
                        .orElse(false));
        return new RunResults(first.name(), first.provenance(), first.machine(), first.settings(), started, finished,
                interrupted, new RunResults.Timing(timing[0], timing[1], timing[2], timing[3]), trials, table,
                Optional.of(new Sharding(count, parts)));
    }

    /**
     * Returns the trials of shards merged, shard by shard (each part's own, in the order of the
     * parts); the run's trials as one list for any other run.
     *
     * @throws IllegalArgumentException when the parts' counts of trials are not the run's
     */
    public static List<List<RunResults.TrialRecord>> trialsByShard(RunResults run) {
        if (run.sharding().isEmpty() || !run.sharding().get().merged()) {
            return List.of(run.trials());
        }
        List<List<RunResults.TrialRecord>> out = new ArrayList<>();
        int from = 0;
        for (Sharding.Part p : run.sharding().get().parts()) {
            if (from + p.trials() > run.trials().size()) {
                throw new IllegalArgumentException("the shards hold more trials than the run's " + run.trials().size());
            }
            out.add(run.trials().subList(from, from + p.trials()));
            from += p.trials();
        }
        if (from != run.trials().size()) {
            throw new IllegalArgumentException("the shards hold " + from + " of the run's " + run.trials().size()
                    + " trials");
        }
        return out;
    }

    /** Returns the runner a shard's run names: the CI runner's name, else the CPU. */
    /** Returns how a {@link Sharding.Part#cut} reads in a sentence: "by count", "by the times time:…". */
    private static String cutWords(String cut) {
        return cut.equals(Sharding.BY_COUNT) ? "by count" : "by the times of an earlier run (" + cut + ")";
    }

    private static String runner(RunResults r) {
        return r.machine().runner().isBlank() ? r.machine().cpu() : r.machine().runner();
    }

    /** Returns how a shard's run ended: stopped early, without a counted trial on a side, or measured. */
    private static Sharding.State state(RunResults r) {
        if (r.interrupted()) {
            return Sharding.State.INTERRUPTED;
        }
        Set<Side> measured = new LinkedHashSet<>();
        for (RunResults.TrialRecord t : r.trials()) {
            if (!t.warmup() && t.status() == RunResults.Status.OK) {
                measured.add(t.side());
            }
        }
        boolean slice = !r.sharding().get().parts().get(0).benchmarks().isEmpty();
        return slice && measured.size() < Side.values().length ? Sharding.State.FAILED : Sharding.State.MEASURED;
    }
}
