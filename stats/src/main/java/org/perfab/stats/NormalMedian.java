package org.perfab.stats;

import java.util.function.DoubleUnaryOperator;

/**
 * The spread of the median of normal values: how much more a build's median moves than its mean
 * would. For {@code n} values of spread 1 the median's variance is {@code 1/n} for one or two
 * values (the median is then the mean), 0.449 for three, 0.298 for four, 0.287 for five, and
 * {@code pi / (2n)} as {@code n} grows.
 */
final class NormalMedian {
    private static final double LOG_ROOT_2PI = 0.5 * StrictMath.log(2 * Math.PI);

    private NormalMedian() {}

    /**
     * Returns the variance of the median of {@code n} independent standard normal values (for an
     * even {@code n}, the mean of the two middle ones), to about 1e-12 relative.
     *
     * <p>For {@code n = 2r + 1} the median is the order statistic {@code X_(r+1)}, of density
     * {@code n!/(r!)^2 Phi^r (1 - Phi)^r phi}. For {@code n = 2r} it is the mean of {@code X_(r)} and
     * {@code X_(r+1)}, whose second moments are equal by symmetry, so its variance is
     * {@code (E[X_(r)^2] + E[X_(r) X_(r+1)]) / 2}. Their joint density is
     * {@code C p(x) p(-y)} for {@code x < y}, {@code p = Phi^(r-1) phi} and {@code C = n!/((r-1)!)^2};
     * so with {@code a(x) = x p(x)} and {@code A} its integral from minus infinity,
     * {@code E[X_(r) X_(r+1)] = -C} times the integral of {@code a(x) A(-x)}. Every integrand is
     * smooth and dies off like a normal density, so the trapezoid rule at a third of the median's
     * spread is exact to rounding; {@code A} is summed between the same points, by Gauss-Legendre.
     */
    static double variance(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("a median needs 1 or more values, got " + n);
        }
        if (n <= 2) {
            return 1.0 / n;
        }
        int r = n / 2;
        double step = Math.sqrt(Math.PI / (2 * n)) / 3;
        // Past 12 / sqrt(r) every integrand below is under e^-70 of its top.
        int half = (int) Math.ceil(12 / Math.sqrt(r) / step);
        if (n % 2 == 1) {
            double log = logFactorial(n) - 2 * logFactorial(r);
            double sum = 0;
            for (int i = 1; i <= half; i++) {
                double x = i * step;
                double tails = StrictMath.log(Distributions.normalCdf(x)) + StrictMath.log(Distributions.normalCdf(-x));
                sum += x * x * StrictMath.exp(log + r * tails - x * x / 2 - LOG_ROOT_2PI);
            }
            // The integrand is even and 0 at 0.
            return 2 * sum * step;
        }
        double logSquare = logFactorial(n) - logFactorial(r - 1) - logFactorial(r);
        // sqrt(C) on each of the two factors, so that neither overflows.
        double logRootC = (logFactorial(n) - 2 * logFactorial(r - 1)) / 2;
        DoubleUnaryOperator a = x -> x
                * StrictMath.exp(
                        logRootC + (r - 1) * StrictMath.log(Distributions.normalCdf(x)) - x * x / 2 - LOG_ROOT_2PI);
        double square = 0;
        for (int i = -half; i <= half; i++) {
            double x = i * step;
            square += x
                    * x
                    * StrictMath.exp(logSquare
                            + (r - 1) * StrictMath.log(Distributions.normalCdf(x))
                            + r * StrictMath.log(Distributions.normalCdf(-x))
                            - x * x / 2
                            - LOG_ROOT_2PI);
        }
        square *= step;
        // A at each point, from the leftmost, where it is below e^-70 of its top.
        double[] cumulative = new double[2 * half + 1];
        for (int i = 1; i < cumulative.length; i++) {
            double from = (i - 1 - half) * step;
            cumulative[i] = cumulative[i - 1] + Quadrature.integral(a, from, from + step, 1);
        }
        double product = 0;
        for (int i = -half; i <= half; i++) {
            product -= a.applyAsDouble(i * step) * cumulative[half - i];
        }
        product *= step;
        return (square + product) / 2;
    }

    /** Returns {@code ln n!}: summed below 256, by Stirling's series (to rounding) from there. */
    static double logFactorial(int n) {
        if (n < 256) {
            double sum = 0;
            for (int i = 2; i <= n; i++) {
                sum += StrictMath.log(i);
            }
            return sum;
        }
        double x = n;
        return x * StrictMath.log(x)
                - x
                + 0.5 * StrictMath.log(2 * Math.PI * x)
                + 1 / (12 * x)
                - 1 / (360 * x * x * x)
                + 1 / (1260 * StrictMath.pow(x, 5));
    }
}
