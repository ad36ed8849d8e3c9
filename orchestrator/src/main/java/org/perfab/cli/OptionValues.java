package org.perfab.cli;

import java.time.Duration;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import org.perfab.model.Sharding;
import org.perfab.model.Snapshot;
import org.perfab.stats.SeriesRules;
import org.perfab.workload.Durations;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;

/**
 * The values of perfab's options that picocli does not read itself, each read once, as the command
 * line is parsed, by a converter named in the option ({@code converter = OptionValues.Budget.class}),
 * and refused in perfab's words: a refusal names its option and the value, and is said as it is
 * ({@link #refusal}), not behind picocli's "Invalid value for option".
 */
final class OptionValues {
    private OptionValues() {}

    /** A value an option does not take, in words that name the option. */
    static final class Refused extends TypeConversionException {
        private static final long serialVersionUID = 1L;

        Refused(String message) {
            super(message);
        }
    }

    /** Returns what to say of {@code e} when a converter here refused the value; empty otherwise. */
    static Optional<String> refusal(ParameterException e) {
        return e.getCause() instanceof Refused r ? Optional.of(r.getMessage()) : Optional.empty();
    }

    /** {@code --budget}: a duration (90s, 20m, 1h). */
    static final class Budget implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String text) {
            try {
                return Durations.parse("--budget", text);
            } catch (IllegalArgumentException e) {
                throw new Refused(e.getMessage());
            }
        }
    }

    /** {@code --adaptive}: the most trials per side, from 2, or {@code off} (0). */
    static final class Adaptive implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String text) {
            if (text.equals("off")) {
                return 0;
            }
            try {
                int most = Integer.parseInt(text);
                if (most >= 2) {
                    return most;
                }
            } catch (NumberFormatException e) {
                // said below
            }
            throw new Refused("--adaptive must be off or the most trials per side, got '" + text + "'");
        }
    }

    /** {@code --date}: a day, ISO. */
    static final class Day implements ITypeConverter<LocalDate> {
        @Override
        public LocalDate convert(String text) {
            try {
                return LocalDate.parse(text);
            } catch (DateTimeParseException e) {
                throw new Refused("--date '" + text + "' is not an ISO date (2026-09-01)");
            }
        }
    }

    /** {@code --rules}: a series' rules, NAME=VALUE between commas over the defaults. */
    static final class Rules implements ITypeConverter<SeriesRules.Options> {
        /** What help says of the option. */
        static final String DESCRIPTION = "The rules, NAME=VALUE between commas over the defaults: step=30 (%%),"
                + " noise=4 (times the key's noise; 0 for a flat step), drift=20 (%%, or off), window=5, recent=3,"
                + " days=10, min=3.";

        @Override
        public SeriesRules.Options convert(String text) {
            try {
                return SeriesRules.Options.parse(text);
            } catch (IllegalArgumentException e) {
                throw new Refused("--rules '" + text + "': " + e.getMessage());
            }
        }
    }

    /** {@code --arch}: an architecture, named Go's way (amd64 for x86_64). */
    static final class Arch implements ITypeConverter<String> {
        @Override
        public String convert(String text) {
            return Snapshot.arch(text)
                    .orElseThrow(() -> new Refused("--arch '" + text + "' is not an architecture"
                            + " perfab knows (amd64, arm64, 386, arm, riscv64, ...)"));
        }
    }

    /** {@code --shard}: the K-th of N slices of a suite. */
    static final class Shard implements ITypeConverter<Sharding.Shard> {
        @Override
        public Sharding.Shard convert(String text) {
            try {
                return Sharding.parse(text);
            } catch (IllegalArgumentException e) {
                throw new Refused("--shard: " + e.getMessage());
            }
        }
    }

    /**
     * Refuses a {@code percent} given as {@code option} that is not above 0 and finite.
     *
     * @throws ParameterException naming the option
     */
    static void aboveZero(CommandSpec spec, String option, double percent) {
        if (!(percent > 0) || Double.isInfinite(percent)) {
            throw new ParameterException(spec.commandLine(), option + " must be a percentage above 0, got " + percent);
        }
    }
}
