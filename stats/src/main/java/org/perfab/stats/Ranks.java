package org.perfab.stats;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Mann-Whitney test of two samples, as benchstat judges a change: exact without ties and up to
 * {@value #EXACT_UP_TO} values a side, else the normal approximation. {@link Calibration} measures
 * perfab's verdict against it on the same draws.
 */
final class Ranks {
    /** Past this many values on either side, the normal approximation with a continuity correction. */
    static final int EXACT_UP_TO = 50;

    /** The exact distributions of U already computed, by the two sizes. */
    private static final Map<Long, double[]> CDFS = new ConcurrentHashMap<>();

    private Ranks() {
    }

    /**
     * A comparison by ranks.
     *
     * @param u the Mann-Whitney U of head against base: the pairs with head above base, ties counting
     *     a half
     * @param p two-sided p; 1 when every value on both sides is the same
     */
    record Result(double u, double p) {
    }

    /** Returns the comparison of {@code head} with {@code base}; each side needs a value. */
    static Result of(double[] base, double[] head) {
        int m = base.length;
        int n = head.length;
        if (m == 0 || n == 0) {
            throw new IllegalArgumentException("a comparison by ranks needs a value on each side");
        }
        double u = 0;
        boolean ties = false;
        for (double b : base) {
            for (double h : head) {
                if (h > b) {
                    u++;
                } else if (h == b) {
                    u += 0.5;
                    ties = true;
                }
            }
        }
        return new Result(u, ties || m > EXACT_UP_TO || n > EXACT_UP_TO ? normal(base, head, u) : exact(m, n, u));
    }

    /** Returns the exact two-sided p of U = {@code u} for sizes {@code m} and {@code n}, without ties. */
    static double exact(int m, int n, double u) {
        double[] cdf = cdf(m, n);
        int at = (int) Math.round(u);
        double lower = cdf[at];
        double upper = at == 0 ? 1 : 1 - cdf[at - 1];
        return Math.min(1, 2 * Math.min(lower, upper));
    }

    /**
     * Returns the two-sided p of the normal approximation with the tie correction of the variance
     * and a continuity correction, as scipy's {@code mannwhitneyu(method="asymptotic")}.
     */
    static double normal(double[] base, double[] head, double u) {
        int m = base.length;
        int n = head.length;
        double[] all = new double[m + n];
        System.arraycopy(base, 0, all, 0, m);
        System.arraycopy(head, 0, all, m, n);
        Arrays.sort(all);
        double tieTerm = 0;
        for (int i = 0; i < all.length;) {
            int j = i;
            while (j < all.length && all[j] == all[i]) {
                j++;
            }
            double t = j - i;
            tieTerm += t * t * t - t;
            i = j;
        }
        int total = m + n;
        double variance = m * (double) n / 12.0 * ((total + 1) - tieTerm / (total * (double) (total - 1)));
        if (variance <= 0) {
            return 1;
        }
        double mean = m * (double) n / 2;
        double z = (Math.abs(u - mean) - 0.5) / Math.sqrt(variance);
        return Math.min(1, 2 * (1 - Normal.cdf(Math.max(z, 0))));
    }

    /**
     * Returns the cumulative distribution of U for sizes {@code m} and {@code n} when nothing
     * differs: {@code cdf[u] = P(U <= u)}. The counts are the coefficients of the Gaussian
     * binomial coefficient {@code [m + n choose m]}, built one factor at a time.
     */
    static double[] cdf(int m, int n) {
        int a = Math.min(m, n);
        int b = Math.max(m, n);
        return CDFS.computeIfAbsent(((long) a << 32) | b, key -> {
            int top = a * b;
            // Counts of U over the sizes (i, b), i from 0 to a, by the recurrence on the largest value:
            // the product over i of (1 - q^(b+i)) / (1 - q^i), as doubles (exact to 2^53).
            double[] f = new double[top + 1];
            f[0] = 1;
            for (int i = 1; i <= a; i++) {
                // multiply by (1 - q^(b+i))
                for (int u = top; u >= b + i; u--) {
                    f[u] -= f[u - b - i];
                }
                // divide by (1 - q^i)
                for (int u = i; u <= top; u++) {
                    f[u] += f[u - i];
                }
            }
            double total = 0;
            for (double x : f) {
                total += x;
            }
            double[] cdf = new double[top + 1];
            double running = 0;
            for (int u = 0; u <= top; u++) {
                running += f[u];
                cdf[u] = running / total;
            }
            return cdf;
        });
    }
}
