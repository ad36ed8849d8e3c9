package org.perfab.model;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.perfab.stats.Comparison;
import org.perfab.stats.Direction;
import org.perfab.stats.Thresholds;
import org.perfab.stats.Verdict;

/**
 * The shards of one A/B, merged into one run: every shard's trials, and one table of every cell
 * judged together, as one run of the whole suite on the same values would judge them. The
 * false-discovery control is over every cell of the suite, not of a shard; with adaptive trials
 * each cell is judged at the looks its own shard took (see {@link Judge}).
 */
public final class Shards {
    private Shards() {}

    /**
     * A shard's results file that did not read: what is known of it.
     *
     * @param source the file, as messages name it
     * @param reason why it did not read
     * @param shard the shard the file says it is, in what did read before the fault; empty when it
     *     does not say
     * @param commits the base and head commits it says it measured ({@code MERGEBASE..HEAD}); empty
     *     when it does not say
     */
    public record Unreadable(String source, String reason, Optional<Sharding.Shard> shard, String commits) {
        public Unreadable {
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(shard, "shard");
            Objects.requireNonNull(commits, "commits");
        }
    }

    /**
     * Returns the shards {@code runs} merged into one run, shards that were not given named
     * {@link Sharding.State#MISSING}, or {@link Sharding.State#UNREADABLE} where one of
     * {@code unreadable} says it is that shard of this A/B. {@code sources} names each run (its
     * file) in a refusal. What the shards that lack results did not measure is in the table, each
     * benchmark a row of its own, inconclusive (see {@link #withUnmeasured}).
     *
     * @throws IllegalArgumentException when a run is not a shard's own, the runs are not of one
     *     A/B (other commits, workload, settings, thresholds, counts of shards, listings or cuts), a
     *     shard is given twice, two shards claim one benchmark or measured one cell, or what a shard
     *     states of its slice does not fit what the others state
     */
    public static RunResults merge(List<RunResults> runs, List<String> sources, List<Unreadable> unreadable) {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("no shards to merge");
        }
        Map<Integer, Integer> byIndex = checkShards(runs, sources);
        RunResults first = runs.get(0);
        int count = first.sharding().get().count();
        checkSlices(runs, sources, byIndex.size() == count);
        Map<Integer, List<String>> lackingOwn = placed(runs, sources, byIndex, count);
        Map<Integer, Unreadable> unreadableAt = unreadableAt(unreadable, first, byIndex);
        Sharding.Part firstPart = first.sharding().get().parts().get(0);
        List<Sharding.Part> parts = new ArrayList<>();
        List<List<RunResults.TrialRecord>> trialsByPart = new ArrayList<>();
        List<RunResults> given = new ArrayList<>();
        for (int k = 1; k <= count; k++) {
            Integer i = byIndex.get(k);
            if (i == null) {
                parts.add(new Sharding.Part(
                        k,
                        unreadableAt.containsKey(k) ? Sharding.State.UNREADABLE : Sharding.State.MISSING,
                        "",
                        firstPart.listed(),
                        firstPart.suite(),
                        firstPart.cut(),
                        lackingOwn.getOrDefault(k, List.of()),
                        0));
                trialsByPart.add(List.of());
                continue;
            }
            RunResults r = runs.get(i);
            Sharding.Part own = r.sharding().get().parts().get(0);
            parts.add(new Sharding.Part(
                    k,
                    state(r),
                    runner(r),
                    own.listed(),
                    own.suite(),
                    own.cut(),
                    own.benchmarks(),
                    r.trials().size()));
            trialsByPart.add(r.trials());
            given.add(r);
        }
        Sharding sharding = new Sharding(count, parts);
        List<List<RunResults.TrialRecord>> trialsByShard =
                given.stream().map(RunResults::trials).toList();
        RowFacts facts = RowFacts.of(
                given.stream().flatMap(r -> r.table().rows().stream()).toList());
        ComparisonTable table = facts.on(Judge.table(
                        first.table().baseLabel(),
                        first.table().headLabel(),
                        trialsByShard,
                        first.table().thresholds(),
                        facts::profile)
                .withWarnings(warnings(given, unreadable, unreadableAt, count)));
        Instant started = given.stream()
                .map(RunResults::startedAt)
                .min(Instant::compareTo)
                .orElseThrow();
        Optional<Instant> finished = given.stream().allMatch(r -> r.finishedAt().isPresent())
                ? given.stream().map(r -> r.finishedAt().get()).max(Instant::compareTo)
                : Optional.empty();
        return new RunResults(
                first.name(),
                first.provenance(),
                first.machine(),
                settings(runs),
                started,
                finished,
                given.stream().anyMatch(RunResults::interrupted),
                longest(given),
                trialsByShard.stream().flatMap(List::stream).toList(),
                withUnmeasured(table, sharding, trialsByPart),
                Optional.of(sharding));
    }

    /**
     * Returns each shard of {@code first}'s A/B that was not given, by its index, with the first of
     * {@code unreadable} that says it is that shard: of as many shards, and of the same commits.
     */
    private static Map<Integer, Unreadable> unreadableAt(
            List<Unreadable> unreadable, RunResults first, Map<Integer, Integer> byIndex) {
        int count = first.sharding().get().count();
        String commits = first.provenance().mergeBase() + ".."
                + first.provenance().head().commit();
        Map<Integer, Unreadable> unreadableAt = new TreeMap<>();
        for (Unreadable u : unreadable) {
            if (u.shard().isPresent()
                    && u.shard().get().count() == count
                    && u.commits().equals(commits)
                    && !byIndex.containsKey(u.shard().get().index())) {
                unreadableAt.putIfAbsent(u.shard().get().index(), u);
            }
        }
        return unreadableAt;
    }

    /** Returns the settings of the merged run: the first shard's, with the most trials any shard asked for. */
    private static RunResults.Settings settings(List<RunResults> runs) {
        RunResults.Settings f = runs.get(0).settings();
        int most = runs.stream().mapToInt(r -> r.settings().trials()).max().orElseThrow();
        return new RunResults.Settings(
                f.workload(),
                most,
                f.warmup(),
                f.builds(),
                f.harnessFrom(),
                f.format(),
                f.seed(),
                f.profiles(),
                f.harnessFiles(),
                f.failOn(),
                f.padding());
    }

    /**
     * Refuses {@code runs} unless each is one shard's own run of the A/B the first is, cut alike and
     * given once, and returns each shard's index with its place in {@code runs}.
     */
    private static Map<Integer, Integer> checkShards(List<RunResults> runs, List<String> sources) {
        RunResults first = runs.get(0);
        int count = -1;
        Map<Integer, Integer> byIndex = new TreeMap<>();
        for (int i = 0; i < runs.size(); i++) {
            RunResults r = runs.get(i);
            String source = sources.get(i) + ": ";
            Sharding s = r.sharding()
                    .orElseThrow(() -> new IllegalArgumentException(
                            source + "not a shard: the run holds the whole suite (it ran without --shard)"));
            if (s.parts().size() != 1) {
                throw new IllegalArgumentException(source + "already merged: it holds "
                        + s.parts().size() + " shards; give the results of each shard's own run");
            }
            if (count < 0) {
                count = s.count();
            } else if (s.count() != count) {
                throw new IllegalArgumentException(source + "it is a shard of " + s.count() + " where " + sources.get(0)
                        + " is one of " + count + ": shards of one A/B are split alike");
            }
            sameAb(r, source, first, sources.get(0));
            sameSuite(s.parts().get(0), source, first.sharding().get().parts().get(0), sources.get(0));
            ownClaims(r, source, count);
            Integer other = byIndex.putIfAbsent(s.parts().get(0).index(), i);
            if (other != null) {
                throw new IllegalArgumentException(
                        source + "shard " + s.parts().get(0).index() + " of " + count + " is " + sources.get(other)
                                + " too: give each shard once");
            }
        }
        return byIndex;
    }

    /** Refuses a shard whose {@code part} was listed or cut otherwise than the first's. */
    private static void sameSuite(Sharding.Part part, String source, Sharding.Part firstPart, String firstSource) {
        if (!part.suite().equals(firstPart.suite()) || part.listed() != firstPart.listed()) {
            throw new IllegalArgumentException(source + "its harness listed another suite than " + firstSource
                    + "'s (" + part.listed() + " benchmarks against " + firstPart.listed() + "), so their slices"
                    + " do not fit together: a listing that differs from runner to runner leaves benchmarks in no"
                    + " shard or in two");
        }
        if (!part.cut().equals(firstPart.cut())) {
            throw new IllegalArgumentException(source + "its suite was cut " + cutWords(part.cut()) + ", and "
                    + firstSource + "'s " + cutWords(firstPart.cut()) + ", so their slices do not fit together:"
                    + " give every shard the same --shard-times, or none");
        }
    }

    /**
     * Refuses shards whose slices overlap, in the cells they measured or the benchmarks they claim,
     * and, when {@code every} shard is given, slices that do not make up the suite every shard listed.
     */
    private static void checkSlices(List<RunResults> runs, List<String> sources, boolean every) {
        // Disjoint slices measure disjoint cells: a cell of two shards would be judged twice.
        Map<CellId, Integer> measuredBy = new HashMap<>();
        Map<String, Integer> ownedBy = new HashMap<>();
        for (int i = 0; i < runs.size(); i++) {
            for (CellComparison row : runs.get(i).table().rows()) {
                Integer other = measuredBy.putIfAbsent(row.cell().id(), i);
                if (other != null && other != i) {
                    throw new IllegalArgumentException("cell " + row.cell().id() + " is in both " + sources.get(other)
                            + " and " + sources.get(i) + ": the shards overlap (a harness that runs other benchmarks"
                            + " than its filter names?)");
                }
            }
            for (String b : runs.get(i).sharding().get().parts().get(0).benchmarks()) {
                Integer other = ownedBy.putIfAbsent(b, i);
                if (other != null) {
                    throw new IllegalArgumentException(sources.get(i) + ": benchmark '" + b + "' is its own, and "
                            + sources.get(other) + "'s too: the slices of one suite are disjoint");
                }
            }
        }
        Sharding.Part firstPart = runs.get(0).sharding().get().parts().get(0);
        if (every
                && (ownedBy.size() != firstPart.listed()
                        || !Sharding.suite(ownedBy.keySet()).equals(firstPart.suite()))) {
            throw new IllegalArgumentException("the slices of " + String.join(", ", sources) + " hold "
                    + ownedBy.size() + " benchmarks, which are not the " + firstPart.listed() + " every shard says its"
                    + " harness listed: a shard claims a slice it was not cut");
        }
    }

    /**
     * Returns the warnings of the shards {@code given}, each once, and one for each of
     * {@code unreadable}, naming the shard of {@code count} it is where {@code unreadableAt} places it.
     */
    private static List<Warning> warnings(
            List<RunResults> given, List<Unreadable> unreadable, Map<Integer, Unreadable> unreadableAt, int count) {
        List<Warning> warnings = new ArrayList<>();
        for (RunResults r : given) {
            for (Warning w : r.table().warnings()) {
                if (!warnings.contains(w)) {
                    warnings.add(w);
                }
            }
        }
        for (Unreadable u : unreadable) {
            int at = unreadableAt.containsValue(u) ? u.shard().get().index() : 0;
            warnings.add(Warning.of(
                    Warning.Kind.UNREADABLE_SHARD,
                    List.of(u.source(), u.reason()),
                    Map.of("shard", (long) at, "shards", (long) count)));
        }
        return warnings;
    }

    /** Returns the timing of shards that ran side by side: each part the longest any shard took. */
    private static RunResults.Timing longest(List<RunResults> runs) {
        double[] timing = new double[4];
        for (RunResults r : runs) {
            RunResults.Timing t = r.timing();
            timing[0] = Math.max(timing[0], t.total());
            timing[1] = Math.max(timing[1], t.checkout());
            timing[2] = Math.max(timing[2], t.build());
            timing[3] = Math.max(timing[3], t.trials());
        }
        return new RunResults.Timing(timing[0], timing[1], timing[2], timing[3]);
    }

    /**
     * Refuses {@code r} unless it is of the A/B {@code first} is: the same commits and trees, the
     * same workload, the same settings of trials and builds, the same verdict rules. A refusal names
     * the setting and both files.
     */
    private static void sameAb(RunResults r, String source, RunResults first, String firstSource) {
        RunResults.Provenance p = r.provenance();
        RunResults.Provenance f = first.provenance();
        if (!p.mergeBase().equals(f.mergeBase())
                || !p.head().commit().equals(f.head().commit())) {
            throw new IllegalArgumentException(source + "not a shard of the same A/B: it measured " + p.mergeBase()
                    + " against " + p.head().commit() + " where " + firstSource + " measured " + f.mergeBase()
                    + " against " + f.head().commit());
        }
        if (!r.settings().workload().equals(first.settings().workload())
                || !r.name().equals(first.name())) {
            throw new IllegalArgumentException(source + "not a shard of the same workload: '" + r.name() + "' ("
                    + r.settings().workload() + ") where " + firstSource + " is '" + first.name() + "' ("
                    + first.settings().workload() + ")");
        }
        RunResults.Settings s = r.settings();
        RunResults.Settings t = first.settings();
        Thresholds a = r.table().thresholds();
        Thresholds b = first.table().thresholds();
        Map<String, List<Object>> settings = new java.util.LinkedHashMap<>();
        settings.put("refs.base.commit", List.of(p.base().commit(), f.base().commit()));
        settings.put("refs.baseTree", List.of(p.baseTree(), f.baseTree()));
        settings.put("refs.headTree", List.of(p.headTree(), f.headTree()));
        settings.put("aa", List.of(p.aa(), f.aa()));
        if (a.adaptive().isEmpty() || b.adaptive().isEmpty()) {
            // With adaptive trials each shard stops at its own look: its trials are those it reached.
            settings.put("settings.trials", List.of(s.trials(), t.trials()));
        }
        settings.put("settings.warmup", List.of(s.warmup(), t.warmup()));
        settings.put("settings.builds", List.of(s.builds(), t.builds()));
        settings.put("settings.harnessFrom", List.of(s.harnessFrom(), t.harnessFrom()));
        settings.put("settings.format", List.of(s.format(), t.format()));
        settings.put("settings.profiles", List.of(s.profiles(), t.profiles()));
        settings.put("thresholds.alpha", List.of(a.alpha(), b.alpha()));
        settings.put("thresholds.minEffect", List.of(a.minEffect(), b.minEffect()));
        settings.put("thresholds.inconclusive", List.of(a.inconclusive(), b.inconclusive()));
        settings.put("thresholds.fdr", List.of(a.fdr(), b.fdr()));
        settings.put("thresholds.outlierFloor", List.of(a.outlierFloor(), b.outlierFloor()));
        settings.put("thresholds.noisyAbove", List.of(a.noisyAbove(), b.noisyAbove()));
        settings.put(
                "thresholds.adaptive (the looks)",
                List.of(
                        a.adaptive().map(Object::toString).orElse("off"),
                        b.adaptive().map(Object::toString).orElse("off")));
        settings.put("thresholds.test", List.of(a.test().id(), b.test().id()));
        settings.forEach((name, both) -> {
            if (!both.get(0).equals(both.get(1))) {
                throw new IllegalArgumentException(source + "its " + name + " is " + both.get(0) + " where "
                        + firstSource + "'s is " + both.get(1) + ": shards of one A/B share their commits, settings"
                        + " and verdict rules");
            }
        });
        if (!a.equals(b)) {
            throw new IllegalArgumentException(source + "judged by other settings than " + firstSource + " (alpha, min"
                    + " effect, adaptive trials or false-discovery rate): shards of one A/B share them");
        }
    }

    /**
     * Refuses a shard's run whose own claims do not fit what it measured or how a suite of its size
     * is cut: its trials not the count its part states, a slice cut by count of another size than
     * its index's, benchmarks its listing places in another shard, or measurements of an empty slice.
     */
    private static void ownClaims(RunResults r, String source, int count) {
        Sharding.Part part = r.sharding().get().parts().get(0);
        if (part.trials() != r.trials().size()) {
            throw new IllegalArgumentException(source + "its shard says it holds " + part.trials() + " trials, and it"
                    + " holds " + r.trials().size());
        }
        if (part.cut().equals(Sharding.BY_COUNT)) {
            int size = sliceSize(part.listed(), count, part.index());
            if (part.benchmarks().size() != size) {
                throw new IllegalArgumentException(source + "shard " + part.index() + " of " + count + " names "
                        + part.benchmarks().size() + " benchmarks of its own, where a suite of " + part.listed()
                        + " cut by count gives it " + size);
            }
            if (!part.listing().isEmpty()) {
                Map<String, Integer> shardOf = Sharding.assign(part.listing(), count);
                for (String b : part.benchmarks()) {
                    if (shardOf.get(b) != part.index()) {
                        throw new IllegalArgumentException(source + "shard " + part.index() + " names '" + b + "' as"
                                + " its own, which its listing places in shard " + shardOf.get(b));
                    }
                }
            }
        }
        if (part.benchmarks().isEmpty() && !RunResults.counted(r.trials()).isEmpty()) {
            throw new IllegalArgumentException(source + "shard " + part.index() + " has no benchmark of its own, and"
                    + " measured " + r.table().rows().size() + " cells");
        }
    }

    /** Returns how many of {@code listed} benchmarks cut by count fall in shard {@code index} of {@code count}. */
    private static int sliceSize(int listed, int count, int index) {
        // Benchmark i (from 0) is in shard i * count / listed + 1: those from ceil((index - 1) * listed / count).
        long from = ((long) (index - 1) * listed + count - 1) / count;
        long to = ((long) index * listed + count - 1) / count;
        return (int) (to - from);
    }

    /**
     * Returns the benchmarks of each shard without results, by index: those the listing a shard
     * recorded places there (by count, each where {@link Sharding#assign} puts it; cut by time,
     * every benchmark no shard holds, when one shard lacks results). Empty where none recorded its
     * listing.
     *
     * @throws IllegalArgumentException when a shard given lacks a benchmark its listing places in it
     */
    private static Map<Integer, List<String>> placed(
            List<RunResults> runs, List<String> sources, Map<Integer, Integer> byIndex, int count) {
        Optional<Sharding.Part> recorded = runs.stream()
                .map(r -> r.sharding().get().parts().get(0))
                .filter(p -> !p.listing().isEmpty())
                .findFirst();
        if (recorded.isEmpty() || byIndex.size() == count) {
            return Map.of();
        }
        Set<String> held = new HashSet<>();
        runs.forEach(r -> held.addAll(r.sharding().get().parts().get(0).benchmarks()));
        Map<Integer, List<String>> out = new TreeMap<>();
        if (recorded.get().cut().equals(Sharding.BY_COUNT)) {
            Sharding.assign(recorded.get().listing(), count).forEach((name, k) -> {
                if (byIndex.containsKey(k) && !held.contains(name)) {
                    throw new IllegalArgumentException(sources.get(byIndex.get(k)) + ": shard " + k + " does not name"
                            + " '" + name + "' as its own, which the suite's listing places in it");
                }
                if (!byIndex.containsKey(k)) {
                    out.computeIfAbsent(k, x -> new ArrayList<>()).add(name);
                }
            });
        } else if (byIndex.size() == count - 1) {
            int k = 1;
            while (byIndex.containsKey(k)) {
                k++;
            }
            out.put(
                    k,
                    recorded.get().listing().stream()
                            .filter(n -> !held.contains(n))
                            .toList());
        }
        out.replaceAll((k, names) -> names.stream().sorted().toList());
        return out;
    }

    /** The metric of a row that stands for a benchmark no shard measured: every metric it has. */
    public static final String ALL_METRICS = "all";

    /**
     * Returns {@code table}, the table of the shards {@code sharding} merged ({@code trialsByPart}
     * the trials of each of its parts, in order), with what its lacking shards did not measure as
     * rows {@link org.perfab.stats.Caveat#NOT_MEASURED}, inconclusive: each cell of a lacking shard
     * without data on a side; each benchmark of a lacking shard that has no row (metric
     * {@value #ALL_METRICS}); and one row for a lacking shard whose benchmarks are not known (see
     * {@link #unknownBenchmarks}). A merged run is never cleaner than what was measured: a shard
     * that did not run cannot pass a gate. The table as it is for any other run.
     */
    public static ComparisonTable withUnmeasured(
            ComparisonTable table, Sharding sharding, List<List<RunResults.TrialRecord>> trialsByPart) {
        if (!sharding.merged() || sharding.lacking().isEmpty()) {
            return table;
        }
        Map<CellId, Integer> shardOf = new HashMap<>();
        for (int k = 0; k < trialsByPart.size(); k++) {
            for (Measurement m : RunResults.counted(trialsByPart.get(k))) {
                shardOf.putIfAbsent(m.cell().id(), sharding.parts().get(k).index());
            }
        }
        Set<Integer> lacking = new HashSet<>();
        sharding.lacking().forEach(p -> lacking.add(p.index()));
        Set<Integer> withRows = new HashSet<>();
        List<CellComparison> rows = new ArrayList<>();
        for (CellComparison r : table.rows()) {
            Integer k = shardOf.get(r.cell().id());
            if (k != null && lacking.contains(k)) {
                withRows.add(k);
                rows.add(
                        r.comparison().verdict() == Verdict.NO_DATA
                                ? r.withComparison(r.comparison().notMeasured())
                                : r);
            } else {
                rows.add(r);
            }
        }
        for (Sharding.Part p : sharding.lacking()) {
            if (withRows.contains(p.index())) {
                continue;
            }
            List<String> names =
                    p.benchmarks().isEmpty() ? List.of(unknownBenchmarks(p.index(), sharding.count())) : p.benchmarks();
            for (String name : names) {
                Comparison c = Comparison.notMeasured(Direction.LOWER_IS_BETTER);
                rows.add(new CellComparison(
                        new Cell(name, ALL_METRICS, "", Direction.LOWER_IS_BETTER),
                        c,
                        Optional.empty(),
                        Double.NaN,
                        Double.NaN,
                        List.of(),
                        Optional.empty(),
                        Optional.empty(),
                        List.of(),
                        c.detectable(table.thresholds()),
                        Double.NaN));
            }
        }
        return new ComparisonTable(
                table.baseLabel(), table.headLabel(), table.thresholds(), rows, table.warnings(), table.pairing());
    }

    /** Returns the name of the row that stands for the benchmarks of shard {@code index}, when their names are not known. */
    public static String unknownBenchmarks(int index, int count) {
        return "(every benchmark of shard " + index + " of " + count + ")";
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
                throw new IllegalArgumentException("the shards hold more trials than the run's "
                        + run.trials().size());
            }
            out.add(run.trials().subList(from, from + p.trials()));
            from += p.trials();
        }
        if (from != run.trials().size()) {
            throw new IllegalArgumentException(
                    "the shards hold " + from + " of the run's " + run.trials().size() + " trials");
        }
        return out;
    }

    /** Returns how a {@link Sharding.Part#cut} reads in a sentence: "by count", "by the times time:…". */
    private static String cutWords(String cut) {
        return cut.equals(Sharding.BY_COUNT) ? "by count" : "by the times of an earlier run (" + cut + ")";
    }

    /** Returns the runner a shard's run names: the CI runner's name, else the CPU. */
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
