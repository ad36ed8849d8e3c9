package org.perfab.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.function.DoubleUnaryOperator;
import org.perfab.ab.AbRun;
import org.perfab.ab.Events;
import org.perfab.demo.ProcessCalibration;
import org.perfab.failure.BadInputException;
import org.perfab.model.Side;
import org.perfab.report.Format;
import org.perfab.report.Report;
import org.perfab.stats.Calibration;
import org.perfab.stats.Thresholds;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code perfab calibrate}: how often the verdicts are right, on the noise of shared runners. */
@Command(name = "calibrate", mixinStandardHelpOptions = true,
        description = {"Measure how often perfab's verdicts are right: simulated trials with the noise of shared"
                + " runners (normal, log-normal, outlier trials, a heavy tail, drift within a run, code layout),"
                + " every way of judging a cell on the same draws, adaptive trials, and suites of many cells with and"
                + " without --fdr; then real A/B runs on this machine of commits that slow a subject by 3, 5 and 10%%"
                + " and of an A/A. Prints the false-alarm rate (effect 0%%), the share of runs that find a slowdown,"
                + " and perfab's own share of a run's time. On a 2-core machine, quiet to busy, it takes 35 minutes to"
                + " an hour (--quick: 10 to 20 minutes), nearly all of it the real runs."})
final class CalibrateCommand implements Callable<Integer> {
    private static final double[] EFFECTS = {0, 2, 3, 5, 10};
    /** The commits of the real runs: the slowdown each makes, in percent; 0 is the A/A. */
    private static final List<Integer> REAL_EFFECTS = List.of(0, 3, 5, 10);

    @Spec
    CommandSpec spec;

    @Option(names = "--quick", description = "A first look: 300 simulated runs per case and 12 real A/B runs of"
            + " each effect.")
    boolean quick;

    @Option(names = "--runs", paramLabel = "N", description = "Simulated runs per case (default: 2000, about a"
            + " minute in all; 300 with --quick, seconds).")
    Integer runs;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "The seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--noise", paramLabel = "KIND", split = ",",
            description = "Only these noises: normal, lognormal, outliers, heavy_tail, heavy_tail_10, partial, split,"
                    + " drift, layout.")
    List<Calibration.Noise> noises;

    @Option(names = "--ab-runs", paramLabel = "K", description = "Real A/B runs of each effect (0, 3, 5, 10%%) on"
            + " this machine, after the simulation, 10 to 30 s each (12 s on a quiet 2-core machine); 0 for none"
            + " (default: 40, or 12 with --quick).")
    Integer abRuns;

    @Option(names = "--dir", paramLabel = "DIR", description = "Where the real runs' repository and results go"
            + " (default: a new temporary folder, kept).")
    Path dir;

    @Override
    public Integer call() throws IOException, InterruptedException {
        int k = abRuns != null ? abRuns : quick ? 12 : 40;
        if (k < 0 || k > 1000) {
            throw new ParameterException(spec.commandLine(), "--ab-runs must be from 0 to 1000, got " + k);
        }
        int n = runs != null ? runs : quick ? 300 : 2000;
        Thresholds t = Thresholds.DEFAULT;
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "perfab calibrate: %d simulated runs per case, seed %d. Each cell: the"
                + " share of runs judged a regression, in percent (at 0%%: false alarms), and in brackets the share"
                + " judged inconclusive. Alpha %s, bar %s%%.%n", n, seed, t.alpha(), t.minEffect()));
        Random random = new Random(seed);
        Map<List<Object>, Map<Calibration.Method, Calibration.Rates>> seen = new java.util.HashMap<>();
        for (Calibration.Noise noise : noises == null ? List.of(Calibration.Noise.values()) : noises) {
            out.append("\nnoise: ").append(noise.label()).append('\n');
            out.append(String.format(Locale.ROOT, "%-4s %3s  %-26s %28s %10s  %s%n", "", "", "",
                    "at 0%: regression (incon.)", "", "found (inconclusive) at a true slowdown of"));
            out.append(String.format(Locale.ROOT, "%-4s %3s  %-26s %13s %7s %6s %10s", "cv", "n", "method", "",
                    "improv.", "noisy", "no change*"));
            for (double e : EFFECTS) {
                if (e > 0) {
                    out.append(String.format(Locale.ROOT, " %13s", (int) e + "%"));
                }
            }
            out.append('\n');
            for (double cv : new double[] {1, 3, 10}) {
                for (int trials : new int[] {5, 10, 20}) {
                    Map<Calibration.Method, StringBuilder> lines = new EnumMap<>(Calibration.Method.class);
                    for (Calibration.Method m : Calibration.Method.values()) {
                        lines.put(m, new StringBuilder(String.format(Locale.ROOT, "%-4s %3d  %-26s", (int) cv + "%",
                                trials, m.label())));
                    }
                    for (double e : EFFECTS) {
                        Map<Calibration.Method, Calibration.Rates> rates = Calibration.run(
                                new Calibration.Case(noise, cv, trials, e), n, random, t);
                        seen.put(List.of(noise, cv, trials, e), rates);
                        rates.forEach((m, r) -> {
                            StringBuilder l = lines.get(m).append(String.format(Locale.ROOT, " %5.1f (%5.1f)",
                                    r.regression(), r.inconclusive()));
                            if (e == 0) {
                                l.append(String.format(Locale.ROOT, " %7.1f %6.1f %10.1f", r.improvement(), r.noisy(),
                                        r.falseNoChange()));
                            }
                        });
                    }
                    lines.values().forEach(l -> out.append(l).append('\n'));
                }
            }
        }
        targets(out, seen);
        out.append("\n* no change: the share of runs whose row says \"no change\" although one side had far trials"
                + " and the other none (a slowdown that hits only some trials hides there).\n");
        out.append("\nAdaptive trials (--trials 5 --adaptive 20) against 5 and 20 trials per side, on the same draws,"
                + " each judged by perfab's rule: regressions (inconclusive) in percent, and the trials per side"
                + " adaptive trials took\n");
        out.append(String.format(Locale.ROOT, "%-17s %3s  %-12s", "noise", "cv", "trials"));
        for (double e : EFFECTS) {
            out.append(String.format(Locale.ROOT, " %13s", (int) e + "%"));
        }
        out.append('\n');
        for (Calibration.Noise noise : List.of(Calibration.Noise.NORMAL, Calibration.Noise.OUTLIERS,
                Calibration.Noise.HEAVY_TAIL_10)) {
            if (noises != null && !noises.contains(noise)) {
                continue;
            }
            for (double cv : new double[] {1, 3, 10}) {
                StringBuilder[] lines = new StringBuilder[4];
                String[] labels = {"5", "20", "adaptive", "  its trials"};
                for (int i = 0; i < lines.length; i++) {
                    lines[i] = new StringBuilder(String.format(Locale.ROOT, "%-17s %3s  %-12s", noise.label(),
                            (int) cv + "%", labels[i]));
                }
                for (double e : EFFECTS) {
                    Calibration.AdaptiveRates a = Calibration.adaptive(new Calibration.Case(noise, cv, 5, e), 20, n,
                            random, t);
                    Calibration.Rates[] each = {a.first(), a.max(), a.adaptive()};
                    for (int i = 0; i < each.length; i++) {
                        lines[i].append(String.format(Locale.ROOT, " %5.1f (%5.1f)", each[i].regression(),
                                each[i].inconclusive()));
                    }
                    lines[3].append(String.format(Locale.ROOT, " %13.1f", a.meanTrials()));
                }
                for (StringBuilder l : lines) {
                    out.append(l).append('\n');
                }
            }
        }
        out.append("\nSuites of many cells, each judged by perfab's rule: cell by cell, and together (Benjamini-Hochberg"
                + " at alpha, perfab's default)\n");
        out.append(String.format(Locale.ROOT, "  %-72s %12s %12s%n", "suite: figure", "cell by cell", "together"));
        int suiteRuns = Math.max(50, n / 4);
        int bigRuns = Math.max(20, suiteRuns / 10);
        for (Calibration.Noise noise : List.of(Calibration.Noise.NORMAL, Calibration.Noise.HEAVY_TAIL_10)) {
            for (int cells : new int[] {10, 20, 40, 100}) {
                suite(out, String.format(Locale.ROOT, "A/A of %d cells (%s, cv 3%%, n 5): runs headlining a change",
                        cells, noise.label()), "%11.1f%%",
                        fdr -> Calibration.suite(noise, cells, 0, 0, 3, 5, fdr, suiteRuns, random, t).falseHeadline());
            }
        }
        suite(out, "20 cells, 1 slower by 10% (cv 3%, n 5): runs finding it", "%11.1f%%",
                fdr -> Calibration.suite(Calibration.Noise.NORMAL, 20, 1, 10, 3, 5, fdr, suiteRuns, random, t)
                        .allFound());
        suite(out, "40 cells, 2 slower by 8% (cv 1%, n 5): runs finding both", "%11.1f%%",
                fdr -> Calibration.suite(Calibration.Noise.NORMAL, 40, 2, 8, 1, 5, fdr, suiteRuns, random, t)
                        .allFound());
        suite(out, "1,000 cells, 1 slower by 5% (cv 1%, n 5): runs finding it", "%11.1f%%",
                fdr -> Calibration.suite(Calibration.Noise.NORMAL, 1000, 1, 5, 1, 5, fdr, bigRuns, random, t)
                        .allFound());
        suite(out, "1,000 cells, 1 slower by 5% (cv 1%, n 10): runs finding it", "%11.1f%%",
                fdr -> Calibration.suite(Calibration.Noise.NORMAL, 1000, 1, 5, 1, 10, fdr, bigRuns, random, t)
                        .allFound());
        out.append("\nThe same with adaptive trials (5, then rounds of 5 up to 20 per side), as perfab ab runs by default:"
                + " cell by cell, and together (at each look's share of alpha); trials per side in brackets\n");
        out.append(String.format(Locale.ROOT, "  %-72s %12s %12s%n", "suite: figure", "cell by cell", "together"));
        for (int cells : new int[] {5, 10, 20, 40}) {
            adaptiveSuite(out, String.format(Locale.ROOT, "A/A of %d cells (normal, cv 3%%): runs headlining a change",
                    cells), cells, 0, 0, suiteRuns, random, t, Calibration.SuiteRates::falseHeadline);
        }
        for (int cells : new int[] {5, 10, 20, 40}) {
            adaptiveSuite(out, String.format(Locale.ROOT, "%d cells, 1 slower by 10%% (cv 3%%): runs finding it", cells),
                    cells, 1, 10, suiteRuns, random, t, Calibration.SuiteRates::allFound);
        }
        suite(out, "A/A of 1,000 cells (cv 3%, n 5): false regressions per run", "%12.2f",
                fdr -> Calibration.suite(Calibration.Noise.NORMAL, 1000, 0, 0, 3, 5, fdr, bigRuns, random, t)
                        .falseRegressions());
        PrintWriter print = spec.commandLine().getOut();
        print.print(out);
        print.flush();
        if (k > 0) {
            processes(print, k);
        }
        return ExitCode.OK;
    }

    /** Runs and prints the calibration on real processes: {@code k} A/B runs of each effect. */
    private void processes(PrintWriter print, int k) throws IOException, InterruptedException {
        if (DemoCommand.onPath("java").isEmpty()) {
            throw new BadInputException("the calibration's build and harness run 'java' from PATH, and there is none");
        }
        Path root = dir == null ? Files.createTempDirectory("perfab-calibrate-") : dir;
        PrintWriter err = spec.commandLine().getErr();
        err.println("perfab: real A/B runs in " + root + ": " + k + " of each effect, 5 trials per side");
        err.flush();
        AbRun.Context quiet = new AbRun.Context(QUIET, System.getenv(), Clock.systemUTC(),
                r -> Format.MARKDOWN.renderer().render(Report.of(r)), r -> Format.HTML.renderer().render(Report.of(r)));
        ProcessCalibration.Outcome outcome = ProcessCalibration.run(root, REAL_EFFECTS, k, 5, quiet, line -> {
            err.println("perfab: " + line);
            err.flush();
        });
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%nReal processes: %d A/B run%s of each commit on this machine (%s, %d"
                + " cores), 5 trials per side, 1 warm-up; a subject whose 'target' costs a set number of steps, and"
                + " commits that raise it; three more cells no commit changes%n", k, k == 1 ? "" : "s",
                outcome.machine().cpu(), outcome.machine().cores()));
        out.append(String.format(Locale.ROOT, "%-10s %5s %8s %13s %18s %13s %9s %7s %9s %7s%n", "commit", "runs",
                "found", "inconclusive", "false regressions", "inconclusive", "measured", "cv", "perfab's", "run"));
        out.append(String.format(Locale.ROOT, "%-10s %5s %8s %13s %18s %13s %9s %7s %9s %7s%n", "", "", "(target)",
                "(target)", "(other cells)", "(other cells)", "(target)", "(median)", "own time", ""));
        for (ProcessCalibration.Figures f : outcome.figures()) {
            out.append(String.format(Locale.ROOT, "%-10s %5d %8s %13s %17.1f%% %12.1f%% %+8.1f%% %6.1f%% %8.1f%% %6.0fs%n",
                    f.effect() == 0 ? "A/A" : "+" + f.effect() + "%", f.runs(), share(f.found()),
                    share(f.inconclusive()), f.falseRegressions(), f.falseInconclusive(), f.change(), f.cv(),
                    f.overhead(), f.seconds()));
        }
        out.append("The runs, their results and comments are in ").append(root).append('\n');
        print.print(out);
        print.flush();
    }

    /** Events nobody watches: the calibration prints a line per run instead. */
    private static final Events QUIET = new Events() {
        @Override
        public void note(String text) {
        }

        @Override
        public void planned(int total, int done) {
        }

        @Override
        public void starting(Side side, boolean warmup, int trial, int ofSide) {
        }

        @Override
        public void finished(Side side, boolean warmup, int trial, int ofSide, double seconds, String status) {
        }
    };

    private static String share(double percent) {
        return Double.isNaN(percent) ? "-" : String.format(Locale.ROOT, "%.1f%%", percent);
    }

    /**
     * Appends the targets the simulation checks, each with its figures and whether it holds: at CV 1%,
     * where the bar matters, false regressions at most 1% and at least benchstat's power at a true
     * 5% slowdown (outlier trials at 5, 10 and 20 trials per side; one trial in ten 1.5 times slower
     * at 20); and, for every noise and size, no row saying "no change" while one side alone had far
     * trials that make the candidate look worse. Cases the run did not simulate are left out.
     */
    private static void targets(StringBuilder out, Map<List<Object>, Map<Calibration.Method, Calibration.Rates>> seen) {
        List<String> lines = new ArrayList<>();
        List<Object[]> cases = List.of(new Object[] {Calibration.Noise.OUTLIERS, 5}, new Object[] {Calibration.Noise.OUTLIERS,
            10}, new Object[] {Calibration.Noise.OUTLIERS, 20}, new Object[] {Calibration.Noise.HEAVY_TAIL_10, 20});
        for (Object[] c : cases) {
            Map<Calibration.Method, Calibration.Rates> aa = seen.get(List.of(c[0], 1.0, c[1], 0.0));
            Map<Calibration.Method, Calibration.Rates> five = seen.get(List.of(c[0], 1.0, c[1], 5.0));
            if (aa == null || five == null) {
                continue;
            }
            double falseRate = aa.get(Calibration.Method.PERFAB).regression();
            double power = five.get(Calibration.Method.PERFAB).regression();
            double benchstat = five.get(Calibration.Method.MANN_WHITNEY).regression();
            boolean holds = falseRate <= 1 && power >= benchstat;
            lines.add(String.format(Locale.ROOT, "  %-16s cv 1%%, n %2d: false regressions %4.1f%% (at most 1%%), found at"
                    + " +5%% %5.1f%% (benchstat %5.1f%%)  %s", ((Calibration.Noise) c[0]).label(), (Integer) c[1],
                    falseRate, power, benchstat, holds ? "holds" : "MISSED"));
        }
        double worst = 0;
        int partial = 0;
        for (Map.Entry<List<Object>, Map<Calibration.Method, Calibration.Rates>> e : seen.entrySet()) {
            worst = Math.max(worst, e.getValue().get(Calibration.Method.PERFAB).falseNoChange());
            partial += e.getKey().get(0) == Calibration.Noise.PARTIAL ? 1 : 0;
        }
        if (!seen.isEmpty()) {
            lines.add(String.format(Locale.ROOT, "  rows saying \"no change\" with far trials on one side only: at most"
                    + " %.1f%% of runs in any case (%d of them partial slowdowns)  %s", worst, partial,
                    worst == 0 ? "holds" : "MISSED"));
        }
        if (!lines.isEmpty()) {
            out.append("\nTargets\n");
            lines.forEach(l -> out.append(l).append('\n'));
        }
    }

    /** Appends one line of the adaptive suites' table: a figure of runs judged cell by cell, then together. */
    private static void adaptiveSuite(StringBuilder out, String label, int cells, int changed, double effect, int runs,
            Random random, Thresholds t, java.util.function.ToDoubleFunction<Calibration.SuiteRates> figure) {
        Calibration.SuiteRates alone = Calibration.suiteAdaptive(Calibration.Noise.NORMAL, cells, changed, effect, 3, 5,
                20, false, runs, random, t);
        Calibration.SuiteRates together = Calibration.suiteAdaptive(Calibration.Noise.NORMAL, cells, changed, effect, 3,
                5, 20, true, runs, random, t);
        out.append(String.format(Locale.ROOT, "  %-72s %6.1f%% (%2.0f) %6.1f%% (%2.0f)%n", label,
                figure.applyAsDouble(alone), alone.meanTrials(), figure.applyAsDouble(together), together.meanTrials()));
    }

    /** Appends one line of the suites' table: {@code figure} judged cell by cell, then together at alpha. */
    private static void suite(StringBuilder out, String label, String format, DoubleUnaryOperator figure) {
        out.append(String.format(Locale.ROOT, "  %-72s " + format + " " + format + "%n", label,
                figure.applyAsDouble(Double.NaN), figure.applyAsDouble(Thresholds.DEFAULT.alpha())));
    }
}
