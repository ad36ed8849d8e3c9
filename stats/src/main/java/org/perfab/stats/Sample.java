package org.perfab.stats;

import java.util.Arrays;
import java.util.List;

/**
 * The values measured for one cell on one side: one value per trial, in any order. A sample sorts
 * its values once, when it is made, and is immutable from then on.
 */
public final class Sample {
    private static final Sample EMPTY = new Sample(new double[0]);

    private final double[] sorted;

    private Sample(double[] sorted) {
        this.sorted = sorted;
    }

    /**
     * Returns a sample of {@code values}.
     *
     * @throws IllegalArgumentException when a value is NaN or infinite, naming its position
     */
    public static Sample of(double... values) {
        double[] copy = values.clone();
        for (int i = 0; i < copy.length; i++) {
            if (!Double.isFinite(copy[i])) {
                throw new IllegalArgumentException(
                        "value #" + (i + 1) + " is " + copy[i] + "; a sample holds finite values only");
            }
        }
        Arrays.sort(copy);
        return new Sample(copy);
    }

    /** What {@link #maxExponent} returns for a sample without a non-zero value. */
    static final int NO_EXPONENT = Integer.MIN_VALUE;

    /** Returns the binary exponent of the largest magnitude, or {@link #NO_EXPONENT}. */
    int maxExponent() {
        double max = sorted.length == 0 ? 0 : Math.max(Math.abs(sorted[0]), Math.abs(sorted[sorted.length - 1]));
        return max == 0 ? NO_EXPONENT : Math.getExponent(max);
    }

    /** Returns this sample with every value times {@code 2^exponent} (exact, but for underflow). */
    Sample scaled(int exponent) {
        double[] v = new double[sorted.length];
        for (int i = 0; i < v.length; i++) {
            v[i] = Math.scalb(sorted[i], exponent);
        }
        return new Sample(v);
    }

    /** Returns the sample with no values. */
    public static Sample empty() {
        return EMPTY;
    }

    /** Returns the number of values. */
    public int size() {
        return sorted.length;
    }

    /** Returns a copy of the values, in ascending order. */
    public double[] sortedValues() {
        return sorted.clone();
    }

    /** Returns the middle value (the mean of the two middle values when the size is even); NaN when empty. */
    public double median() {
        return middle(sorted);
    }

    /** A normal sample's standard deviation over its median absolute deviation: 1 / Φ⁻¹(3/4). */
    public static final double MAD_TO_SD = 1.482602218505602;

    /**
     * Returns the standard deviation of normal values whose distances from their median are
     * {@code distances}, in any order: {@link #MAD_TO_SD} times their median, a spread one wild value
     * barely moves. NaN when there are none. The one robust spread of perfab.
     */
    public static double robustSd(double[] distances) {
        return MAD_TO_SD * median(distances);
    }

    /**
     * Returns the median of {@code values}, in any order: the middle value, or the mean of the two
     * middle values when their number is even; NaN when there are none. The one median of perfab:
     * every other is this one.
     */
    public static double median(double[] values) {
        double[] s = values.clone();
        Arrays.sort(s);
        return middle(s);
    }

    /** Returns {@link #median(double[])} of {@code values}. */
    public static double median(List<Double> values) {
        return median(values.stream().mapToDouble(Double::doubleValue).toArray());
    }

    private static double middle(double[] s) {
        int n = s.length;
        if (n == 0) {
            return Double.NaN;
        }
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0;
    }

    /**
     * Returns the {@code q} quantile, interpolated linearly between the order statistics (the
     * default of numpy and R's type 7); NaN when empty.
     *
     * @throws IllegalArgumentException when {@code q} is not from 0 to 1
     */
    public double quantile(double q) {
        if (!(q >= 0 && q <= 1)) {
            throw new IllegalArgumentException("a quantile is from 0 to 1, got " + q);
        }
        if (sorted.length == 0) {
            return Double.NaN;
        }
        double at = q * (sorted.length - 1);
        int low = (int) Math.floor(at);
        int high = Math.min(low + 1, sorted.length - 1);
        return sorted[low] + (at - low) * (sorted[high] - sorted[low]);
    }

    /** The values in ascending order, not copied: callers in this package must not write to it. */
    double[] sortedView() {
        return sorted;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Sample s && Arrays.equals(sorted, s.sorted);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(sorted);
    }

    @Override
    public String toString() {
        return "Sample" + Arrays.toString(sorted);
    }
}
