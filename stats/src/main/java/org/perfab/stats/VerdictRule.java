package org.perfab.stats;

/** The verdict rules, as a function of the direction, the percent change and p. */
final class VerdictRule {
    private VerdictRule() {}

    /**
     * Returns the verdict of a change of {@code pct} percent with two-sided {@code p}. A regression
     * or an improvement must pass the test's level ({@link Thresholds#testAlpha}: a look's share of
     * alpha in a run with adaptive trials); a small change, and the claim of an unchanged row, are
     * judged at the nominal alpha.
     *
     * <ul>
     *   <li>regression: worse, {@code p < testAlpha} and {@code |pct| >= minEffect};
     *   <li>improvement: better, {@code p < testAlpha} and {@code |pct| >= minEffect};
     *   <li>inconclusive: not a regression, worse, and {@code |pct| >= inconclusive}; or worse past
     *       the bar with {@code p < alpha} but not under the look's level (more trials decide);
     *   <li>small: worse and {@code p < alpha}, under {@code minEffect} and not 0: real and small,
     *       whichever look it is judged at;
     *   <li>too noisy: better past the bar with {@code p < alpha} but not under the look's level;
     *   <li>unchanged: everything else, a NaN {@code p} included (the claim it makes is checked
     *       after, see {@link Comparison#detectable}).
     * </ul>
     */
    static Verdict classify(Direction direction, double pct, double p, Thresholds thresholds) {
        boolean worse = direction.isWorse(0.0, pct);
        boolean better = direction.isBetter(0.0, pct);
        boolean atLook = p < thresholds.testAlpha();
        boolean atAlpha = p < thresholds.alpha();
        boolean bigEnough = Math.abs(pct) >= thresholds.minEffect();
        if (worse && atLook && bigEnough) {
            return Verdict.REGRESSION;
        }
        if (better && atLook && bigEnough) {
            return Verdict.IMPROVEMENT;
        }
        if (worse && (Math.abs(pct) >= thresholds.inconclusive() || atAlpha && bigEnough)) {
            return Verdict.INCONCLUSIVE;
        }
        if (worse && atAlpha) {
            return Verdict.SMALL;
        }
        if (better && atAlpha && bigEnough) {
            return Verdict.NOISY;
        }
        return Verdict.UNCHANGED;
    }

    /**
     * Returns whether {@code p} is significant at alpha but not at the level of the look being
     * judged, for a change of {@code pct} past the bar: what only more trials can settle.
     */
    static boolean shortOfItsLook(double pct, double p, Thresholds thresholds) {
        return thresholds.atALook()
                && p < thresholds.alpha()
                && !(p < thresholds.testAlpha())
                && Math.abs(pct) >= thresholds.minEffect();
    }
}
