package org.perfab.stats;

import java.util.HashMap;
import java.util.Map;

/**
 * How large a change perfab's test finds at one significance level with one power, by the size of
 * the run: the change, in standard errors, at which Welch's test on {@code m} values per side is
 * significant with that power, and how much more a median of {@code n} trials moves than a mean.
 * Each figure takes milliseconds and is the same for every cell, so one sensitivity serves a whole
 * table and keeps each figure it computed; it is not for use by several threads at once.
 */
public final class Sensitivity {
    private final double alpha;
    private final double power;
    private final Map<Integer, Double> shifts = new HashMap<>();
    private final Map<Integer, Double> medians = new HashMap<>();

    /**
     * Returns the sensitivity of the test at {@code alpha}, two-sided, with {@code power}.
     *
     * @throws IllegalArgumentException unless {@code alpha} is in (0, 1) and {@code power} in
     *     ({@code alpha / 2}, 1)
     */
    public Sensitivity(double alpha, double power) {
        if (!(alpha > 0 && alpha < 1) || !(power > alpha / 2 && power < 1)) {
            throw new IllegalArgumentException(
                    "alpha must be in (0, 1) and power in (alpha/2, 1), got " + alpha + " and " + power);
        }
        this.alpha = alpha;
        this.power = power;
    }

    /** Returns the significance level, two-sided. */
    public double alpha() {
        return alpha;
    }

    /** Returns the power. */
    public double power() {
        return power;
    }

    /**
     * Returns the change, in percent of the mean, that the test finds with {@link #power} on
     * {@code m} values a side whose coefficients of variation are {@code cvBase} and {@code cvHead}
     * (in percent): what the spreads alone let a run of that size see, whatever it measured.
     */
    public double detectable(double cvBase, double cvHead, int m) {
        return shift(m) * Math.sqrt((cvBase * cvBase + cvHead * cvHead) / m);
    }

    /** Returns the change, in standard errors, that the test finds with {@link #power} on {@code m} values per side. */
    double shift(int m) {
        return shifts.computeIfAbsent(m, k -> WelchPower.shift(k, alpha, power));
    }

    /**
     * Returns the change, in standard errors, that the paired test of {@code n} pairs finds with
     * {@link #power}: the t-test's shift at its {@code n - 1} degrees of freedom, which Welch's test
     * of {@code m} values a side of equal spreads has at {@code 2m - 2}; between two such {@code m},
     * by linear interpolation.
     */
    double pairedShift(int n) {
        double m = (n + 1) / 2.0;
        int low = Math.max(2, (int) Math.floor(m));
        int high = Math.max(2, (int) Math.ceil(m));
        return low == high ? shift(low) : (shift(low) + shift(high)) / 2;
    }

    /** Returns the variance of the median of {@code n} standard normal values. */
    double medianVariance(int n) {
        return medians.computeIfAbsent(n, NormalMedian::variance);
    }
}
