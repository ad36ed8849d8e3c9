package org.perfab.stats;

import java.util.ArrayList;
import java.util.List;

/**
 * Adaptive trials: a run looks at its cells after {@code first} trials per side, and while some
 * are undecided it runs {@code first} more, up to {@code max}. Each look may declare a cell a
 * regression, so the looks share alpha between them, or the false-alarm rate would grow with every
 * look.
 *
 * <p>Look {@code k}, after {@code n_k} trials per side, tests at the alpha that an O'Brien-Fleming
 * spending function (Lan and DeMets) adds between the previous look and this one:
 * {@code a(t) = 2 - 2 Phi(z(1 - alpha/2) / sqrt(t))}, with {@code t = n_k / max}. The shares sum to
 * alpha, so whatever the looks see and however a cell's statistics at one look depend on those of
 * another, the chance that an unchanged cell is called a regression at some look is at most alpha
 * (the union bound). Early looks get little (a change has to be plain after 5 trials), the last
 * most of it.
 *
 * @param first the trials per side of the first look, and of each round after it; at least 2
 * @param max the most trials per side; at least {@code first}
 */
public record Sequential(int first, int max) {
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
     * Returns the alpha of look {@code look} (from 1), its share of {@code alpha}. With one look,
     * {@code alpha} itself.
     */
    public double alpha(int look, double alpha) {
        List<Integer> looks = looks();
        if (look < 1 || look > looks.size()) {
            throw new IllegalArgumentException("look " + look + " of " + looks.size());
        }
        double before = look == 1 ? 0 : spent(looks.get(look - 2), alpha);
        return look == looks.size() ? alpha - before : spent(looks.get(look - 1), alpha) - before;
    }

    /** Returns the alpha spent once {@code n} trials per side have been looked at. */
    private double spent(int n, double alpha) {
        double t = (double) n / max;
        return 2 * (1 - Distributions.normalCdf(Distributions.normalQuantile(1 - alpha / 2) / Math.sqrt(t)));
    }

    /**
     * Returns whether more trials could change what {@code c} says: it is inconclusive or too noisy
     * to tell, or it is unchanged while its 95% interval still reaches a change for the worse as
     * large as the bar (or has no bounds). Regressions, small changes and improvements are decided;
     * so are cells without data and profiles, which no number of trials classifies.
     */
    public static boolean undecided(Comparison c, Thresholds thresholds) {
        return switch (c.verdict()) {
            case INCONCLUSIVE, NOISY -> true;
            case UNCHANGED -> {
                if (Double.isNaN(c.pctChange())) {
                    yield false;
                }
                double worst = c.direction() == Direction.LOWER_IS_BETTER ? c.ciHigh() : -c.ciLow();
                yield Double.isNaN(worst) || worst >= thresholds.minEffect();
            }
            default -> false;
        };
    }

    /**
     * Returns which of a cell's looks stands, from its comparisons at looks 1, 2, ... (each judged
     * at that look's alpha): the last, unless it found no regression or improvement and an earlier
     * look did, in which case the first look that did. A cell is then flagged when any look flagged
     * it, which the shares of alpha allow.
     */
    public static int standing(List<Comparison> looks) {
        int last = looks.size() - 1;
        if (looks.get(last).verdict().significant()) {
            return last;
        }
        for (int k = 0; k < last; k++) {
            if (looks.get(k).verdict().significant()) {
                return k;
            }
        }
        return last;
    }
}
