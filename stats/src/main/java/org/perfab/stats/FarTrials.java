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
 * <p>The spread is robust and pooled ({@link Sample#robustSd}): 1.4826 times the median of every
 * value's distance from its own side's median, over both sides (the median of an odd side, whose distance is 0 by
 * construction, left out); when more than half the values sit on their medians (values on a grid,
 * as CPU time in clock ticks), the least distance above 0, a step of the grid. Pooling makes the yardstick the same for both sides, so a side is never
 * cleaned against a narrower measure than the other, and twice as many values make it steadier than
 * either side's own (the median absolute deviation of five values is itself noisy). A value is far
 * when it lies more than {@value #SPREADS} spreads from its side's median and more than
 * {@code floor} percent of it, so that ordinary noise is never far. A side needs
 * {@value #MIN_VALUES} values or more for any of its values to be far.
 *
 * <p>A cap on the far trials a side may have (a fifth) was tried and rejected: on a heavy
 * tail (one trial in ten 1.5 times slower, 20 trials) one side then kept its far trials while the
 * other was cleaned, and 4% of unchanged cells became regressions. Judging a side with more than
 * a quarter of far trials by ranks on every trial was tried too: where both sides share two groups
 * and the main one moved by 5%, ranks found it 2 points less often than comparing the main groups,
 * since the far groups pull the ranks together. Fisher's exact test of the sides' counts of far
 * trials decided a slowdown in some trials of one side, and was dropped: it can never fire on
 * exactly one trial in five (four of forty, p 0.106), where Welch's test on every trial does.
 *
 * @param base the positions of the baseline's far trials, ascending
 * @param head the positions of the candidate's far trials, ascending
 * @param spread the pooled robust spread, in the values' unit; NaN when there are too few values
 */
public record FarTrials(List<Integer> base, List<Integer> head, double spread) {
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
            return new FarTrials(List.of(), List.of(), Double.NaN);
        }
        double[] d = Arrays.copyOf(deviations, k);
        Arrays.sort(d);
        double spread = Sample.robustSd(d);
        if (spread == 0) {
            // More than half the values sit on their medians: values on a grid (CPU time in clock
            // ticks, sizes in pages). A step of the grid is then the spread, so one tick is never far.
            spread = step(d);
        }
        List<Integer> farBase = far(base, baseMedian, spread, floor);
        List<Integer> farHead = far(head, headMedian, spread, floor);
        return new FarTrials(farBase, farHead, spread);
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

    /**
     * Returns where the trials of both sides fall into two groups, a busy machine's two speeds, as
     * the logarithm half way across the gap between them; NaN when they do not. They do when the
     * widest gap between the pooled values (on their logarithms) is wider than {@value #SPREADS}
     * spreads within the groups and than {@code floor} percent, each group holds two values or more,
     * and each side has values in both groups; or when a far trial of one side lies among the other
     * side's trials (within {@value #NEAR} spreads of its median), or both sides have far trials and
     * one side's lie above its median and the other's below (each side's minority is the other's
     * majority), split then at the widest gap whatever its width. A slowdown that hits some of the
     * candidate's trials puts none of the baseline's among them, and a plain shift puts each side in
     * a group of its own: neither is two groups. Without far trials there are none either.
     *
     * @param floor the least gap, in percent, as for far trials
     */
    public double twoGroups(double[] baseValues, double[] headValues, double floor) {
        if (none()) {
            return Double.NaN;
        }
        // Far trials of both sides that lie on opposite sides of their medians, or a far trial of one
        // side among the other's trials: each side's minority is the other's majority, the mark of
        // two speeds whatever the gap.
        boolean swapped = oppositeWays(baseValues, headValues)
                || near(baseValues, base, headValues) > 0
                || near(headValues, head, baseValues) > 0;
        double cut = widestGap(baseValues, headValues);
        if (Double.isNaN(cut)) {
            return Double.NaN;
        }
        double below = Double.NEGATIVE_INFINITY;
        double above = Double.POSITIVE_INFINITY;
        int low = 0;
        int high = 0;
        boolean[][] sides = new boolean[2][2];
        double[][] values = {baseValues, headValues};
        for (int s = 0; s < 2; s++) {
            for (double v : values[s]) {
                double x = Math.log(v);
                if (x < cut) {
                    below = Math.max(below, x);
                    low++;
                    sides[s][0] = true;
                } else {
                    above = Math.min(above, x);
                    high++;
                    sides[s][1] = true;
                }
            }
        }
        double gap = above - below;
        boolean wide = swapped || gap > SPREADS * withinGroups(values, cut) && gap > Math.log1p(floor / 100);
        boolean shared = sides[0][0] && sides[0][1] && sides[1][0] && sides[1][1];
        return wide && (shared || swapped) && low >= 2 && high >= 2 ? cut : Double.NaN;
    }

    /** How many spreads from the other side's median make a far trial lie among the other side's trials. */
    static final double NEAR = 3;

    /** Returns how many far trials of {@code values} lie within {@value #NEAR} spreads of {@code other}'s median. */
    private int near(double[] values, List<Integer> far, double[] other) {
        double median = Sample.median(other);
        int n = 0;
        for (int i : far) {
            n += Math.abs(values[i] - median) <= NEAR * spread ? 1 : 0;
        }
        return n;
    }

    /**
     * Returns whether both sides have far trials, and all of one side's lie above its median while
     * all of the other's lie below.
     */
    private boolean oppositeWays(double[] baseValues, double[] headValues) {
        if (base.isEmpty() || head.isEmpty()) {
            return false;
        }
        int b = way(baseValues, base);
        int h = way(headValues, head);
        return b != 0 && h != 0 && b != h;
    }

    /** Returns 1 when every far trial lies above its side's median, -1 when every one lies below, else 0. */
    private static int way(double[] values, List<Integer> far) {
        double median = Sample.median(values);
        int above = 0;
        for (int i : far) {
            above += values[i] > median ? 1 : 0;
        }
        return above == far.size() ? 1 : above == 0 ? -1 : 0;
    }

    /**
     * Returns the robust spread of the logarithms of {@code values} (both sides) within the groups
     * {@code cut} splits them into: 1.4826 times the median distance of a value from the median of
     * its side's values in its group (the median of an odd group left out); 0 when there is none.
     */
    private static double withinGroups(double[][] values, double cut) {
        List<Double> distances = new ArrayList<>();
        for (double[] side : values) {
            for (boolean above : new boolean[] {false, true}) {
                double[] group = Arrays.stream(side)
                        .map(Math::log)
                        .filter(x -> x >= cut == above)
                        .sorted()
                        .toArray();
                if (group.length == 0) {
                    continue;
                }
                double median = Sample.median(group);
                double[] into = new double[group.length];
                int k = deviations(group, median, into, 0);
                for (int i = 0; i < k; i++) {
                    distances.add(into[i]);
                }
            }
        }
        if (distances.isEmpty()) {
            return 0;
        }
        return Sample.robustSd(distances.stream().mapToDouble(d -> d).toArray());
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
     * Returns where the pooled values of both sides leave their widest gap, as the logarithm half
     * way across it; NaN when a value is not positive or there are fewer than two.
     */
    private static double widestGap(double[] base, double[] head) {
        double[] logs = new double[base.length + head.length];
        int k = 0;
        for (double[] side : new double[][] {base, head}) {
            for (double v : side) {
                if (!(v > 0)) {
                    return Double.NaN;
                }
                logs[k++] = Math.log(v);
            }
        }
        if (logs.length < 2) {
            return Double.NaN;
        }
        Arrays.sort(logs);
        double widest = -1;
        double cut = Double.NaN;
        for (int i = 1; i < logs.length; i++) {
            if (logs[i] - logs[i - 1] > widest) {
                widest = logs[i] - logs[i - 1];
                cut = (logs[i] + logs[i - 1]) / 2;
            }
        }
        return cut;
    }
}
