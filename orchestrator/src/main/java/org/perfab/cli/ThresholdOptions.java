package org.perfab.cli;

import java.util.Optional;
import org.perfab.stats.ThresholdSettings;
import org.perfab.stats.Thresholds;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The verdict rules' settings, shared by every command that classifies. */
final class ThresholdOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--alpha", paramLabel = "P",
            description = "Significance level of Welch's test, in (0, 1) (default: 0.05).")
    Double alpha;

    @Option(names = "--min-effect", paramLabel = "PCT",
            description = "Smallest change in percent a regression or improvement must reach (default: 3).")
    Double minEffect;

    @Option(names = "--inconclusive", paramLabel = "PCT",
            description = "Change in percent at which an unconfirmed move for the worse is inconclusive,"
                    + " not unchanged; at least --min-effect (default: 10).")
    Double inconclusive;

    @Option(names = "--fdr", paramLabel = "Q|off",
            description = "Judge the cells together: a cell is significant only when its Benjamini-Hochberg adjusted p"
                    + " is under Q, in (0, 1), so that about Q of the changes flagged are flukes; off judges each cell"
                    + " on its own p (default: together, at alpha).")
    String fdr;

    /**
     * Returns the settings given on the command line, each checked on its own.
     *
     * @throws ParameterException naming the option when a value is out of range
     */
    ThresholdSettings overrides() {
        if (alpha != null && !(alpha > 0 && alpha < 1)) {
            throw new ParameterException(spec.commandLine(),
                    "--alpha must be between 0 and 1 (exclusive), got " + alpha);
        }
        if (minEffect != null && (!(minEffect >= 0) || Double.isInfinite(minEffect))) {
            throw new ParameterException(spec.commandLine(),
                    "--min-effect must be a percentage >= 0, got " + minEffect);
        }
        if (inconclusive != null && (!(inconclusive >= 0) || Double.isInfinite(inconclusive))) {
            throw new ParameterException(spec.commandLine(),
                    "--inconclusive must be a percentage >= 0, got " + inconclusive);
        }
        Optional<Double> rate = Optional.empty();
        if (fdr != null) {
            rate = Optional.of(fdr.equals("off") ? Thresholds.FDR_OFF : rate(fdr));
        }
        return new ThresholdSettings(Optional.ofNullable(alpha), Optional.ofNullable(minEffect),
                Optional.ofNullable(inconclusive), rate);
    }

    private double rate(String text) {
        double q;
        try {
            q = Double.parseDouble(text);
        } catch (NumberFormatException e) {
            q = Double.NaN;
        }
        if (!(q > 0 && q < 1)) {
            throw new ParameterException(spec.commandLine(), "--fdr must be between 0 and 1 (exclusive), or off, got '"
                    + text + "'");
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
        double min = o.minEffect().orElse(Thresholds.DEFAULT.minEffect());
        double inc = o.inconclusive().orElse(Thresholds.DEFAULT.inconclusive());
        if (inc < min) {
            throw new ParameterException(spec.commandLine(), "--inconclusive must be >= --min-effect ("
                    + min + "), got " + inc);
        }
        return o.over(Thresholds.DEFAULT);
    }
}
