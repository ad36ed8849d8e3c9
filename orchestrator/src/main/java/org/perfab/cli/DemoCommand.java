package org.perfab.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.perfab.ab.AbRequest;
import org.perfab.ab.AbRun;
import org.perfab.ab.RunSettings;
import org.perfab.demo.DemoRepository;
import org.perfab.exec.Processes;
import org.perfab.failure.BadInputException;
import org.perfab.model.RunResults;
import org.perfab.report.Format;
import org.perfab.report.Products;
import org.perfab.report.Report;
import org.perfab.stats.Caveat;
import org.perfab.stats.Comparison;
import org.perfab.stats.ThresholdSettings;
import org.perfab.stats.Verdict;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code perfab demo}: the embedded default run. */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = {
            "Create a small git project whose feature branch makes one benchmark about 8%%"
                    + " slower and another faster, run a real 'perfab ab' of main against it, and print"
                    + " the result; while a cell is undecided it runs more trials. Needs nothing but Java; takes one"
                    + " to three minutes (--budget bounds its trials)."
        })
final class DemoCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    private final Session session;

    @Mixin
    Verbosity verbosity;

    @Option(
            names = "--dir",
            paramLabel = "DIR",
            description = "Where to create the demo project (default: a new temporary folder).")
    Path dir;

    @Option(
            names = "--trials",
            paramLabel = "N",
            description = "Counted trials per side (default: " + Preset.DEMO_TRIALS + ").")
    Integer trials;

    @Option(
            names = "--max-trials",
            paramLabel = "N",
            description = "Adaptive trials: while a cell is undecided after a round, run another, up to N per side"
                    + " (default: " + Preset.DEMO_MAX_TRIALS + "; the value of --trials turns it off).")
    Integer maxTrials;

    @Option(
            names = "--budget",
            paramLabel = "DURATION",
            converter = OptionValues.Budget.class,
            description = "The time the trials may take in all; no round of adaptive trials starts that would pass it"
                    + " (default: " + Preset.DEMO_BUDGET
                    + ", so that the demo ends within about three minutes on a busy machine).")
    Duration budget;

    @Mixin
    FormatOption<Report> format = FormatOption.dependingOnTerminal(Products.AB, Format.TEXT, Format.MARKDOWN);

    @Option(names = "--aa", description = "Run an A/A instead: main against itself, to see the noise floor.")
    boolean aa;

    @Option(
            names = "--pin",
            negatable = true,
            defaultValue = "true",
            fallbackValue = "true",
            description = "Pin the trials to CPU 0 with taskset where it exists (default: pin). A shared"
                    + " machine's CPUs are rarely equal, and a trial measures the one it lands on.")
    boolean pin;

    @Option(
            names = "--create-only",
            description = "Only create the demo project, print where it is and the command that measures it.")
    boolean createOnly;

    DemoCommand(Session session) {
        this.session = session;
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        RunSettings settings = RunSettings.given(
                        Optional.ofNullable(trials),
                        Optional.empty(),
                        Optional.ofNullable(maxTrials),
                        Optional.ofNullable(budget),
                        Optional.empty(),
                        ThresholdSettings.NONE)
                .over(Preset.DEMO.settings());
        int first = settings.trials().orElseThrow().value();
        int most = settings.adaptive().orElseThrow().value();
        Path root = dir == null ? Files.createTempDirectory("perfab-demo-") : dir;
        if (Files.exists(root.resolve(".git"))) {
            throw new BadInputException(root + " already holds a git repository; give an empty --dir");
        }
        Path repo = root.resolve("project");
        Path out = root.resolve("perfab-out");
        PrintStream err = new PrintStream(new WriterStream(spec.commandLine().getErr()), true, StandardCharsets.UTF_8);
        if (!createOnly && onPath("java").isEmpty()) {
            throw new BadInputException("the demo's build and harness run 'java' from PATH, and there is none"
                    + (session.env().get("JAVA_HOME") == null ? "" : "; add $JAVA_HOME/bin to PATH"));
        }
        Optional<String> cpus = pin ? onPath("taskset").map(t -> "0") : Optional.empty();
        DemoRepository.create(repo, cpus);
        err.println("perfab: demo project in " + repo + ": main and a feature branch that changes"
                + " src/demo/Subject.java");
        if (createOnly) {
            spec.commandLine().getOut().println(repo);
            spec.commandLine().getOut().flush();
            err.println("perfab: next, measure the feature branch against main:");
            String perfab = session.env().getOrDefault("PERFAB_COMMAND", "perfab");
            err.println("  " + shellWord(perfab) + " ab --repo " + shellWord(repo.toString()) + " --base main --head "
                    + (aa ? "main" : "feature") + " --out " + shellWord(out.toString()) + " --trials " + first
                    + (most > first ? " --adaptive " + most : " --adaptive off"));
            return ExitCode.OK;
        }
        // Up to the first round's trials, adaptive trials are off.
        AbRequest request = AbRequest.of(repo, "main", aa ? "main" : "feature", out)
                .settings(settings)
                .adaptive(Optional.of(most > first ? most : 0))
                .build();
        RunResults results = AbRun.run(request, session.run(err, verbosity.level(spec)));
        format.emit(session, session.report(Report.of(results)));
        RunResults.Timing t = results.timing();
        err.printf(
                Locale.ROOT,
                "perfab: %.0f s in all: %.0f s building, %.0f s in trials, %.1f s perfab's own%n",
                t.total(),
                t.build(),
                t.trials(),
                t.overhead() + t.checkout());
        if (!aa) {
            tooNoisy(results, PLANTED).ifPresent(err::println);
        }
        err.println("perfab: the results are in " + out + " (results.json, comment.md, report.html, trials.jsonl,"
                + " logs/)");
        return ExitCode.OK;
    }

    /** A path as one word a shell reads back unchanged. */
    private static String shellWord(String s) {
        return s.matches("[A-Za-z0-9_./+:-]+") ? s : "'" + s.replace("'", "'\\''") + "'";
    }

    /** The cell the demo's feature branch makes about 8% slower. */
    static final String PLANTED = "bytes/checksum";

    /**
     * What to tell a new user when the run could not show the demo's planted slowdown: how much
     * the trials varied, and the smallest change they could have confirmed; empty when it showed.
     */
    static Optional<String> tooNoisy(RunResults results, String planted) {
        return results.table().rows().stream()
                .filter(r -> r.cell().name().equals(planted))
                .findFirst()
                .filter(r -> r.comparison().verdict() != Verdict.REGRESSION)
                .map(r -> {
                    Comparison c = r.comparison();
                    String said = String.format(
                            Locale.ROOT,
                            "perfab: the feature branch makes %s about 8%% slower, and this run did not show it: ",
                            planted);
                    if (c.verdict() == Verdict.NO_DATA) {
                        return said + "the cell has too few trials on a side to compare (see the trials' logs).";
                    }
                    double detectable = c.detectable(results.table().thresholds());
                    String spread = String.format(
                            Locale.ROOT,
                            "its trials varied by %.1f%% (main) and %.1f%% (feature)",
                            c.base().cv(),
                            c.head().cv());
                    if (c.verdict() == Verdict.IMPROVEMENT) {
                        return said + "it came out faster, " + spread + ". Something else on this machine changed"
                                + " between the sides' trials; run it again.";
                    }
                    String could = Double.isFinite(detectable)
                            ? String.format(
                                    Locale.ROOT,
                                    ", so %d trials per side could miss a change of up to %.1f%%",
                                    Math.min(c.base().n(), c.head().n()),
                                    detectable)
                            : "";
                    String why = c.caveats().contains(Caveat.SPLIT)
                            ? "; and its trials fell into two groups, a busy machine's two speeds"
                            : c.caveats().contains(Caveat.ONE_SIDED)
                                    ? "; and some trials of"
                                            + " one side lay far from the rest, which may be the machine or the change"
                                    : "";
                    return said + "this machine was too noisy: " + spread + could + why + ". perfab says "
                            + (c.verdict() == Verdict.NOISY
                                    ? "too noisy to tell"
                                    : c.verdict().id())
                            + " rather than guess. On a quieter machine, with the"
                            + " trials pinned to a quiet CPU, or with --trials 20 --max-trials 60, it shows.";
                });
    }

    /** Returns where {@code program} is on the session's PATH ({@link Processes#find}); empty where it is not. */
    private Optional<Path> onPath(String program) {
        return Processes.find(program, session.env());
    }
}
