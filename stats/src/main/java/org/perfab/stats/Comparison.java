package org.perfab.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The comparison of one cell's candidate (head) sample with its baseline sample by one test:
 * summaries, percent change with its 95% interval, the test's statistic and p, the minimum
 * detectable effect where the test gives one, and the verdict. Welch's test gives every figure
 * ({@link #of}); other tests (see {@link ShiftTest}) give their own change, statistic and p, and
 * neither interval nor detectable effect. The verdict rules read only what every test gives (the
 * change, p, the interval and the caveats) and the detectable effect where it is present.
 *
 * <p>Percentages are of the baseline mean: {@code pctChange = (mean_head / mean_base - 1) * 100},
 * whatever the direction; the direction decides only which sign is worse.
 *
 * @param base summary of the baseline sample
 * @param head summary of the candidate sample
 * @param direction which way is better for this cell
 * @param pctChange change of the mean in percent (of the median, or of the trimmed mean, for the
 *     tests that locate a change so); NaN when a side is empty or the baseline mean is not positive
 * @param ciLow lower bound of the 95% interval of {@code pctChange}; NaN when undefined
 * @param ciHigh upper bound of the 95% interval of {@code pctChange}; NaN when undefined
 * @param statistic the test's statistic of head against base, named by its test (Welch's t with its
 *     degrees of freedom, see {@link #of}; Mann-Whitney's U; Yuen's t)
 * @param pValue two-sided p; NaN when a side has fewer than 2 values
 * @param mde minimum detectable effect in percent of the baseline mean, {@code >= 0} (see
 *     {@link #of}); empty for a test that gives none (every test but Welch's), and where it is
 *     undefined (a side with fewer than 2 values, or a baseline mean that is not positive unless
 *     every value is zero)
 * @param verdict the class of the change
 * @param caveats what a reader should know, in declaration order of {@link Caveat}
 * @param qValue the Benjamini-Hochberg adjusted p when the run's cells were judged together; NaN
 *     when each was judged on its own
 */
public record Comparison(
        Summary base,
        Summary head,
        Direction direction,
        double pctChange,
        double ciLow,
        double ciHigh,
        Statistic statistic,
        double pValue,
        OptionalDouble mde,
        Verdict verdict,
        List<Caveat> caveats,
        double qValue) {

    /** Power at which {@link #mde} is computed. */
    public static final double POWER = 0.80;

    /** Confidence level of {@link #ciLow} and {@link #ciHigh}. */
    public static final double CONFIDENCE = 0.95;

    public Comparison {
        if (base == null || head == null || direction == null || statistic == null || mde == null || verdict == null) {
            throw new NullPointerException("base, head, direction, statistic, mde and verdict are required");
        }
        if (mde.isPresent() && !(mde.getAsDouble() >= 0)) {
            throw new IllegalArgumentException("a detectable effect is a percentage >= 0, got " + mde.getAsDouble());
        }
        caveats = List.copyOf(caveats);
    }

    /**
     * Compares {@code head} with {@code base} and classifies the change.
     *
     * <p>The test is Welch's two-sided t-test (unequal variances, Welch-Satterthwaite degrees of
     * freedom). When both sides are constant, p is 0 if their values differ and 1 if they are
     * equal. A side with fewer than two values gives {@link Verdict#NO_DATA}. The statistic is
     * Welch's t of head against base ({@link Statistic.Kind#WELCH_T}) with its degrees of freedom:
     * infinite with none when both sides are constant and differ, 0 with none when they agree, NaN
     * with none when a side has fewer than two values.
     *
     * <p>The 95% interval of the percent change comes from Fieller's method for the ratio of two
     * independent means, with the Welch degrees of freedom: it accounts for the uncertainty of both
     * means and is not symmetric around {@code pctChange}. When the baseline mean's own interval
     * reaches zero the ratio has no finite bounds, and the interval is NaN with
     * {@link Caveat#UNBOUNDED_INTERVAL}. When no value on either side is negative (a time, a count
     * of instructions), the ratio cannot be below 0, so the interval's low end is at least -100%:
     * Fieller's interval, which knows nothing of the sign, can reach below it when the head's spread
     * is wide.
     *
     * <p>The minimum detectable effect is the smallest true change of the mean, in percent of the
     * baseline mean, that Welch's test at {@code alpha} would find significant with 80% power given
     * these sizes and spreads: {@code (t(1 - alpha/2, df) + t(0.80, df)) * se / mean_base * 100}, the
     * usual normal-shift approximation with Student quantiles. It is 0 when both sides are
     * constant. A regression also needs {@code minEffect}, so the smallest change the verdict rules
     * can flag is the larger of the two.
     *
     * <p>When every value on both sides is zero, the change is 0% with an interval of [0%, 0%].
     * Otherwise, when the baseline mean is zero or negative there is no percent change (NaN), and
     * the comparison carries {@link Caveat#NON_POSITIVE_BASE_MEAN}. From a zero baseline, any move is
     * taken as an infinite change for the rules (allocations going from 0 to 2 per operation are a
     * regression when the test confirms them, inconclusive when it does not). From a negative
     * baseline, where a ratio means nothing, a significant move for the worse is
     * {@link Verdict#INCONCLUSIVE} and anything else {@link Verdict#UNCHANGED}.
     */
    public static Comparison of(Sample base, Sample head, Direction direction, Thresholds thresholds) {
        return compute(base, head, direction, thresholds, false);
    }

    /**
     * Returns the same figures as {@link #of} with the verdict {@link Verdict#PROFILE}: for cells
     * that are shown but never classified (the latency of a saturating cell, which measures queue
     * depth). A side with fewer than two values still gives {@link Verdict#NO_DATA}.
     */
    public static Comparison profile(Sample base, Sample head, Direction direction, Thresholds thresholds) {
        return compute(base, head, direction, thresholds, true);
    }

    /**
     * Returns the smallest change for the worse, in percent, that this row can honestly claim did
     * not happen: "no change of this much or more". It is the larger of two figures, so that the
     * claim holds both ways: the change the verdict rules would have reported with 80% power, and the
     * worse end of the row's own 95% interval (a row whose interval reaches a slowdown of 8% cannot
     * claim to rule out 6%). The interval enters only where the row makes that claim, or says it
     * cannot (unchanged, too noisy to tell); for other verdicts it is the power figure alone.
     *
     * <p>A regression needs the test to find the change ({@link #mde}) and the change measured to
     * reach the bar, which takes about the bar plus {@code t(0.80, df)} standard errors, {@code df}
     * the degrees of freedom of the {@link #statistic}: a true change at the bar itself is found
     * only half the time. A change measured at the inconclusive threshold is reported whatever the
     * test says, which takes that threshold plus the same {@code t(0.80, df)} standard errors. The
     * power figure is the smaller of the two. It is the larger of the detectable effect and the bar
     * when the statistic has no degrees of freedom (both sides constant), and NaN when the test
     * gives no detectable effect: a row judged by Mann-Whitney's test claims no power.
     */
    public double detectable(Thresholds thresholds) {
        double power = powerDetectable(thresholds);
        double worst = worseEnd();
        boolean claims = verdict == Verdict.UNCHANGED || verdict == Verdict.NOISY;
        return !claims || Double.isNaN(worst) || Double.isNaN(power) ? power : Math.max(power, worst);
    }

    /**
     * Returns whether more trials could change what this comparison says (see {@link Sequential}): it
     * is inconclusive or too noisy to tell, or it is unchanged or small while its 95% interval still
     * reaches a change for the worse as large as the bar (or has no bounds). Regressions and
     * improvements are decided; so are cells without data and profiles, which no number of trials
     * classifies.
     */
    public boolean undecided(Thresholds thresholds) {
        return switch (verdict) {
            case INCONCLUSIVE, NOISY -> true;
            case UNCHANGED, SMALL -> {
                if (Double.isNaN(pctChange)) {
                    yield false;
                }
                double worst = worseEnd();
                yield Double.isNaN(worst) || worst >= thresholds.minEffect();
            }
            case REGRESSION, IMPROVEMENT, PROFILE, NO_DATA -> false;
        };
    }

    /**
     * Returns the spread of one trial as the interleaved order's pairs saw it, in percent of the
     * baseline mean: for a row the pairs judged (its statistic {@link Statistic.Kind#PAIRED_T} or
     * {@link Statistic.Kind#SIGNED_RANK}), the standard error its detectable effect stands for, times
     * the square root of half its pairs, so that it compares with each side's coefficient of
     * variation as Welch's test would see it; NaN for any other row, or one without a detectable
     * effect. A function of the spreads only, never of the change.
     *
     * @param thresholds the thresholds the row was judged with, whose alpha its detectable effect is at
     */
    public double pairedSpread(Thresholds thresholds) {
        return pairedSpread(thresholds.alpha());
    }

    private double pairedSpread(double alpha) {
        Statistic.Kind k = statistic.kind();
        if (k != Statistic.Kind.PAIRED_T && k != Statistic.Kind.SIGNED_RANK || mde.isEmpty()) {
            return Double.NaN;
        }
        double shift = Distributions.normalQuantile(1 - alpha / 2) + Distributions.normalQuantile(POWER);
        if (statistic.df().isPresent()) {
            double df = statistic.df().getAsDouble();
            shift = TQuantile.of(1 - alpha / 2, df) + TQuantile.of(POWER, df);
        }
        return mde.getAsDouble() / shift * Math.sqrt(Math.min(base.n(), head.n()) / 2.0);
    }

    /**
     * Returns the change, in percent of the mean, that a run of {@code trials} per side with this
     * comparison's spreads finds with {@code test}'s power at its alpha (see
     * {@link Sensitivity#detectable}): the spread the interleaved order's pairs saw where they
     * judged the cell ({@link #pairedSpread}), else each side's coefficient of variation. A function
     * of the spreads only, never of the change measured; NaN when a side has fewer than 2 values.
     */
    public double detectableAt(int trials, Sensitivity test) {
        if (Math.min(base.n(), head.n()) < 2) {
            return Double.NaN;
        }
        double paired = pairedSpread(test.alpha());
        return Double.isNaN(paired)
                ? test.detectable(base.cv(), head.cv(), trials)
                : test.detectable(paired, paired, trials);
    }

    /**
     * Returns the worse end of the 95% interval, as a slowdown in percent (the upper end for a time,
     * minus the lower end for a throughput); NaN without an interval.
     */
    public double worseEnd() {
        return direction == Direction.LOWER_IS_BETTER ? ciHigh : -ciLow;
    }

    private double powerDetectable(Thresholds thresholds) {
        if (mde.isEmpty()) {
            return Double.NaN;
        }
        double effect = mde.getAsDouble();
        if (effect == 0 || statistic.df().isEmpty()) {
            return Math.max(effect, thresholds.minEffect());
        }
        double df = statistic.df().getAsDouble();
        double power = TQuantile.of(POWER, df);
        double se = effect / (TQuantile.of(1 - thresholds.testAlpha() / 2, df) + power);
        double regression = Math.max(effect, thresholds.minEffect() + power * se);
        return Math.min(regression, Math.max(thresholds.minEffect(), thresholds.inconclusive()) + power * se);
    }

    /**
     * Returns this comparison judged with {@code q}, its adjusted p, when the run's cells are judged
     * together (see {@link FalseDiscovery}): a regression or an improvement whose q is not under the
     * rate of its level ({@link Thresholds#fdrRate}), or a small change whose q is not under the
     * nominal rate ({@link Thresholds#nominalFdrRate}), loses its significance. A regression or
     * improvement short of its look's level but with q under the nominal rate says so
     * ({@link Caveat#NOT_AT_LOOK}: more trials settle it); otherwise it is significant on its own,
     * not among the run's cells ({@link Caveat#NOT_AMONG_MANY}). It then becomes inconclusive when
     * it is worse past the inconclusive threshold (or past the bar, short of its look), else too noisy
     * to tell. Every figure is kept, and q with them.
     */
    public Comparison atFalseDiscoveryRate(double q, Thresholds thresholds) {
        boolean decisive = verdict == Verdict.REGRESSION || verdict == Verdict.IMPROVEMENT;
        double rate = decisive ? thresholds.fdrRate() : thresholds.nominalFdrRate();
        if (!verdict.significant() || q < rate) {
            return with(verdict, caveats, q);
        }
        boolean look = decisive && q < thresholds.nominalFdrRate();
        List<Caveat> more = new ArrayList<>(caveats);
        more.remove(Caveat.NOT_AT_LOOK);
        more.add(look ? Caveat.NOT_AT_LOOK : Caveat.NOT_AMONG_MANY);
        more.sort(null);
        boolean worse = direction.isWorse(0.0, pctChange);
        Verdict v = look && worse ? Verdict.INCONCLUSIVE : unconfirmed(thresholds);
        return with(v, more, q);
    }

    /**
     * Returns the verdict of this change when what the test found cannot stand: inconclusive when
     * it is worse past the inconclusive threshold, else too noisy to tell.
     */
    Verdict unconfirmed(Thresholds thresholds) {
        boolean worse = direction.isWorse(0.0, pctChange);
        return worse && Math.abs(pctChange) >= thresholds.inconclusive() ? Verdict.INCONCLUSIVE : Verdict.NOISY;
    }

    /** Returns this comparison, its verdict and figures as they are, with {@code caveat} too. */
    public Comparison withCaveat(Caveat caveat) {
        if (caveats.contains(caveat)) {
            return this;
        }
        List<Caveat> more = new ArrayList<>(caveats);
        more.add(caveat);
        more.sort(null);
        return with(verdict, more, qValue);
    }

    /**
     * Returns this comparison as a cell the run did not measure ({@link Caveat#NOT_MEASURED}): its
     * summaries kept, no change, no interval and no p, {@link Verdict#INCONCLUSIVE}.
     */
    public Comparison notMeasured() {
        List<Caveat> more = new ArrayList<>(caveats);
        if (!more.contains(Caveat.NOT_MEASURED)) {
            more.add(Caveat.NOT_MEASURED);
        }
        more.sort(null);
        return new Comparison(
                base,
                head,
                direction,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                statistic,
                Double.NaN,
                OptionalDouble.empty(),
                Verdict.INCONCLUSIVE,
                more,
                Double.NaN);
    }

    /** Returns a cell the run did not measure at all: no value on either side (see {@link #notMeasured()}). */
    public static Comparison notMeasured(Direction direction) {
        Summary none = Summary.of(Sample.empty());
        return new Comparison(
                none,
                none,
                direction,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Statistic.of(Statistic.Kind.WELCH_T, Double.NaN, Double.NaN),
                Double.NaN,
                OptionalDouble.empty(),
                Verdict.INCONCLUSIVE,
                List.of(Caveat.BASE_TOO_FEW, Caveat.HEAD_TOO_FEW, Caveat.NOT_MEASURED),
                Double.NaN);
    }

    private Comparison with(Verdict v, List<Caveat> c, double q) {
        return new Comparison(base, head, direction, pctChange, ciLow, ciHigh, statistic, pValue, mde, v, c, q);
    }

    /**
     * A comparison with the trials it set aside: what a {@link ShiftTest} gives.
     *
     * @param comparison the comparison that decides the cell
     * @param baseSetAside the positions of the baseline's trials the trials' own comparison left out,
     *     ascending
     * @param headSetAside the positions of the candidate's trials it left out, ascending
     * @param ofTrials the trials' own comparison when another sample decided (the medians of the
     *     builds; see {@link KnownTests#PERFAB}); empty when the trials decided
     */
    public record Judged(
            Comparison comparison,
            List<Integer> baseSetAside,
            List<Integer> headSetAside,
            Optional<Comparison> ofTrials) {
        public Judged {
            Objects.requireNonNull(comparison, "comparison");
            baseSetAside = List.copyOf(baseSetAside);
            headSetAside = List.copyOf(headSetAside);
            Objects.requireNonNull(ofTrials, "ofTrials");
        }

        /** A comparison the trials themselves decided. */
        public Judged(Comparison comparison, List<Integer> baseSetAside, List<Integer> headSetAside) {
            this(comparison, baseSetAside, headSetAside, Optional.empty());
        }
    }

    /**
     * Returns the comparison of a test that locates the change otherwise than by means (Mann-Whitney
     * on medians, Yuen on trimmed means): the summaries of both sides, the change {@code pct} its
     * test measured, its {@code statistic} and its {@code p}, and the verdict of the rules; no
     * interval and no detectable change. A side with fewer than two values gives
     * {@link Verdict#NO_DATA}.
     */
    static Comparison located(
            double[] base,
            double[] head,
            Direction direction,
            double pct,
            Statistic statistic,
            double p,
            Thresholds thresholds,
            boolean profile) {
        Summary b = Summary.of(Sample.of(base));
        Summary h = Summary.of(Sample.of(head));
        List<Caveat> caveats = new ArrayList<>();
        if (b.n() < 2) {
            caveats.add(Caveat.BASE_TOO_FEW);
        }
        if (h.n() < 2) {
            caveats.add(Caveat.HEAD_TOO_FEW);
        }
        Verdict v = !caveats.isEmpty()
                ? Verdict.NO_DATA
                : profile ? Verdict.PROFILE : VerdictRule.classify(direction, pct, p, thresholds);
        return new Comparison(
                b,
                h,
                direction,
                pct,
                Double.NaN,
                Double.NaN,
                statistic,
                p,
                OptionalDouble.empty(),
                v,
                caveats,
                Double.NaN);
    }

    /**
     * Judges one cell from its trials, in the order they ran: perfab's verdict. Setting a trial aside
     * needs evidence that it is the machine's, not the code's; what cannot be set aside is judged.
     *
     * <ul>
     *   <li>Without far trials (see {@link FarTrials}), Welch's test on every trial ({@link #of}).
     *   <li>With far trials on both sides, hiccups fall on both: they are set aside on both sides
     *       (each against the same pooled spread) and Welch's test judges the rest, since one hiccup
     *       in ten would otherwise hide a real 5% change.
     *   <li>With far trials on one side only that make the candidate look better: the baseline's
     *       slow trials hide no slowdown, they are set aside and the rest decide; the candidate's
     *       fast trials are its code's (a machine does not speed up), and every trial decides.
     *   <li>With far trials on one side only that make the candidate look worse (the candidate's
     *       slow trials), they are evidence of the code: a change that hits some trials looks like
     *       that. A regression or an improvement the rest show stands (the far trials are slower
     *       still, and cannot fake a speed-up); otherwise every trial is judged, far ones included,
     *       by Welch's test, which fires on a slowdown in one trial in five once the trials are
     *       enough, and a mean moved past the bar that the test cannot confirm is inconclusive,
     *       never small and never unchanged ({@link Caveat#ONE_SIDED}).
     *   <li>When the trials of both sides fall into two groups (see {@link FarTrials#twoGroups}), a
     *       busy machine's two speeds, each side may hold them in other proportions, and setting
     *       each side's minority aside could compare the slow group of one with the fast group of
     *       the other. Like is compared with like: the group with the most trials of both sides
     *       decides; when the other group says the opposite, or no group holds two trials of each
     *       side, every trial decides ({@link Caveat#SPLIT}).
     * </ul>
     *
     * Whatever decides, a regression, improvement or small change whose sign is not that of the
     * change between the medians of every trial is never shown without {@link Caveat#SPLIT}: it is
     * too noisy to tell. An unchanged cell whose trials could miss a slowdown past the inconclusive
     * threshold is too noisy to tell.
     *
     * @param profile whether the cell is shown but never classified ({@link Verdict#PROFILE})
     */
    public static Judged judge(
            double[] base, double[] head, Direction direction, Thresholds thresholds, boolean profile) {
        return judge(Trials.of(base), Trials.of(head), direction, thresholds, profile, false);
    }

    /**
     * Judges one cell from its trials as {@link #judge(double[], double[], Direction, Thresholds,
     * boolean)} does, and when {@code inPairs} and the trials carry their pairs, by the paired test
     * wherever three pairs or more are left ({@link #paired}): every rule sets the same trials aside,
     * and a trial set aside takes its partner out of the pairs. Where fewer pairs are left, or the
     * trials do not pair, Welch's test judges.
     */
    static Judged judge(
            Trials baseTrials,
            Trials headTrials,
            Direction direction,
            Thresholds thresholds,
            boolean profile,
            boolean inPairs) {
        double[] base = baseTrials.values();
        double[] head = headTrials.values();
        Core core = (keepBase, keepHead) -> {
            if (inPairs && baseTrials.paired() && headTrials.paired()) {
                PairedTest.Pairs pairs = Trials.pairs(baseTrials, headTrials, keepBase, keepHead);
                if (pairs.n() >= 3) {
                    return paired(pairs, direction, thresholds, profile);
                }
            }
            return compute(
                    Sample.of(kept(base, keepBase)), Sample.of(kept(head, keepHead)), direction, thresholds, profile);
        };
        FarTrials far = FarTrials.of(base, head, thresholds.effectiveOutlierFloor());
        Comparison all = core.compare(keep(base.length, List.of()), keep(head.length, List.of()));
        if (far.none()) {
            return new Judged(all, List.of(), List.of());
        }
        Comparison kept = core.compare(keep(base.length, far.base()), keep(head.length, far.head()));
        if (profile || kept.verdict() == Verdict.NO_DATA || all.verdict() == Verdict.NO_DATA) {
            return profile && kept.verdict() != Verdict.NO_DATA
                    ? new Judged(kept, far.base(), far.head())
                    : new Judged(all, List.of(), List.of());
        }
        Judged judged;
        double cut = far.twoGroups(base, head, thresholds.effectiveOutlierFloor());
        if (!Double.isNaN(cut)) {
            judged = likeWithLike(base, head, cut, all, core, thresholds);
        } else if (!far.oneSided()) {
            judged = new Judged(kept, far.base(), far.head());
        } else if (!far.candidateWorseInSome(base, head, direction)) {
            // The baseline's slow trials hide no slowdown, and the rest decide; the candidate's fast
            // ones are its code's (a machine does not speed up), and setting them aside would make
            // a slowdown of the rest: every trial decides.
            judged = far.head().isEmpty()
                    ? new Judged(kept.caveats(List.of(Caveat.ONE_SIDED), kept.verdict()), far.base(), far.head())
                    : new Judged(all.caveats(List.of(Caveat.ONE_SIDED), all.verdict()), List.of(), List.of());
        } else {
            judged = oneSidedWorse(far, kept, all, thresholds);
        }
        return signOfTheMedians(judged, base, head, thresholds);
    }

    /** How the trials a rule keeps of a cell are compared: Welch's test on their values, or their pairs. */
    private interface Core {
        /** Compares the trials {@code keepBase} and {@code keepHead} keep, by position. */
        Comparison compare(boolean[] keepBase, boolean[] keepHead);
    }

    /** Returns a mask of {@code n} positions, every one kept but {@code setAside}. */
    private static boolean[] keep(int n, List<Integer> setAside) {
        boolean[] keep = new boolean[n];
        Arrays.fill(keep, true);
        setAside.forEach(i -> keep[i] = false);
        return keep;
    }

    /** Returns the values {@code keep} keeps, in order. */
    private static double[] kept(double[] values, boolean[] keep) {
        double[] out = new double[values.length];
        int n = 0;
        for (int i = 0; i < values.length; i++) {
            if (keep[i]) {
                out[n++] = values[i];
            }
        }
        return n == values.length ? values : Arrays.copyOf(out, n);
    }

    /**
     * Judges a cell whose candidate alone had far trials that make it look worse: the rest's
     * regression or improvement stands; else every trial decides, and a mean moved past the bar
     * that Welch's test cannot confirm is inconclusive.
     */
    private static Judged oneSidedWorse(FarTrials far, Comparison kept, Comparison all, Thresholds thresholds) {
        List<Caveat> oneSided = List.of(Caveat.ONE_SIDED);
        Verdict v = kept.verdict();
        // A few slow trials of the candidate cannot fake a speed-up, as long as every trial still
        // points that way; many, as many as a busy machine's second speed leaves, may be that
        // speed, and a fast trial of the baseline set aside makes the candidate look faster: then
        // the rest are not the whole story.
        boolean few = far.base().isEmpty()
                && far.head().size() <= Math.max(1, all.head().n() / 5)
                && all.direction().isBetter(0.0, all.pctChange());
        if (v == Verdict.REGRESSION || v == Verdict.INCONCLUSIVE || v == Verdict.IMPROVEMENT && few) {
            return new Judged(kept.caveats(oneSided, v), far.base(), far.head());
        }
        Verdict everyTrial = all.verdict();
        if (everyTrial == Verdict.IMPROVEMENT && !far.base().isEmpty()) {
            // The baseline's far trials are its fast ones: a faster speed of the machine that the
            // candidate's trials never met may be all the speed-up there is.
            everyTrial = Verdict.NOISY;
        }
        boolean worse = all.direction().isWorse(0.0, all.pctChange());
        if (everyTrial != Verdict.REGRESSION
                && everyTrial != Verdict.INCONCLUSIVE
                && worse
                && Math.abs(all.pctChange()) >= thresholds.minEffect()) {
            everyTrial = Verdict.INCONCLUSIVE;
        }
        return new Judged(all.caveats(oneSided, everyTrial), List.of(), List.of());
    }

    /**
     * Judges a cell whose trials fall into two groups split at {@code cut} (a logarithm): the group
     * holding the most trials of both sides, two or more of each, decides, the other group's trials
     * set aside. When the other group also holds two of each side and its significant verdict
     * points the other way, or no group holds two of each, every trial decides.
     */
    private static Judged likeWithLike(
            double[] base, double[] head, double cut, Comparison all, Core core, Thresholds thresholds) {
        List<Caveat> split = List.of(Caveat.SPLIT);
        Group low = new Group(base, head, cut, false);
        Group high = new Group(base, head, cut, true);
        Group decides = low.size() >= high.size() ? low : high;
        Group other = decides == low ? high : low;
        if (!decides.comparable()) {
            decides = other;
            other = null;
        }
        if (!decides.comparable()) {
            return everyTrial(all, cut, base, head, thresholds);
        }
        Comparison c = core.compare(keep(base.length, decides.setAsideBase), keep(head.length, decides.setAsideHead));
        if (other != null && other.comparable()) {
            Comparison o = core.compare(keep(base.length, other.setAsideBase), keep(head.length, other.setAsideHead));
            boolean opposite = o.verdict().significant()
                    && c.verdict() != Verdict.UNCHANGED
                    && Math.signum(o.pctChange()) != Math.signum(c.pctChange());
            boolean against = o.verdict().significant() && !c.verdict().significant();
            if (opposite || against) {
                return everyTrial(all, cut, base, head, thresholds);
            }
        }
        return new Judged(c.caveats(split, c.verdict()), decides.setAsideBase, decides.setAsideHead);
    }

    /**
     * Returns the verdict of every trial of a cell whose two groups cannot be compared like with like:
     * which group each side's trials fell in moves the means by up to the gap between the groups, so a
     * change stands only past that gap and the bar, in ratio; anything else is inconclusive when it is
     * worse past the inconclusive threshold, else too noisy to tell.
     */
    private static Judged everyTrial(Comparison all, double cut, double[] base, double[] head, Thresholds thresholds) {
        double below = Double.NEGATIVE_INFINITY;
        double above = Double.POSITIVE_INFINITY;
        for (double[] side : new double[][] {base, head}) {
            for (double v : side) {
                double x = Math.log(v);
                below = x < cut ? Math.max(below, x) : below;
                above = x >= cut ? Math.min(above, x) : above;
            }
        }
        double change = Math.abs(Math.log1p(all.pctChange() / 100));
        boolean past = change > above - below + Math.log1p(thresholds.minEffect() / 100);
        Verdict v = all.verdict().significant() && past ? all.verdict() : all.unconfirmed(thresholds);
        return new Judged(all.caveats(List.of(Caveat.SPLIT), v), List.of(), List.of());
    }

    /** The trials of both sides on one side of the cut between two groups. */
    private static final class Group {
        final double[] base;
        final double[] head;
        final List<Integer> setAsideBase = new ArrayList<>();
        final List<Integer> setAsideHead = new ArrayList<>();

        Group(double[] baseValues, double[] headValues, double cut, boolean above) {
            base = pick(baseValues, cut, above, setAsideBase);
            head = pick(headValues, cut, above, setAsideHead);
        }

        private static double[] pick(double[] values, double cut, boolean above, List<Integer> out) {
            double[] in = new double[values.length];
            int n = 0;
            for (int i = 0; i < values.length; i++) {
                if (Math.log(values[i]) > cut == above) {
                    in[n++] = values[i];
                } else {
                    out.add(i);
                }
            }
            return Arrays.copyOf(in, n);
        }

        int size() {
            return Math.min(base.length, head.length);
        }

        boolean comparable() {
            return base.length >= 2 && head.length >= 2;
        }
    }

    /**
     * Returns {@code judged} unless its verdict is a regression, improvement or small change whose
     * sign is not that of the change between the medians of every trial, and it carries no
     * {@link Caveat#SPLIT}: such a verdict rests on which trials were kept, and is too noisy to tell.
     */
    private static Judged signOfTheMedians(Judged judged, double[] base, double[] head, Thresholds thresholds) {
        Comparison c = judged.comparison();
        if (!c.verdict().significant() || c.caveats().contains(Caveat.SPLIT)) {
            return judged;
        }
        double medians = Sample.median(head) - Sample.median(base);
        if (medians == 0 || Double.isNaN(c.pctChange()) || Math.signum(medians) == Math.signum(c.pctChange())) {
            return judged;
        }
        return new Judged(
                c.caveats(List.of(Caveat.SPLIT), Verdict.NOISY),
                judged.baseSetAside(),
                judged.headSetAside(),
                judged.ofTrials());
    }

    /** Returns this comparison with {@code more} caveats added and {@code v} as its verdict. */
    private Comparison caveats(List<Caveat> more, Verdict v) {
        List<Caveat> all = new ArrayList<>(caveats);
        for (Caveat c : more) {
            if (!all.contains(c)) {
                all.add(c);
            }
        }
        all.sort(null);
        return with(v, all, qValue);
    }

    /**
     * Returns this comparison with the verdict {@code v} of the cell it measures again in other
     * terms (a throughput beside the time it was computed from): one measurement, one verdict.
     */
    public Comparison following(Verdict v) {
        return with(v, caveats, qValue);
    }

    /**
     * The binary exponent past which values are scaled before they are summed or squared: a sum of
     * values near 1e308 overflows, and a variance of values past 1e154 does.
     */
    private static final int SCALE_PAST = 400;

    private static Comparison compute(
            Sample baseSample, Sample headSample, Direction direction, Thresholds thresholds, boolean profile) {
        // Every figure but the summaries is scale-free (t, p, percentages): scaled by a power of
        // two, which is exact, huge or tiny values are compared like any others.
        int exponent = Math.max(baseSample.maxExponent(), headSample.maxExponent());
        if (Math.abs(exponent) > SCALE_PAST && exponent != Sample.NO_EXPONENT) {
            return compute(baseSample.scaled(-exponent), headSample.scaled(-exponent), direction, thresholds, profile)
                    .withSummariesScaled(exponent);
        }
        Summary base = Summary.of(baseSample);
        Summary head = Summary.of(headSample);
        List<Caveat> caveats = new ArrayList<>();
        if (base.n() < 2) {
            caveats.add(Caveat.BASE_TOO_FEW);
        }
        if (head.n() < 2) {
            caveats.add(Caveat.HEAD_TOO_FEW);
        }
        boolean positiveBase = base.mean() > 0.0;
        // Every value zero on both sides (0 allocs/op before and after): nothing moved, and +0% says so.
        boolean zeros = base.n() > 0
                && head.n() > 0
                && base.min() == 0.0
                && base.max() == 0.0
                && head.min() == 0.0
                && head.max() == 0.0;
        if (base.n() > 0 && head.n() > 0 && !positiveBase && !zeros) {
            caveats.add(Caveat.NON_POSITIVE_BASE_MEAN);
        }
        double pct = base.n() > 0 && head.n() > 0 && positiveBase
                ? (head.mean() / base.mean() - 1.0) * 100.0
                : zeros ? 0.0 : Double.NaN;

        WelchTest.Result test = WelchTest.test(base, head);
        double ciLow = Double.NaN;
        double ciHigh = Double.NaN;
        double mde = Double.NaN;
        if (!caveats.contains(Caveat.BASE_TOO_FEW)
                && !caveats.contains(Caveat.HEAD_TOO_FEW)
                && (positiveBase || zeros)) {
            if (test.se() == 0.0) {
                ciLow = pct;
                ciHigh = pct;
                mde = 0.0;
            } else {
                double[] ci = fieller(base, head, test.df());
                if (ci == null) {
                    caveats.add(Caveat.UNBOUNDED_INTERVAL);
                } else {
                    // A ratio of means of values that are 0 or more is 0 or more: no change of such a
                    // quantity (a time, a count) is below -100%, though Fieller's low end can be.
                    ciLow = base.min() >= 0.0 && head.min() >= 0.0 ? Math.max(-100.0, ci[0]) : ci[0];
                    ciHigh = ci[1];
                }
                double alpha = thresholds.alpha();
                mde = (TQuantile.of(1.0 - alpha / 2.0, test.df()) + TQuantile.of(POWER, test.df()))
                        * test.se()
                        / base.mean()
                        * 100.0;
            }
        }

        return classified(
                base,
                head,
                direction,
                pct,
                ciLow,
                ciHigh,
                Statistic.of(Statistic.Kind.WELCH_T, test.t(), test.df()),
                test.p(),
                mde,
                caveats,
                thresholds,
                profile);
    }

    /**
     * Returns this comparison with its summaries scaled by 2 to the power {@code exponent}, which
     * is exact; every other figure is scale-free and stays as it is.
     */
    private Comparison withSummariesScaled(int exponent) {
        return new Comparison(
                base.scaled(exponent),
                head.scaled(exponent),
                direction,
                pctChange,
                ciLow,
                ciHigh,
                statistic,
                pValue,
                mde,
                verdict,
                caveats,
                qValue);
    }

    /**
     * Returns the comparison of a test's figures under the verdict rules: {@code caveats} are those
     * the figures found (too few values, a baseline mean that is not positive, an unbounded
     * interval), and the verdict adds its own.
     */
    private static Comparison classified(
            Summary base,
            Summary head,
            Direction direction,
            double pct,
            double ciLow,
            double ciHigh,
            Statistic statistic,
            double p,
            double mde,
            List<Caveat> caveats,
            Thresholds thresholds,
            boolean profile) {
        boolean positiveBase = base.mean() > 0.0;
        Verdict verdict;
        if (base.n() < 2 || head.n() < 2) {
            verdict = Verdict.NO_DATA;
        } else if (profile) {
            verdict = Verdict.PROFILE;
        } else if (base.mean() == 0.0) {
            // Any move away from zero is an infinitely large percent change.
            double infinite = head.mean() == 0.0 ? 0.0 : Math.copySign(Double.POSITIVE_INFINITY, head.mean());
            verdict = VerdictRule.classify(direction, infinite, p, thresholds);
        } else if (!positiveBase) {
            boolean significant = p < thresholds.alpha();
            verdict = significant && direction.isWorse(base.mean(), head.mean())
                    ? Verdict.INCONCLUSIVE
                    : Verdict.UNCHANGED;
        } else {
            verdict = VerdictRule.classify(direction, pct, p, thresholds);
        }
        if (verdict == Verdict.UNCHANGED && mde > thresholds.effectiveNoisyAbove()) {
            caveats.add(Caveat.UNDERPOWERED);
        }
        if (!profile && positiveBase && VerdictRule.shortOfItsLook(pct, p, thresholds)) {
            caveats.add(Caveat.NOT_AT_LOOK);
        }
        caveats.sort(null);
        Comparison c = new Comparison(
                base,
                head,
                direction,
                pct,
                ciLow,
                ciHigh,
                statistic,
                p,
                Double.isNaN(mde) ? OptionalDouble.empty() : OptionalDouble.of(mde),
                verdict,
                caveats,
                Double.NaN);
        // Unchanged is a claim, "no change of X or more", and must be earned: an interval that
        // reaches a slowdown as large as the bar, no interval at all, or trials blind to a slowdown
        // past the inconclusive threshold make it no pass.
        if (verdict == Verdict.UNCHANGED
                && positiveBase
                && !(c.worseEnd() < thresholds.minEffect() && c.detectable(thresholds) <= thresholds.inconclusive())) {
            return c.with(Verdict.NOISY, caveats, Double.NaN);
        }
        return c;
    }

    /**
     * Returns the comparison of {@code pairs}, the interleaved order's pairs of a cell (see
     * {@link PairedTest}): the summaries of the paired trials, the change of the head's mean over
     * the base's, Fieller's interval with the pairs' covariance, the paired t and its p, and the
     * change the paired test would find with 80% power; with the slot term when {@code slot}. When a
     * few pairs straddle a change of the machine's state ({@link PairedTest#straddled}), the pairs'
     * ranks judge instead ({@link #ranked}). Pairs whose base mean is not above 0 have no ratio to
     * pair: Welch's test judges them.
     */
    static Comparison paired(PairedTest.Pairs pairs, Direction direction, Thresholds thresholds, boolean profile) {
        Sample b = Sample.of(pairs.base());
        Sample h = Sample.of(pairs.head());
        Summary base = Summary.of(b);
        Summary head = Summary.of(h);
        int exponent = Math.max(b.maxExponent(), h.maxExponent());
        if (!(base.mean() > 0) || pairs.n() < 3 || exponent == Sample.NO_EXPONENT) {
            return compute(b, h, direction, thresholds, profile);
        }
        if (PairedTest.straddled(pairs)) {
            return ranked(pairs, base, head, direction, thresholds, profile);
        }
        // Scaled by a power of two, which is exact, so that products of huge or tiny values stay finite.
        int scale = Math.abs(exponent) > SCALE_PAST ? -exponent : 0;
        PairedTest.Pairs scaled = scale == 0
                ? pairs
                : new PairedTest.Pairs(scaled(pairs.base(), scale), scaled(pairs.head(), scale), pairs.baseFirst());
        PairedTest.Result r = PairedTest.of(scaled, PairedTest.slotMatters(scaled));
        List<Caveat> caveats = new ArrayList<>();
        double ciLow = r.ciLow();
        double ciHigh = r.ciHigh();
        double mde;
        if (r.se() == 0) {
            ciLow = r.pctChange();
            ciHigh = r.pctChange();
            mde = 0;
        } else {
            if (Double.isNaN(ciLow)) {
                caveats.add(Caveat.UNBOUNDED_INTERVAL);
            } else if (base.min() >= 0 && head.min() >= 0) {
                ciLow = Math.max(-100.0, ciLow);
            }
            mde = (TQuantile.of(1.0 - thresholds.alpha() / 2.0, r.df()) + TQuantile.of(POWER, r.df()))
                    * r.se()
                    / r.baseMean()
                    * 100.0;
        }
        double t = r.se() == 0 && r.pctChange() == 0 ? 0 : r.t();
        return classified(
                base,
                head,
                direction,
                r.pctChange(),
                ciLow,
                ciHigh,
                Statistic.of(Statistic.Kind.PAIRED_T, t, r.se() == 0 ? Double.NaN : r.df()),
                r.se() == 0 ? (r.pctChange() == 0 ? 1 : 0) : r.p(),
                mde,
                caveats,
                thresholds,
                profile);
    }

    /**
     * Returns the comparison of {@code pairs} by their ranks ({@link PairedTest#ranked}): the change is
     * Hodges and Lehmann's estimate of the pairs' log ratios with its interval, p the signed-rank
     * test's; the change the test would find with 80% power is taken from the interval's width, as a
     * normal test of that width would.
     */
    private static Comparison ranked(
            PairedTest.Pairs pairs,
            Summary base,
            Summary head,
            Direction direction,
            Thresholds thresholds,
            boolean profile) {
        PairedTest.Ranked r = PairedTest.ranked(pairs);
        List<Caveat> caveats = new ArrayList<>();
        double mde = Double.NaN;
        if (Double.isNaN(r.ciLow())) {
            caveats.add(Caveat.UNBOUNDED_INTERVAL);
        } else {
            double z = Distributions.normalQuantile(1 - (1 - CONFIDENCE) / 2);
            double se = (Math.log1p(r.ciHigh() / 100) - Math.log1p(r.ciLow() / 100)) / (2 * z);
            mde = (Distributions.normalQuantile(1 - thresholds.alpha() / 2) + Distributions.normalQuantile(POWER))
                    * se
                    * 100;
        }
        return classified(
                base,
                head,
                direction,
                r.pctChange(),
                r.ciLow(),
                r.ciHigh(),
                Statistic.of(Statistic.Kind.SIGNED_RANK, r.statistic(), Double.NaN),
                r.p(),
                mde,
                caveats,
                thresholds,
                profile);
    }

    private static double[] scaled(double[] values, int exponent) {
        double[] out = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = Math.scalb(values[i], exponent);
        }
        return out;
    }

    /**
     * Returns Fieller's 95% interval of {@code mean_head / mean_base}, as percent changes, or null
     * when it is unbounded. Requires a positive baseline mean and a positive standard error.
     */
    private static double[] fieller(Summary base, Summary head, double df) {
        double vb = base.variance() / base.n();
        double vh = head.variance() / head.n();
        double tq = TQuantile.of(1.0 - (1.0 - CONFIDENCE) / 2.0, df);
        double ratio = head.mean() / base.mean();
        double g = tq * tq * vb / (base.mean() * base.mean());
        if (g >= 1.0) {
            return null;
        }
        double half = tq / base.mean() * Math.sqrt(vh * (1.0 - g) + ratio * ratio * vb);
        double low = (ratio - half) / (1.0 - g);
        double high = (ratio + half) / (1.0 - g);
        return new double[] {(low - 1.0) * 100.0, (high - 1.0) * 100.0};
    }
}
