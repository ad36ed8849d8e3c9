package org.perfab.stats;

import java.util.List;
import java.util.Optional;

/** The {@link ShiftTest}s perfab knows, one constant each, reached through {@link ShiftTest}'s factories. */
enum KnownTests implements ShiftTest {
    WELCH {
        @Override
        public Comparison.Judged judge(Trials base, Trials head, Direction direction, Thresholds thresholds,
                boolean profile) {
            return alone(welch(base.values(), head.values(), direction, thresholds, profile));
        }
    },
    TRIALS {
        @Override
        public Comparison.Judged judge(Trials base, Trials head, Direction direction, Thresholds thresholds,
                boolean profile) {
            return Comparison.judge(base.values(), head.values(), direction, thresholds, profile);
        }
    },
    BUILD_MEDIANS {
        @Override
        public Comparison.Judged judge(Trials base, Trials head, Direction direction, Thresholds thresholds,
                boolean profile) {
            return alone(welch(base.buildMedians(), head.buildMedians(), direction, thresholds, profile));
        }
    },
    MANN_WHITNEY {
        @Override
        public Comparison.Judged judge(Trials base, Trials head, Direction direction, Thresholds thresholds,
                boolean profile) {
            double[] b = base.values();
            double[] h = head.values();
            if (b.length == 0 || h.length == 0) {
                return alone(Comparison.located(b, h, direction, Double.NaN, Double.NaN, Double.NaN, thresholds,
                        profile));
            }
            Ranks.Result r = Ranks.of(b, h);
            double pct = (Sample.median(h) / Sample.median(b) - 1) * 100;
            return alone(Comparison.located(b, h, direction, pct, r.u(), r.p(), thresholds, profile));
        }
    },
    YUEN {
        @Override
        public Comparison.Judged judge(Trials base, Trials head, Direction direction, Thresholds thresholds,
                boolean profile) {
            double[] b = base.values();
            double[] h = head.values();
            double pct = b.length == 0 || h.length == 0 ? Double.NaN
                    : (Yuen.trimmedMean(h) / Yuen.trimmedMean(b) - 1) * 100;
            return alone(Comparison.located(b, h, direction, pct, Double.NaN, Yuen.p(b, h), thresholds, profile));
        }
    },
    PERFAB {
        @Override
        public Comparison.Judged judge(Trials base, Trials head, Direction direction, Thresholds thresholds,
                boolean profile) {
            Comparison.Judged trials = TRIALS.judge(base, head, direction, thresholds, profile);
            if (base.buildCount() < 2 || head.buildCount() < 2) {
                return trials;
            }
            Comparison medians = BUILD_MEDIANS.judge(base, head, direction, thresholds, profile).comparison();
            return new Comparison.Judged(medians, trials.baseSetAside(), trials.headSetAside(),
                    Optional.of(trials.comparison()));
        }
    };

    private static Comparison welch(double[] base, double[] head, Direction direction, Thresholds thresholds,
            boolean profile) {
        return profile ? Comparison.profile(Sample.of(base), Sample.of(head), direction, thresholds)
                : Comparison.of(Sample.of(base), Sample.of(head), direction, thresholds);
    }

    private static Comparison.Judged alone(Comparison c) {
        return new Comparison.Judged(c, List.of(), List.of());
    }
}
