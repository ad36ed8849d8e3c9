package org.perfab.cli;

import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * The significance level and the smallest change that matters, as every command that takes them
 * names them: {@code --alpha} and {@code --min-effect}, with the verdict rules' defaults (0.05 and
 * 3%), checked as the rules check them ({@code ThresholdSettings}).
 */
final class EffectOptions {
    @Option(
            names = "--alpha",
            paramLabel = "P",
            description = "Significance level of the test, in (0, 1) (default: 0.05).")
    Double alpha;

    @Option(
            names = "--min-effect",
            paramLabel = "PCT",
            description = "Smallest change in percent that matters: a regression or improvement must reach it"
                    + " (default: 3).")
    Double minEffect;

    /** Returns the level given; empty for the rules' default. */
    Optional<Double> alpha() {
        return Optional.ofNullable(alpha);
    }

    /** Returns the smallest change given; empty for the rules' default. */
    Optional<Double> minEffect() {
        return Optional.ofNullable(minEffect);
    }
}
