package org.perfab.stats;

import java.util.Arrays;

/**
 * One side's trials of one cell, in the order they were given, each with the build it measured
 * and, for trials of a run, its pair and its place in the run's order: what a {@link ShiftTest}
 * judges. Positions (of trials set aside) count in the order given.
 *
 * <p>A trial's pair is its number in the interleaved order: trial {@code k} of the base and trial
 * {@code k} of the head ran side by side, one after the other, on the same build number. Its place
 * is its position in the whole run (both sides, warm-ups included), which tells which of the two ran
 * first. Trials read from files of measurements have neither, and never pair.
 */
public final class Trials {
    private final double[] values;
    private final int[] builds;
    private final int buildCount;
    /** Each trial's pair, or null when the trials do not pair. */
    private final int[] pairs;
    /** Each trial's place in the run's order, or null when the trials do not pair. */
    private final int[] places;

    private Trials(double[] values, int[] builds, int[] pairs, int[] places) {
        this.values = values;
        this.builds = builds;
        this.pairs = pairs;
        this.places = places;
        this.buildCount = builds == null
                ? (values.length == 0 ? 0 : 1)
                : (int) Arrays.stream(builds).distinct().count();
    }

    /** Returns the trials {@code values}, all of one build, that pair with no other side's. */
    public static Trials of(double... values) {
        return new Trials(values.clone(), null, null, null);
    }

    /**
     * Returns the trials {@code values}, trial {@code i} of build {@code builds[i]}, that pair with
     * no other side's.
     *
     * @throws IllegalArgumentException when the two arrays differ in length
     */
    public static Trials of(double[] values, int[] builds) {
        if (values.length != builds.length) {
            throw new IllegalArgumentException(values.length + " values but " + builds.length + " builds");
        }
        return new Trials(values.clone(), builds.clone(), null, null);
    }

    /**
     * Returns the trials of a run: {@code values}, trial {@code i} of build {@code builds[i]}, in
     * pair {@code pairs[i]}, run at place {@code places[i]} of the run's order.
     *
     * @throws IllegalArgumentException when the arrays differ in length, or two trials share a pair
     */
    public static Trials inPairs(double[] values, int[] builds, int[] pairs, int[] places) {
        if (values.length != builds.length || values.length != pairs.length || values.length != places.length) {
            throw new IllegalArgumentException(values.length + " values but " + builds.length + " builds, "
                    + pairs.length + " pairs and " + places.length + " places");
        }
        if (Arrays.stream(pairs).distinct().count() != pairs.length) {
            throw new IllegalArgumentException("a side has one trial in each pair, at most");
        }
        return new Trials(values.clone(), builds.clone(), pairs.clone(), places.clone());
    }

    /** Returns the number of trials. */
    public int size() {
        return values.length;
    }

    /** Returns how many builds the trials measured: 0 without trials. */
    public int buildCount() {
        return buildCount;
    }

    /** Returns whether the trials carry their pairs (trials of a run). */
    public boolean paired() {
        return pairs != null;
    }

    /** The values in the order given, not copied: callers in this package must not write to them. */
    double[] values() {
        return values;
    }

    /**
     * Returns the trials of {@code base} and {@code head} that pair, among those {@code keepBase}
     * and {@code keepHead} keep: the two trials of one pair, of the same build, both kept. Pairs in
     * the order of the base's trials; none when either side does not pair.
     */
    static PairedTest.Pairs pairs(Trials base, Trials head, boolean[] keepBase, boolean[] keepHead) {
        if (base.pairs == null || head.pairs == null) {
            return new PairedTest.Pairs(new double[0], new double[0], new boolean[0]);
        }
        java.util.Map<Integer, Integer> headAt = new java.util.HashMap<>();
        for (int j = 0; j < head.values.length; j++) {
            if (keepHead[j]) {
                headAt.put(head.pairs[j], j);
            }
        }
        double[] b = new double[base.values.length];
        double[] h = new double[b.length];
        boolean[] first = new boolean[b.length];
        int n = 0;
        for (int i = 0; i < base.values.length; i++) {
            Integer j = keepBase[i] ? headAt.get(base.pairs[i]) : null;
            if (j != null && base.build(i) == head.build(j)) {
                b[n] = base.values[i];
                h[n] = head.values[j];
                first[n++] = base.places[i] < head.places[j];
            }
        }
        return new PairedTest.Pairs(Arrays.copyOf(b, n), Arrays.copyOf(h, n), Arrays.copyOf(first, n));
    }

    /**
     * Returns, for each pair these trials (the base's) share with {@code head}'s on one build, the
     * mean of the two values' logarithms; empty when either side does not pair or a value is not
     * above 0.
     */
    java.util.Map<Integer, Double> pairLevels(Trials head) {
        java.util.Map<Integer, Double> out = new java.util.HashMap<>();
        if (pairs == null || head.pairs == null) {
            return out;
        }
        java.util.Map<Integer, Integer> headAt = new java.util.HashMap<>();
        for (int j = 0; j < head.values.length; j++) {
            headAt.put(head.pairs[j], j);
        }
        for (int i = 0; i < values.length; i++) {
            Integer j = headAt.get(pairs[i]);
            if (j == null || build(i) != head.build(j)) {
                continue;
            }
            if (!(values[i] > 0) || !(head.values[j] > 0)) {
                return new java.util.HashMap<>();
            }
            out.put(pairs[i], (Math.log(values[i]) + Math.log(head.values[j])) / 2);
        }
        return out;
    }

    private int build(int i) {
        return builds == null ? 0 : builds[i];
    }

    /** Returns the median of each build's trials, builds in ascending order. */
    double[] buildMedians() {
        if (builds == null) {
            return values.length == 0 ? new double[0] : new double[] {Sample.median(values)};
        }
        int[] ids = Arrays.stream(builds).distinct().sorted().toArray();
        double[] medians = new double[ids.length];
        for (int b = 0; b < ids.length; b++) {
            int id = ids[b];
            double[] of = new double[values.length];
            int n = 0;
            for (int i = 0; i < values.length; i++) {
                if (builds[i] == id) {
                    of[n++] = values[i];
                }
            }
            medians[b] = Sample.median(Arrays.copyOf(of, n));
        }
        return medians;
    }
}
