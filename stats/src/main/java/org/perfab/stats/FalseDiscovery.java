package org.perfab.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Benjamini-Hochberg over the cells of one run: with many cells, some look significant by chance
 * (at alpha 0.05, one in twenty unchanged cells), and a cell is then a regression or improvement
 * only when its adjusted p (its q value) is under the false-discovery rate asked.
 */
public final class FalseDiscovery {
    private FalseDiscovery() {}

    /**
     * Returns the Benjamini-Hochberg q value of each of {@code p} (NaN stays NaN and is not
     * counted among the tests).
     */
    public static double[] qValues(double[] p) {
        Integer[] order = new Integer[p.length];
        int m = 0;
        for (int i = 0; i < p.length; i++) {
            order[i] = i;
            m += Double.isNaN(p[i]) ? 0 : 1;
        }
        Arrays.sort(order, Comparator.comparingDouble(i -> Double.isNaN(p[i]) ? Double.POSITIVE_INFINITY : p[i]));
        double[] q = new double[p.length];
        Arrays.fill(q, Double.NaN);
        double running = 1;
        for (int rank = m; rank >= 1; rank--) {
            int i = order[rank - 1];
            running = Math.min(running, p[i] * m / rank);
            q[i] = Math.min(1, running);
        }
        return q;
    }

    /**
     * Returns {@code comparisons} judged together at the false-discovery rates of {@code thresholds}:
     * a regression, improvement or small change whose q value is not under its rate becomes what it
     * would be without significance (see {@link Comparison#atFalseDiscoveryRate}). Profiles and cells
     * without data are not tests.
     */
    public static List<Comparison> apply(List<Comparison> comparisons, Thresholds thresholds) {
        boolean[] tested = new boolean[comparisons.size()];
        for (int i = 0; i < tested.length; i++) {
            Verdict v = comparisons.get(i).verdict();
            tested[i] = v != Verdict.PROFILE && v != Verdict.NO_DATA;
        }
        return apply(comparisons, tested, thresholds);
    }

    /**
     * Returns {@code comparisons} judged together, only those marked {@code tested} counting as the
     * run's tests; the others are returned as they are.
     */
    public static List<Comparison> apply(List<Comparison> comparisons, boolean[] tested, Thresholds thresholds) {
        double[] p = new double[comparisons.size()];
        for (int i = 0; i < p.length; i++) {
            p[i] = tested[i] ? comparisons.get(i).pValue() : Double.NaN;
        }
        double[] q = qValues(p);
        List<Comparison> out = new ArrayList<>(comparisons.size());
        for (int i = 0; i < comparisons.size(); i++) {
            out.add(tested[i] ? comparisons.get(i).atFalseDiscoveryRate(q[i], thresholds) : comparisons.get(i));
        }
        return out;
    }
}
