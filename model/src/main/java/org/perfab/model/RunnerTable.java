package org.perfab.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import org.perfab.stats.Comparison;
import org.perfab.stats.Thresholds;
import org.perfab.stats.Verdict;

/**
 * One A/B measured on several runner classes, as one table: a row per cell, a column per runner.
 * A change below the bar that is significant and points the same way on two runners or more is
 * worth a bisect before a release: such rows are flagged. Repeating a check across runners rules
 * out the runner, not the build: every run of one build inherits its code layout, so agreement
 * among runs of one build per side flags nothing by itself; at least one of the runners where the
 * change is worse must have put several differing builds per side inside its test.
 *
 * @param runners the runner class of each column, in the order given
 * @param builds for each runner, the builds per side its test held that differed: its run's
 *     builds, or 1 where a side's builds were one build's code (see {@link RunResults#oneBuildSides()})
 * @param rows one per cell, by cell
 * @param thresholds the verdict rules' settings (the first run's)
 */
public record RunnerTable(List<String> runners, List<Integer> builds, List<Row> rows, Thresholds thresholds) {
    public RunnerTable {
        runners = List.copyOf(runners);
        builds = List.copyOf(builds);
        if (builds.size() != runners.size()) {
            throw new IllegalArgumentException(builds.size() + " counts of builds for " + runners.size() + " runners");
        }
        rows = List.copyOf(rows);
        Objects.requireNonNull(thresholds, "thresholds");
    }

    /** Returns the runners whose test held one build per side (see {@link #builds}), in order. */
    public List<String> oneBuildRunners() {
        List<String> one = new ArrayList<>();
        for (int i = 0; i < runners.size(); i++) {
            if (builds.get(i) < 2) {
                one.add(runners.get(i));
            }
        }
        return one;
    }

    /**
     * One cell across the runners.
     *
     * @param cell the cell (as the first runner that measured it reported it)
     * @param byRunner its comparison on each runner, in the order of the runners; empty where a
     *     runner did not measure it (its run has no such cell, or only a row of a shard without results)
     * @param worse on how many runners it is significantly worse (p below alpha), whatever its size
     * @param worseOfOneBuild how many of those {@code worse} runners held one build per side
     * @param better on how many runners it is significantly better
     * @param bisect whether it is significantly worse on two runners or more, one of them at least
     *     with several differing builds per side: bisect before a release, even below the bar
     */
    public record Row(
            Cell cell,
            List<Optional<Comparison>> byRunner,
            int worse,
            int worseOfOneBuild,
            int better,
            boolean bisect) {
        public Row {
            Objects.requireNonNull(cell, "cell");
            byRunner = List.copyOf(byRunner);
            if (worseOfOneBuild < 0 || worseOfOneBuild > worse) {
                throw new IllegalArgumentException(worseOfOneBuild + " of " + worse + " runners");
            }
        }

        /**
         * Returns whether it is significantly worse on two runners or more that each held one
         * build per side, and nowhere else: what would be flagged for a bisect if the build were
         * ruled out, which those runs cannot do.
         */
        public boolean worseOnlyWithOneBuild() {
            return worse >= 2 && worseOfOneBuild == worse;
        }

        /**
         * Returns how many runners have each verdict, of those that measured the cell (see
         * {@link #measured}): a runner that did not has no vote.
         */
        public Map<Verdict, Integer> verdicts() {
            Map<Verdict, Integer> n = new TreeMap<>();
            byRunner.forEach(c -> c.filter(Row::measures).ifPresent(x -> n.merge(x.verdict(), 1, Integer::sum)));
            return n;
        }

        /** Returns how many runners measured the cell: a comparison with data on both sides. */
        public int measured() {
            return (int) byRunner.stream()
                    .filter(c -> c.filter(Row::measures).isPresent())
                    .count();
        }

        private static boolean measures(Comparison c) {
            return c.verdict() != Verdict.NO_DATA;
        }
    }

    /**
     * Returns the table of {@code runs}, one per runner class, labelled by the runner each recorded
     * (its CPU when it recorded none; a repeated label gets a number). {@code sources} names each
     * run where a refusal must point at it (the file it came from), in the same order.
     *
     * @throws IllegalArgumentException when the runs are not of one A/B (other commits), or two of
     *     them are one run (see {@link RunResults#identity()})
     */
    public static RunnerTable of(List<RunResults> runs, List<String> sources) {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("no runs to put side by side");
        }
        if (sources.size() != runs.size()) {
            throw new IllegalArgumentException(sources.size() + " names for " + runs.size() + " runs");
        }
        RunResults first = runs.get(0);
        List<String> runners = new ArrayList<>();
        List<Integer> builds = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            RunResults r = runs.get(i);
            checkJoins(runs, sources, i);
            String label = r.machine().runner().isBlank()
                    ? r.machine().cpu()
                    : r.machine().runner();
            String unique = label;
            for (int n = 2; runners.contains(unique); n++) {
                unique = label + " #" + n;
            }
            runners.add(unique);
            builds.add(r.oneBuildSides().isEmpty() ? r.settings().builds() : 1);
        }
        Thresholds t = first.table().thresholds();
        Map<CellId, Cell> cells = new TreeMap<>();
        List<Map<CellId, Comparison>> byRunner = new ArrayList<>();
        for (RunResults r : runs) {
            Map<CellId, Comparison> m = new LinkedHashMap<>();
            for (CellComparison row : r.table().rows()) {
                cells.putIfAbsent(row.cell().id(), row.cell());
                if (!row.comparison().caveats().contains(org.perfab.stats.Caveat.NOT_MEASURED)) {
                    m.put(row.cell().id(), row.comparison()); // a shard without results measured none of it
                }
            }
            byRunner.add(m);
        }
        List<Row> rows = new ArrayList<>();
        cells.forEach((id, cell) -> {
            List<Optional<Comparison>> each = new ArrayList<>();
            int worse = 0;
            int worseOfOneBuild = 0;
            int better = 0;
            for (int i = 0; i < byRunner.size(); i++) {
                Optional<Comparison> c = Optional.ofNullable(byRunner.get(i).get(id));
                each.add(c);
                if (c.isPresent()
                        && c.get().verdict() != Verdict.NO_DATA
                        && c.get().verdict() != Verdict.PROFILE
                        && c.get().pValue() < t.alpha()) {
                    boolean isWorse = cell.direction()
                            .isWorse(c.get().base().mean(), c.get().head().mean());
                    worse += isWorse ? 1 : 0;
                    worseOfOneBuild += isWorse && builds.get(i) < 2 ? 1 : 0;
                    better += isWorse ? 0 : 1;
                }
            }
            rows.add(new Row(cell, each, worse, worseOfOneBuild, better, worse >= 2 && worseOfOneBuild < worse));
        });
        return new RunnerTable(runners, builds, rows, t);
    }

    /**
     * Refuses the {@code i}th of {@code runs} unless it is of the A/B the first is (the same base
     * and head commits) and no run before it is the same run.
     */
    private static void checkJoins(List<RunResults> runs, List<String> sources, int i) {
        RunResults first = runs.get(0);
        RunResults r = runs.get(i);
        if (!r.provenance().mergeBase().equals(first.provenance().mergeBase())
                || !r.provenance()
                        .head()
                        .commit()
                        .equals(first.provenance().head().commit())) {
            throw new IllegalArgumentException("the runs are not of one A/B: " + sources.get(i) + " is "
                    + r.provenance().mergeBase() + " against "
                    + r.provenance().head().commit() + " where "
                    + sources.get(0) + " is " + first.provenance().mergeBase() + " against "
                    + first.provenance().head().commit());
        }
        for (int j = 0; j < i; j++) {
            RunResults.Identity a = runs.get(j).identity();
            RunResults.Identity b = r.identity();
            if (a.sameRunAs(b)) {
                throw new IllegalArgumentException(sources.get(j) + " and " + sources.get(i) + " are one run ("
                        + (!b.measured().isEmpty() && a.measured().equals(b.measured())
                                ? "the same values measured, " + b.measured()
                                : "the same commits and runner, started at " + r.startedAt())
                        + "), which would count as two runners: give each runner's results once");
            }
        }
    }
}
