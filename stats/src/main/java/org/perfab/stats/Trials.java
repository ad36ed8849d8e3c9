package org.perfab.stats;

import java.util.Arrays;

/**
 * One side's trials of one cell, in the order they were given, each with the build it measured:
 * what a {@link ShiftTest} judges. Positions (of trials set aside) count in this order.
 */
public final class Trials {
    private final double[] values;
    private final int[] builds;
    private final int buildCount;

    private Trials(double[] values, int[] builds) {
        this.values = values;
        this.builds = builds;
        this.buildCount = builds == null ? (values.length == 0 ? 0 : 1) : (int) Arrays.stream(builds).distinct().count();
    }

    /** Returns the trials {@code values}, all of one build. */
    public static Trials of(double... values) {
        return new Trials(values.clone(), null);
    }

    /**
     * Returns the trials {@code values}, trial {@code i} of build {@code builds[i]}.
     *
     * @throws IllegalArgumentException when the two arrays differ in length
     */
    public static Trials of(double[] values, int[] builds) {
        if (values.length != builds.length) {
            throw new IllegalArgumentException(values.length + " values but " + builds.length + " builds");
        }
        return new Trials(values.clone(), builds.clone());
    }

    /** Returns the number of trials. */
    public int size() {
        return values.length;
    }

    /** Returns how many builds the trials measured: 0 without trials. */
    public int buildCount() {
        return buildCount;
    }

    /** The values in the order given, not copied: callers in this package must not write to them. */
    double[] values() {
        return values;
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
