package org.perfab.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.perfab.model.ResultsJson;
import org.perfab.report.Format;
import org.perfab.report.Products;
import org.perfab.report.Report;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code perfab report RESULTS.json}: render a saved run. */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Render a saved run (the results.json of 'perfab ab') as the pull-request"
                + " comment, GitHub annotations, an HTML report, JSON or a terminal table."},
        footer = {"", "With --format github it also writes comment.md beside RESULTS (or to -o), appends it to"
                + " $GITHUB_STEP_SUMMARY and writes regressions=, inconclusive= and comment= to $GITHUB_OUTPUT."})
final class ReportCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "RESULTS", description = "A results.json written by 'perfab ab'.")
    Path results;

    @Mixin
    OutputOptions<Report> output = new OutputOptions<>(FormatOption.dependingOnTerminal(Products.AB, Format.TEXT,
            Format.MARKDOWN));

    @Override
    public Integer call() throws IOException {
        Report report = Report.of(ResultsJson.read(results));
        // A terminal gets the table; a pipe or a file gets the comment, as it always has.
        output.emit(spec, report, Optional.of(output.output != null ? output.output
                : results.toAbsolutePath().resolveSibling("comment.md")));
        return ExitCode.OK;
    }
}
