package org.perfab.cli;

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
            description = "Significance level of Welch's test, in (0, 1) (default: ${DEFAULT-VALUE}).",
            defaultValue = "0.05")
    double alpha;

    @Option(names = "--min-effect", paramLabel = "PCT",
            description = "Smallest change in percent a regression or improvement must reach "
                    + "(default: ${DEFAULT-VALUE}).",
            defaultValue = "3")
    double minEffect;

    @Option(names = "--inconclusive", paramLabel = "PCT",
            description = "Change in percent at which an unconfirmed move for the worse is "
                    + "inconclusive, not unchanged; at least --min-effect (default: ${DEFAULT-VALUE}).",
            defaultValue = "10")
    double inconclusive;

    /**
     * Returns the thresholds the options give.
     *
     * @throws ParameterException naming the option when a value is out of range
     */
    Thresholds thresholds() {
        if (!(alpha > 0 && alpha < 1)) {
            throw new ParameterException(spec.commandLine(),
                    "--alpha must be between 0 and 1 (exclusive), got " + alpha);
        }
        if (!(minEffect >= 0) || Double.isInfinite(minEffect)) {
            throw new ParameterException(spec.commandLine(),
                    "--min-effect must be a percentage >= 0, got " + minEffect);
        }
        if (!(inconclusive >= minEffect) || Double.isInfinite(inconclusive)) {
            throw new ParameterException(spec.commandLine(), "--inconclusive must be >= --min-effect ("
                    + minEffect + "), got " + inconclusive);
        }
        return new Thresholds(alpha, minEffect, inconclusive);
    }
}
