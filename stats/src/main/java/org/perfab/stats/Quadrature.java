package org.perfab.stats;

import java.util.function.DoubleUnaryOperator;

/**
 * Composite Gauss-Legendre rules of eight points a panel: exact for polynomials up to degree 15 on
 * each panel, so a smooth integrand on panels no wider than its own scale comes out to rounding
 * error.
 */
final class Quadrature {
    /** The points of the eight-point rule on [-1, 1], the positive half; the rule is symmetric. */
    private static final double[] POINT = {
        0.1834346424956498, 0.5255324099163290, 0.7966664774136267, 0.9602898564975363
    };

    private static final double[] WEIGHT = {
        0.3626837833783620, 0.3137066458778873, 0.2223810344533745, 0.1012285362903763
    };
    /** The points a panel has. */
    static final int PER_PANEL = 2 * POINT.length;

    private Quadrature() {}

    /**
     * Returns the points of the rule of {@code panels} equal panels on [{@code from}, {@code to}],
     * in increasing order; {@link #weights} gives their weights.
     */
    static double[] points(double from, double to, int panels) {
        double[] x = new double[panels * PER_PANEL];
        double width = (to - from) / panels;
        for (int p = 0; p < panels; p++) {
            double mid = from + (p + 0.5) * width;
            int base = p * PER_PANEL;
            for (int i = 0; i < POINT.length; i++) {
                x[base + POINT.length - 1 - i] = mid - width / 2 * POINT[i];
                x[base + POINT.length + i] = mid + width / 2 * POINT[i];
            }
        }
        return x;
    }

    /** Returns the weights of the points {@link #points} gives for the same arguments. */
    static double[] weights(double from, double to, int panels) {
        double[] w = new double[panels * PER_PANEL];
        double width = (to - from) / panels;
        for (int p = 0; p < panels; p++) {
            int base = p * PER_PANEL;
            for (int i = 0; i < POINT.length; i++) {
                w[base + POINT.length - 1 - i] = width / 2 * WEIGHT[i];
                w[base + POINT.length + i] = width / 2 * WEIGHT[i];
            }
        }
        return w;
    }

    /** Returns the integral of {@code f} over [{@code from}, {@code to}] by the rule of {@code panels} panels. */
    static double integral(DoubleUnaryOperator f, double from, double to, int panels) {
        double width = (to - from) / panels;
        double sum = 0;
        for (int p = 0; p < panels; p++) {
            double mid = from + (p + 0.5) * width;
            double panel = 0;
            for (int i = 0; i < POINT.length; i++) {
                double d = width / 2 * POINT[i];
                panel += WEIGHT[i] * (f.applyAsDouble(mid - d) + f.applyAsDouble(mid + d));
            }
            sum += panel * width / 2;
        }
        return sum;
    }

    /** Returns how many panels no wider than {@code width} cover [{@code from}, {@code to}]; at least 1. */
    static int panels(double from, double to, double width) {
        return Math.max(1, (int) Math.ceil((to - from) / width));
    }
}
