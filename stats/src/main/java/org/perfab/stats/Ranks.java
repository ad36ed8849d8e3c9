package org.perfab.stats;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The comparison of two samples by ranks: the Mann-Whitney test (exact without ties, as benchstat
 * does for small samples), the Hodges-Lehmann estimate of the change, and its distribution-free
 * interval (Moses). What a cell is judged on when its trials do not have one centre: when a side's
 * far trials are too many to be hiccups (two modes, a heavy tail), a mean is whichever mode the
 * trials happened to land in, and ranks are not.
 *
 * <p>The change is a ratio, so it is estimated on the logarithms of the values: the median of
 * every {@code log(head_j) - log(base_i)}, a shift that becomes a percent change. The 95% interval
 * is the pair of those differences whose ranks the exact distribution of the Mann-Whitney U gives
 * (Moses 1965); it holds whatever the shape of the noise, when both sides share one.
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
     * @param pct the Hodges-Lehmann estimate of the change, in percent; NaN when a value is not positive
     * @param ciLow the lower end of the 95% interval of {@code pct}; NaN when undefined
     * @param ciHigh the upper end; NaN when undefined
     */
    record Result(double u, double p, double pct, double ciLow, double ciHigh) {
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
        double p = ties || m > EXACT_UP_TO || n > EXACT_UP_TO ? normal(base, head, u) : exact(m, n, u);
        boolean positive = Arrays.stream(base).allMatch(v -> v > 0) && Arrays.stream(head).allMatch(v -> v > 0);
        if (!positive) {
            return new Result(u, p, Double.NaN, Double.NaN, Double.NaN);
        }
        double[] d = new double[m * n];
        int k = 0;
        for (double b : base) {
            for (double h : head) {
                d[k++] = Math.log(h) - Math.log(b);
            }
        }
        Arrays.sort(d);
        double shift = median(d);
        // The interval: the differences of ranks c+1 and mn-c, with c the largest count whose
        // lower tail P(U <= c) stays within 2.5%.
        int c = lowerCritical(m, n, (1 - Comparison.CONFIDENCE) / 2);
        double low = c < 0 ? Double.NaN : d[c];
        double high = c < 0 ? Double.NaN : d[m * n - 1 - c];
        return new Result(u, p, pct(shift), pct(low), pct(high));
    }

    private static double pct(double logShift) {
        return Double.isNaN(logShift) ? Double.NaN : Math.expm1(logShift) * 100;
    }

    /**
     * Returns the largest {@code c} with {@code P(U <= c) <= tail} under no difference (exact up to
     * {@link #EXACT_UP_TO} values a side, else the normal approximation); -1 when even
     * {@code P(U <= 0)} is above it (too few values for the interval).
     */
    static int lowerCritical(int m, int n, double tail) {
        if (m <= EXACT_UP_TO && n <= EXACT_UP_TO) {
            double[] cdf = cdf(m, n);
            int c = -1;
            while (c + 1 < cdf.length && cdf[c + 1] <= tail) {
                c++;
            }
            return c;
        }
        double mean = m * (double) n / 2;
        double sd = Math.sqrt(m * (double) n * (m + n + 1) / 12.0);
        double z = Normal.quantile(tail);
        return (int) Math.floor(mean + z * sd - 0.5);
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

    private static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
