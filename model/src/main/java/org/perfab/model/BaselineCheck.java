package org.perfab.model;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import org.perfab.stats.RatioSpace;

/**
 * One snapshot checked against the floors of its tier, in ratio space: each benchmark's ratio to
 * the snapshot's own anchor against the stored ratio, so a fast or slow host trips nothing.
 *
 * @param key the snapshot's tier
 * @param snapshot the snapshot's file, as shown
 * @param commit the commit it measured
 * @param cpu its processor model
 * @param known whether the baseline has the tier (when not, every benchmark is new)
 * @param budget how far above its floor a ratio may go
 * @param hostSpeed the snapshot's anchor against the tier's anchor value, in percent (how much
 *     faster or slower the host ran; the ratios divide it out); NaN when the tier is unknown
 * @param offset the median of the ratios' changes, in percent: when it is past the coherence
 *     tolerance every ratio moved together, which is the anchor's doing more likely than the
 *     code's; NaN when no benchmark is shared
 * @param incoherent whether the offset is past the tolerance
 * @param rows every benchmark of the tier and the snapshot not excluded: regressed first, then
 *     missing, new and ok, each by name
 * @param excluded the benchmarks left out by an exclusion prefix
 * @param liveExclusions the prefixes that matched a benchmark
 * @param staleExclusions the prefixes that matched none
 */
public record BaselineCheck(
        Baseline.Key key,
        String snapshot,
        String commit,
        String cpu,
        boolean known,
        Budget budget,
        double hostSpeed,
        double offset,
        boolean incoherent,
        List<Row> rows,
        List<String> excluded,
        List<String> liveExclusions,
        List<String> staleExclusions) {
    public BaselineCheck {
        rows = List.copyOf(rows);
        excluded = List.copyOf(excluded);
        liveExclusions = List.copyOf(liveExclusions);
        staleExclusions = List.copyOf(staleExclusions);
    }

    /** A benchmark's status. */
    public enum Status {
        /** Its ratio is past its floor by more than the budget. */
        REGRESSED,
        /** The tier has a floor for it; the snapshot does not have it. */
        MISSING,
        /** The snapshot has it; the tier has no floor for it. */
        NEW,
        /** Within the budget. */
        OK
    }

    /**
     * The budget a check applied: a percentage given, or derived from a tier's measured floor
     * ({@code --budget auto}). Derived, each benchmark gets {@code multiple} times its own spread
     * between the control snapshots, but never less than {@code multiple} times
     * the tier's median spread (a handful of control pairs can make a quiet benchmark look quieter
     * than it is); a benchmark the controls lacked gets {@code multiple} times the tier's 95th
     * percentile.
     *
     * @param percent the percentage given; for a derived budget, {@code multiple} times the tier's
     *     95th percentile (what a benchmark without its own figure gets)
     * @param floor the measured floor it was derived from, or empty when given
     * @param multiple what the floor's figures were multiplied by; NaN when given
     */
    public record Budget(double percent, Optional<Baseline.Floor> floor, double multiple) {
        public Budget {
            Objects.requireNonNull(floor, "floor");
            if (!(percent >= 0) || Double.isInfinite(percent)) {
                throw new IllegalArgumentException("a budget is a percentage >= 0, got " + percent);
            }
        }

        /** A budget given as a percentage. */
        public static Budget of(double percent) {
            return new Budget(percent, Optional.empty(), Double.NaN);
        }

        /** A budget of {@code multiple} times a tier's measured floor. */
        public static Budget auto(Baseline.Floor floor, double multiple) {
            return new Budget(multiple * floor.p95(), Optional.of(floor), multiple);
        }

        /** Returns the budget of {@code benchmark}, in percent. */
        public double of(String benchmark) {
            if (floor.isEmpty()) {
                return percent;
            }
            Double own = floor.get().benchmarks().get(benchmark);
            return own == null ? percent : multiple * Math.max(own, floor.get().p50());
        }
    }

    /**
     * One benchmark.
     *
     * @param benchmark its name
     * @param status its status
     * @param floor its stored ratio; NaN when new
     * @param ratio its ratio in the snapshot; NaN when missing
     * @param change {@code ratio / floor - 1}, in percent; NaN when new or missing
     * @param value its value in the snapshot; NaN when missing
     * @param unit its unit
     * @param budget its budget, in percent
     */
    public record Row(
            String benchmark,
            Status status,
            double floor,
            double ratio,
            double change,
            double value,
            String unit,
            double budget) {}

    /**
     * Returns {@code snapshot} checked against {@code baseline}.
     *
     * @param shown names the snapshot in the result
     * @param tolerance the coherence tolerance, in percent
     * @throws IllegalArgumentException when the snapshot has no anchor benchmark
     */
    public static BaselineCheck of(
            Baseline baseline,
            Snapshot snapshot,
            String shown,
            Budget budget,
            Exclusions exclusions,
            double tolerance) {
        Baseline.Key key = new Baseline.Key(snapshot.machine(), snapshot.arch());
        Snapshot.Benchmark anchor = snapshot.benchmark(baseline.anchor())
                .orElseThrow(() -> new IllegalArgumentException(shown + " has no benchmark " + baseline.anchor()
                        + ", the baseline's anchor, so it has no ratios"));
        Optional<Baseline.Tier> tier = baseline.tier(key);
        Map<String, Baseline.Entry> floors = new LinkedHashMap<>();
        baseline.entries(key).forEach(e -> floors.put(e.benchmark(), e));
        TreeSet<String> names = new TreeSet<>(floors.keySet());
        snapshot.benchmarks().forEach(b -> names.add(b.name()));
        List<Row> rows = new ArrayList<>();
        List<String> excluded = new ArrayList<>();
        Map<String, Double> ratios = new LinkedHashMap<>();
        Map<String, Double> stored = new LinkedHashMap<>();
        for (String name : names) {
            if (exclusions.excludes(name)) {
                excluded.add(name);
                continue;
            }
            Baseline.Entry floor = floors.get(name);
            Optional<Snapshot.Benchmark> b = snapshot.benchmark(name);
            if (b.isEmpty()) {
                rows.add(new Row(
                        name,
                        Status.MISSING,
                        floor.ratio(),
                        Double.NaN,
                        Double.NaN,
                        Double.NaN,
                        floor.unit(),
                        budget.of(name)));
                continue;
            }
            double ratio = b.get().value() / anchor.value();
            if (floor == null) {
                rows.add(new Row(
                        name,
                        Status.NEW,
                        Double.NaN,
                        ratio,
                        Double.NaN,
                        b.get().value(),
                        b.get().unit(),
                        budget.of(name)));
                continue;
            }
            double change = (ratio / floor.ratio() - 1) * 100;
            ratios.put(name, ratio);
            stored.put(name, floor.ratio());
            double allowed = budget.of(name);
            rows.add(new Row(
                    name,
                    change > allowed ? Status.REGRESSED : Status.OK,
                    floor.ratio(),
                    ratio,
                    change,
                    b.get().value(),
                    b.get().unit(),
                    allowed));
        }
        rows.sort(
                Comparator.comparing(Row::status).thenComparing(r -> r.status() == Status.REGRESSED ? -r.change() : 0));
        double offset = RatioSpace.offset(ratios, stored, baseline.anchor());
        double hostSpeed =
                tier.map(t -> (anchor.value() / t.anchorValue() - 1) * 100).orElse(Double.NaN);
        return new BaselineCheck(
                key,
                shown,
                snapshot.commit(),
                snapshot.cpu(),
                tier.isPresent(),
                budget,
                hostSpeed,
                offset,
                Math.abs(offset) > tolerance,
                rows,
                excluded,
                exclusions.live(names),
                exclusions.stale(names));
    }

    /** Returns how many rows have {@code status}. */
    public int count(Status status) {
        return (int) rows.stream().filter(r -> r.status() == status).count();
    }

    /**
     * Returns the floors this snapshot ratchets down: every benchmark it held below its floor, at
     * its own ratio, with the value derived from the tier's anchor value so that {@code ratio ==
     * value / anchor} still holds. Empty when the check is incoherent: a run whose ratios all sit
     * low together would otherwise lower every floor to its anchor's bad luck.
     */
    public List<Baseline.Entry> ratcheted(Baseline baseline) {
        Optional<Baseline.Tier> tier = baseline.tier(key);
        if (incoherent || tier.isEmpty()) {
            return List.of();
        }
        Map<String, Baseline.Entry> floors = new LinkedHashMap<>();
        baseline.entries(key).forEach(e -> floors.put(e.benchmark(), e));
        List<Baseline.Entry> lowered = new ArrayList<>();
        for (Row r : rows) {
            if (r.status() == Status.OK && r.ratio() < r.floor()) {
                Baseline.Entry e = floors.get(r.benchmark());
                lowered.add(new Baseline.Entry(
                        key,
                        e.benchmark(),
                        r.ratio() * tier.get().anchorValue(),
                        e.unit(),
                        r.ratio(),
                        e.seen(),
                        e.iterations(),
                        snapshot));
            }
        }
        return lowered;
    }
}
