package org.perfab.stats;

import java.util.List;
import java.util.Optional;

/**
 * The {@link ShiftTest}s perfab knows, one constant each. The tests are values of this enum, not
 * factories of {@link ShiftTest}, so that the interface knows none of its implementations.
 */
public enum KnownTests implements ShiftTest {
    /** Welch's test on every trial, nothing set aside: the seed's rule ({@link Comparison#of}). */
    WELCH {
        @Override
        public Comparison.Judged judge(
                Trials base, Trials head, Direction direction, Thresholds thresholds, boolean profile) {
            return alone(welch(base.values(), head.values(), direction, thresholds, profile));
        }
    },
    /**
     * perfab's verdict on the trials: Welch's test with far trials set aside, on one side read as
     * evidence, groups that swap sides caught ({@link Comparison#judge}).
     */
    TRIALS {
        @Override
        public Comparison.Judged judge(
                Trials base, Trials head, Direction direction, Thresholds thresholds, boolean profile) {
            return Comparison.judge(base, head, direction, thresholds, profile, false);
        }
    },
    /**
     * perfab's verdict on the trials in the interleaved order's pairs: the rules of {@link #TRIALS},
     * each comparison made by the paired test where three pairs or more are left
     * ({@link Comparison#paired}); Welch's test where the trials do not pair.
     */
    PAIRS {
        @Override
        public Comparison.Judged judge(
                Trials base, Trials head, Direction direction, Thresholds thresholds, boolean profile) {
            return Comparison.judge(base, head, direction, thresholds, profile, true);
        }
    },
    /** Welch's test on the median of each build: one value per build and side. */
    BUILD_MEDIANS {
        @Override
        public Comparison.Judged judge(
                Trials base, Trials head, Direction direction, Thresholds thresholds, boolean profile) {
            return alone(welch(base.buildMedians(), head.buildMedians(), direction, thresholds, profile));
        }
    },
    /**
     * benchstat's: Mann-Whitney's test (exact where it can be), the change between medians; its
     * statistic is U ({@link Statistic.Kind#MANN_WHITNEY_U}).
     */
    MANN_WHITNEY {
        @Override
        public Comparison.Judged judge(
                Trials base, Trials head, Direction direction, Thresholds thresholds, boolean profile) {
            double[] b = base.values();
            double[] h = head.values();
            if (b.length == 0 || h.length == 0) {
                return alone(Comparison.located(
                        b, h, direction, Double.NaN, u(Double.NaN), Double.NaN, thresholds, profile));
            }
            Ranks.Result r = Ranks.of(b, h);
            double pct = (Sample.median(h) / Sample.median(b) - 1) * 100;
            return alone(Comparison.located(b, h, direction, pct, u(r.u()), r.p(), thresholds, profile));
        }
    },
    /** Yuen's test on 20% trimmed means, the change between them ({@link Statistic.Kind#YUEN_T}). */
    YUEN {
        @Override
        public Comparison.Judged judge(
                Trials base, Trials head, Direction direction, Thresholds thresholds, boolean profile) {
            double[] b = base.values();
            double[] h = head.values();
            double pct =
                    b.length == 0 || h.length == 0 ? Double.NaN : (Yuen.trimmedMean(h) / Yuen.trimmedMean(b) - 1) * 100;
            Yuen.Result y = Yuen.test(b, h);
            return alone(Comparison.located(
                    b,
                    h,
                    direction,
                    pct,
                    Statistic.of(Statistic.Kind.YUEN_T, y.t(), y.df()),
                    y.p(),
                    thresholds,
                    profile));
        }
    },
    /**
     * The test perfab's A/B applies: the medians of the builds decide when both sides measured two
     * builds or more ({@link #BUILD_MEDIANS}, with the trials' own comparison and the trials they set
     * aside kept beside it); otherwise the trials do ({@link #TRIALS}).
     */
    PERFAB {
        @Override
        public Comparison.Judged judge(
                Trials base, Trials head, Direction direction, Thresholds thresholds, boolean profile) {
            return withBuilds(TRIALS, base, head, direction, thresholds, profile);
        }
    },
    /**
     * {@link #PERFAB} with the trials judged in their pairs ({@link #PAIRS}); the medians of the
     * builds, one value a build, do not pair, and Welch's test judges them.
     */
    PERFAB_PAIRS {
        @Override
        public Comparison.Judged judge(
                Trials base, Trials head, Direction direction, Thresholds thresholds, boolean profile) {
            return withBuilds(PAIRS, base, head, direction, thresholds, profile);
        }
    };

    /**
     * Returns the judgement of {@code trials}, or, when both sides measured two builds or more, of
     * the medians of the builds with the trials' own kept beside it.
     */
    private static Comparison.Judged withBuilds(
            ShiftTest trialTest,
            Trials base,
            Trials head,
            Direction direction,
            Thresholds thresholds,
            boolean profile) {
        Comparison.Judged trials = trialTest.judge(base, head, direction, thresholds, profile);
        if (base.buildCount() < 2 || head.buildCount() < 2) {
            return trials;
        }
        Comparison medians =
                BUILD_MEDIANS.judge(base, head, direction, thresholds, profile).comparison();
        return new Comparison.Judged(
                medians, trials.baseSetAside(), trials.headSetAside(), Optional.of(trials.comparison()));
    }

    private static Comparison welch(
            double[] base, double[] head, Direction direction, Thresholds thresholds, boolean profile) {
        return profile
                ? Comparison.profile(Sample.of(base), Sample.of(head), direction, thresholds)
                : Comparison.of(Sample.of(base), Sample.of(head), direction, thresholds);
    }

    private static Statistic u(double u) {
        return Statistic.of(Statistic.Kind.MANN_WHITNEY_U, u, Double.NaN);
    }

    private static Comparison.Judged alone(Comparison c) {
        return new Comparison.Judged(c, List.of(), List.of());
    }
}
