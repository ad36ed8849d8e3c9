package org.perfab.stats;

/**
 * The descriptive statistics of one {@link Sample}.
 *
 * @param n number of values
 * @param mean arithmetic mean; NaN when {@code n == 0}
 * @param median middle value (mean of the two middle values when {@code n} is even); NaN when
 *     {@code n == 0}
 * @param stddev sample standard deviation (divisor {@code n - 1}); NaN when {@code n < 2}
 * @param cv coefficient of variation in percent, {@code 100 * stddev / mean}; NaN when
 *     {@code n < 2} or the mean is not positive, since a spread relative to a zero or negative
 *     level means nothing
 * @param min smallest value; NaN when {@code n == 0}
 * @param max largest value; NaN when {@code n == 0}
 */
public record Summary(int n, double mean, double median, double stddev, double cv, double min, double max) {

    public Summary {
        if (n < 0) {
            throw new IllegalArgumentException("n must be >= 0, got " + n);
        }
    }

    /** Returns the summary of {@code sample}. */
    public static Summary of(Sample sample) {
        double[] v = sample.sortedView();
        int n = v.length;
        if (n == 0) {
            return new Summary(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        }
        double mean = mean(v);
        double median = sample.median();
        double stddev = n < 2 ? Double.NaN : Math.sqrt(variance(v, mean));
        double cv = n >= 2 && mean > 0 ? 100.0 * stddev / mean : Double.NaN;
        return new Summary(n, mean, median, stddev, cv, v[0], v[n - 1]);
    }

    /** Returns the mean of {@code v}, corrected by the mean of the deviations from the first pass. */
    private static double mean(double[] v) {
        double sum = 0;
        for (double x : v) {
            sum += x;
        }
        double first = sum / v.length;
        double correction = 0;
        for (double x : v) {
            correction += x - first;
        }
        return first + correction / v.length;
    }

    /** Returns the sample variance of {@code v} about {@code mean}, with the corrected two-pass sum. */
    private static double variance(double[] v, double mean) {
        double squares = 0;
        double deviations = 0;
        for (double x : v) {
            double d = x - mean;
            squares += d * d;
            deviations += d;
        }
        return (squares - deviations * deviations / v.length) / (v.length - 1);
    }

    /** Returns this summary of values times {@code 2^exponent}: the CV is the same. */
    Summary scaled(int exponent) {
        return new Summary(
                n,
                Math.scalb(mean, exponent),
                Math.scalb(median, exponent),
                Math.scalb(stddev, exponent),
                cv,
                Math.scalb(min, exponent),
                Math.scalb(max, exponent));
    }

    /** Returns the sample variance ({@code stddev} squared); NaN when {@code n < 2}. */
    public double variance() {
        return stddev * stddev;
    }

    /**
     * Returns the half-width of the 95% confidence interval of the mean, from Student's t with
     * {@code n - 1} degrees of freedom; NaN when {@code n < 2}, 0 for a constant sample.
     */
    public double meanHalfWidth95() {
        if (n < 2) {
            return Double.NaN;
        }
        return stddev == 0 ? 0 : TQuantile.of(0.975, n - 1) * stddev / Math.sqrt(n);
    }

    /** Returns whether every value is the same ({@code n >= 2} and a zero spread). */
    public boolean isConstant() {
        return n >= 2 && min == max;
    }
}
