package org.perfab.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How far the ratios of builds that cannot differ spread, pooled over benchmarks: for every
 * benchmark and every pair of snapshots that both have it, how much the larger ratio is above the
 * smaller ({@code max / min - 1}), in percent. That is the floor under a ratchet's budget.
 *
 * <p>There are {@code n(n-1)/2} such deviations per benchmark seen in {@code n} snapshots, so the
 * pool is not kept: each benchmark's ratios are kept sorted, and the pool's order statistics are
 * found by searching the value whose count of deviations at or below it reaches the rank. For
 * sorted ratios the deviation of a pair grows with its larger ratio and shrinks with its smaller
 * one, so that count is one pass over each benchmark. Memory is linear in the ratios and time is
 * linear in them times the 64 steps of the search, where the pool itself grows with the square of
 * the snapshots (10,000 control snapshots are 50 million pairs per benchmark). The figures are
 * those of the pool sorted, bit for bit: the search runs over the doubles the deviations are
 * computed as, with the same arithmetic.
 */
public final class PairSpreads {
    private final List<double[]> sorted;
    private final long size;
    private final double max;

    private PairSpreads(List<double[]> sorted) {
        this.sorted = sorted;
        long n = 0;
        double top = Double.NaN;
        for (double[] v : sorted) {
            n += (long) v.length * (v.length - 1) / 2;
            if (v.length >= 2) {
                double d = deviation(v[0], v[v.length - 1]);
                top = Double.isNaN(top) ? d : Math.max(top, d);
            }
        }
        this.size = n;
        this.max = top;
    }

    /**
     * Returns the spreads of {@code ratios}, each a snapshot's ratio per benchmark, over every
     * benchmark but {@code anchor}.
     */
    public static PairSpreads of(List<Map<String, Double>> ratios, String anchor) {
        Map<String, List<Double>> byName = new TreeMap<>();
        ratios.forEach(r -> r.forEach((name, v) -> {
            if (!name.equals(anchor)) {
                byName.computeIfAbsent(name, k -> new ArrayList<>()).add(v);
            }
        }));
        List<double[]> sorted = new ArrayList<>();
        byName.values().forEach(values -> {
            double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
            Arrays.sort(v);
            sorted.add(v);
        });
        return new PairSpreads(sorted);
    }

    /** Returns how many deviations the pool holds: the pairs, summed over benchmarks. */
    public long size() {
        return size;
    }

    /** Returns the largest deviation; NaN for an empty pool. */
    public double max() {
        return max;
    }

    /**
     * Returns the pool's {@code q} quantile, interpolated between its order statistics as
     * {@link Sample#quantile} does; NaN for an empty pool.
     */
    public double quantile(double q) {
        if (!(q >= 0 && q <= 1)) {
            throw new IllegalArgumentException("a quantile is from 0 to 1, got " + q);
        }
        if (size == 0) {
            return Double.NaN;
        }
        double at = q * (size - 1);
        long low = (long) Math.floor(at);
        long high = Math.min(low + 1, size - 1);
        double a = rank(low);
        double b = high == low ? a : rank(high);
        return a + (at - low) * (b - a);
    }

    /** Returns the pool's {@code k}th smallest deviation, from 0. */
    private double rank(long k) {
        // Deviations are >= 0, and the bits of non-negative doubles order as the doubles do.
        long lo = 0;
        long hi = Double.doubleToRawLongBits(max);
        while (lo < hi) {
            long mid = lo + (hi - lo) / 2;
            if (atMost(Double.longBitsToDouble(mid)) > k) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return Double.longBitsToDouble(lo);
    }

    /** Returns how many deviations of the pool are {@code t} or less. */
    private long atMost(double t) {
        long count = 0;
        for (double[] v : sorted) {
            int i = 0;
            for (int j = 1; j < v.length; j++) {
                while (deviation(v[i], v[j]) > t) {
                    i++;
                }
                count += j - i;
            }
        }
        return count;
    }

    /** The deviation of a pair, {@code larger / smaller - 1} in percent, as every figure computes it. */
    private static double deviation(double smaller, double larger) {
        return (larger / smaller - 1) * 100;
    }
}
