package org.perfab.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.perfab.model.Series;
import org.perfab.model.SeriesCheck;
import org.perfab.model.SeriesFile;
import org.perfab.report.Format;
import org.perfab.report.Products;
import org.perfab.series.Nightly;
import org.perfab.stats.SeriesRules;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code perfab series record}. */
@Command(
        name = "record",
        mixinStandardHelpOptions = true,
        description = {
            "Add tonight's ratios to the series, then check tonight's run. Recording is idempotent per"
                    + " run and key, and happens only on the main branch: elsewhere tonight's ratios are checked"
                    + " against the series and nothing is written."
        })
final class SeriesRecordCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    private final Session session;

    @Option(
            names = "--series",
            required = true,
            paramLabel = "FILE",
            description = "The series (created when missing).")
    Path series;

    /** Where tonight's ratios come from: one of the two. */
    static final class Source {
        @Option(
                names = "--from",
                required = true,
                paramLabel = "RESULTS",
                description = "A results.json of"
                        + " 'perfab ab': each cell's ratio to the cell its workload names as 'ratio_to' (with --workload),"
                        + " else each cell's head/base ratio.")
        Path results;

        @Option(
                names = "--ratios",
                required = true,
                paramLabel = "CSV",
                description = "A CSV of ratios another tool wrote (a BenchmarkDotNet Ratio column, say).")
        Path csv;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Source source;

    @Option(
            names = "--workload",
            paramLabel = "FILE",
            description = "With --from: the workload whose cells name their baselines with 'ratio_to'.")
    Path workload;

    @Option(
            names = "--key-columns",
            paramLabel = "COLUMNS",
            split = ",",
            description = "With --ratios: the columns of the key, joined by '/' (default: key, else Method).")
    List<String> keyColumns;

    @Option(
            names = "--ratio-column",
            paramLabel = "COLUMN",
            description = "With --ratios: the column of the ratio (default: ratio, else Ratio).")
    String ratioColumn;

    @Option(
            names = "--date",
            paramLabel = "DATE",
            converter = OptionValues.Day.class,
            description = "The run's day, ISO (default: today, UTC).")
    LocalDate date;

    @Option(
            names = "--run",
            paramLabel = "ID",
            description = "The run's id (default: $GITHUB_RUN_ID, else when the results started, else the date).")
    String run;

    @Option(
            names = "--commit",
            paramLabel = "SHA",
            description = "The commit (default: the results' head, else $GITHUB_SHA).")
    String commit;

    @Option(
            names = "--base",
            paramLabel = "SHA",
            description = "What the ratios are relative to, recorded with"
                    + " each (default: with --from, the A/B's base commit for head/base ratios, none for ratios between two"
                    + " cells of one commit; with --ratios, none). A base that differs from a key's previous one starts a"
                    + " new segment: the rules never compare across it.")
    String base;

    @Option(
            names = "--cpu",
            paramLabel = "MODEL",
            description = "The processor model (default: the results' machine, else this one's).")
    String cpu;

    @Option(
            names = "--branch",
            paramLabel = "NAME",
            description = "The branch this run is on (default: GitHub's"
                    + " $GITHUB_HEAD_REF or $GITHUB_REF_NAME; none: record).")
    String branch;

    @Option(
            names = "--main",
            paramLabel = "NAME",
            defaultValue = "main",
            description = "The branch that records (default: ${DEFAULT-VALUE}).")
    String main;

    @Option(
            names = "--rules",
            paramLabel = "SPEC",
            converter = OptionValues.Rules.class,
            description = OptionValues.Rules.DESCRIPTION)
    SeriesRules.Options rules = SeriesRules.Options.DEFAULT;

    @Mixin
    OutputOptions<SeriesCheck> output = new OutputOptions<>(Products.SERIES_CHECK, Format.TEXT);

    SeriesRecordCommand(Session session) {
        this.session = session;
    }

    @Override
    public Integer call() {
        if (source.csv != null && workload != null) {
            throw new ParameterException(spec.commandLine(), "--workload goes with --from, not --ratios");
        }
        if (source.results != null && (keyColumns != null || ratioColumn != null)) {
            throw new ParameterException(spec.commandLine(), "--key-columns and --ratio-column go with --ratios");
        }
        if (base != null) {
            try {
                Series.checkBase(base);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--base: " + e.getMessage());
            }
        }
        Nightly.Source from = source.results != null
                ? new Nightly.AbResults(source.results, Optional.ofNullable(workload))
                : new Nightly.Ratios(
                        source.csv, keyColumns == null ? List.of() : keyColumns, Optional.ofNullable(ratioColumn));
        Nightly.Recorded r = Nightly.record(
                new Nightly.Recording(
                        series,
                        from,
                        date != null ? date : LocalDate.now(session.clock()),
                        session.clock().instant(),
                        Optional.ofNullable(run),
                        Optional.ofNullable(commit),
                        Optional.ofNullable(base),
                        Optional.ofNullable(cpu),
                        Optional.ofNullable(branch),
                        main,
                        rules,
                        session.env()),
                Output::replace);
        PrintWriter err = spec.commandLine().getErr();
        for (String s : r.skipped()) {
            err.println("perfab: left out " + s);
        }
        SeriesFile.Merge m = r.merged();
        String already = (m.already() == 0 ? "" : "; " + m.already() + " were there already")
                + (m.conflicting() == 0
                        ? ""
                        : "; " + m.conflicting() + " differ from the ratio the series holds"
                                + " for their run and key, which is kept");
        if (r.recorded()) {
            err.println("perfab: recorded " + m.added() + " ratio" + (m.added() == 1 ? "" : "s") + " of run " + r.run()
                    + " in " + series + already);
        } else {
            err.println("perfab: on branch " + r.branch() + ", not " + main + ": tonight's ratios are checked against "
                    + series + ", and nothing is recorded" + already);
        }
        err.flush();
        output.emit(session, r.check());
        return ExitCode.OK;
    }
}
