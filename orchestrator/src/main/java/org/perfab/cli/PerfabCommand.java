package org.perfab.cli;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The top-level {@code perfab} command: dispatches to a subcommand, or prints usage. */
@Command(
        name = "perfab",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description = "Same-runner A/B benchmarks with statistical verdicts.",
        synopsisSubcommandLabel = "COMMAND",
        footer = {
            "",
            "Exit codes:",
            "  0  ran, whatever the verdicts (the check is advisory)",
            "  1  a cell has a verdict named by --fail-on",
            "  2  bad usage or bad input",
            "  3  a build, git or harness failure left no comparable data",
            "  4  internal error"
        })
final class PerfabCommand implements Callable<Integer> {
    /**
     * The subcommands, in the order help lists them: added by {@link Main#commandLine}, which
     * builds only the one a run names (picocli reads every class of the others otherwise, a tenth of
     * a second on every run).
     */
    static final List<Class<?>> SUBCOMMANDS = List.of(
            AbCommand.class,
            CompareCommand.class,
            ReportCommand.class,
            PlanCommand.class,
            RunnersCommand.class,
            BisectCommand.class,
            SeriesCommand.class,
            BaselineCommand.class,
            CalibrateCommand.class,
            DemoCommand.class,
            GithubCommand.class,
            CompletionCommand.class);

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCode.BAD_INPUT;
    }
}
