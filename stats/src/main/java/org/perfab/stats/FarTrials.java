package org.perfab.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The far trials of one cell: values that lie far from their own side's median, measured against
 * one spread for both sides. A few far trials are hiccups of the machine (a slow scheduler tick, a
 * neighbour's burst); many are the cell's own shape (two modes, a heavy tail); far trials on one
 * side only may be the change itself (a slowdown that hits one trial in five).
 *
 * <p>The spread is robust and pooled: 1.4826 times the median of every value's distance from its
 * own side's median, over both sides (the median of an odd side, whose distance is 0 by
 * construction, left out); when more than half the values sit on their medians (values on a grid,
 * as CPU time in clock ticks), the least distance above 0, a step of the grid. Pooling makes the yardstick the same for both sides, so a side is never
 * cleaned against a narrower measure than the other, and twice as many values make it steadier than
 * either side's own (the median absolute deviation of five values is itself noisy). A value is far
 * when it lies more than {@value #SPREADS} spreads from its side's median and more than
 * {@code floor} percent of it, so that ordinary noise is never far. A side needs
 * {@value #MIN_VALUES} values or more for any of its values to be far.
 *
 * <p>// Note: a cap on the far trials a side may have (a fifth) was tried and rejected: on a heavy
 * tail (one trial in ten 1.5 times slower, 20 trials) one side then kept its far trials while the
 * other was cleaned, and 4% of unchanged cells became regressions. Judging a side with more than
 * a quarter of far trials by ranks on every trial was tried too: where both sides share two groups
 * and the main one moved by 5%, ranks found it 2 points less often than comparing the main groups,
 * since the far groups pull the ranks together.
 *
 * @param base the positions of the baseline's far trials, ascending
 * @param head the positions of the candidate's far trials, ascending
 * @param spread the pooled robust spread, in the values' unit; NaN when there are too few values
 * @param baseGap how far the baseline's far trials lie from its median, in percent of it (the median
 *     of their distances); 0 without far trials
 * @param headGap the same for the candidate
 */
public record FarTrials(List<Integer> base, List<Integer> head, double spread, double baseGap, double headGap) {
    /** How many spreads from its side's median make a value far. */
    public static final double SPREADS = 5;
    /** The fewest values a side needs before any is far. */
    public static final int MIN_VALUES = 5;
    public FarTrials {
        base = List.copyOf(base);
        head = List.copyOf(head);
    }

    /**
     * Returns the far trials of {@code base} and {@code head}.
     *
     * @param floor the least distance of a far value from its side's median, in percent of the
     *     median: the verdict's minimum effect, so nothing smaller than a change that matters is far
     */
    public static FarTrials of(double[] base, double[] head, double floor) {
        double baseMedian = Sample.median(base);
        double headMedian = Sample.median(head);
        double[] deviations = new double[base.length + head.length];
        int k = deviations(base, baseMedian, deviations, 0);
        k = deviations(head, headMedian, deviations, k);
        if (k == 0) {
            return new FarTrials(List.of(), List.of(), Double.NaN, 0, 0);
        }
        double[] d = Arrays.copyOf(deviations, k);
        Arrays.sort(d);
        double spread = 1.4826 * Sample.median(d);
        if (spread == 0) {
            // More than half the values sit on their medians: values on a grid (CPU time in clock
            // ticks, sizes in pages). A step of the grid is then the spread, so one tick is never far.
            spread = step(d);
        }
        List<Integer> farBase = far(base, baseMedian, spread, floor);
        List<Integer> farHead = far(head, headMedian, spread, floor);
        return new FarTrials(farBase, farHead, spread, gap(base, baseMedian, farBase),
                gap(head, headMedian, farHead));
    }

    /** Returns the least distance above 0 among sorted {@code distances}; 0 when all are 0. */
    private static double step(double[] distances) {
        for (double x : distances) {
            if (x > 0) {
                return x;
            }
        }
        return 0;
    }

    /** Returns whether neither side has a far trial. */
    public boolean none() {
        return base.isEmpty() && head.isEmpty();
    }

    /** Returns whether exactly one side has far trials: the other lacks what it saw. */
    public boolean oneSided() {
        return base.isEmpty() != head.isEmpty();
    }

    /** Returns the larger of the two sides' gaps, in percent: how far apart the groups of trials lie. */
    public double gap() {
        return Math.max(baseGap, headGap);
    }

    /**
     * Returns whether the trials fall into groups that the two sides share in other proportions:
     * far trials of one side lie among the other side's trials (within {@value #NEAR} spreads of
     * its median): two of them or more, one on each side, or one when the other side has no far
     * trial at all (its trials are then all of the group the far one left). Then the rest of each
     * side may be a different group, and the difference between them a matter of which group each
     * side's trials landed in. One far trial near the other's median beside far trials of the other
     * side elsewhere is a hiccup like any other.
     */
    public boolean mixed(double[] baseValues, double[] headValues) {
        int baseNear = near(baseValues, base, headValues);
        int headNear = near(headValues, head, baseValues);
        return baseNear >= 2 || headNear >= 2 || baseNear >= 1 && headNear >= 1
                || oneSided() && baseNear + headNear >= 1;
    }

    /** How many spreads from the other side's median make a far trial lie among the other side's trials. */
    static final double NEAR = 3;

    /** Returns how many far trials of {@code values} lie within {@value #NEAR} spreads of {@code other}'s median. */
    private int near(double[] values, List<Integer> far, double[] other) {
        double median = Sample.median(other);
        double limit = NEAR * spread;
        int n = 0;
        for (int i : far) {
            if (Math.abs(values[i] - median) <= limit) {
                n++;
            }
        }
        return n;
    }

    /**
     * Returns whether some far trials make the candidate look worse than the rest of the trials do:
     * the candidate's far trials for the worse, or the baseline's for the better. A slowdown that
     * hits only some trials looks like that.
     */
    public boolean candidateWorseInSome(double[] baseValues, double[] headValues, Direction direction) {
        double bm = Sample.median(baseValues);
        double hm = Sample.median(headValues);
        for (int i : head) {
            if (direction.isWorse(hm, headValues[i])) {
                return true;
            }
        }
        for (int i : base) {
            if (direction.isBetter(bm, baseValues[i])) {
                return true;
            }
        }
        return false;
    }

    /** Returns {@code values} without the positions {@code far} (ascending). */
    public static double[] without(double[] values, List<Integer> far) {
        double[] kept = new double[values.length - far.size()];
        int k = 0;
        int next = 0;
        for (int i = 0; i < values.length; i++) {
            if (next < far.size() && far.get(next) == i) {
                next++;
            } else {
                kept[k++] = values[i];
            }
        }
        return kept;
    }

    private static int deviations(double[] values, double median, double[] into, int from) {
        int k = from;
        boolean skippedMedian = values.length % 2 == 0;
        for (double v : values) {
            if (!skippedMedian && v == median) {
                skippedMedian = true;
                continue;
            }
            into[k++] = Math.abs(v - median);
        }
        return k;
    }

    private static List<Integer> far(double[] values, double median, double spread, double floor) {
        if (values.length < MIN_VALUES || Double.isNaN(spread)) {
            return List.of();
        }
        double limit = Math.max(SPREADS * spread, Math.abs(median) * floor / 100);
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            if (Math.abs(values[i] - median) > limit) {
                out.add(i);
            }
        }
        return out;
    }

    /**
     * Returns how far a side's far trials lie from its median, as the median of their ratios to it
     * (the larger over the smaller), in percent: 40 for trials 1.4 times the median or 1/1.4 of it;
     * 0 without far trials or with values of both signs.
     */
    private static double gap(double[] values, double median, List<Integer> far) {
        if (far.isEmpty() || !(median > 0)) {
            return 0;
        }
        double[] distances = new double[far.size()];
        for (int i = 0; i < far.size(); i++) {
            double v = values[far.get(i)];
            if (!(v > 0)) {
                return 0;
            }
            distances[i] = (Math.max(v, median) / Math.min(v, median) - 1) * 100;
        }
        Arrays.sort(distances);
        return Sample.median(distances);
    }

}
