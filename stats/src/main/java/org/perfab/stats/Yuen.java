package org.perfab.stats;

import java.util.Arrays;

/**
 * Yuen's test: Welch's test on trimmed means, with winsorized variances (Yuen 1974). Trimming a
 * fifth of each end makes one wild trial in ten harmless, at some cost in power on clean data.
 * Kept for {@link Calibration} to measure against the verdict's own rule.
 */
final class Yuen {
    /** The share trimmed from each end. */
    static final double TRIM = 0.2;

    private Yuen() {}

    /** Returns the trimmed mean of {@code values}. */
    static double trimmedMean(double[] values) {
        double[] s = values.clone();
        Arrays.sort(s);
        int g = (int) Math.floor(TRIM * s.length);
        double sum = 0;
        for (int i = g; i < s.length - g; i++) {
            sum += s[i];
        }
        return sum / (s.length - 2 * g);
    }

    /**
     * Yuen's test of one side against another.
     *
     * @param t {@code (trimmed_head - trimmed_base) / se}; infinite when both winsorized spreads are
     *     0 and the trimmed means differ, 0 when they are equal, NaN with fewer than 3 values a side
     * @param df Welch-Satterthwaite degrees of freedom from the trimmed counts; NaN when undefined
     *     (fewer than 3 values a side, or both winsorized spreads 0)
     * @param p two-sided p; 0 or 1 when both winsorized spreads are 0 and the trimmed means differ
     *     or not, NaN with fewer than 3 values a side
     */
    record Result(double t, double df, double p) {}

    /** Returns Yuen's test of {@code head} against {@code base}. */
    static Result test(double[] base, double[] head) {
        if (base.length < 3 || head.length < 3) {
            return new Result(Double.NaN, Double.NaN, Double.NaN);
        }
        double[] db = d(base);
        double[] dh = d(head);
        double se2 = dh[0] + db[0];
        double diff = trimmedMean(head) - trimmedMean(base);
        if (se2 == 0) {
            return diff == 0
                    ? new Result(0, Double.NaN, 1)
                    : new Result(Math.copySign(Double.POSITIVE_INFINITY, diff), Double.NaN, 0);
        }
        double t = diff / Math.sqrt(se2);
        double df = se2 * se2 / (dh[0] * dh[0] / (dh[1] - 1) + db[0] * db[0] / (db[1] - 1));
        return new Result(t, df, Distributions.tTwoSided(t, df));
    }

    /** Returns {d, h}: the squared standard error of the trimmed mean and the trimmed count. */
    private static double[] d(double[] values) {
        double[] s = values.clone();
        Arrays.sort(s);
        int n = s.length;
        int g = (int) Math.floor(TRIM * n);
        int h = n - 2 * g;
        double[] w = s.clone();
        for (int i = 0; i < g; i++) {
            w[i] = s[g];
            w[n - 1 - i] = s[n - 1 - g];
        }
        double mean = Arrays.stream(w).average().orElse(Double.NaN);
        double ss = 0;
        for (double x : w) {
            ss += (x - mean) * (x - mean);
        }
        double winsorized = ss / (n - 1);
        return new double[] {(n - 1) * winsorized / ((double) h * (h - 1)), h};
    }
}
