package org.perfab.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.perfab.failure.BadInputException;
import org.perfab.failure.RunFailedException;
import org.perfab.model.WholeFile;
import org.perfab.report.Format;
import org.perfab.workload.Durations;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** Where a command's rendering goes: standard output or a file, and GitHub's step files. */
final class Output {
    private Output() {
    }

    /**
     * Renders {@code value} in the format {@code option} chose, whole, then prints it or writes it
     * to {@code file}; text is coloured only for a terminal. With {@link Format#GITHUB} the
     * annotations are printed, and the Markdown is published to the step ({@link GithubActions}),
     * and written to {@code markdown}, else to {@code file}, when one is given.
     */
    static <T> void emit(CommandSpec spec, FormatOption<T> option, T value, Optional<Path> file,
            Optional<Path> markdown) {
        boolean terminal = System.console() != null;
        Format format = option.format(terminal && file.isEmpty());
        String rendered = option.product().renderer(format, file.isEmpty() && colour(PerfabCommand.env(spec), terminal))
                .render(value);
        if (format == Format.GITHUB) {
            GithubActions.publish(option.product(), value, markdown.or(() -> file), PerfabCommand.env(spec));
            print(spec, rendered, null);
            return;
        }
        print(spec, rendered, file.orElse(null));
    }

    /**
     * Returns whether what perfab prints may be coloured: on a {@code terminal} (standard output not
     * a pipe or a file), unless {@code NO_COLOR} is set and not empty (no-color.org) or {@code TERM}
     * is {@code dumb}; {@code FORCE_COLOR} or {@code CLICOLOR_FORCE} (set, not empty, not 0) colour a
     * pipe too.
     */
    static boolean colour(Map<String, String> env, boolean terminal) {
        if (!env.getOrDefault("NO_COLOR", "").isEmpty()) {
            return false;
        }
        for (String force : List.of("FORCE_COLOR", "CLICOLOR_FORCE")) {
            String v = env.getOrDefault(force, "");
            if (!v.isEmpty() && !v.equals("0")) {
                return true;
            }
        }
        return terminal && !"dumb".equals(env.get("TERM"));
    }

    /** Returns the day a {@code --date} option names, ISO; today in UTC when it names none. */
    static LocalDate day(CommandSpec spec, String date) {
        try {
            return date == null ? LocalDate.now(ZoneOffset.UTC) : LocalDate.parse(date);
        } catch (DateTimeParseException e) {
            throw new ParameterException(spec.commandLine(), "--date '" + date + "' is not an ISO date (2026-09-01)");
        }
    }

    /**
     * Returns the time a {@code --budget} option names (90s, 20m, 1h); empty when it names none.
     *
     * @throws ParameterException naming the option when it is not a duration
     */
    static Optional<Duration> budget(CommandSpec spec, String text) {
        if (text == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(Durations.parse("--budget", text));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    /**
     * Returns the most trials per side an {@code --adaptive} option gives, 0 for {@code off}; empty
     * when it is not given.
     *
     * @throws ParameterException naming the option when it is neither
     */
    static Optional<Integer> adaptive(CommandSpec spec, String text) {
        if (text == null) {
            return Optional.empty();
        }
        if (text.equals("off")) {
            return Optional.of(0);
        }
        try {
            int most = Integer.parseInt(text);
            if (most >= 2) {
                return Optional.of(most);
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new ParameterException(spec.commandLine(), "--adaptive must be off or the most trials per side, got '"
                + text + "'");
    }

    /**
     * Writes {@code text} to {@code file} whole, through a file beside it moved over it, so that a
     * reader (or a killed run) never leaves half a file; makes the folder when it is missing.
     */
    static void replace(Path file, String text) {
        Path tmp = file.resolveSibling(file.getFileName() + ".perfab-tmp");
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            WholeFile.write(file, tmp, text);
        } catch (IOException e) {
            throw cannotWrite(file.toString(), e);
        }
    }

    /** Writes {@code text} to {@code file}, or prints it when {@code file} is null. */
    static void print(CommandSpec spec, String text, Path file) {
        if (file == null) {
            spec.commandLine().getOut().print(text);
            spec.commandLine().getOut().flush();
            return;
        }
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw cannotWrite(file.toString(), e);
        }
    }

    /**
     * Returns the failure to write {@code what}: bad input (exit 2) when the path is wrong (no such
     * folder, a folder in its place, no permission), the environment (exit 3) when the disk failed
     * (full, an input/output error).
     */
    static RuntimeException cannotWrite(String what, IOException e) {
        if (e instanceof FileSystemException) {
            return new BadInputException(what + ": cannot write: " + ExitCode.message(e), e);
        }
        return new RunFailedException(what + ": cannot write: " + e.getMessage(), e);
    }
}
