package org.perfab.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.perfab.stats.Calibration;
import org.perfab.stats.Calibration.Method;
import org.perfab.stats.Calibration.Noise;
import org.perfab.stats.Calibration.Rates;
import org.perfab.stats.Thresholds;
import org.perfab.stats.TrialTest;

/**
 * What {@code perfab calibrate} simulated: a grid of cases judged every way on the same draws,
 * adaptive trials against runs of a fixed size, suites of many cells, and the targets they reach.
 * Shares are in percent of runs.
 *
 * @param runs simulated runs per case
 * @param seed the seed of every draw
 * @param thresholds the verdict rules' settings every method was judged with
 * @param effects the true slowdowns of the cases, in percent, in the order of every row's rates; 0
 *     is an A/A
 * @param tables one per noise simulated
 * @param targets the targets on false alarms and power, of the cases simulated
 * @param earned whether every verdict was earned, by noise and trials per side
 * @param adaptive adaptive trials against fixed runs
 * @param suites suites of a fixed size
 * @param adaptiveSuites suites with adaptive trials
 * @param runners the runner models, each test on the same draws (see {@link Calibration#runner})
 */
public record Simulation(
        int runs,
        long seed,
        Thresholds thresholds,
        List<Double> effects,
        List<NoiseTable> tables,
        List<Target> targets,
        List<Earned> earned,
        List<AdaptiveRow> adaptive,
        List<Suite> suites,
        List<Suite> adaptiveSuites,
        List<RunnerRow> runners) {
    /** The most passes on a slowdown of 2% or more, in percent of those draws. */
    public static final double MOST_PASSES_ON_SLOWDOWNS = 5;
    /** The most wrong-sign verdicts, in percent of the draws of a change of 5% or more. */
    public static final double MOST_WRONG_SIGNS = 0.5;

    public Simulation {
        Objects.requireNonNull(thresholds, "thresholds");
        earned = List.copyOf(earned);
        effects = List.copyOf(effects);
        tables = List.copyOf(tables);
        targets = List.copyOf(targets);
        adaptive = List.copyOf(adaptive);
        suites = List.copyOf(suites);
        adaptiveSuites = List.copyOf(adaptiveSuites);
        runners = List.copyOf(runners);
    }

    /** The cells of each simulated run of a runner model: they share the runner's movement. */
    public static final int RUNNER_CELLS = 10;

    /**
     * One runner model at one size: how each test fared where nothing changed and where the head was
     * 5% slower, on the same draws.
     *
     * @param runner the runner model
     * @param trials trials per side
     * @param unchanged each test's rates where nothing changed
     * @param slower each test's rates where the head was 5% slower
     */
    public record RunnerRow(
            Calibration.Runner runner,
            int trials,
            Map<TrialTest, Calibration.RunnerRates> unchanged,
            Map<TrialTest, Calibration.RunnerRates> slower) {
        public RunnerRow {
            unchanged = Map.copyOf(unchanged);
            slower = Map.copyOf(slower);
        }
    }

    /**
     * A target of the runner models, as the default test ({@link TrialTest#AUTO}) must reach it.
     *
     * @param what what is measured, for a reader
     * @param value the figure reached, in percent
     * @param bound the least (when {@code atLeast}) or most figure the target allows
     * @param atLeast whether the bound is a floor
     */
    public record RunnerTarget(String what, double value, double bound, boolean atLeast) {
        /** Returns whether the figure reached the target. */
        public boolean holds() {
            return atLeast ? value >= bound : value <= bound;
        }
    }

    /**
     * Returns the runner models' targets: a 5% slowdown found (🔴) in the shared mix in 75% of cells
     * at 20 trials and 55% at 10, an unchanged cell ✅ there in 45% at 20, in 90% under slow drift and
     * a sticky slow mode at 20, in 85% under independent noise at 10; and in every model and size,
     * false 🔴 or 🟢 in at most 5% of unchanged cells, ✅ on the slowdown in at most 5%, a wrong sign in
     * at most 0.5%; and where nothing changed, the choice's p under alpha no more often than the
     * larger of the two tests it chooses between, within two standard errors of alpha.
     * Rows not simulated give no target.
     */
    public List<RunnerTarget> runnerTargets() {
        List<RunnerTarget> out = new ArrayList<>();
        Map<List<Object>, RunnerRow> at = new HashMap<>();
        runners.forEach(r -> at.put(List.of(r.runner(), r.trials()), r));
        Object[][] found = {
            {Calibration.Runner.SHARED, 20, 75.0},
            {Calibration.Runner.SHARED, 10, 55.0},
            {Calibration.Runner.WALK, 20, 90.0},
            {Calibration.Runner.WAVE, 20, 90.0},
            {Calibration.Runner.STICKY, 20, 90.0},
            {Calibration.Runner.INDEPENDENT, 10, 85.0}
        };
        for (Object[] f : found) {
            RunnerRow r = at.get(List.of(f[0], f[1]));
            if (r != null) {
                out.add(new RunnerTarget(
                        ((Calibration.Runner) f[0]).label() + ", n " + f[1] + ": +5% found",
                        r.slower().get(TrialTest.AUTO).rates().regression(),
                        (Double) f[2],
                        true));
            }
        }
        RunnerRow shared = at.get(List.of(Calibration.Runner.SHARED, 20));
        if (shared != null) {
            out.add(new RunnerTarget(
                    Calibration.Runner.SHARED.label() + ", n 20: unchanged read no change",
                    shared.unchanged().get(TrialTest.AUTO).rates().unchanged(),
                    45,
                    true));
        }
        RunnerRow falseAlarm = null;
        RunnerRow passes = null;
        RunnerRow wrong = null;
        for (RunnerRow r : runners) {
            falseAlarm = falseAlarm == null || falseHeadline(r) > falseHeadline(falseAlarm) ? r : falseAlarm;
            passes = passes == null || pass(r) > pass(passes) ? r : passes;
            wrong = wrong == null || wrongSign(r) > wrongSign(wrong) ? r : wrong;
        }
        if (falseAlarm != null) {
            out.add(new RunnerTarget(
                    "worst false regressions or improvements where nothing changed (" + label(falseAlarm) + ")",
                    falseHeadline(falseAlarm),
                    5,
                    false));
            out.add(new RunnerTarget("worst no change on +5% (" + label(passes) + ")", pass(passes), 5, false));
            out.add(new RunnerTarget("worst wrong sign on +5% (" + label(wrong) + ")", wrongSign(wrong), 0.5, false));
            // The choice costs no false alarms: where nothing changed, auto's p falls under alpha no more
            // often than that of the test it chose between, the larger of the two, beyond chance.
            double cells = (double) runs * RUNNER_CELLS;
            double a = thresholds.alpha() * 100;
            RunnerRow worst = null;
            double excess = Double.NEGATIVE_INFINITY;
            for (RunnerRow r : runners) {
                double either = Math.max(
                        r.unchanged().get(TrialTest.WELCH).significant(),
                        r.unchanged().get(TrialTest.PAIRED).significant());
                if (significant(r) - either > excess) {
                    excess = significant(r) - either;
                    worst = r;
                }
            }
            out.add(new RunnerTarget(
                    "worst p under alpha of the choice past Welch's and the pairs' where nothing changed ("
                            + label(worst) + ")",
                    excess,
                    2 * Math.sqrt(a * (100 - a) / cells),
                    false));
        }
        return out;
    }

    private static String label(RunnerRow r) {
        return r.runner().label() + ", n " + r.trials();
    }

    private static double falseHeadline(RunnerRow r) {
        Calibration.Rates x = r.unchanged().get(TrialTest.AUTO).rates();
        return x.regression() + x.improvement();
    }

    private static double pass(RunnerRow r) {
        return r.slower().get(TrialTest.AUTO).rates().unchanged();
    }

    private static double wrongSign(RunnerRow r) {
        return r.slower().get(TrialTest.AUTO).rates().improvement();
    }

    private static double significant(RunnerRow r) {
        return r.unchanged().get(TrialTest.AUTO).significant();
    }

    /**
     * One row of a noise's table.
     *
     * @param cv the coefficient of variation, in percent
     * @param trials trials per side
     * @param rates each method's rates, one per effect in the order of {@link Simulation#effects}
     */
    public record Row(double cv, int trials, Map<Method, List<Rates>> rates) {
        public Row {
            rates = Map.copyOf(rates);
        }
    }

    /** The rows of one noise. */
    public record NoiseTable(Noise noise, List<Row> rows) {
        public NoiseTable {
            rows = List.copyOf(rows);
        }
    }

    /**
     * A target on false alarms and power at CV 1%, where the bar matters.
     *
     * @param noise the noise of the case
     * @param trials trials per side
     * @param falseRegressions perfab's false regressions at effect 0, percent
     * @param found perfab's regressions at a true 5% slowdown, percent
     * @param benchstat benchstat's regressions on the same draws, percent
     * @param most the most false regressions the target allows, percent
     * @param holds whether false regressions are at most {@code most} and the power at least benchstat's
     */
    public record Target(
            Noise noise,
            int trials,
            double falseRegressions,
            double found,
            double benchstat,
            double most,
            boolean holds) {}

    /**
     * Whether perfab's verdicts were earned on one noise at one number of trials per side, the worst
     * over the coefficients of variation simulated (1%, 3%, 10%), every figure in percent. Each
     * draw's truth is the change of its mean: its effect, and for a partial slowdown the share of
     * trials it slows on top. Code layout is judged on the medians of the builds, as perfab's A/B
     * with several builds per side is; every other noise on its trials.
     *
     * @param noise the noise
     * @param trials trials per side
     * @param passesOnSlowdowns the share of unchanged rows ("no change of X or more") among the draws
     *     whose truth is a slowdown of 2% or more (for a partial slowdown drawn at random, which may
     *     slow none of a draw's trials, whose effect alone is)
     * @param wrongSigns the share of verdicts of the wrong sign (an improvement for a slowdown, a
     *     regression or small change for a speed-up) among the draws whose truth is a change of 5%
     *     or more either way
     * @param benchstatWrongSigns the same for benchstat on the same draws
     * @param smallOnUnchanged the share of small changes where nothing changed; NaN for a noise that
     *     always slows
     * @param found the share of regressions at a true slowdown of 5% and of 10%, at CV 3%
     * @param benchstatFound the same for benchstat on the same draws
     */
    public record Earned(
            Noise noise,
            int trials,
            double passesOnSlowdowns,
            double wrongSigns,
            double benchstatWrongSigns,
            double smallOnUnchanged,
            List<Double> found,
            List<Double> benchstatFound) {
        public Earned {
            found = List.copyOf(found);
            benchstatFound = List.copyOf(benchstatFound);
        }
    }

    /** Adaptive trials against runs of a fixed size, one per effect in the order of {@link Simulation#effects}. */
    public record AdaptiveRow(Noise noise, double cv, List<Calibration.AdaptiveRates> byEffect) {
        public AdaptiveRow {
            byEffect = List.copyOf(byEffect);
        }
    }

    /** What a suite's line reports. */
    public enum Figure {
        /** The share of runs whose headline counts a change among the unchanged cells, percent. */
        HEADLINE,
        /** The share of runs in which every changed cell was found, percent. */
        FOUND,
        /** False regressions per run. */
        FALSE_REGRESSIONS
    }

    /**
     * One suite of cells, judged cell by cell and together.
     *
     * @param noise the noise of every cell
     * @param cells how many cells
     * @param changed how many of them are truly slower
     * @param effect by how much, percent
     * @param cv every cell's coefficient of variation, percent
     * @param trials trials per side; with adaptive trials, those of the first look
     * @param adaptive whether trials are adaptive (rounds of {@code trials} up to 20 per side)
     * @param figure what the line reports
     * @param alone the rates judged cell by cell
     * @param together the rates judged together
     */
    public record Suite(
            Noise noise,
            int cells,
            int changed,
            double effect,
            double cv,
            int trials,
            boolean adaptive,
            Figure figure,
            Calibration.SuiteRates alone,
            Calibration.SuiteRates together) {}
}
