package org.perfab.stats;

/**
 * The power of Welch's test, two-sided at {@code alpha}, to find a change upwards, with {@code m}
 * normal values of equal spread per side: as a function of the true change in standard errors
 * ({@code delta}, the change over {@code sqrt(2/m)} spreads), and its inverse, the change found
 * with a given power.
 *
 * <p>With equal counts Welch's statistic is the pooled one, {@code T = (Z + delta) / sqrt(V / (2m
 * - 2))}: {@code V} the two sides' sums of squares over the spread squared, chi-squared with
 * {@code 2m - 2} degrees of freedom. Its degrees of freedom, {@code (m - 1) / (U^2 + (1 - U)^2)}
 * with {@code U} the first side's share of {@code V}, depend on {@code U} alone, which has the
 * Beta({@code (m-1)/2}, {@code (m-1)/2}) distribution independent of {@code V} and {@code Z}. So
 * the power is exactly {@code E_U[P(T > t(1 - alpha/2, df(U)))]}: an average over {@code U} of
 * noncentral t tails. Averaging the degrees of freedom first and taking one tail promises 80%
 * power where the test has 70% with two values per side and 78% with three.
 */
final class WelchPower {
    // Note: the first way took one noncentral t tail at the average degrees of freedom, by Simpson's
    // rule over Commons Math's chi-squared density. That density is NaN at 0 from 1,411 degrees of
    // freedom on, which made the power NaN, the shift 0, and every run of 708 trials or more seem to
    // find a change of 1e-13%; and the average degrees of freedom overstate the power (above).
    // Note: StrictMath, not Math: its exp and log are the same on every machine, so the figures a
    // plan prints in full (its JSON) are too; Math's may differ in the last place, and a sum of
    // thousands of them in the last few. It costs a third more time.
    /** Past this many standard normal units, Phi is 0 or 1 to double precision. */
    private static final double SURE = 9;
    /** The density of x = ln(V / df) is under e^-40 of its top past the edges taken. */
    private static final double EDGE = 40;

    private final double half;
    private final double left;
    private final double right;
    private final double scale;
    private final double mass;
    private final double[] critical;
    private final double[] share;

    /**
     * Prepares the power for {@code m} values per side at {@code alpha}.
     *
     * <p>{@code U = sin^2(phi / 2)}, and {@code t = pi/2 - |pi/2 - phi|} has density proportional to
     * {@code cos^(m-2) t} on (0, pi/2) with {@code df = 2(m - 1) / (1 + sin^2 t)}: smooth, and,
     * for many values, gathered within a few {@code 1/sqrt(m - 2)} of 0.
     */
    private WelchPower(int m, double alpha) {
        half = m - 1;
        double width = m == 2 ? Math.PI / 2 : Math.min(Math.PI / 2, Math.sqrt(2 * EDGE / (m - 2)));
        int panels = m <= 3 ? 4 : 2;
        double[] t = Quadrature.points(0, width, panels);
        double[] w = Quadrature.weights(0, width, panels);
        critical = new double[t.length];
        share = new double[t.length];
        double total = 0;
        for (int i = 0; i < t.length; i++) {
            double s = StrictMath.sin(t[i]);
            critical[i] = TQuantile.of(1 - alpha / 2, 2 * (m - 1) / (1 + s * s));
            share[i] = w[i] * StrictMath.pow(StrictMath.cos(t[i]), m - 2);
            total += share[i];
        }
        for (int i = 0; i < t.length; i++) {
            share[i] /= total;
        }
        left = edge(-1);
        right = edge(1);
        scale = 1 / Math.sqrt(half);
        mass = Quadrature.integral(this::density, left, right, Quadrature.panels(left, right, scale));
    }

    /**
     * Returns the change, in standard errors, that Welch's test with {@code m} values per side at
     * {@code alpha} finds with {@code power}: the {@code delta} at which {@link #power} is
     * {@code power}. Exact to about 1e-9 relative.
     *
     * @param m values per side, 2 or more
     * @param alpha in (0, 1)
     * @param power in (alpha/2, 1)
     */
    static double shift(int m, double alpha, double power) {
        WelchPower p = new WelchPower(m, alpha);
        double low = 0;
        double high = TQuantile.of(1 - alpha / 2, m - 1) + TQuantile.of(power, m - 1);
        while (p.power(high)[0] < power) {
            low = high;
            high *= 2;
        }
        // Newton's method, kept inside [low, high], where power(low) < power <= power(high).
        double delta = high;
        for (int i = 0; i < 200; i++) {
            double[] at = p.power(delta);
            double miss = at[0] - power;
            if (miss < 0) {
                low = delta;
            } else {
                high = delta;
            }
            double next = delta - miss / at[1];
            if (!(next > low && next < high)) {
                next = (low + high) / 2;
            }
            if (Math.abs(next - delta) <= 1e-12 * delta || high - low <= 1e-12 * high) {
                return next;
            }
            delta = next;
        }
        return delta;
    }

    /**
     * Returns P(Welch's test finds the change) at {@code delta} and its derivative in {@code delta}.
     * For each {@code U}, over {@code x = ln(V / (2m - 2))} with {@code s = c e^(x/2)}: P(Z > s -
     * delta) is 1 to double precision where {@code s < delta - 9} and 0 where {@code s > delta + 9}.
     * Between, it turns at a slope of {@code s / 2} in {@code x}: below {@code s = 1} panels as wide
     * as the density's own scale resolve it, and above, the integral is taken over {@code s}, where
     * P turns on a scale of 1 and the density on one of {@code s / (2 sqrt(m - 1))}.
     */
    private double[] power(double delta) {
        double found = 0;
        double slope = 0;
        for (int j = 0; j < critical.length; j++) {
            double c = critical[j];
            double xa = delta > SURE ? clamp(2 * StrictMath.log((delta - SURE) / c)) : left;
            double xb = clamp(2 * StrictMath.log((delta + SURE) / c));
            double xs = clamp(2 * StrictMath.log(1 / c));
            double sure = xa > left
                    ? Quadrature.integral(this::density, left, xa, Quadrature.panels(left, xa, 2 * scale))
                    : 0;
            double[] turning = new double[2];
            if (xs > xa) {
                double to = Math.min(xs, xb);
                int panels = Quadrature.panels(xa, to, 2 * scale);
                add(turning, Quadrature.points(xa, to, panels), Quadrature.weights(xa, to, panels), c, delta, false);
            }
            if (xb > Math.max(xa, xs)) {
                double from = c * StrictMath.exp(Math.max(xa, xs) / 2);
                double to = c * StrictMath.exp(xb / 2);
                int panels = Quadrature.panels(from, to, Math.min(2, from * scale));
                add(turning, Quadrature.points(from, to, panels), Quadrature.weights(from, to, panels), c, delta, true);
            }
            found += share[j] * (sure + turning[0]);
            slope += share[j] * turning[1];
        }
        return new double[] {found / mass, slope / mass / Math.sqrt(2 * Math.PI)};
    }

    /**
     * Adds to {@code sums} the integral of density times P(Z > s - delta), and of density times
     * exp(-(s - delta)^2 / 2), at the points {@code at} with weights {@code w}: points in {@code s}
     * when {@code overS}, else in {@code x}.
     */
    private void add(double[] sums, double[] at, double[] w, double c, double delta, boolean overS) {
        for (int i = 0; i < at.length; i++) {
            double s = overS ? at[i] : c * StrictMath.exp(at[i] / 2);
            double x = overS ? 2 * StrictMath.log(s / c) : at[i];
            double d = w[i] * density(x) * (overS ? 2 / s : 1);
            double z = delta - s;
            sums[0] += d * Distributions.normalCdf(z);
            sums[1] += d * StrictMath.exp(-z * z / 2);
        }
    }

    /** Returns the density of {@code x = ln(V / df)} at {@code x}, over its value at the top (x = 0). */
    private double density(double x) {
        return StrictMath.exp(-half * (StrictMath.expm1(x) - x));
    }

    private double clamp(double x) {
        return Math.max(left, Math.min(right, x));
    }

    /** Returns where, on the side {@code sign} of 0, the density falls to e^-40 of its top. */
    private double edge(int sign) {
        double inside = 0;
        double outside = sign;
        while (half * (StrictMath.expm1(outside) - outside) < EDGE) {
            inside = outside;
            outside *= 2;
        }
        for (int i = 0; i < 100 && Math.abs(outside - inside) > 1e-12; i++) {
            double mid = (inside + outside) / 2;
            if (half * (StrictMath.expm1(mid) - mid) < EDGE) {
                inside = mid;
            } else {
                outside = mid;
            }
        }
        return outside;
    }
}
