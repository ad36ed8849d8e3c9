package org.perfab.cli;

import java.time.Duration;
import java.util.Optional;
import org.perfab.ab.AbRequest;
import org.perfab.ab.Setting;
import org.perfab.stats.ThresholdSettings;
import org.perfab.stats.Thresholds;

/**
 * A run's settings, layered once for every command that runs trials ({@code ab}, {@code bisect},
 * {@code demo}): what the command line gives over its {@link Preset}; what
 * neither gives, the run takes from the workload, else perfab's defaults ({@link AbRun}, which
 * reads the workload, and {@link Thresholds#DEFAULT}). Each setting names where it was given, so
 * that a refusal names the place to change it.
 *
 * @param trials counted trials per side; empty for the workload's
 * @param builds builds per side; empty for the workload's, else 1
 * @param adaptive the most trials per side of adaptive trials, 0 for off; empty for the workload's
 * @param budget the time the trials may take in all; empty for no limit
 * @param padding whether each trial's environment is padded; empty for no padding
 * @param thresholds the verdict settings given; each absent one the workload's, else the default
 */
record RunSettings(
        Optional<Setting<Integer>> trials,
        Optional<Setting<Integer>> builds,
        Optional<Setting<Integer>> adaptive,
        Optional<Duration> budget,
        Optional<Setting<Boolean>> padding,
        ThresholdSettings thresholds) {

    /**
     * Returns the settings the command line gives, each empty or {@link ThresholdSettings#NONE}
     * where it gives none, over those of {@code preset}.
     */
    static RunSettings of(
            Preset preset,
            Optional<Integer> trials,
            Optional<Integer> builds,
            Optional<Integer> adaptive,
            Optional<Duration> budget,
            Optional<Boolean> padding,
            ThresholdSettings thresholds) {
        return new RunSettings(
                layer("--trials", trials, preset, preset.trials),
                layer("--builds", builds, preset, preset.builds),
                layer("--adaptive", adaptive, preset, preset.adaptive),
                budget.or(() -> preset.budget),
                padding.map(p -> new Setting<>(p, p ? "--env-padding" : "--no-env-padding"))
                        .or(() -> preset.padding ? Optional.of(new Setting<>(true, preset.from)) : Optional.empty()),
                thresholds.or(preset.thresholds));
    }

    private static <T> Optional<Setting<T>> layer(String option, Optional<T> given, Preset preset, Optional<T> of) {
        return Setting.option(option, given).or(() -> of.map(v -> new Setting<>(v, preset.from)));
    }

    /** Returns {@code request} with these settings, for the run to layer over the workload's. */
    AbRequest.Builder onto(AbRequest.Builder request) {
        return request.trialsFrom(trials)
                .buildsFrom(builds)
                .adaptive(adaptive.map(Setting::value))
                .budget(budget)
                .paddingFrom(padding)
                .overrides(thresholds);
    }

    /** Returns the smallest change that matters, in percent: as given, else the default's. */
    double minEffect() {
        return thresholds.minEffect().orElse(Thresholds.DEFAULT.minEffect());
    }
}
