package org.perfab.cli;

import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.perfab.model.SeriesCheck;
import org.perfab.model.SeriesImport;
import org.perfab.model.SeriesReplay;
import org.perfab.report.Format;
import org.perfab.report.Products;
import org.perfab.report.SiteRenderer;
import org.perfab.series.Nightly;
import org.perfab.series.SeriesSite;
import org.perfab.stats.SeriesRules;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code perfab series}: a nightly series of ratios, kept as a CSV in the repository, that reports
 * a ratio stepping past its own noise or drifting over ten days. It reports and never fails. The
 * work is {@link Nightly}'s; each subcommand parses, calls it and renders.
 */
@Command(
        name = "series",
        mixinStandardHelpOptions = true,
        synopsisSubcommandLabel = "COMMAND",
        description = {
            "A nightly series of ratios (date,run,commit,cpu,key,ratio,base,time), committed in the repository:"
                    + " record tonight's ratios, and report the ratios that step past their own noise or drift over ten"
                    + " days. Exits 0 whatever it finds."
        },
        subcommands = {
            SeriesRecordCommand.class,
            SeriesCommand.Import.class,
            SeriesCommand.Check.class,
            SeriesReplayCommand.class,
            SeriesNoiseCommand.class,
            SeriesBaseCommand.class,
            SeriesSiteCommand.class,
            SeriesCommand.Demo.class
        })
final class SeriesCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCode.BAD_INPUT;
    }

    /** {@code perfab series import}, formerly {@code perfab series merge}, which still runs it. */
    @Command(
            name = "import",
            aliases = "merge",
            mixinStandardHelpOptions = true,
            description = {
                "Import another history of the same series into it (a wiki page's, say), without"
                        + " duplicates: a run and key the series holds keeps its own ratio. The series' rows and columns"
                        + " stay as they are; the other's rows are added at the end, in its order, and its columns the"
                        + " series lacks at the right. Formerly 'perfab series merge', which still runs it.",
                "With --on or --drop-run, the runs dropped are left out of both histories: the series file is"
                        + " written without them, its own rows of them included. Each is named on standard error."
            },
            footer = {
                "",
                "It prints the readings added, those already there and those whose ratio differs from the"
                        + " series' own (the series' is kept). With --format github it prints a ::warning per reading whose"
                        + " ratio differs, appends the Markdown section to $GITHUB_STEP_SUMMARY, and writes added=,"
                        + " already=, conflicting= and dropped= to $GITHUB_OUTPUT."
            })
    static final class Import implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        private final Session session;

        @Option(
                names = "--series",
                required = true,
                paramLabel = "FILE",
                description = "The series (created when missing).")
        Path series;

        @Option(
                names = "--from",
                required = true,
                paramLabel = "FILE",
                description = "The other history, a series CSV.")
        Path from;

        @Mixin
        CurationOptions curate = new CurationOptions();

        @Mixin
        FormatOption<SeriesImport> format = new FormatOption<>(Products.SERIES_IMPORT, Format.TEXT);

        Import(Session session) {
            this.session = session;
        }

        @Override
        public Integer call() {
            SeriesImport imported = Nightly.importHistory(
                    series, from, curate.curation(), LocalDate.now(session.clock()), Output::replace);
            curate.report(spec.commandLine().getErr(), imported.curation());
            format.emit(session, imported);
            return ExitCode.OK;
        }
    }

    /** {@code perfab series check}. */
    @Command(
            name = "check",
            mixinStandardHelpOptions = true,
            description = {
                "Check the latest run (or --run) against the readings before it, and print its movements:"
                        + " new ones, then those persisting. Exits 0 whatever it finds."
            },
            footer = {
                "",
                "With --format github it prints a ::warning per new movement, appends the Markdown section"
                        + " to $GITHUB_STEP_SUMMARY, and writes new= and persisting= to $GITHUB_OUTPUT."
            })
    static final class Check implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        private final Session session;

        @Option(names = "--series", required = true, paramLabel = "FILE", description = "The series.")
        Path series;

        @Option(names = "--run", paramLabel = "ID", description = "The run to check (default: the latest).")
        String run;

        @Option(
                names = "--rules",
                paramLabel = "SPEC",
                converter = OptionValues.Rules.class,
                description = OptionValues.Rules.DESCRIPTION)
        SeriesRules.Options rules = SeriesRules.Options.DEFAULT;

        @Mixin
        OutputOptions<SeriesCheck> output = new OutputOptions<>(Products.SERIES_CHECK, Format.TEXT);

        Check(Session session) {
            this.session = session;
        }

        @Override
        public Integer call() {
            output.emit(session, Nightly.check(series, Optional.ofNullable(run), rules));
            return ExitCode.OK;
        }
    }

    /** {@code perfab series demo}. */
    @Command(
            name = "demo",
            mixinStandardHelpOptions = true,
            description = {
                "Build a synthetic nightly series with the noise of hosted runners (23 runs, 120 keys) and"
                        + " three regressions: a step from 0.97 to 1.72 on 2026-09-01, a drift of +21%% over the ten days to"
                        + " 2026-08-31 with no night past the step rule, and a step from 2.18 to 4.82 on 2026-08-26; and"
                        + " on 2026-09-13 a processor model no earlier run had. Replay the rules over it and print the"
                        + " table, following the three keys, and write the series' site (see 'series site'), where each"
                        + " key's chart shows its catches. With --series, also write the series, to try 'check' on."
            })
    static final class Demo implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        private final Session session;

        @Option(names = "--series", paramLabel = "FILE", description = "Write the series to FILE (replaced).")
        Path series;

        @Option(
                names = "--site",
                paramLabel = "DIR",
                description = "Write the site into DIR (default: NAME-site"
                        + " beside the --series file NAME.csv, else perfab-series-demo).")
        Path site;

        @Option(
                names = "--seed",
                paramLabel = "N",
                defaultValue = "1",
                description = "The noise's seed (default: ${DEFAULT-VALUE}).")
        long seed;

        @Mixin
        OutputOptions<SeriesReplay> output = new OutputOptions<>(Products.SERIES_REPLAY, Format.TEXT);

        Demo(Session session) {
            this.session = session;
        }

        @Override
        public Integer call() {
            SeriesReplay replay = Nightly.demo(seed, Optional.ofNullable(series), Output::replace);
            output.emit(session, replay);
            if (series != null) {
                spec.commandLine()
                        .getErr()
                        .println("perfab: wrote the series to " + series + "; try 'perfab series"
                                + " check --series " + series + " --run nightly-2026-09-01' (the step's night) or"
                                + " 'perfab series replay --series " + series + " --rules step=25'");
            }
            Path dir = site != null
                    ? site
                    : series == null
                            ? Path.of("perfab-series-demo")
                            : series.resolveSibling(
                                    series.getFileName().toString().replaceFirst("\\.csv$", "") + "-site");
            spec.commandLine().getErr().println(SiteLine.of(SeriesSite.demo(seed, SiteRenderer::files, dir)));
            return ExitCode.OK;
        }
    }
}
