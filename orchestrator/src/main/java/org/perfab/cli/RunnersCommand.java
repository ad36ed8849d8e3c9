package org.perfab.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.perfab.failure.BadInputException;
import org.perfab.model.ResultsJson;
import org.perfab.model.RunResults;
import org.perfab.model.RunnerTable;
import org.perfab.report.Format;
import org.perfab.report.Products;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code perfab runners}: one A/B across runner classes, as one table. Formerly {@code perfab
 * merge}, which still runs it.
 */
@Command(
        name = "runners",
        aliases = "merge",
        mixinStandardHelpOptions = true,
        description = {
            "Put the results of one A/B run on several machines (runner classes) side by side in one"
                    + " table: a row per cell, the change and verdict on each runner, and the consensus. A change"
                    + " significantly worse on two runners or more is flagged for a bisect before release, even below"
                    + " the bar, unless every one of them ran one build per side: agreeing runs of one build rule out"
                    + " the runner, not the build. The same run given twice is refused. Formerly 'perfab merge', which"
                    + " still runs it."
        },
        footer = {
            "",
            "Example:",
            "  perfab runners ubuntu-latest/results.json ubuntu-22.04/results.json"
                    + " arm/results.json --format markdown >> \"$GITHUB_STEP_SUMMARY\""
        })
final class RunnersCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    private final Session session;

    @Parameters(arity = "1..*", paramLabel = "RESULTS", description = "The results.json of each runner (two or more).")
    List<Path> results;

    @Mixin
    OutputOptions<RunnerTable> output = new OutputOptions<>(Products.RUNNERS, Format.TEXT);

    RunnersCommand(Session session) {
        this.session = session;
    }

    @Override
    public Integer call() {
        if (results.size() < 2) {
            // picocli's own words for a missing second file name the options that follow it instead.
            throw new ParameterException(
                    spec.commandLine(),
                    "perfab runners needs the results.json of two runners or more; got one: " + results.get(0));
        }
        List<RunResults> runs = new ArrayList<>();
        for (Path file : results) {
            RunResults run = ResultsJson.read(file);
            if (run.sharding().isPresent() && !run.sharding().get().merged()) {
                // Runners of one A/B measured the same cells; shards measured disjoint ones. A
                // runner's shards merged ('perfab report ... --format json') are one run.
                throw new BadInputException(file + " is one shard's results (perfab ab --shard): the shards of one"
                        + " runner merge into its one run with 'perfab report SHARD-RESULTS... --format json -o"
                        + " RUNNER.json', which perfab runners takes");
            }
            runs.add(run);
        }
        RunnerTable table;
        try {
            table = RunnerTable.of(runs, results.stream().map(Path::toString).toList());
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e.getMessage(), e);
        }
        output.emit(session, table);
        return ExitCode.OK;
    }
}
