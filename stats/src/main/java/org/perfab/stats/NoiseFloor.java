package org.perfab.stats;

import java.util.function.IntPredicate;

/**
 * How noisy one cell is when nothing changes, as an A/A run measures it: the spread of trials
 * within one build, and the spread between builds of the same code (code layout). From these come
 * the smallest change a run of a given size can detect, and the size a run needs to detect a
 * given change.
 *
 * <p>Where the A/A run was judged in pairs, a run of one build is too: its {@code n} pairs' spread
 * is {@code paired}, and the test's degrees of freedom {@code n - 1}.
 *
 * <p>A run with {@code k} builds per side and {@code n} trials per side (spread over the builds) is
 * judged, when {@code k > 1}, on one value per build, its median, whose variance is
 * {@code between^2 + v * within^2}, with {@code v} the variance of the median of a build's trials
 * ({@code 1/n} for one or two trials a build, 0.449 for three, and {@code pi / (2n)} for many; see
 * {@code NormalMedian}); with one build per side it is judged on its {@code n} trials, whose
 * variance is {@code within^2}. With {@code m} values per side of that variance the smallest change
 * found is {@code shift * sqrt(2 / m * variance)}, {@code shift} the change in standard errors at
 * which Welch's test is significant with the power asked, computed exactly for normal values (see
 * {@code WelchPower}), and the variance the faster side's: since spreads are relative, the slower
 * side spreads as much wider as it is slower, and the test sees the mean of the two. Checked
 * against scipy and against a simulation of perfab's own test, to a point of power.
 *
 * @param within the coefficient of variation of trials within one build, in percent; not negative
 * @param between the coefficient of variation between builds of the same code, in percent; NaN when
 *     the A/A run could not tell (a cell measured on one build)
 * @param paired the spread of a trial as the interleaved order's pairs see it, in percent: the
 *     standard deviation of the pairs' log ratios over the square root of 2, so that it is the
 *     {@code within} of the pairs; NaN when the A/A run was not judged in pairs (its runner's noise
 *     was independent from trial to trial, or its trials did not pair)
 */
public record NoiseFloor(double within, double between, double paired) {
    /** The most builds per side an advice suggests: the most a run may have. */
    public static final int MAX_BUILDS = 20;
    /** The most trials per side an advice suggests: the most a run may have. */
    public static final int MAX_TRIALS = 1000;

    public NoiseFloor {
        if (!(within >= 0)) {
            throw new IllegalArgumentException("the within-build spread must be 0 or more, got " + within);
        }
        if (!(between >= 0) && !Double.isNaN(between)) {
            throw new IllegalArgumentException("the between-build spread must be 0 or more, got " + between);
        }
        if (!(paired >= 0) && !Double.isNaN(paired)) {
            throw new IllegalArgumentException("the pairs' spread must be 0 or more, got " + paired);
        }
    }

    /** The noise of a cell whose A/A run was judged by Welch's test. */
    public NoiseFloor(double within, double between) {
        this(within, between, Double.NaN);
    }

    /**
     * Returns the smallest change, in percent, that a run of {@code builds} builds per side and
     * {@code trials} trials per side finds at {@code alpha} with {@code power}; see
     * {@link #mde(int, int, Sensitivity)}.
     */
    public double mde(int builds, int trials, double alpha, double power) {
        return mde(builds, trials, new Sensitivity(alpha, power));
    }

    /**
     * Returns the smallest change, in percent, that a run of {@code builds} builds per side and
     * {@code trials} trials per side finds with the test's power. With one build the spread
     * between builds is not in the test (it lands on the sides as a bias instead), so it is left
     * out; NaN when the between-build spread is needed and unknown; infinite when no change,
     * however large, is found with that power (a spread of some 70% at 5 trials). Trials that do not
     * divide evenly among the builds give some builds one more.
     *
     * @throws IllegalArgumentException unless {@code builds >= 1}, {@code trials >= builds} and
     *     {@code trials >= 2}
     */
    public double mde(int builds, int trials, Sensitivity test) {
        if (builds < 1 || trials < builds || trials < 2) {
            throw new IllegalArgumentException("a run needs 1 or more builds and 2 or more trials, as many as builds");
        }
        double variance;
        int m;
        if (builds == 1 && !Double.isNaN(paired)) {
            // Judged in pairs: n pairs of this spread, the test's degrees of freedom n - 1.
            return found(test.pairedShift(trials), trials, paired * paired);
        }
        if (builds == 1) {
            variance = within * within;
            m = trials;
        } else {
            if (Double.isNaN(between)) {
                return Double.NaN;
            }
            int each = trials / builds;
            int more = trials % builds;
            double median =
                    ((builds - more) * test.medianVariance(each) + more * test.medianVariance(each + 1)) / builds;
            variance = between * between + median * within * within;
            m = builds;
        }
        return found(test, m, variance);
    }

    /**
     * Returns the smallest change, in percent, that the test finds with {@code m} values per side
     * of variance {@code variance} (in percent squared) on the faster side. A change of {@code y}
     * (a share) spreads the slower side's values {@code 1 + y} times as wide, as the spreads are
     * relative; the test sees the mean of the two variances, {@code (1 + (1 + y)^2) / 2} times the
     * faster side's. So {@code y = g sqrt((1 + (1 + y)^2) / 2)}, {@code g} the change found at equal
     * spreads, a quadratic; infinite when {@code g^2 >= 2}.
     */
    private static double found(Sensitivity test, int m, double variance) {
        return found(test.shift(m), m, variance);
    }

    /** Returns {@link #found(Sensitivity, int, double)} for a test that finds a change of {@code shift} standard errors. */
    private static double found(double shift, int m, double variance) {
        double g = shift * Math.sqrt(2.0 / m * variance) / 100;
        return g * g >= 2 ? Double.POSITIVE_INFINITY : 100 * (g * g + g * Math.sqrt(4 - g * g)) / (2 - g * g);
    }

    /**
     * What it takes to find a change: the smallest run that does, or the cap it lies beyond.
     *
     * @param builds builds per side; beyond a cap, the most a run may have ({@link #MAX_BUILDS}, or
     *     1 when the spread between builds is unknown)
     * @param trials trials per side, spread over the builds; beyond a cap, the most a run may have
     *     ({@link #MAX_TRIALS})
     * @param mde the smallest change the run finds, in percent; NaN beyond a cap
     * @param beyond {@link Cap#NONE} when the run finds the change; {@link Cap#TRIALS} when no run
     *     of at most {@code builds} builds and {@code trials} trials does, though one with more
     *     trials would; {@link Cap#BUILDS} when no run of at most {@code builds} builds does, whatever
     *     its trials, since the spread between builds alone hides the change
     */
    public record Advice(int builds, int trials, double mde, Cap beyond) {
        public Advice {
            if (builds < 1 || trials < builds || beyond == null || (beyond == Cap.NONE) == Double.isNaN(mde)) {
                throw new IllegalArgumentException("an advice needs builds, as many trials, and an mde when found");
            }
        }

        /** Returns whether a run within both caps finds the change. */
        public boolean found() {
            return beyond == Cap.NONE;
        }
    }

    /** Which cap of the search a change lies beyond. */
    public enum Cap {
        /** Neither: a run within both finds it. */
        NONE,
        /** The most trials per side, {@link #MAX_TRIALS}. */
        TRIALS,
        /** The most builds per side, {@link #MAX_BUILDS}. */
        BUILDS
    }

    /** Returns {@link #advise(double, Sensitivity)} at {@code alpha} with {@code power}. */
    public Advice advise(double effect, double alpha, double power) {
        return advise(effect, new Sensitivity(alpha, power));
    }

    /**
     * Returns the smallest run (fewest builds, which cost the most, then fewest trials) that finds a
     * change of {@code effect} percent with the test's power: with several builds when the
     * between-build spread is known, so that layout sits inside the test; with one otherwise. When
     * no run up to {@link #MAX_BUILDS} builds and {@link #MAX_TRIALS} trials per side does, the
     * advice says which cap the change lies beyond. A run finds less with every trial more per
     * build (the median of one more value varies less), so the fewest trials are found by
     * bisection.
     */
    public Advice advise(double effect, Sensitivity test) {
        if (Double.isNaN(between)) {
            int trials = fewest(n -> mde(1, n, test) <= effect, 2, MAX_TRIALS);
            return trials < 0
                    ? new Advice(1, MAX_TRIALS, Double.NaN, Cap.TRIALS)
                    : new Advice(1, trials, mde(1, trials, test), Cap.NONE);
        }
        for (int k = 2; k <= MAX_BUILDS; k++) {
            int builds = k;
            int perBuild = fewest(n -> mde(builds, n * builds, test) <= effect, 1, MAX_TRIALS / k);
            if (perBuild > 0) {
                return new Advice(k, perBuild * k, mde(k, perBuild * k, test), Cap.NONE);
            }
        }
        // With endless trials per build, the medians vary by the spread between builds alone.
        boolean layout = found(test, MAX_BUILDS, between * between) > effect;
        return new Advice(MAX_BUILDS, MAX_TRIALS, Double.NaN, layout ? Cap.BUILDS : Cap.TRIALS);
    }

    /**
     * Returns the least {@code n} in [{@code from}, {@code to}] at which {@code enough} holds, given
     * that once it holds it holds for every {@code n} above; -1 when it holds for none.
     */
    private static int fewest(IntPredicate enough, int from, int to) {
        if (!enough.test(to)) {
            return -1;
        }
        int low = from - 1;
        int high = to;
        while (high - low > 1) {
            int mid = (low + high) >>> 1;
            if (enough.test(mid)) {
                high = mid;
            } else {
                low = mid;
            }
        }
        return high;
    }
}
