package org.perfab.stats;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.commons.math3.distribution.BetaDistribution;
import org.apache.commons.math3.distribution.ChiSquaredDistribution;
import org.apache.commons.math3.distribution.NormalDistribution;

/**
 * How noisy one cell is when nothing changes, as an A/A run measures it: the spread of trials
 * within one build, and the spread between builds of the same code (code layout). From these come
 * the smallest change a run of a given size can detect, and the size a run needs to detect a
 * given change.
 *
 * <p>A run with {@code k} builds per side and {@code n} trials per build is judged on one value per
 * build, its median, whose variance is {@code between^2 + f * within^2 / n}, with {@code f} the
 * median's loss against a mean ({@code pi/2} from three trials on, 1 below);
 * with one build per side it is judged on its {@code n} trials, whose variance is
 * {@code within^2}. The minimum detectable effect comes from the noncentral t distribution: the
 * shift at which Welch's test, with the degrees of freedom it has on average ({@link #welchDf}), is
 * significant with the power asked, times the standard error {@code sqrt(2 / m) * spread}, with
 * {@code m} values per side. Checked against a simulation of perfab's own test.
 *
 * @param within the coefficient of variation of trials within one build, in percent; not negative
 * @param between the coefficient of variation between builds of the same code, in percent; NaN when
 *     the A/A run could not tell (a cell measured on one build)
 */
public record NoiseFloor(double within, double between) {
    /** The most builds per side an advice suggests. */
    public static final int MAX_BUILDS = 20;
    /** The most trials per side an advice suggests. */
    public static final int MAX_TRIALS = 1000;

    public NoiseFloor {
        if (!(within >= 0)) {
            throw new IllegalArgumentException("the within-build spread must be 0 or more, got " + within);
        }
        if (!(between >= 0) && !Double.isNaN(between)) {
            throw new IllegalArgumentException("the between-build spread must be 0 or more, got " + between);
        }
    }

    /**
     * Returns the smallest change, in percent, that a run of {@code builds} builds per side and
     * {@code trials} trials per side finds at {@code alpha} with {@code power}. With one build the
     * spread between builds is not in the test (it lands on the sides as a bias instead), so it
     * is left out; NaN when the between-build spread is needed and unknown.
     */
    public double mde(int builds, int trials, double alpha, double power) {
        return mde(builds, trials, alpha, power, new HashMap<>());
    }

    /** Returns {@link #mde}, with the shift of each number of values per side kept in {@code shifts}. */
    private double mde(int builds, int trials, double alpha, double power, Map<Integer, Double> shifts) {
        if (builds < 1 || trials < builds || trials < 2) {
            throw new IllegalArgumentException("a run needs 1 or more builds and 2 or more trials, as many as builds");
        }
        double variance;
        int m;
        if (builds == 1) {
            variance = within * within;
            m = trials;
        } else {
            if (Double.isNaN(between)) {
                return Double.NaN;
            }
            double perBuild = (double) trials / builds;
            // A build is judged on its median, which varies more than a mean: about pi/2 times as
            // much for three trials or more (for one or two, the median is the mean).
            double median = perBuild < 3 ? 1 : Math.PI / 2;
            variance = between * between + median * within * within / perBuild;
            m = builds;
        }
        double shift = shifts.computeIfAbsent(m, n -> shift(welchDf(n), alpha, power));
        return shift * Math.sqrt(2.0 / m * variance);
    }

    /**
     * Returns the degrees of freedom Welch's test has, on average, with {@code m} values per side
     * of equal spread: {@code (m - 1) E[1 / (U^2 + (1 - U)^2)]} with {@code U ~ Beta(k, k)},
     * {@code k = (m - 1) / 2}, since the Welch-Satterthwaite df is {@code (m - 1)(a + b)^2 /
     * (a^2 + b^2)} for the two sides' variances {@code a} and {@code b}. Fewer than the pooled
     * test's {@code 2m - 2}: for three builds per side, 3.14 against 4, and the advice would
     * otherwise promise 80% power where perfab's own test has 70%.
     */
    static double welchDf(int m) {
        double k = (m - 1) / 2.0;
        BetaDistribution beta = new BetaDistribution(null, k, k);
        int steps = 4_000;
        double sum = 0;
        for (int i = 0; i < steps; i++) {
            double u = (i + 0.5) / steps;
            sum += beta.density(u) / (u * u + (1 - u) * (1 - u));
        }
        return (m - 1) * sum / steps;
    }

    /**
     * Returns the true shift, in standard errors, at which a two-sided t-test with {@code df}
     * degrees of freedom at {@code alpha} is significant with {@code power}, from the noncentral t
     * distribution.
     */
    static double shift(double df, double alpha, double power) {
        double critical = WelchTest.quantile(1 - alpha / 2, df);
        double low = 0;
        double high = critical + 10;
        for (int i = 0; i < 40; i++) {
            double mid = (low + high) / 2;
            if (power(mid, df, critical) < power) {
                low = mid;
            } else {
                high = mid;
            }
        }
        return high;
    }

    /**
     * Returns P(T > critical) for T noncentral t with {@code df} degrees of freedom and
     * noncentrality {@code delta}: the integral over the chi-squared variable V of
     * P(Z > critical * sqrt(V / df) - delta), by Simpson's rule.
     */
    private static double power(double delta, double df, double critical) {
        ChiSquaredDistribution chi = new ChiSquaredDistribution(null, df);
        NormalDistribution z = new NormalDistribution(null, 0, 1);
        double top = chi.inverseCumulativeProbability(1 - 1e-9);
        int steps = 400;
        double h = top / steps;
        double sum = 0;
        for (int i = 0; i <= steps; i++) {
            double v = i * h;
            double f = (i == 0 && df <= 2 ? chi.density(h / 2) : chi.density(v))
                    * (1 - z.cumulativeProbability(critical * Math.sqrt(v / df) - delta));
            sum += f * (i == 0 || i == steps ? 1 : i % 2 == 1 ? 4 : 2);
        }
        return sum * h / 3;
    }

    /**
     * The size of run that finds a change.
     *
     * @param builds builds per side
     * @param trials trials per side, spread over the builds
     * @param mde the smallest change such a run finds, in percent
     */
    public record Advice(int builds, int trials, double mde) {
    }

    /**
     * Returns the smallest run (fewest builds, which cost the most, then fewest trials) that finds a change of
     * {@code effect} percent at {@code alpha} with {@code power}: with several builds when the
     * between-build spread is known, so that layout sits inside the test; with one otherwise.
     * Empty when no run up to {@link #MAX_BUILDS} builds and {@link #MAX_TRIALS} trials does.
     */
    public Optional<Advice> advise(double effect, double alpha, double power) {
        int fromBuilds = Double.isNaN(between) ? 1 : 2;
        int toBuilds = Double.isNaN(between) ? 1 : MAX_BUILDS;
        Map<Integer, Double> shifts = new HashMap<>();
        for (int k = fromBuilds; k <= toBuilds; k++) {
            if (k > 1 && mde(k, MAX_TRIALS / k * k, alpha, power, shifts) > effect) {
                continue; // more trials per build cannot bring the spread between builds down
            }
            for (int perBuild = k == 1 ? 2 : 1; perBuild * k <= MAX_TRIALS; perBuild++) {
                double mde = mde(k, perBuild * k, alpha, power, shifts);
                if (mde <= effect) {
                    return Optional.of(new Advice(k, perBuild * k, mde));
                }
            }
        }
        return Optional.empty();
    }
}
