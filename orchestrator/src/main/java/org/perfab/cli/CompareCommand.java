package org.perfab.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.perfab.compare.Compare;
import org.perfab.ingest.CsvFormat;
import org.perfab.ingest.Formats;
import org.perfab.ingest.MeasurementFormat;
import org.perfab.model.ComparisonTable;
import org.perfab.model.ResultsJson;
import org.perfab.model.RunResults;
import org.perfab.report.Format;
import org.perfab.report.Products;
import org.perfab.report.Report;
import org.perfab.stats.Verdict;
import org.perfab.workload.CellGlob;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code perfab compare BASE HEAD}: classify two files of measurements. */
@Command(
        name = "compare",
        mixinStandardHelpOptions = true,
        description = {
            "Classify every cell of two files of measurements, like benchstat; each file in any format"
                    + " perfab reads (--format-in lists them), detected from its content. A cell repeated in a file is one"
                    + " more trial. Cells match on name and metric; a cell on one side only is reported as 'no data'."
        },
        footer = {
            "",
            "Example:",
            "  perfab compare base.json head.json",
            "  perfab compare --min-effect 1 perfab-out/results.json",
            "  perfab compare --min-effect 1 --cell 'publish/**:throughput' --fail-on regression perfab-out/results.json",
            "  perfab compare --base old-1.txt old-2.txt --head new-1.txt new-2.txt",
            "  perfab compare --format markdown --profile 'batched/*:p50' base.json head.json"
        })
final class CompareCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    private final Session session;

    @Mixin
    ThresholdOptions thresholds;

    @Parameters(
            arity = "0..2",
            paramLabel = "FILE",
            description = "BASE and HEAD measurement files; or one results.json of 'perfab ab', to classify"
                    + " its measurements again (with other thresholds, say).")
    List<Path> files = new ArrayList<>();

    @Option(
            names = "--base",
            paramLabel = "FILE",
            arity = "1..*",
            description = "Baseline files, several allowed (like go test -count runs); with --head.")
    List<Path> baseFiles = new ArrayList<>();

    @Option(names = "--head", paramLabel = "FILE", arity = "1..*", description = "Candidate files, several allowed.")
    List<Path> headFiles = new ArrayList<>();

    @Option(
            names = "--csv-columns",
            paramLabel = "FIELD=COLUMN,...",
            description = "For csv input: which column holds what, e.g. cell=name,value=ns_per_op,unit=ns"
                    + " (fields: cell, value, metric, unit, direction; a name that is not a column is the"
                    + " value itself). Implies --format-in csv.")
    String csvColumns;

    @Option(
            names = "--format-in",
            paramLabel = "FORMAT",
            completionCandidates = InputFormats.class,
            description = "The format of the input files (default: detected from each file): ${COMPLETION-CANDIDATES}.")
    String formatIn;

    @Mixin
    OutputOptions<Report> output = new OutputOptions<>(Products.AB, Format.TEXT);

    @Option(
            names = "--profile",
            paramLabel = "GLOB",
            description = "Cells shown but never classified (NAME or NAME:METRIC; * within a "
                    + "path segment, ** across). Repeatable.")
    List<String> profiles = new ArrayList<>();

    @Option(
            names = "--cell",
            paramLabel = "GLOB",
            description = "Show only the cells that match (NAME or NAME:METRIC; * within a path segment, ** across),"
                    + " each judged as among all the cells; --fail-on reads only these. Repeatable.")
    List<String> cells = new ArrayList<>();

    @Option(
            names = "--fail-on",
            paramLabel = "VERDICT",
            completionCandidates = FailOn.Names.class,
            description = "Exit 1 when a cell has this verdict: regression or inconclusive. "
                    + "Repeatable. Without it the exit code never depends on the verdicts.")
    List<String> failOn = new ArrayList<>();

    private CsvFormat.Columns columns(String mapping) {
        try {
            return CsvFormat.Columns.parse(mapping);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--csv-columns: " + e.getMessage() + " (FIELD=COLUMN pairs, FIELD one of "
                            + String.join(", ", CsvFormat.Columns.FIELDS) + ")");
        }
    }

    private List<CellGlob> globs(String option, List<String> patterns) {
        List<CellGlob> globs = new ArrayList<>();
        for (String p : patterns) {
            try {
                globs.add(CellGlob.of(p));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), option + ": " + e.getMessage());
            }
        }
        return globs;
    }

    /** Returns {@code table}, having warned of each --profile pattern that matches none of its cells. */
    private ComparisonTable unmatched(ComparisonTable table, List<CellGlob> profiles) {
        for (CellGlob g : profiles) {
            if (table.rows().stream().noneMatch(r -> g.matches(r.cell()))) {
                spec.commandLine()
                        .getErr()
                        .println("perfab: warning: --profile '" + g + "' matches no cell, so every"
                                + " cell is judged (the cells: "
                                + table.rows().stream()
                                        .limit(5)
                                        .map(r ->
                                                r.cell().name() + ":" + r.cell().metric())
                                        .collect(Collectors.joining(", "))
                                + (table.rows().size() > 5 ? ", ..." : "") + ")");
            }
        }
        return table;
    }

    /** Refuses a file given twice on one side: its values would count as two runs' trials. */
    private void once(String side, List<Path> given) {
        Set<Path> seen = new HashSet<>();
        for (Path p : given) {
            Path real;
            try {
                real = p.toRealPath();
            } catch (IOException e) {
                real = p.toAbsolutePath().normalize(); // reading it says what is wrong
            }
            if (!seen.add(real)) {
                throw new ParameterException(
                        spec.commandLine(),
                        side + " gives " + p + " twice: its values would"
                                + " count twice as many trials; give each run's file once");
            }
        }
    }

    CompareCommand(Session session) {
        this.session = session;
    }

    @Override
    public Integer call() throws IOException {
        List<CellGlob> globs = globs("--profile", profiles);
        List<CellGlob> only = globs("--cell", cells);
        List<Verdict> failing = FailOn.parse(spec, failOn);
        Optional<MeasurementFormat> in = Optional.empty();
        if (formatIn != null) {
            in = Optional.of(Formats.byId(formatIn)
                    .orElseThrow(() -> new ParameterException(
                            spec.commandLine(),
                            "--format-in: unknown format '" + formatIn + "' (known: " + Formats.names() + ")")));
        }
        if (csvColumns != null) {
            in = Optional.of(new CsvFormat(columns(csvColumns)));
        }
        if (!baseFiles.isEmpty() || !headFiles.isEmpty()) {
            if (baseFiles.isEmpty() || headFiles.isEmpty() || !files.isEmpty()) {
                throw new ParameterException(
                        spec.commandLine(), "give --base FILE... and --head FILE... together, or BASE HEAD, not both");
            }
        } else if (files.isEmpty()) {
            throw new ParameterException(
                    spec.commandLine(), "Missing required parameters: BASE HEAD (or RESULTS.json)");
        } else if (files.size() > 2) {
            throw new ParameterException(
                    spec.commandLine(),
                    "two files expected, BASE and HEAD (or one"
                            + " RESULTS.json), got " + files.size()
                            + "; for several files a side, --base FILE... --head"
                            + " FILE...");
        } else if (files.size() == 2) {
            baseFiles = List.of(files.get(0));
            headFiles = List.of(files.get(1));
        }
        once("--base", baseFiles);
        once("--head", headFiles);
        Report report;
        ComparisonTable table;
        if (baseFiles.isEmpty()) {
            RunResults saved = ResultsJson.read(files.get(0));
            table = Compare.only(unmatched(Compare.reclassify(saved, thresholds.overrides(), globs), globs), only);
            report = session.report(Report.of(saved.withTable(table)).failingOn(failing));
        } else {
            table = Compare.only(
                    unmatched(
                            Compare.table(
                                    new Compare.Request(baseFiles, headFiles, in, thresholds.thresholds(), globs)),
                            globs),
                    only);
            report = session.report(Report.of(table).failingOn(failing));
        }
        List<Path> given = baseFiles.isEmpty() ? List.of(files.get(0)) : concat(baseFiles, headFiles);
        report.noComparison().ifPresent(none -> {
            spec.commandLine()
                    .getErr()
                    .println("perfab: warning: "
                            + (baseFiles.isEmpty()
                                    ? files.get(0)
                                    : "base " + joined(baseFiles) + ", head " + joined(headFiles))
                            + ": " + none);
            spec.commandLine().getErr().flush();
        });
        try {
            // Note: --format github wrote the comment to ./comment.md unasked; it is written where -o says, or not at
            // all.
            output.emit(session, report);
        } catch (OutOfMemoryError e) {
            // The table fitted and its rendering did not: the inputs are still what is too big.
            table = null;
            report = null;
            throw Compare.tooBig(given);
        }
        return FailOn.exitCode(table, failing);
    }

    private static String joined(List<Path> files) {
        return files.stream().map(Path::toString).collect(Collectors.joining(", "));
    }

    private static List<Path> concat(List<Path> a, List<Path> b) {
        List<Path> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
