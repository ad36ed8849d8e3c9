package org.perfab.cli;

import java.util.Optional;
import java.util.function.Supplier;
import org.perfab.ab.RunSettings;
import org.perfab.stats.ThresholdSettings;
import org.perfab.stats.Thresholds;
import org.perfab.stats.TrialTest;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The verdict rules' settings, shared by every command that classifies. */
final class ThresholdOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Mixin
    EffectOptions effect = new EffectOptions();

    @Option(
            names = "--inconclusive",
            paramLabel = "PCT",
            description = "Change in percent at which an unconfirmed move for the worse is inconclusive,"
                    + " not unchanged; at least --min-effect (default: 10).")
    Double inconclusive;

    @Option(
            names = "--fdr",
            paramLabel = "Q|off",
            description = "Judge the cells together: a cell is significant only when its Benjamini-Hochberg adjusted p"
                    + " is under Q, in (0, 1), so that about Q of the changes flagged are flukes; off judges each cell"
                    + " on its own p (default: together, at alpha).")
    String fdr;

    @Option(
            names = "--outlier-floor",
            paramLabel = "PCT",
            description = "The least distance from its side's median, in percent, at which a trial can be far and set"
                    + " aside (it must also lie past 5 robust spreads) (default: the min effect).")
    Double outlierFloor;

    @Option(
            names = "--noisy-above",
            paramLabel = "PCT",
            description = "An unchanged cell whose minimum detectable change is above this many percent is noted as"
                    + " underpowered: its trials could have missed such a change (default: the min effect).")
    Double noisyAbove;

    @Option(
            names = "--test",
            paramLabel = "welch|paired|auto",
            description = "The test that judges a run's trials: welch (each side's trials as independent samples),"
                    + " paired (the interleaved order's pairs, which cancel what the runner did slowly), or auto"
                    + " (pairs where the run's cells show the runner moved both trials of a pair alike). Welch judges"
                    + " wherever trials do not pair (default: auto; a saved run, the test it was judged with).")
    String test;

    /**
     * Returns the settings given on the command line, each checked on its own (by
     * {@link ThresholdSettings}).
     *
     * @throws ParameterException naming the option when a value is out of range
     */
    ThresholdSettings overrides() {
        Optional<Double> rate = Optional.empty();
        if (fdr != null) {
            rate = Optional.of(fdr.equals("off") ? Thresholds.FDR_OFF : rate(fdr));
        }
        Optional<Double> q = rate;
        Optional<TrialTest> t = Optional.empty();
        if (test != null) {
            try {
                t = Optional.of(TrialTest.fromId(test));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--test: " + e.getMessage());
            }
        }
        Optional<TrialTest> chosen = t;
        return checked(
                spec,
                () -> new ThresholdSettings(
                        effect.alpha(),
                        effect.minEffect(),
                        Optional.ofNullable(inconclusive),
                        q,
                        Optional.ofNullable(outlierFloor),
                        Optional.ofNullable(noisyAbove),
                        chosen));
    }

    /**
     * Returns what {@code make} makes, a setting out of range named by its option as a usage error
     * of the command {@code spec}.
     */
    static <T> T checked(CommandSpec spec, Supplier<T> make) {
        try {
            return make.get();
        } catch (Thresholds.Invalid e) {
            throw new ParameterException(spec.commandLine(), e.byOption());
        }
    }

    private double rate(String text) {
        double q;
        try {
            q = Double.parseDouble(text);
        } catch (NumberFormatException e) {
            q = Double.NaN;
        }
        if (Double.isNaN(q)) {
            throw new ParameterException(
                    spec.commandLine(), "--fdr must be between 0 and 1 (exclusive), or off, got '" + text + "'");
        }
        return q;
    }

    /**
     * Returns the thresholds the options give, the defaults filling in.
     *
     * @throws ParameterException naming the option when a value is out of range
     */
    Thresholds thresholds() {
        ThresholdSettings o = overrides();
        return checked(spec, () -> RunSettings.given(o).verdictRules());
    }
}
