package org.perfab.cli;

import java.time.Duration;
import java.util.Iterator;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;
import org.perfab.ab.RunSettings;
import org.perfab.stats.ThresholdSettings;
import org.perfab.workload.Durations;
import picocli.CommandLine.ITypeConverter;

/**
 * The settings a kind of run starts from: the layer under the command line and over the workload
 * ({@link RunSettings}). {@code perfab ab --preset} chooses a pull request's check or a release
 * check; {@code perfab demo} and {@code perfab bisect} start from their own.
 */
enum Preset {
    /** A pull request's check: the workload's trials, one build per side. */
    PR(
            "--preset pr",
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            false,
            ThresholdSettings.NONE),
    /** A release check: 20 trials, 3 builds per side, padded environments. */
    RELEASE(
            "--preset release",
            Optional.of(20),
            Optional.of(3),
            Optional.empty(),
            Optional.empty(),
            true,
            ThresholdSettings.NONE),
    /** The demo: a first round of 5 trials, then adaptive trials up to 20, within 150 s; one build per side. */
    DEMO(
            "perfab demo",
            Optional.of(Preset.DEMO_TRIALS),
            Optional.of(1),
            Optional.of(Preset.DEMO_MAX_TRIALS),
            Optional.of(Durations.parse("the demo's budget", Preset.DEMO_BUDGET)),
            false,
            ThresholdSettings.NONE),
    /** A bisect: a change of 1% is one to hunt; 3 builds per side where layout could decide a call. */
    BISECT(
            "perfab bisect",
            Optional.empty(),
            Optional.of(Preset.BISECT_BUILDS),
            Optional.empty(),
            Optional.empty(),
            false,
            new ThresholdSettings(Optional.empty(), Optional.of((double) Preset.BISECT_MIN_EFFECT), Optional.empty()));

    /** The demo's first round, trials per side, as its help says it. */
    static final int DEMO_TRIALS = 5;
    /** The demo's most trials per side, as its help says it. */
    static final int DEMO_MAX_TRIALS = 20;
    /** The demo's time for trials, as its help says it. */
    static final String DEMO_BUDGET = "150s";
    /** A bisect's builds per side where layout could decide a call, as its help says it. */
    static final int BISECT_BUILDS = 3;
    /** A bisect's smallest change, in percent, as its help says it. */
    static final int BISECT_MIN_EFFECT = 1;

    /** Where a setting of this preset was given, as a refusal names it. */
    final String from;

    final Optional<Integer> trials;
    final Optional<Integer> builds;
    final Optional<Integer> adaptive;
    final Optional<Duration> budget;
    final boolean padding;
    final ThresholdSettings thresholds;

    Preset(
            String from,
            Optional<Integer> trials,
            Optional<Integer> builds,
            Optional<Integer> adaptive,
            Optional<Duration> budget,
            boolean padding,
            ThresholdSettings thresholds) {
        this.from = from;
        this.trials = trials;
        this.builds = builds;
        this.adaptive = adaptive;
        this.budget = budget;
        this.padding = padding;
        this.thresholds = thresholds;
    }

    /** The presets {@code --preset} chooses, and the names it takes: {@code pr}, {@code release}. */
    static final class Chosen implements ITypeConverter<Preset>, Iterable<String> {
        private static Stream<Preset> chosen() {
            return Stream.of(PR, RELEASE);
        }

        @Override
        public Preset convert(String text) {
            return chosen().filter(p -> p.name().equalsIgnoreCase(text))
                    .findFirst()
                    .orElseThrow(() -> new OptionValues.Refused("--preset must be pr or release, got '" + text + "'"));
        }

        @Override
        public Iterator<String> iterator() {
            return chosen().map(p -> p.name().toLowerCase(Locale.ROOT)).iterator();
        }
    }

    /** Returns these settings as a layer of a run's, the one under the command line's. */
    RunSettings settings() {
        return RunSettings.of(from, trials, builds, adaptive, budget, padding, thresholds);
    }
}
