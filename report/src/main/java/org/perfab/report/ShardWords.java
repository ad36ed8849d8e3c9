package org.perfab.report;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.perfab.model.CellComparison;
import org.perfab.model.CellId;
import org.perfab.model.Measurement;
import org.perfab.model.RunResults;
import org.perfab.model.Sharding;
import org.perfab.model.Shards;
import org.perfab.stats.Caveat;

/** What every rendering says of a run of shards: which runner measured what, and which shards lack results. */
final class ShardWords {
    private ShardWords() {}

    /**
     * Returns the shards that were not measured to their end, for a headline ("shard 3 of 4
     * missing"); empty when there are none, or the run is not shards merged.
     */
    static Optional<String> lacking(Report report) {
        Optional<Sharding> s = report.run().flatMap(RunResults::sharding).filter(Sharding::merged);
        if (s.isEmpty() || s.get().lacking().isEmpty()) {
            return Optional.empty();
        }
        Map<Sharding.State, List<String>> byState = new java.util.EnumMap<>(Sharding.State.class);
        for (Sharding.Part p : s.get().lacking()) {
            byState.computeIfAbsent(p.state(), k -> new ArrayList<>()).add(Integer.toString(p.index()));
        }
        List<String> parts = new ArrayList<>();
        byState.forEach((state, indices) -> parts.add((indices.size() == 1 ? "shard " : "shards ")
                + String.join(", ", indices) + " of " + s.get().count() + " " + state.id()));
        return Optional.of(String.join(", ", parts));
    }

    /**
     * Returns the warning that says what the lacking shards mean for the table; empty when every
     * shard was measured.
     */
    static Optional<String> warning(Report report) {
        return lacking(report)
                .map(l -> "not every benchmark of the suite is judged: " + l + " (missing: no results"
                        + " were given for it; unreadable: its results did not read; failed: every counted trial of a side"
                        + " failed; interrupted: stopped before its last trial). What such a shard did not measure is a row"
                        + " 'not measured', counted as inconclusive, and fails any --fail-on: a gate cannot pass what nobody"
                        + " measured");
    }

    /**
     * Returns, for a run of shards, who measured what: "shard 2 of 4: 500 of the 2,000 benchmarks"
     * for one shard's run; each shard's runner and count for shards merged. Empty for any other run.
     * The runners' names come from the runs: the caller escapes them.
     */
    static Optional<String> measuredBy(Report report) {
        Optional<Sharding> s = report.run().flatMap(RunResults::sharding);
        if (s.isEmpty()) {
            return Optional.empty();
        }
        if (!s.get().merged()) {
            Sharding.Part p = s.get().parts().get(0);
            return Optional.of("shard " + p.index() + " of " + s.get().count() + ": "
                    + p.benchmarks().size() + " of the " + p.listed() + " benchmarks listed" + cut(p));
        }
        List<String> each = new ArrayList<>();
        for (Sharding.Part p : s.get().parts()) {
            each.add(p.index() + " "
                    + (p.state() == Sharding.State.MISSING
                            ? "missing"
                            : "on " + p.runner() + " (" + p.benchmarks().size()
                                    + (p.state() == Sharding.State.MEASURED
                                            ? ""
                                            : ", " + p.state().id()) + ")"));
        }
        return Optional.of(s.get().count() + " shards" + cut(s.get().parts().get(0)) + ": " + String.join("; ", each));
    }

    /** Returns how the suite was cut, when by an earlier run's times: by count says nothing. */
    private static String cut(Sharding.Part p) {
        return p.cut().equals(Sharding.BY_COUNT) ? "" : ", cut at equal time by the times of an earlier run";
    }

    /**
     * Returns the shard column of each row, for shards merged: the shard that measured it ("3"), and
     * for a row it did not measure, how that shard ended ("3 missing"); empty for any other run.
     */
    static Map<CellId, String> shardOfCells(Report report) {
        Optional<RunResults> run =
                report.run().filter(r -> r.sharding().map(Sharding::merged).orElse(false));
        if (run.isEmpty()) {
            return Map.of();
        }
        Sharding sharding = run.get().sharding().get();
        Map<CellId, Sharding.Part> of = new HashMap<>();
        List<List<RunResults.TrialRecord>> byShard = Shards.trialsByShard(run.get());
        for (int k = 0; k < byShard.size(); k++) {
            Sharding.Part part = sharding.parts().get(k);
            for (Measurement m : RunResults.counted(byShard.get(k))) {
                of.putIfAbsent(m.cell().id(), part);
            }
        }
        for (Sharding.Part p : sharding.lacking()) {
            List<String> names = p.benchmarks().isEmpty()
                    ? List.of(Shards.unknownBenchmarks(p.index(), sharding.count()))
                    : p.benchmarks();
            names.forEach(n -> of.putIfAbsent(new CellId(n, Shards.ALL_METRICS), p));
        }
        Map<CellId, String> shown = new HashMap<>();
        for (CellComparison r : report.table().rows()) {
            Sharding.Part p = of.get(r.cell().id());
            if (p != null) {
                shown.put(
                        r.cell().id(),
                        p.index()
                                + (r.comparison().caveats().contains(Caveat.NOT_MEASURED)
                                        ? " " + p.state().id()
                                        : ""));
            }
        }
        return shown;
    }
}
