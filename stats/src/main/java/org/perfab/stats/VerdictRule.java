package org.perfab.stats;

/** The verdict rules, as a function of the direction, the percent change and p. */
final class VerdictRule {
    private VerdictRule() {
    }

    /**
     * Returns the verdict of a change of {@code pct} percent with two-sided {@code p}.
     *
     * <ul>
     *   <li>regression: worse, {@code p < alpha} and {@code |pct| >= minEffect};
     *   <li>improvement: better, {@code p < alpha} and {@code |pct| >= minEffect};
     *   <li>small: worse, {@code p < alpha}, under {@code minEffect} and not 0;
     *   <li>inconclusive: not a regression, worse, and {@code |pct| >= inconclusive};
     *   <li>unchanged: everything else, a NaN {@code p} included.
     * </ul>
     */
    static Verdict classify(Direction direction, double pct, double p, Thresholds thresholds) {
        boolean worse = direction.isWorse(0.0, pct);
        boolean better = direction.isBetter(0.0, pct);
        boolean significant = p < thresholds.alpha();
        boolean bigEnough = Math.abs(pct) >= thresholds.minEffect();
        if (worse && significant && bigEnough) {
            return Verdict.REGRESSION;
        }
        if (better && significant && bigEnough) {
            return Verdict.IMPROVEMENT;
        }
        if (worse && Math.abs(pct) >= thresholds.inconclusive()) {
            return Verdict.INCONCLUSIVE;
        }
        if (worse && significant) {
            return Verdict.SMALL;
        }
        return Verdict.UNCHANGED;
    }
}
