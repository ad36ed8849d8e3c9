package org.perfab.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.perfab.series.Nightly;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code perfab series base}. */
@Command(
        name = "base",
        mixinStandardHelpOptions = true,
        description = {
            "Print the base the latest run of the series was measured against, one line, so that a"
                    + " nightly can pin its A/B's base to it and the series moves base only when told to. Prints"
                    + " nothing (and exits 0) for a missing or empty series, or a run of unknown base."
        })
final class SeriesBaseCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--series", required = true, paramLabel = "FILE", description = "The series.")
    Path series;

    @Override
    public Integer call() {
        Optional<String> base = Nightly.base(series);
        PrintWriter out = spec.commandLine().getOut();
        base.ifPresent(out::println);
        out.flush();
        return ExitCode.OK;
    }
}
