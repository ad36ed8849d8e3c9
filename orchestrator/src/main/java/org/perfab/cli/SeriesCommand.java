package org.perfab.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.perfab.ab.MachineProbe;
import org.perfab.demo.SyntheticSeries;
import org.perfab.failure.BadInputException;
import org.perfab.model.RunResults;
import org.perfab.model.Series;
import org.perfab.model.SeriesCheck;
import org.perfab.model.SeriesFile;
import org.perfab.model.SeriesReplay;
import org.perfab.report.SeriesRenderer;
import org.perfab.series.SeriesSources;
import org.perfab.stats.SeriesRules;
import org.perfab.workload.Workload;
import org.perfab.workload.WorkloadLoader;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code perfab series}: a nightly series of ratios, kept as a CSV in the repository, that reports
 * a ratio stepping past its own noise or drifting over ten days. It reports and never fails.
 */
@Command(name = "series", mixinStandardHelpOptions = true, synopsisSubcommandLabel = "COMMAND",
        description = {"A nightly series of ratios (date,run,commit,cpu,key,ratio), committed in the repository:"
                + " record tonight's ratios, and report the ratios that step past their own noise or drift over ten"
                + " days. Exits 0 whatever it finds."},
        subcommands = {SeriesCommand.Record.class, SeriesCommand.Merge.class, SeriesCommand.Check.class,
            SeriesCommand.Replay.class, SeriesCommand.Demo.class})
final class SeriesCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCode.BAD_INPUT;
    }

    /** The rules' settings as the options give them. */
    static SeriesRules.Options rules(CommandSpec spec, String text) {
        if (text == null) {
            return SeriesRules.Options.DEFAULT;
        }
        try {
            return SeriesRules.Options.parse(text);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--rules '" + text + "': " + e.getMessage());
        }
    }

    static final String RULES = "The rules, NAME=VALUE between commas over the defaults: step=30 (%%), noise=4 (times"
            + " the key's noise; 0 for a flat step), drift=20 (%%, or off), window=5, recent=3, days=10, min=3.";

    /** Returns the series file {@code file}; the empty one when the file does not exist and {@code missingOk}. */
    static SeriesFile read(Path file, boolean missingOk) {
        if (missingOk && !Files.exists(file)) {
            return SeriesFile.empty();
        }
        return SeriesFile.read(BadInputException.read(file), file.toString());
    }

    /**
     * Returns {@code file} with {@code more} added.
     *
     * @throws BadInputException naming {@code what} when the two disagree on a run's date
     */
    static SeriesFile.Merge add(SeriesFile file, SeriesFile more, String what) {
        try {
            return file.with(more);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(what + ": " + e.getMessage());
        }
    }

    /** Writes {@code series} to {@code file} whole, through a file beside it, so a reader never sees half. */
    static void write(SeriesFile series, Path file) {
        Output.replace(file, series.write());
    }

    /** Prints {@code check} as {@code form}; for GitHub also the job summary and the step's outputs. */
    static void emit(CommandSpec spec, SeriesCheck check, SeriesRenderer.Form form, Path output) {
        String text = SeriesRenderer.render(check, form);
        if (form == SeriesRenderer.Form.GITHUB) {
            Map<String, String> env = System.getenv();
            String markdown = SeriesRenderer.render(check, SeriesRenderer.Form.MARKDOWN);
            try {
                GithubActions.appendToSummary(env, "the series' movements", markdown, "'perfab series check --format"
                        + " markdown' prints them");
                String outputs = env.get("GITHUB_OUTPUT");
                if (outputs != null && !outputs.isBlank()) {
                    Files.writeString(Path.of(outputs), "new=" + check.newCount() + "\npersisting="
                            + (check.movements().size() - check.newCount()) + "\n", StandardCharsets.UTF_8,
                            StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                }
            } catch (IOException e) {
                throw Output.cannotWrite("GitHub's step files", e);
            }
        }
        Output.print(spec, text, output);
    }

    /** {@code perfab series record}. */
    @Command(name = "record", mixinStandardHelpOptions = true,
            description = {"Add tonight's ratios to the series, then check tonight's run. Recording is idempotent per"
                    + " run and key, and happens only on the main branch: elsewhere tonight's ratios are checked"
                    + " against the series and nothing is written."})
    static final class Record implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--series", required = true, paramLabel = "FILE", description = "The series (created when"
                + " missing).")
        Path series;

        /** Where tonight's ratios come from: one of the two. */
        static final class Source {
            @Option(names = "--from", required = true, paramLabel = "RESULTS", description = "A results.json of"
                    + " 'perfab ab': each cell's ratio to the cell its workload names as 'ratio_to' (with --workload),"
                    + " else each cell's head/base ratio.")
            Path results;

            @Option(names = "--ratios", required = true, paramLabel = "CSV", description = "A CSV of ratios another"
                    + " tool wrote (a BenchmarkDotNet Ratio column, say).")
            Path csv;
        }

        @ArgGroup(exclusive = true, multiplicity = "1")
        Source source;

        @Option(names = "--workload", paramLabel = "FILE", description = "With --from: the workload whose cells name"
                + " their baselines with 'ratio_to'.")
        Path workload;

        @Option(names = "--key-columns", paramLabel = "COLUMNS", split = ",", description = "With --ratios: the"
                + " columns of the key, joined by '/' (default: key, else Method).")
        List<String> keyColumns;

        @Option(names = "--ratio-column", paramLabel = "COLUMN", description = "With --ratios: the column of the"
                + " ratio (default: ratio, else Ratio).")
        String ratioColumn;

        @Option(names = "--date", paramLabel = "DATE", description = "The run's day, ISO (default: today, UTC).")
        String date;

        @Option(names = "--run", paramLabel = "ID", description = "The run's id (default: $GITHUB_RUN_ID, else"
                + " when the results started, else the date).")
        String run;

        @Option(names = "--commit", paramLabel = "SHA", description = "The commit (default: the results' head, else"
                + " $GITHUB_SHA).")
        String commit;

        @Option(names = "--cpu", paramLabel = "MODEL", description = "The processor model (default: the results'"
                + " machine, else this one's).")
        String cpu;

        @Option(names = "--branch", paramLabel = "NAME", description = "The branch this run is on (default: GitHub's"
                + " $GITHUB_HEAD_REF or $GITHUB_REF_NAME; none: record).")
        String branch;

        @Option(names = "--main", paramLabel = "NAME", defaultValue = "main", description = "The branch that records"
                + " (default: ${DEFAULT-VALUE}).")
        String main;

        @Option(names = "--rules", paramLabel = "SPEC", description = RULES)
        String rules;

        @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
                description = "text, json, markdown, github or count (default: ${DEFAULT-VALUE}).")
        SeriesRenderer.Form format;

        @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write the check to FILE.")
        Path output;

        @Override
        public Integer call() {
            SeriesRules.Options options = SeriesCommand.rules(spec, rules);
            if (source.csv != null && workload != null) {
                throw new ParameterException(spec.commandLine(), "--workload goes with --from, not --ratios");
            }
            if (source.results != null && (keyColumns != null || ratioColumn != null)) {
                throw new ParameterException(spec.commandLine(), "--key-columns and --ratio-column go with --ratios");
            }
            Map<String, String> env = System.getenv();
            LocalDate day = Output.day(spec, date);
            SeriesSources.Extract extract;
            if (source.results != null) {
                RunResults results = ReportCommand.read(source.results);
                SeriesSources.Stamp stamp = new SeriesSources.Stamp(day,
                        first(run, env.get("GITHUB_RUN_ID"), results.startedAt().toString()),
                        first(commit, results.provenance().head().commit()),
                        first(cpu, results.machine().cpu()));
                extract = workload == null ? SeriesSources.abRatios(results, stamp)
                        : SeriesSources.baselineRatios(results, workload(workload), stamp);
            } else {
                SeriesSources.Stamp stamp = new SeriesSources.Stamp(day, first(run, env.get("GITHUB_RUN_ID"),
                        day.toString()), first(commit, env.get("GITHUB_SHA"), ""),
                        first(cpu, MachineProbe.probe(env).cpu()));
                extract = SeriesSources.csvRatios(source.csv, keyColumns == null ? List.of() : keyColumns,
                        Optional.ofNullable(ratioColumn), stamp);
            }
            if (extract.readings().isEmpty()) {
                throw new BadInputException("no ratio to record" + (extract.skipped().isEmpty() ? ""
                        : ": " + String.join("; ", extract.skipped().subList(0, Math.min(3, extract.skipped().size())))));
            }
            PrintWriter err = spec.commandLine().getErr();
            for (String s : extract.skipped()) {
                err.println("perfab: left out " + s);
            }
            SeriesFile.Merge merged = SeriesCommand.add(SeriesCommand.read(series, true),
                    SeriesFile.of(extract.readings()), series + " and tonight's run");
            String on = first(branch, blankToNull(env.get("GITHUB_HEAD_REF")), env.get("GITHUB_REF_NAME"), "");
            boolean records = on.isEmpty() || on.equals(main);
            String tonight = extract.readings().get(0).run();
            if (records) {
                SeriesCommand.write(merged.file(), series);
                err.println("perfab: recorded " + merged.added() + " ratio" + (merged.added() == 1 ? "" : "s")
                        + " of run " + tonight + " in " + series + already(merged));
            } else {
                err.println("perfab: on branch " + on + ", not " + main + ": tonight's ratios are checked against "
                        + series + ", and nothing is recorded" + already(merged));
            }
            err.flush();
            SeriesCommand.emit(spec, SeriesCheck.of(merged.file().series(), tonight, options), format, output);
            return ExitCode.OK;
        }

        private static String already(SeriesFile.Merge m) {
            return (m.already() == 0 ? "" : "; " + m.already() + " were there already")
                    + (m.conflicting() == 0 ? "" : "; " + m.conflicting() + " differ from the ratio the series holds"
                            + " for their run and key, which is kept");
        }

        private static Workload workload(Path file) {
            return WorkloadLoader.parse(BadInputException.read(file), file.toString());
        }
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    private static String first(String... candidates) {
        for (String c : candidates) {
            if (c != null && !c.isBlank()) {
                return c;
            }
        }
        return "";
    }

    /** {@code perfab series merge}. */
    @Command(name = "merge", mixinStandardHelpOptions = true,
            description = {"Fold another history of the same series into it (a wiki page's, say), without"
                    + " duplicates: a run and key the series holds keeps its own ratio. The series' rows and columns"
                    + " stay as they are; the other's rows are added at the end, in its order, and its columns the"
                    + " series lacks at the right."})
    static final class Merge implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--series", required = true, paramLabel = "FILE", description = "The series (created when"
                + " missing).")
        Path series;

        @Option(names = "--from", required = true, paramLabel = "FILE", description = "The other history, a series"
                + " CSV.")
        Path from;

        @Override
        public Integer call() {
            SeriesFile.Merge merged = SeriesCommand.add(SeriesCommand.read(series, true),
                    SeriesCommand.read(from, false), series + " and " + from);
            SeriesCommand.write(merged.file(), series);
            PrintWriter out = spec.commandLine().getOut();
            out.println("perfab: merged " + from + " into " + series + ": " + merged.added() + " reading"
                    + (merged.added() == 1 ? "" : "s") + " added, " + merged.already() + " already there"
                    + (merged.conflicting() == 0 ? "" : ", " + merged.conflicting() + " whose ratio differs from the"
                            + " series' own (kept)") + "; " + merged.file().series().runs().size() + " runs in all");
            out.flush();
            return ExitCode.OK;
        }
    }

    /** {@code perfab series check}. */
    @Command(name = "check", mixinStandardHelpOptions = true,
            description = {"Check the latest run (or --run) against the readings before it, and print its movements:"
                    + " new ones, then those persisting. Exits 0 whatever it finds."},
            footer = {"", "With --format github it prints a ::warning per new movement, appends the Markdown section"
                    + " to $GITHUB_STEP_SUMMARY, and writes new= and persisting= to $GITHUB_OUTPUT."})
    static final class Check implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--series", required = true, paramLabel = "FILE", description = "The series.")
        Path series;

        @Option(names = "--run", paramLabel = "ID", description = "The run to check (default: the latest).")
        String run;

        @Option(names = "--rules", paramLabel = "SPEC", description = RULES)
        String rules;

        @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
                description = "text, json, markdown, github or count (default: ${DEFAULT-VALUE}).")
        SeriesRenderer.Form format;

        @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write to FILE.")
        Path output;

        @Override
        public Integer call() {
            SeriesRules.Options options = SeriesCommand.rules(spec, rules);
            Series s = SeriesCommand.read(series, false).series();
            List<String> runs = s.runs();
            if (runs.isEmpty()) {
                throw new BadInputException(series + ": the series has no readings");
            }
            String which = run == null ? runs.get(runs.size() - 1) : run;
            if (!runs.contains(which)) {
                throw new BadInputException(series + ": no run '" + which + "' (the latest is '"
                        + runs.get(runs.size() - 1) + "')");
            }
            SeriesCommand.emit(spec, SeriesCheck.of(s, which, options), format, output);
            return ExitCode.OK;
        }
    }

    /** {@code perfab series replay}. */
    @Command(name = "replay", mixinStandardHelpOptions = true,
            description = {"Replay the rules run by run over the whole series, for each --rules given (by default the"
                    + " six the thresholds were chosen from), and print how many movements each headlines as new, in"
                    + " all and per full run, and the first run each --key was caught on."})
    static final class Replay implements Callable<Integer> {
        /** The settings the decided rules were measured against. */
        static final List<String> SEED = List.of("step=15,noise=0,drift=off", "step=30,noise=0,drift=off",
                "drift=off", "step=30,noise=4,drift=20", "step=20,noise=4,drift=20", "step=30,noise=4,drift=30");

        @Spec
        CommandSpec spec;

        @Option(names = "--series", required = true, paramLabel = "FILE", description = "The series.")
        Path series;

        @Option(names = "--rules", paramLabel = "SPEC", description = "A setting to replay; give several."
                + " " + RULES)
        List<String> rules;

        @Option(names = "--key", paramLabel = "KEY[=DATE]", description = "A key to follow: the first run its"
                + " movement was caught on; with a DATE, the day its change appeared, so that an earlier catch shows"
                + " as noise.")
        List<String> keys;

        @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
                description = "text, markdown or json (default: ${DEFAULT-VALUE}).")
        SeriesRenderer.ReplayForm format;

        @Override
        public Integer call() {
            List<SeriesRules.Options> options = new ArrayList<>();
            for (String r : rules == null ? SEED : rules) {
                options.add(SeriesCommand.rules(spec, r));
            }
            List<SeriesReplay.Watch> watch = new ArrayList<>();
            for (String k : keys == null ? List.<String>of() : keys) {
                int eq = k.lastIndexOf('=');
                Optional<LocalDate> since = Optional.empty();
                String key = k;
                if (eq > 0) {
                    try {
                        since = Optional.of(LocalDate.parse(k.substring(eq + 1)));
                        key = k.substring(0, eq);
                    } catch (DateTimeParseException e) {
                        since = Optional.empty();
                    }
                }
                watch.add(new SeriesReplay.Watch(key, since));
            }
            Series s = SeriesCommand.read(series, false).series();
            for (SeriesReplay.Watch w : watch) {
                if (s.readings().stream().noneMatch(r -> r.key().equals(w.key()))) {
                    throw new BadInputException(series + ": no key '" + w.key() + "'");
                }
            }
            spec.commandLine().getOut().print(SeriesRenderer.render(SeriesReplay.of(s, options, watch), format));
            spec.commandLine().getOut().flush();
            return ExitCode.OK;
        }
    }

    /** {@code perfab series demo}. */
    @Command(name = "demo", mixinStandardHelpOptions = true,
            description = {"Build a synthetic nightly series with the noise of hosted runners (23 runs, 120 keys) and"
                    + " three regressions: a step from 0.97 to 1.72 on 2026-09-01, a drift of +21%% over the ten days to"
                    + " 2026-08-31 with no night past the step rule, and a step from 2.18 to 4.82 on 2026-08-26; and"
                    + " on 2026-09-13 a processor model no earlier run had. Replay the rules over it and print the"
                    + " table, following the three keys. With --series, also write it, to try 'check' on."})
    static final class Demo implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--series", paramLabel = "FILE", description = "Write the series to FILE (replaced).")
        Path series;

        @Option(names = "--seed", paramLabel = "N", defaultValue = "1", description = "The noise's seed (default:"
                + " ${DEFAULT-VALUE}).")
        long seed;

        @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
                description = "text, markdown or json (default: ${DEFAULT-VALUE}).")
        SeriesRenderer.ReplayForm format;

        @Override
        public Integer call() {
            Series s = SyntheticSeries.make(seed);
            List<SeriesRules.Options> options = Replay.SEED.stream().map(SeriesRules.Options::parse).toList();
            List<SeriesReplay.Watch> watch = List.of(
                    new SeriesReplay.Watch(SyntheticSeries.STEP, Optional.of(LocalDate.of(2026, 9, 1))),
                    new SeriesReplay.Watch(SyntheticSeries.DRIFT, Optional.of(LocalDate.of(2026, 8, 24))),
                    new SeriesReplay.Watch(SyntheticSeries.BIG_STEP, Optional.of(LocalDate.of(2026, 8, 26))));
            spec.commandLine().getOut().print(SeriesRenderer.render(SeriesReplay.of(s, options, watch), format));
            spec.commandLine().getOut().flush();
            if (series != null) {
                write(SeriesFile.of(s.readings()), series);
                spec.commandLine().getErr().println("perfab: wrote the series to " + series + "; try 'perfab series"
                        + " check --series " + series + " --run nightly-2026-09-01' (the step's night) or"
                        + " 'perfab series replay --series " + series + " --rules step=25'");
            }
            return ExitCode.OK;
        }
    }
}
