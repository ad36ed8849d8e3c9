package org.perfab.model;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.perfab.stats.Calibration;
import org.perfab.stats.Calibration.Method;
import org.perfab.stats.Calibration.Noise;
import org.perfab.stats.Calibration.Rates;
import org.perfab.stats.Thresholds;

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
 */
public record Simulation(int runs, long seed, Thresholds thresholds, List<Double> effects, List<NoiseTable> tables,
        List<Target> targets, List<Earned> earned, List<AdaptiveRow> adaptive, List<Suite> suites,
        List<Suite> adaptiveSuites) {
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
    public record Target(Noise noise, int trials, double falseRegressions, double found, double benchstat,
            double most, boolean holds) {
    }

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
    public record Earned(Noise noise, int trials, double passesOnSlowdowns, double wrongSigns,
            double benchstatWrongSigns, double smallOnUnchanged, List<Double> found, List<Double> benchstatFound) {
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
    public record Suite(Noise noise, int cells, int changed, double effect, double cv, int trials, boolean adaptive,
            Figure figure, Calibration.SuiteRates alone, Calibration.SuiteRates together) {
    }
}
