package org.perfab.stats;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The arithmetic of a ratchet baseline kept in ratio space: every benchmark of a snapshot (one CI
 * run on one machine) is divided by one benchmark of the same snapshot, the anchor. A host that is
 * uniformly fast or slow moves every raw value and no ratio, so ratios of snapshots from different
 * hosts of one runner class agree where their raw values do not.
 *
 * <p>Seeding a window of snapshots ({@link #reduce}): each snapshot's ratios are compared with the
 * window's median ratios, and a snapshot whose ratios sit, by their median, more than a tolerance
 * off the rest is rejected. That is the mixed capture that damages a baseline: the
 * anchor caught a slow tail and the other benchmarks did not, so every ratio is off together
 * while the raw values look ordinary. A uniformly fast host passes, since its ratios agree. What is
 * left is reduced by the median of each benchmark's ratios (not the minimum: a ratchet already
 * takes a minimum over history, and a second one stacks into a floor no clean run reaches), and a
 * benchmark seen in under half of it is left out. Values are derived back from the reduced ratio
 * and the median anchor, so {@code ratio == value / anchor} holds by construction.
 */
public final class RatioSpace {
    private RatioSpace() {}

    /** What became of a snapshot in a window. */
    public enum Fate {
        /** Counted. */
        ACCEPTED,
        /** Left out: it has no anchor, or an anchor of 0. */
        NO_ANCHOR,
        /** Left out: its ratios sit off the rest of the window together. */
        INCOHERENT
    }

    /**
     * One snapshot of a window, as the reduction saw it.
     *
     * @param fate whether it counted, and why not
     * @param anchorDeviation its anchor's raw value against the median anchor of the window's
     *     snapshots with one, in percent (how fast its host ran); NaN without an anchor
     * @param offset the median of its ratios' deviations from the window's median ratios, in
     *     percent; NaN when not measured (no anchor, or fewer than {@link #MIN_GATED} snapshots
     *     with one)
     */
    public record Fit(Fate fate, double anchorDeviation, double offset) {
        public Fit {
            Objects.requireNonNull(fate, "fate");
        }
    }

    /**
     * A benchmark's reduced ratio.
     *
     * @param ratio the median of its ratios over the accepted snapshots that have it
     * @param seen how many accepted snapshots have it
     */
    public record Reduced(double ratio, int seen) {}

    /**
     * The reduction of one window.
     *
     * @param fits each snapshot's fit, in the order given
     * @param accepted how many snapshots counted
     * @param anchor the median anchor value of the accepted snapshots; NaN when none
     * @param ratios the reduced ratio of every benchmark seen in at least half of the accepted
     *     snapshots, the anchor's (1) included, by name
     * @param thin every other benchmark, with how many accepted snapshots had it
     * @param gate whether coherence was judged, and why not
     */
    public record Reduction(
            List<Fit> fits,
            int accepted,
            double anchor,
            Map<String, Reduced> ratios,
            Map<String, Integer> thin,
            Gate gate) {
        public Reduction {
            fits = List.copyOf(fits);
            ratios = Map.copyOf(ratios);
            thin = Map.copyOf(thin);
            Objects.requireNonNull(gate, "gate");
        }
    }

    /** Whether a window's coherence was judged. */
    public enum Gate {
        /** Judged: a snapshot past the tolerance was rejected. */
        JUDGED,
        /**
         * Not judged: fewer than {@link #MIN_GATED} snapshots with the anchor, or fewer than
         * {@link #MIN_SHARED} benchmarks besides it, where an offset is one benchmark's noise.
         */
        TOO_FEW,
        /**
         * Not judged: most snapshots sat past the tolerance, which then is below the window's own
         * noise; a mixed capture is the exception, never the rule. Every snapshot counted.
         */
        TOO_NOISY
    }

    /** The fewest snapshots with an anchor among which coherence is judged: with two, neither can be told wrong. */
    public static final int MIN_GATED = 3;
    /** The fewest benchmarks besides the anchor whose median offset says the anchor moved them all. */
    public static final int MIN_SHARED = 5;

    /**
     * Returns the reduction of a window of snapshots.
     *
     * @param snapshots each snapshot's values by benchmark name, finite and above 0
     * @param anchor the anchor's name
     * @param tolerance the most, in percent, a snapshot's ratios may sit off the rest
     * @throws IllegalArgumentException when a value is not finite and above 0, or the tolerance is
     *     not a percentage above 0
     */
    public static Reduction reduce(List<Map<String, Double>> snapshots, String anchor, double tolerance) {
        if (!(tolerance > 0) || Double.isInfinite(tolerance)) {
            throw new IllegalArgumentException("a coherence tolerance is a percentage above 0, got " + tolerance);
        }
        List<Map<String, Double>> ratios = new ArrayList<>();
        List<Double> anchors = new ArrayList<>();
        for (Map<String, Double> s : snapshots) {
            s.forEach((name, v) -> {
                if (!(v > 0) || Double.isInfinite(v)) {
                    throw new IllegalArgumentException("benchmark " + name + ": value " + v + " is not above 0");
                }
            });
            Double a = s.get(anchor);
            ratios.add(a == null ? null : ratios(s, a));
            if (a != null) {
                anchors.add(a);
            }
        }
        double medianAnchor = Sample.median(anchors);
        int withAnchor = anchors.size();
        // The window's median ratios, each snapshot's own included: with three snapshots, the median
        // of the other two would be their mean, which one bad snapshot drags off.
        Map<String, Double> window =
                medians(ratios.stream().filter(Objects::nonNull).toList());
        double[] offsets = new double[snapshots.size()];
        int past = 0;
        int judged = 0;
        for (int i = 0; i < snapshots.size(); i++) {
            offsets[i] = Double.NaN;
            if (ratios.get(i) != null && withAnchor >= MIN_GATED) {
                offsets[i] = offset(ratios.get(i), window, anchor);
                if (!Double.isNaN(offsets[i])) {
                    judged++;
                    past += Math.abs(offsets[i]) > tolerance ? 1 : 0;
                }
            }
        }
        Gate gate = judged < MIN_GATED ? Gate.TOO_FEW : past * 2 > judged ? Gate.TOO_NOISY : Gate.JUDGED;
        List<Fit> fits = new ArrayList<>();
        List<Map<String, Double>> kept = new ArrayList<>();
        List<Double> keptAnchors = new ArrayList<>();
        for (int i = 0; i < snapshots.size(); i++) {
            Map<String, Double> r = ratios.get(i);
            if (r == null) {
                fits.add(new Fit(Fate.NO_ANCHOR, Double.NaN, Double.NaN));
                continue;
            }
            double deviation = (snapshots.get(i).get(anchor) / medianAnchor - 1) * 100;
            boolean coherent = gate != Gate.JUDGED || Double.isNaN(offsets[i]) || Math.abs(offsets[i]) <= tolerance;
            fits.add(new Fit(coherent ? Fate.ACCEPTED : Fate.INCOHERENT, deviation, offsets[i]));
            if (coherent) {
                kept.add(r);
                keptAnchors.add(snapshots.get(i).get(anchor));
            }
        }
        Map<String, List<Double>> byName = new TreeMap<>();
        kept.forEach(r -> r.forEach((name, v) ->
                byName.computeIfAbsent(name, k -> new ArrayList<>()).add(v)));
        Map<String, Reduced> reduced = new LinkedHashMap<>();
        Map<String, Integer> thin = new LinkedHashMap<>();
        byName.forEach((name, values) -> {
            if (values.size() * 2 >= kept.size()) {
                reduced.put(name, new Reduced(Sample.median(values), values.size()));
            } else {
                thin.put(name, values.size());
            }
        });
        return new Reduction(fits, kept.size(), Sample.median(keptAnchors), reduced, thin, gate);
    }

    /** Returns each value of {@code snapshot} over {@code anchor}. */
    public static Map<String, Double> ratios(Map<String, Double> snapshot, double anchor) {
        Map<String, Double> r = new LinkedHashMap<>();
        snapshot.forEach((name, v) -> r.put(name, v / anchor));
        return r;
    }

    /**
     * Returns the median of {@code ratios}' deviations from {@code reference}, in percent, over
     * the benchmarks both have but the anchor: how far a snapshot's ratios sit off together. NaN
     * when they share fewer than {@link #MIN_SHARED}: the median of so few is their own noise, not
     * a sign that the anchor moved them all.
     */
    public static double offset(Map<String, Double> ratios, Map<String, Double> reference, String anchor) {
        List<Double> deviations = new ArrayList<>();
        ratios.forEach((name, r) -> {
            Double ref = reference.get(name);
            if (ref != null && !name.equals(anchor)) {
                deviations.add((r / ref - 1) * 100);
            }
        });
        return deviations.size() < MIN_SHARED ? Double.NaN : Sample.median(deviations);
    }

    /**
     * Returns each benchmark's own spread between snapshots of builds that cannot differ, in
     * percent, estimated robustly: {@code 1.96 * sqrt(2) * 1.4826} times the median absolute
     * deviation of its ratios from their median. For normal noise that is the 95th percentile of
     * {@link PairSpreads} for the benchmark; unlike that percentile over a handful of pairs, one wild
     * control snapshot barely moves it. Benchmarks in fewer than two snapshots, and the anchor, have
     * none.
     */
    public static Map<String, Double> ownSpread(List<Map<String, Double>> ratios, String anchor) {
        Map<String, List<Double>> byName = new TreeMap<>();
        ratios.forEach(r -> r.forEach((name, v) ->
                byName.computeIfAbsent(name, k -> new ArrayList<>()).add(v)));
        Map<String, Double> own = new LinkedHashMap<>();
        byName.forEach((name, values) -> {
            if (values.size() >= 2 && !name.equals(anchor)) {
                double m = Sample.median(values);
                List<Double> deviations =
                        values.stream().map(v -> Math.abs(v / m - 1) * 100).toList();
                own.put(
                        name,
                        PAIR_95
                                * Sample.robustSd(
                                        deviations.stream().mapToDouble(d -> d).toArray()));
            }
        });
        return own;
    }

    /** The 95th percentile of the difference of two normal draws, in their standard deviations: 1.96 sqrt(2). */
    private static final double PAIR_95 = 1.959963984540054 * Math.sqrt(2);

    private static Map<String, Double> medians(List<Map<String, Double>> ratios) {
        Map<String, List<Double>> byName = new LinkedHashMap<>();
        ratios.forEach(r -> r.forEach((name, v) ->
                byName.computeIfAbsent(name, k -> new ArrayList<>()).add(v)));
        Map<String, Double> m = new LinkedHashMap<>();
        byName.forEach((name, values) -> m.put(name, Sample.median(values)));
        return m;
    }
}
