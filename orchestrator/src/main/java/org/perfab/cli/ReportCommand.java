package org.perfab.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.perfab.model.ResultsJson;
import org.perfab.report.Format;
import org.perfab.report.Report;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
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

    @Option(names = "--format", paramLabel = "FORMAT", converter = FormatConverter.class,
            description = "markdown, github, html, json or text (default: text on a terminal, else markdown).")
    Format format;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "Write to FILE instead of standard output (with github: where comment.md goes).")
    Path output;

    @Override
    public Integer call() throws IOException {
        Report report = Report.of(ResultsJson.read(results));
        // A terminal gets the table; a pipe or a file gets the comment, as it always has.
        Format chosen = format != null ? format : System.console() != null && output == null ? Format.TEXT
                : Format.MARKDOWN;
        Output.emit(spec, chosen, report, output,
                output != null ? output : results.toAbsolutePath().resolveSibling("comment.md"));
        return ExitCode.OK;
    }
}
