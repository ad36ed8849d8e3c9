package org.perfab.cli;

import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.function.DoubleUnaryOperator;
import org.perfab.stats.Calibration;
import org.perfab.stats.Thresholds;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code perfab calibrate}: how often the verdicts are right, on the noise of shared runners. */
@Command(name = "calibrate", mixinStandardHelpOptions = true,
        description = {"Measure how often perfab's verdicts are right: simulated trials with the noise of shared"
                + " runners (normal, log-normal, outlier trials, a heavy tail, drift within a run, code layout),"
                + " every way of judging a cell on the same draws, and suites of many cells with and without"
                + " --fdr. Prints the false-alarm rate (effect 0%%) and the share of runs that find a slowdown."})
final class CalibrateCommand implements Callable<Integer> {
    private static final double[] EFFECTS = {0, 2, 3, 5, 10};

    @Spec
    CommandSpec spec;

    @Option(names = "--quick", description = "Fewer runs per case (300), for a first look in seconds.")
    boolean quick;

    @Option(names = "--runs", paramLabel = "N", description = "Simulated runs per case (default: 2000, or 300 with"
            + " --quick).")
    Integer runs;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "The seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--noise", paramLabel = "KIND", split = ",",
            description = "Only these noises: normal, lognormal, outliers, heavy_tail, drift, layout.")
    List<Calibration.Noise> noises;

    @Override
    public Integer call() {
        int n = runs != null ? runs : quick ? 300 : 2000;
        Thresholds t = Thresholds.DEFAULT;
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "perfab calibrate: %d simulated runs per case, seed %d. Each cell: the"
                + " share of runs judged a regression, in percent (at 0%%: false alarms), and in brackets the share"
                + " judged inconclusive. Alpha %s, bar %s%%.%n", n, seed, t.alpha(), t.minEffect()));
        Random random = new Random(seed);
        for (Calibration.Noise noise : noises == null ? List.of(Calibration.Noise.values()) : noises) {
            out.append("\nnoise: ").append(noise.label()).append('\n');
            out.append(String.format(Locale.ROOT, "%-4s %3s  %-26s", "cv", "n", "method"));
            for (double e : EFFECTS) {
                out.append(String.format(Locale.ROOT, " %13s", (int) e + "%"));
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
                        rates.forEach((m, r) -> lines.get(m).append(String.format(Locale.ROOT, " %5.1f (%5.1f)",
                                r.regression(), r.inconclusive())));
                    }
                    lines.values().forEach(l -> out.append(l).append('\n'));
                }
            }
        }
        out.append("\nAdaptive trials (--trials 5 --adaptive 20) against 5 and 20 trials per side, on the same draws,"
                + " outlier trials set aside: regressions (inconclusive) in percent, and the trials per side adaptive"
                + " trials took\n");
        out.append(String.format(Locale.ROOT, "%-15s %3s  %-12s", "noise", "cv", "trials"));
        for (double e : EFFECTS) {
            out.append(String.format(Locale.ROOT, " %13s", (int) e + "%"));
        }
        out.append('\n');
        for (Calibration.Noise noise : List.of(Calibration.Noise.NORMAL, Calibration.Noise.OUTLIERS,
                Calibration.Noise.HEAVY_TAIL)) {
            if (noises != null && !noises.contains(noise)) {
                continue;
            }
            for (double cv : new double[] {1, 3, 10}) {
                StringBuilder[] lines = new StringBuilder[4];
                String[] labels = {"5", "20", "adaptive", "  its trials"};
                for (int i = 0; i < lines.length; i++) {
                    lines[i] = new StringBuilder(String.format(Locale.ROOT, "%-15s %3s  %-12s", noise.label(),
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
        out.append("\nSuites (normal noise, Welch on trials), judged cell by cell and with --fdr 0.05\n");
        out.append(String.format(Locale.ROOT, "  %-58s %12s %12s%n", "suite: figure", "cell by cell", "--fdr 0.05"));
        int suiteRuns = Math.max(50, n / 4);
        int bigRuns = Math.max(20, suiteRuns / 10);
        suite(out, "40 cells, 2 slower by 8% (cv 1%, n 5): runs finding both", "%11.1f%%",
                fdr -> Calibration.suite(40, 2, 8, 1, 5, fdr, suiteRuns, random, t).allFound());
        suite(out, "40 cells, 2 slower by 8%: false regressions per run", "%12.2f",
                fdr -> Calibration.suite(40, 2, 8, 1, 5, fdr, suiteRuns, random, t).falseRegressions());
        suite(out, "1,000 cells, 1 slower by 5% (cv 1%, n 5): runs finding it", "%11.1f%%",
                fdr -> Calibration.suite(1000, 1, 5, 1, 5, fdr, bigRuns, random, t).allFound());
        suite(out, "1,000 cells, 1 slower by 5% (cv 1%, n 10): runs finding it", "%11.1f%%",
                fdr -> Calibration.suite(1000, 1, 5, 1, 10, fdr, bigRuns, random, t).allFound());
        suite(out, "A/A of 1,000 cells (cv 3%, n 5): false regressions per run", "%12.2f",
                fdr -> Calibration.suite(1000, 0, 0, 3, 5, fdr, bigRuns, random, t).falseRegressions());
        spec.commandLine().getOut().print(out);
        spec.commandLine().getOut().flush();
        return ExitCode.OK;
    }

    /** Appends one line of the suites' table: {@code figure} judged cell by cell, then with --fdr 0.05. */
    private static void suite(StringBuilder out, String label, String format, DoubleUnaryOperator figure) {
        out.append(String.format(Locale.ROOT, "  %-58s " + format + " " + format + "%n", label,
                figure.applyAsDouble(Double.NaN), figure.applyAsDouble(0.05)));
    }
}
