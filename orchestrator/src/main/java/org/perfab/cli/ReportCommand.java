package org.perfab.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.perfab.compare.Compare;
import org.perfab.failure.BadInputException;
import org.perfab.model.ResultsJson;
import org.perfab.model.RunResults;
import org.perfab.model.Shards;
import org.perfab.report.Format;
import org.perfab.report.Products;
import org.perfab.report.Report;
import org.perfab.stats.ThresholdSettings;
import org.perfab.stats.TrialTest;
import org.perfab.stats.Verdict;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code perfab report RESULTS.json}: render a saved run. */
@Command(
        name = "report",
        mixinStandardHelpOptions = true,
        description = {
            "Render a saved run (the results.json of 'perfab ab') as the pull-request"
                    + " comment, GitHub annotations, an HTML report, JSON or a terminal table. Given the results of the"
                    + " shards of one A/B ('perfab ab --shard K/N'), it merges them into one run: every cell judged"
                    + " together, each row naming its shard; a shard missing, failed, stopped early or unreadable is"
                    + " named in the headline, and what it did not measure is a row 'not measured', counted as"
                    + " inconclusive."
        },
        footer = {
            "",
            "With --format github it also writes comment.md beside RESULTS (or to -o), appends it to"
                    + " $GITHUB_STEP_SUMMARY and writes regressions=, inconclusive= and comment= to $GITHUB_OUTPUT."
        })
final class ReportCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    private final Session session;

    @Parameters(
            arity = "1..*",
            paramLabel = "RESULTS",
            description = "A results.json written by 'perfab ab', or those of the shards of one A/B.")
    List<Path> results;

    @Option(
            names = "--fail-on",
            paramLabel = "VERDICT",
            completionCandidates = FailOn.Names.class,
            description = "Exit 1 when a cell has this verdict: regression or inconclusive (of shards, as the merged"
                    + " table judges it; a shard without results fails either). Repeatable.")
    List<String> failOn = new ArrayList<>();

    @Option(
            names = "--test",
            paramLabel = "welch|paired|auto",
            description = "Judge the run again with this test:"
                    + " welch (each side's trials as independent samples), paired (the interleaved order's pairs) or auto"
                    + " (pairs where the run's cells show the runner moved both trials of a pair alike) (default: the test"
                    + " the run was judged with).")
    String test;

    @Mixin
    OutputOptions<Report> output =
            new OutputOptions<>(FormatOption.dependingOnTerminal(Products.AB, Format.TEXT, Format.MARKDOWN));

    ReportCommand(Session session) {
        this.session = session;
    }

    @Override
    public Integer call() throws IOException {
        // Of several files (the shards of one A/B), one that does not read is that shard unreadable,
        // and the others are merged without it; one file, or none that reads, is refused.
        List<RunResults> runs = new ArrayList<>();
        List<Path> read = new ArrayList<>();
        List<Shards.Unreadable> unreadable = new ArrayList<>();
        BadInputException firstFault = null;
        for (Path file : results) {
            try {
                runs.add(ResultsJson.read(file));
                read.add(file);
            } catch (BadInputException e) {
                if (results.size() == 1) {
                    throw e;
                }
                firstFault = firstFault == null ? e : firstFault;
                String why = e.getMessage().startsWith(file.toString())
                        ? e.getMessage()
                                .substring(file.toString().length())
                                .replaceFirst("^: ", "")
                                .replaceFirst("^:", "at ")
                        : e.getMessage();
                unreadable.add(ResultsJson.unreadable(file, why));
            }
        }
        if (runs.isEmpty()) {
            throw firstFault;
        }
        RunResults run = runs.get(0);
        if (results.size() > 1
                || run.sharding().map(s -> !s.merged() && s.count() > 1).orElse(false)) {
            for (int i = 0; i < runs.size(); i++) {
                if (runs.get(i).sharding().isEmpty()) {
                    throw new BadInputException(read.get(i) + " is not a shard's results (its run had no --shard):"
                            + " 'perfab report' takes one run, or the shards of one A/B; 'perfab runners' takes one A/B"
                            + " of several runners");
                }
            }
            try {
                run = Shards.merge(runs, read.stream().map(Path::toString).toList(), unreadable);
            } catch (IllegalArgumentException e) {
                throw new BadInputException(e.getMessage(), e);
            }
        }
        if (test != null) {
            TrialTest t;
            try {
                t = TrialTest.fromId(test);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--test: " + e.getMessage());
            }
            run = run.withTable(Compare.reclassify(run, ThresholdSettings.NONE.withTest(Optional.of(t)), List.of()));
        }
        List<Verdict> failing = FailOn.parse(spec, failOn);
        Report report = session.report(
                failing.isEmpty() ? Report.of(run) : Report.of(run).failingOn(failing));
        // A terminal gets the table; a pipe or a file gets the comment, as it always has.
        output.emit(
                session,
                report,
                Optional.of(
                        output.output != null
                                ? output.output
                                : results.get(0).toAbsolutePath().resolveSibling("comment.md")));
        return FailOn.exitCode(run.table(), failing);
    }
}
