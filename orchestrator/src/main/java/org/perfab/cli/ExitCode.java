package org.perfab.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystemException;
import org.perfab.failure.BadInputException;
import org.perfab.failure.RunFailedException;
import org.perfab.failure.RunInterruptedException;
import picocli.CommandLine;

/** The exit codes of perfab, one table for every command. */
final class ExitCode implements CommandLine.IExitCodeExceptionMapper {
    /** The command ran, whatever the verdicts: the check is advisory. */
    static final int OK = 0;
    /** {@code --fail-on} was given and a cell has that verdict: the only verdict-driven failure. */
    static final int VERDICT = 1;
    /** Bad usage or bad input: an option, a file, a ref. */
    static final int BAD_INPUT = 2;
    /** A build, git or harness failure that left no comparable data. */
    static final int RUN_FAILED = 3;
    /** A bug in perfab. */
    static final int INTERNAL = 4;
    /** Stopped by SIGINT, as a shell reports it (128 + 2), after writing what was done. */
    static final int INTERRUPTED = 130;

    @Override
    public int getExitCode(Throwable t) {
        return of(t);
    }

    static int of(Throwable t) {
        if (t instanceof BadInputException || t instanceof CommandLine.ParameterException) {
            return BAD_INPUT;
        }
        // A signal stopped the run: as a shell reports a command SIGINT ended, where the JVM outlives it.
        if (t instanceof RunInterruptedException) {
            return INTERRUPTED;
        }
        // The environment: a build or harness that failed, a full or failing disk, too little memory.
        if (t instanceof RunFailedException
                || t instanceof IOException
                || t instanceof UncheckedIOException
                || t instanceof OutOfMemoryError) {
            return RUN_FAILED;
        }
        return INTERNAL;
    }

    /** Returns what to print for {@code t}, which ended a command with {@link #of}'s code. */
    static String message(Throwable t) {
        if (t instanceof OutOfMemoryError) {
            return "out of memory (" + Runtime.getRuntime().maxMemory() / (1024 * 1024) + " MiB of heap); give perfab"
                    + " more with JAVA_TOOL_OPTIONS=-Xmx4g, or give it less to hold at once";
        }
        if (t instanceof UncheckedIOException u) {
            return message(u.getCause());
        }
        if (t instanceof FileSystemException f) {
            return "cannot write or read " + f.getFile()
                    + (f.getOtherFile() == null ? "" : " (" + f.getOtherFile() + ")") + ": "
                    + (f.getReason() == null ? f.getClass().getSimpleName() : f.getReason());
        }
        if (t instanceof IOException) {
            return "input/output failed: " + t.getMessage();
        }
        return String.valueOf(t.getMessage());
    }
}
