package org.perfab.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.perfab.ab.RunSettings;
import org.perfab.calibrate.Calibrate;
import org.perfab.demo.ProcessCalibration;
import org.perfab.model.CalibrationFigures;
import org.perfab.model.Simulation;
import org.perfab.report.CalibrateRenderer;
import org.perfab.report.Format;
import org.perfab.report.Products;
import org.perfab.stats.Calibration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code perfab calibrate}: how often the verdicts are right, on the noise of shared runners. */
@Command(
        name = "calibrate",
        mixinStandardHelpOptions = true,
        description = {
            "Measure how often perfab's verdicts are right: simulated trials with the noise of shared"
                    + " runners (normal, log-normal, outlier trials, a heavy tail, drift within a run, code layout),"
                    + " every way of judging a cell on the same draws, adaptive trials, and suites of many cells with and"
                    + " without --fdr; then real A/B runs on this machine of commits that slow a subject by 3, 5 and 10%%"
                    + " and of an A/A. Prints the false-alarm rate (effect 0%%), the share of runs that find a slowdown,"
                    + " and perfab's own share of a run's time. On a 2-core machine, quiet to busy, it takes 35 minutes to"
                    + " an hour (--quick: 10 to 20 minutes), nearly all of it the real runs. Everything is printed once,"
                    + " at the end, in --format; meanwhile standard error shows the simulation's targets as soon as it is"
                    + " done, then a line per real run."
        })
final class CalibrateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    private final Session session;

    @Option(
            names = "--quick",
            description = "A first look: 300 simulated runs per case and 12 real A/B runs of each effect.")
    boolean quick;

    @Option(
            names = "--runs",
            paramLabel = "N",
            description = "Simulated runs per case (default: 2000, about a minute in all; 300 with --quick, seconds).")
    Integer runs;

    @Option(
            names = "--seed",
            paramLabel = "S",
            defaultValue = "1",
            description = "The seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(
            names = "--noise",
            paramLabel = "KIND",
            split = ",",
            description =
                    "Only these noises: normal, lognormal, outliers, heavy_tail, heavy_tail_10, partial, partial_exact, split,"
                            + " drift, layout.")
    List<Calibration.Noise> noises;

    @Option(
            names = "--ab-runs",
            paramLabel = "K",
            description = "Real A/B runs of each effect (0, 3, 5, 10%%) on"
                    + " this machine, after the simulation, 10 to 30 s each (12 s on a quiet 2-core machine); 0 for none"
                    + " (default: 40, or 12 with --quick).")
    Integer abRuns;

    @Option(
            names = "--dir",
            paramLabel = "DIR",
            description = "Where the real runs' repository and results go (default: a new temporary folder, kept).")
    Path dir;

    @Mixin
    OutputOptions<CalibrationFigures> output = new OutputOptions<>(Products.CALIBRATE, Format.TEXT);

    CalibrateCommand(Session session) {
        this.session = session;
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        Calibrate.Request request;
        try {
            request = new Calibrate.Request(
                    runs != null ? runs : quick ? 300 : 2000,
                    seed,
                    noises == null ? List.of() : noises,
                    abRuns != null ? abRuns : quick ? 12 : 40,
                    Optional.ofNullable(dir),
                    RunSettings.NONE.verdictRules());
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        Path folder =
                output.output == null ? null : output.output.toAbsolutePath().getParent();
        if (folder != null && !Files.isDirectory(folder)) {
            // Said now, not after an hour of runs: everything is written at the end.
            throw new ParameterException(spec.commandLine(), "-o " + output.output + ": there is no folder " + folder);
        }
        PrintWriter err = spec.commandLine().getErr();
        // The calibration says a line per run itself, not the progress of each run's trials.
        PrintStream quiet = new PrintStream(new WriterStream(err), true, StandardCharsets.UTF_8);
        output.emit(session, Calibrate.run(request, session.run(quiet, Progress.Level.QUIET), new Lines(err)));
        return ExitCode.OK;
    }

    /** Words what the calibration tells as it goes, a line each on standard error. */
    private record Lines(PrintWriter err) implements Calibrate.Listener {
        @Override
        public void simulated(Simulation simulation) {
            CalibrateRenderer.headlines(simulation).forEach(this::say);
        }

        @Override
        public void started(Path root, int runs, int trials) {
            say("real A/B runs in " + root + ": " + runs + " of each effect, " + trials + " trials per side");
        }

        @Override
        public void ran(ProcessCalibration.Ran run) {
            say(String.format(
                    Locale.ROOT,
                    "run %d of %d (%s): target %s, %.0f s",
                    run.done(),
                    run.total(),
                    run.effect() == 0 ? "A/A" : "+" + run.effect() + "%",
                    run.target().id(),
                    run.seconds()));
        }

        private void say(String line) {
            err.println("perfab: " + line);
            err.flush();
        }
    }
}
