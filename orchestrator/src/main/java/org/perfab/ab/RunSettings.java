package org.perfab.ab;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.perfab.failure.BadInputException;
import org.perfab.stats.Sequential;
import org.perfab.stats.ThresholdSettings;
import org.perfab.stats.Thresholds;
import org.perfab.workload.Workload;

/**
 * A run's settings as one layer gives them, and the one rule that layers them for every command:
 * the command line ({@link #given}) over a preset ({@link #of}: {@code ab --preset}, the
 * demo's, a bisect's), put together by {@link #over}; that over the workload and the workload over
 * perfab's defaults ({@link #size}, {@link #trials(Optional, String)}, {@link #verdictRules}). Each
 * setting of the run's size names where it was given ({@link Setting}), so that a refusal names the
 * place to change it.
 *
 * @param trials counted trials per side; empty for the next layer's
 * @param builds builds per side; empty for the next layer's
 * @param adaptive the most trials per side of adaptive trials, 0 for off; empty for the next layer's
 * @param budget the time the trials may take in all; empty for the next layer's, else no limit
 * @param padding whether each trial's environment is padded; empty for the next layer's, else no
 *     padding
 * @param thresholds the verdict settings this layer gives; each absent one the next layer's
 */
public record RunSettings(
        Optional<Setting<Integer>> trials,
        Optional<Setting<Integer>> builds,
        Optional<Setting<Integer>> adaptive,
        Optional<Duration> budget,
        Optional<Setting<Boolean>> padding,
        ThresholdSettings thresholds) {
    /** No settings: everything comes from the layers under. */
    public static final RunSettings NONE = new RunSettings(
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            ThresholdSettings.NONE);

    /** Where a setting of perfab's own defaults was given, as a refusal names it. */
    private static final String DEFAULT = "the default";

    /** One build per side: what runs when nothing says otherwise. */
    private static final Setting<Integer> ONE_BUILD = new Setting<>(1, DEFAULT);

    public RunSettings {
        Objects.requireNonNull(trials, "trials");
        Objects.requireNonNull(builds, "builds");
        Objects.requireNonNull(adaptive, "adaptive");
        Objects.requireNonNull(budget, "budget");
        Objects.requireNonNull(padding, "padding");
        Objects.requireNonNull(thresholds, "thresholds");
    }

    /**
     * Returns the settings the command line gives, each named by its option ({@code --trials},
     * {@code --builds}, {@code --adaptive}, {@code --[no-]env-padding}); empty or
     * {@link ThresholdSettings#NONE} where it gives none.
     */
    public static RunSettings given(
            Optional<Integer> trials,
            Optional<Integer> builds,
            Optional<Integer> adaptive,
            Optional<Duration> budget,
            Optional<Boolean> padding,
            ThresholdSettings thresholds) {
        return new RunSettings(
                Setting.option("--trials", trials),
                Setting.option("--builds", builds),
                Setting.option("--adaptive", adaptive),
                budget,
                padding.map(p -> new Setting<>(p, p ? "--env-padding" : "--no-env-padding")),
                thresholds);
    }

    /** Returns the verdict settings the command line gives, and nothing else. */
    public static RunSettings given(ThresholdSettings thresholds) {
        return NONE.withThresholds(thresholds);
    }

    /**
     * Returns the settings of a preset, each named {@code from}; empty where it gives none, and
     * no padding layer where {@code padding} is false.
     */
    public static RunSettings of(
            String from,
            Optional<Integer> trials,
            Optional<Integer> builds,
            Optional<Integer> adaptive,
            Optional<Duration> budget,
            boolean padding,
            ThresholdSettings thresholds) {
        return new RunSettings(
                trials.map(v -> new Setting<>(v, from)),
                builds.map(v -> new Setting<>(v, from)),
                adaptive.map(v -> new Setting<>(v, from)),
                budget,
                padding ? Optional.of(new Setting<>(true, from)) : Optional.empty(),
                thresholds);
    }

    /** Returns these settings, each absent one taken from {@code lower}. */
    public RunSettings over(RunSettings lower) {
        return new RunSettings(
                trials.or(lower::trials),
                builds.or(lower::builds),
                adaptive.or(lower::adaptive),
                budget.or(lower::budget),
                padding.or(lower::padding),
                thresholds.or(lower.thresholds));
    }

    /** Returns these settings with {@code t} as their verdict settings. */
    RunSettings withThresholds(ThresholdSettings t) {
        return new RunSettings(trials, builds, adaptive, budget, padding, t);
    }

    /** Returns whether each trial's environment is padded: as given, else not. */
    boolean padded() {
        return padding.map(Setting::value).orElse(false);
    }

    /** Returns the smallest change that matters, in percent: as given, else the default's. */
    public double minEffect() {
        return thresholds.minEffect().orElse(Thresholds.DEFAULT.minEffect());
    }

    /**
     * Returns the verdict rules' thresholds of a run without a workload: these settings over
     * perfab's defaults ({@link Thresholds#DEFAULT}).
     *
     * @throws Thresholds.Invalid when the settings do not fit together
     */
    public Thresholds verdictRules() {
        return thresholds.over(Thresholds.DEFAULT);
    }

    /**
     * Returns the verdict rules' thresholds of a run of {@code size}: these settings over those of
     * the workload {@code w} (its file {@code named}) over perfab's defaults, with the looks of its
     * adaptive trials when it has them.
     *
     * @throws BadInputException when the layers do not fit together, naming the workload
     */
    Thresholds verdictRules(Workload w, String named, Size size) {
        Thresholds t;
        try {
            t = thresholds.or(w.thresholds()).over(Thresholds.DEFAULT);
        } catch (IllegalArgumentException e) {
            throw new BadInputException("thresholds of " + named + " with the command line: " + e.getMessage());
        }
        int first = size.trials().value();
        return size.adaptive().value() > first
                ? t.withAdaptive(new Sequential(first, size.adaptive().value()))
                : t;
    }

    /**
     * Returns the counted trials per side: as given, else the workload's {@code w} (named
     * {@code shown}), else, without a workload, the default a workload takes
     * ({@link Workload#DEFAULT_TRIALS}).
     */
    public Setting<Integer> trials(Optional<Workload> w, String shown) {
        return Setting.first(
                new Setting<>(Workload.DEFAULT_TRIALS, DEFAULT),
                trials,
                w.map(v -> new Setting<>(v.trials(), "'trials' of " + shown)));
    }

    /** The run's size as its layers give it, each naming where it was given. */
    record Size(Setting<Integer> trials, Setting<Integer> builds, Setting<Integer> adaptive) {}

    /**
     * Returns the run's size: these settings over the workload {@code w} (named {@code shown}) over
     * perfab's defaults, checked as a whole.
     *
     * @throws BadInputException when the layers' settings do not fit together, naming where each was
     *     given
     */
    Size size(Workload w, String shown) {
        Setting<Integer> trials = trials(Optional.of(w), shown);
        checkTrials(trials);
        Setting<Integer> builds =
                Setting.first(ONE_BUILD, builds(), w.builds().map(b -> new Setting<>(b, "'builds' of " + shown)));
        checkTrialsPerBuild(trials, builds);
        adaptive().ifPresent(a -> checkAdaptiveBuilds(a, builds));
        // A run of several builds is judged on their medians, which more trials do not add to: it
        // runs its first round only, whatever the workload's choice.
        Setting<Integer> adaptive = builds.value() > 1
                ? new Setting<>(0, builds.from())
                : Setting.first(
                        new Setting<>(Workload.DEFAULT_ADAPTIVE, DEFAULT),
                        adaptive(),
                        w.adaptive().map(a -> new Setting<>(a, "'adaptive' of " + shown)));
        // A workload's or the default's most below a larger first round (--trials 30) gives a run
        // of that size; the command line's is a mistake said now.
        if (adaptive().isPresent() && adaptive.value() > 0 && adaptive.value() < trials.value()) {
            throw new BadInputException(adaptive.from() + " " + adaptive.value() + " is fewer trials per side than the"
                    + " first round's " + trials.value() + " (" + trials.from() + ")");
        }
        return new Size(trials, builds, adaptive);
    }

    /**
     * Checks these settings as far as they can be checked without the workload's layer, which is
     * checked with them when the run is planned ({@link #size}).
     *
     * @throws BadInputException when a setting is out of range, naming where it was given
     */
    void check() {
        builds.ifPresent(RunSettings::checkBuilds);
        trials.ifPresent(RunSettings::checkTrials);
        adaptive.ifPresent(RunSettings::checkAdaptive);
        trials.ifPresent(t -> checkTrialsPerBuild(t, builds.orElse(ONE_BUILD)));
        adaptive.ifPresent(a -> checkAdaptiveBuilds(a, builds.orElse(ONE_BUILD)));
    }

    private static void checkBuilds(Setting<Integer> builds) {
        if (builds.value() < 1 || builds.value() > Workload.MAX_BUILDS) {
            throw new BadInputException(
                    builds.from() + " must be from 1 to " + Workload.MAX_BUILDS + ", got " + builds.value());
        }
    }

    private static void checkTrials(Setting<Integer> trials) {
        if (trials.value() < 2 || trials.value() > Workload.MAX_TRIALS) {
            throw new BadInputException(
                    trials.from() + " must be from 2 to " + Workload.MAX_TRIALS + ", got " + trials.value());
        }
    }

    private static void checkAdaptive(Setting<Integer> most) {
        if (most.value() > Workload.MAX_TRIALS) {
            throw new BadInputException(most.from() + " must be at most " + Workload.MAX_TRIALS + " trials per side,"
                    + " got " + most.value());
        }
    }

    /**
     * Refuses {@code trials} per side when some of the side's {@code builds} would run none: trials
     * take turns among the builds, so each build needs one.
     */
    private static void checkTrialsPerBuild(Setting<Integer> trials, Setting<Integer> builds) {
        if (trials.value() < builds.value()) {
            int idle = builds.value() - trials.value();
            throw new BadInputException(trials.value() + " trials per side (" + trials.from() + ") among "
                    + builds.value() + " builds per side (" + builds.from() + ") leave " + idle
                    + (idle == 1 ? " build" : " builds") + " of each side without a trial: trials take turns among the"
                    + " builds, at least one each. Give --trials " + builds.value() + " or more, or --builds "
                    + trials.value() + " or fewer");
        }
    }

    /** Refuses adaptive trials of more than one build per side: the builds' medians decide. */
    private static void checkAdaptiveBuilds(Setting<Integer> most, Setting<Integer> builds) {
        if (most.value() > 0 && builds.value() > 1) {
            throw new BadInputException(most.from() + " needs one build per side: with " + builds.value() + " builds ("
                    + builds.from() + ") the medians of the builds decide, and more trials do not add builds");
        }
    }
}
