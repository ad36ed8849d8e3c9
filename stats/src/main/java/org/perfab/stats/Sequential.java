package org.perfab.stats;

import java.util.ArrayList;
import java.util.List;

/**
 * Adaptive trials: a run looks at its cells after {@code first} trials per side, and while some
 * are undecided it runs {@code first} more, up to {@code max}. Each look may declare a cell a
 * regression or an improvement, so the looks share alpha between them, or the false-alarm rate
 * would grow with every look.
 *
 * <p>The design is Haybittle and Peto's: every look but the last tests at a small fixed level,
 * {@code alpha / 50} (0.001 at alpha 0.05), so that only a plain change stops a cell early; the
 * last tests at the level that makes the chance of a false call at any look exactly alpha. That
 * level comes from the joint law of the looks' statistics: under no change, the z statistic of look
 * {@code k} is a Brownian motion at time {@code n_k} divided by its square root, so looks correlate
 * by {@code sqrt(n_i / n_j)}, and the chance of crossing at some look is integrated look by look
 * (Armitage, McPherson and Rowe's recursion). With four looks (5, 10, 15, 20 trials) the last tests
 * at 0.0492: nearly the seed's own rule, where the union bound of a spending function left it
 * 0.026. When there are so many looks that the early levels would spend more than a quarter of alpha
 * by the union bound, each is cut to that quarter's share; past {@value #EXACT_LOOKS} looks the last
 * takes what the union bound leaves, at least three quarters of alpha.
 *
 * <p>O'Brien-Fleming spending with the union bound (each look at its spent share) was
 * used before. It gave the last look 0.026 of 0.05, so a row at 20 trials with p 0.047 and a -4.1%
 * change read unchanged where the seed's rule, and the user's own reading, say regression.
 *
 * <p>How the looks meet the other verdicts: only a regression or an improvement spends alpha, and
 * is judged at its look's level; a small change (worse and significant under the bar) and the
 * claim of an unchanged row are judged against the nominal alpha at the cell's standing look (see
 * {@link #standing}), the one look that speaks for the cell. They are never headlined, and
 * {@code perfab calibrate} measures how often unchanged code reads small.
 *
 * @param first the trials per side of the first look, and of each round after it; at least 2
 * @param max the most trials per side; at least {@code first}
 */
public record Sequential(int first, int max) {
    /** The level of every look but the last, as a share of alpha: Haybittle and Peto's 0.001 at 0.05. */
    static final double EARLY_SHARE = 1.0 / 50;
    /** The most that the early looks may spend together, as a share of alpha, by the union bound. */
    static final double EARLY_BUDGET = 1.0 / 4;
    /** The most looks whose last level is integrated exactly; past them, the union bound gives it. */
    static final int EXACT_LOOKS = 24;
    /** Gauss-Legendre panels per unit of standard deviation in the recursion's integrals. */
    private static final double PANEL_WIDTH = 0.5;

    public Sequential {
        if (first < 2 || max < first) {
            throw new IllegalArgumentException("adaptive trials need at least 2 trials per round and a most of at"
                    + " least the first round (" + first + "), got " + max);
        }
    }

    /** Returns the trials per side at each look: {@code first}, {@code 2 first}, ..., {@code max}. */
    public List<Integer> looks() {
        List<Integer> looks = new ArrayList<>();
        for (int n = first; n < max; n += first) {
            looks.add(n);
        }
        looks.add(max);
        return looks;
    }

    /**
     * Returns the two-sided level of look {@code look} (from 1): the early level for every look but
     * the last, and for the last the level that brings the chance of a false call at any look to
     * {@code alpha}. With one look, {@code alpha} itself.
     */
    public double alpha(int look, double alpha) {
        List<Integer> looks = looks();
        if (look < 1 || look > looks.size()) {
            throw new IllegalArgumentException("look " + look + " of " + looks.size());
        }
        if (looks.size() == 1) {
            return alpha;
        }
        double early = early(looks.size(), alpha);
        if (look < looks.size()) {
            return early;
        }
        // Past EXACT_LOOKS the recursion's cost grows as the looks squared, and the union bound,
        // which gives the last look what the early ones leave, is within a few thousandths of it.
        return looks.size() > EXACT_LOOKS ? alpha - early * (looks.size() - 1) : last(looks, early, alpha);
    }

    /** Returns the level of each early look among {@code count} looks. */
    private static double early(int count, double alpha) {
        return Math.min(alpha * EARLY_SHARE, alpha * EARLY_BUDGET / (count - 1));
    }

    /**
     * Returns the last look's level: the two-sided level whose boundary makes the chance of crossing
     * at some look {@code alpha}, the early looks at {@code early} each. The density of the running
     * sum {@code S_k} (variance {@code n_k}) that has not crossed is carried from look to look on
     * Gauss-Legendre points; the last boundary is then found by bisection.
     */
    private static double last(List<Integer> looks, double early, double alpha) {
        double c = Distributions.normalQuantile(1 - early / 2);
        int k = looks.size();
        // Look 1: S_1 ~ N(0, n_1) on (-c sqrt(n_1), c sqrt(n_1)).
        double bound = c * Math.sqrt(looks.get(0));
        int panels = Quadrature.panels(-bound, bound, PANEL_WIDTH * Math.sqrt(looks.get(0)));
        double[] x = Quadrature.points(-bound, bound, panels);
        double[] w = Quadrature.weights(-bound, bound, panels);
        double[] density = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            density[i] = normalDensity(x[i], looks.get(0));
        }
        for (int j = 1; j < k - 1; j++) {
            double step = looks.get(j) - looks.get(j - 1);
            double b = c * Math.sqrt(looks.get(j));
            int p = Quadrature.panels(-b, b, PANEL_WIDTH * Math.sqrt(step));
            double[] nx = Quadrature.points(-b, b, p);
            double[] nw = Quadrature.weights(-b, b, p);
            double[] next = new double[nx.length];
            for (int i = 0; i < nx.length; i++) {
                double sum = 0;
                for (int m = 0; m < x.length; m++) {
                    sum += w[m] * density[m] * normalDensity(nx[i] - x[m], step);
                }
                next[i] = sum;
            }
            x = nx;
            w = nw;
            density = next;
        }
        double kept = 0;
        for (int m = 0; m < x.length; m++) {
            kept += w[m] * density[m];
        }
        double step = looks.get(k - 1) - looks.get(k - 2);
        double sd = Math.sqrt(step);
        double root = Math.sqrt(looks.get(k - 1));
        double low = 0;
        double high = 40;
        for (int i = 0; i < 100 && high - low > 1e-12; i++) {
            double mid = (low + high) / 2;
            double b = mid * root;
            double crossing = 1 - kept;
            for (int m = 0; m < x.length; m++) {
                double inside = Distributions.normalCdf((b - x[m]) / sd) - Distributions.normalCdf((-b - x[m]) / sd);
                crossing += w[m] * density[m] * (1 - inside);
            }
            if (crossing > alpha) {
                low = mid;
            } else {
                high = mid;
            }
        }
        return 2 * (1 - Distributions.normalCdf((low + high) / 2));
    }

    /** Returns the density at {@code x} of a normal of mean 0 and variance {@code variance}. */
    private static double normalDensity(double x, double variance) {
        return Math.exp(-x * x / (2 * variance)) / Math.sqrt(2 * Math.PI * variance);
    }

    /**
     * Returns which of a cell's looks stands, from its verdicts at looks 1, 2, ... (each judged at
     * that look's level): the last, unless an earlier look found a regression or an improvement
     * and the last did not, in which case the first look that did. A cell is then flagged when any
     * look flagged it, which the looks' levels allow. A small change spends no alpha: the last look
     * decides it, with all the trials.
     */
    public static int standing(List<Verdict> looks) {
        int last = looks.size() - 1;
        if (decisive(looks.get(last))) {
            return last;
        }
        for (int k = 0; k < last; k++) {
            if (decisive(looks.get(k))) {
                return k;
            }
        }
        return last;
    }

    private static boolean decisive(Verdict v) {
        return v == Verdict.REGRESSION || v == Verdict.IMPROVEMENT;
    }
}
