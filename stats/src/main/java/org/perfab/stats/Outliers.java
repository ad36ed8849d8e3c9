package org.perfab.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * The outlier trials of one side: values that a hiccup of the machine, not the code, put far from
 * the rest (a slow scheduler tick, a page-cache miss, a neighbour's burst). One such trial in ten
 * moves a mean by 3% and multiplies the standard deviation, and Welch's test then cannot see a real
 * 5% change beside it; benchstat's medians and ranks do.
 *
 * <p>The rule is robust and one-sided in what it can hide: a value is an outlier when it lies
 * farther from its own side's median than {@value #SPREADS} robust standard deviations
 * (1.4826 median absolute deviations) and farther than {@code floor} percent of the median, so
 * that ordinary noise is never set aside, and when Rosner's generalized ESD test at
 * {@value #ESD_ALPHA} finds it too. A side needs {@value #MIN_VALUES} values or more, and at most a
 * fifth of them may be outliers: when more would be, the spread is the side's own (a heavy tail, two
 * modes), and nothing is set aside. Each side is judged against its own median only, so a side that
 * is simply slower has no outliers.
 *
 * <p>// Note: the median absolute deviation of 5 values is itself noisy: three of five normal
 * values can lie close together, and the other two then look far. With the spread rule alone an
 * A/A at CV 3% and 5 trials was a regression 2.7% of the time, against 1.8% for Welch's test on
 * every trial (perfab calibrate, 4,000 runs). The ESD test, whose chance of calling any value of a
 * normal side an outlier is {@value #ESD_ALPHA}, brings it back to 1.9%, and one slow trial in
 * twenty is still set aside as often.
 */
public final class Outliers {
    /** How many robust standard deviations from the median make a value an outlier. */
    public static final double SPREADS = 5;
    /** The fewest values a side needs before any is called an outlier. */
    public static final int MIN_VALUES = 5;
    /** The level of the generalized ESD test an outlier must also pass. */
    public static final double ESD_ALPHA = 0.01;

    private Outliers() {
    }

    /**
     * Returns the positions in {@code values} of its outliers, in ascending order; empty when there
     * are none, too few values to tell, or too many to call outliers.
     *
     * @param floor the least distance from the median, in percent of it, of an outlier: the
     *     verdict's minimum effect, so nothing smaller than a change that matters is set aside
     */
    public static List<Integer> of(double[] values, double floor) {
        int n = values.length;
        if (n < MIN_VALUES) {
            return List.of();
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        double median = median(sorted);
        double[] deviations = new double[n];
        for (int i = 0; i < n; i++) {
            deviations[i] = Math.abs(values[i] - median);
        }
        double[] sortedDeviations = deviations.clone();
        Arrays.sort(sortedDeviations);
        double sigma = 1.4826 * median(sortedDeviations);
        double limit = Math.max(SPREADS * sigma, Math.abs(median) * floor / 100);
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (deviations[i] > limit) {
                out.add(i);
            }
        }
        if (out.isEmpty() || out.size() * 5 > n) {
            return List.of();
        }
        List<Integer> esd = esd(values, n / 5);
        out.retainAll(esd);
        return List.copyOf(out);
    }

    /**
     * Returns the positions of the outliers that Rosner's generalized extreme Studentized deviate
     * test finds at {@link #ESD_ALPHA} among {@code values}, at most {@code most} of them: the
     * value farthest from the mean is taken out, {@code most} times, and the outliers are the
     * first {@code k}, for the largest {@code k} whose deviate passes its critical value.
     */
    static List<Integer> esd(double[] values, int most) {
        List<Integer> left = new ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            left.add(i);
        }
        List<Integer> taken = new ArrayList<>();
        int found = 0;
        for (int i = 1; i <= most && left.size() > 2; i++) {
            double mean = 0;
            for (int j : left) {
                mean += values[j];
            }
            mean /= left.size();
            double squares = 0;
            int far = left.get(0);
            for (int j : left) {
                squares += (values[j] - mean) * (values[j] - mean);
                if (Math.abs(values[j] - mean) > Math.abs(values[far] - mean)) {
                    far = j;
                }
            }
            double sd = Math.sqrt(squares / (left.size() - 1));
            if (sd == 0) {
                break;
            }
            int m = left.size();
            double t = new TDistribution(null, m - 2).inverseCumulativeProbability(1 - ESD_ALPHA / (2.0 * m));
            double critical = (m - 1) * t / Math.sqrt((m - 2 + t * t) * m);
            taken.add(far);
            left.remove(Integer.valueOf(far));
            if (Math.abs(values[far] - mean) / sd > critical) {
                found = i;
            }
        }
        return taken.subList(0, found);
    }

    /** Returns {@code values} without the positions {@code outliers} (ascending). */
    public static double[] without(double[] values, List<Integer> outliers) {
        double[] kept = new double[values.length - outliers.size()];
        int k = 0;
        int next = 0;
        for (int i = 0; i < values.length; i++) {
            if (next < outliers.size() && outliers.get(next) == i) {
                next++;
            } else {
                kept[k++] = values[i];
            }
        }
        return kept;
    }

    private static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
