package org.perfab.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** {@code --quiet} and {@code --verbose}: how much a command that runs trials says as it goes. */
final class Verbosity {
    @Option(
            names = {"-q", "--quiet"},
            description = "No progress on standard error: only errors, and what the"
                    + " command prints (warnings are in the report).")
    boolean quiet;

    @Option(
            names = {"-v", "--verbose"},
            description = "Also each trial's commands as they start: the command,"
                    + " the folder it runs in and its log files.")
    boolean verbose;

    /** Returns the level asked for; both options together are refused. */
    Progress.Level level(CommandSpec spec) {
        if (quiet && verbose) {
            throw new ParameterException(spec.commandLine(), "--quiet and --verbose: give one of them");
        }
        return quiet ? Progress.Level.QUIET : verbose ? Progress.Level.VERBOSE : Progress.Level.NORMAL;
    }
}
