package org.perfab.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.perfab.failure.BadInputException;
import org.perfab.failure.RunFailedException;
import org.perfab.model.WholeFile;
import picocli.CommandLine.Model.CommandSpec;

/** Where a command's text goes: standard output or a file, written whole; and whether it may be coloured. */
final class Output {
    private Output() {}

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
