package org.perfab.cli;

import org.perfab.failure.BadInputException;
import org.perfab.failure.RunFailedException;
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

    @Override
    public int getExitCode(Throwable t) {
        return of(t);
    }

    static int of(Throwable t) {
        if (t instanceof BadInputException || t instanceof CommandLine.ParameterException) {
            return BAD_INPUT;
        }
        if (t instanceof RunFailedException) {
            return RUN_FAILED;
        }
        return INTERNAL;
    }
}
