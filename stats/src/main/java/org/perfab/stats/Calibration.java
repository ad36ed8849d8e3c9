package org.perfab.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.commons.math3.stat.inference.MannWhitneyUTest;

/**
 * Measures how often each way of judging a cell is right, on synthetic trials with the noise of
 * shared runners: the false-alarm rate when nothing changed, and the power when something did. All
 * methods see the same draws. No processes, no clock: a seeded {@link Random} makes every figure
 * reproducible.
 */
public final class Calibration {
    /** Builds per side in every simulated run, so that code layout can be simulated and judged. */
    public static final int BUILDS = 3;

    private Calibration() {
    }

    /** The noise a simulated trial carries, beside the cell's coefficient of variation. */
    public enum Noise {
        /** Normal noise. */
        NORMAL("normal"),
        /** Log-normal noise: a long right tail, as timings have. */
        LOGNORMAL("log-normal"),
        /** Normal noise, and one trial in twenty 30% slower (a hiccup of the machine). */
        OUTLIERS("outlier trials"),
        /**
         * Normal noise, and one trial in twenty-five slower by an exponential amount (mean 70%): a
         * heavy tail, a percent of trials off by 93% or more, as a nightly series on shared runners
         * shows.
         */
        HEAVY_TAIL("heavy tail"),
        /** Normal noise on a machine that slows by 3% over the run, trials interleaved A B B A. */
        DRIFT("drift in a run"),
        /** Normal noise, and each build of each side off by its code layout (2% spread). */
        LAYOUT("code layout");

        private final String label;

        Noise(String label) {
            this.label = label;
        }

        /** The name a table shows. */
        public String label() {
            return label;
        }
    }

    /** A way of judging a cell. */
    public enum Method {
        /** Welch's test on every trial: the seed's rule. */
        WELCH("Welch, trials"),
        /** Welch's test once outlier trials are set aside (see {@link Outliers}): perfab's verdict. */
        ROBUST("Welch, outliers set aside"),
        /** Yuen's test on 20% trimmed means. */
        YUEN("Yuen, trimmed"),
        /** Mann-Whitney's test, the change between medians. */
        MANN_WHITNEY("Mann-Whitney"),
        /** Welch's test on the median of each build. */
        BUILD_MEDIANS("Welch, build medians");

        private final String label;

        Method(String label) {
            this.label = label;
        }

        /** The name a table shows. */
        public String label() {
            return label;
        }
    }

    /**
     * One simulated situation.
     *
     * @param noise the noise
     * @param cv the cell's coefficient of variation, in percent
     * @param n trials per side
     * @param effect the true change of the head, in percent (positive: slower)
     */
    public record Case(Noise noise, double cv, int n, double effect) {
    }

    /**
     * How often a method gave each verdict, in percent of runs.
     *
     * @param regression regressions
     * @param inconclusive inconclusive verdicts
     * @param improvement improvements
     */
    public record Rates(double regression, double inconclusive, double improvement) {
    }

    /** Returns the rates of every method over {@code runs} simulated runs of {@code c}. */
    public static Map<Method, Rates> run(Case c, int runs, Random random, Thresholds thresholds) {
        Map<Method, int[]> counts = new EnumMap<>(Method.class);
        for (Method m : Method.values()) {
            counts.put(m, new int[3]);
        }
        for (int r = 0; r < runs; r++) {
            double[][][] draw = draw(c, random);
            for (Method m : Method.values()) {
                count(counts.get(m), judge(m, draw, thresholds));
            }
        }
        Map<Method, Rates> rates = new EnumMap<>(Method.class);
        counts.forEach((m, n) -> rates.put(m, rates(n, runs)));
        return rates;
    }

    /**
     * Returns one run's trials: {@code [side][build][trial]}, the trials of each side spread over
     * {@link #BUILDS} builds in the order they ran (pairs A B, B A, ...).
     */
    static double[][][] draw(Case c, Random random) {
        double[][][] sides = new double[2][BUILDS][];
        double[][] offsets = new double[2][BUILDS];
        for (int s = 0; s < 2; s++) {
            for (int b = 0; b < BUILDS; b++) {
                offsets[s][b] = c.noise() == Noise.LAYOUT ? random.nextGaussian() * 2 : 0;
                sides[s][b] = new double[(c.n() - b + BUILDS - 1) / BUILDS];
            }
        }
        int[][] filled = new int[2][BUILDS];
        for (int pair = 0; pair < c.n(); pair++) {
            for (int k = 0; k < 2; k++) {
                int s = pair % 2 == 0 ? k : 1 - k;
                int position = 2 * pair + k;
                int b = pair % BUILDS;
                double level = s == 0 ? 100 : 100 * (1 + c.effect() / 100);
                double drift = c.noise() == Noise.DRIFT ? 1 + 0.03 * position / (2.0 * c.n()) : 1;
                double value = level * drift * (1 + offsets[s][b] / 100) * noise(c, random);
                sides[s][b][filled[s][b]++] = value;
            }
        }
        return sides;
    }

    private static double noise(Case c, Random random) {
        double cv = c.cv() / 100;
        return switch (c.noise()) {
            case LOGNORMAL -> {
                double sigma = Math.sqrt(Math.log(1 + cv * cv));
                yield Math.exp(random.nextGaussian() * sigma - sigma * sigma / 2);
            }
            case OUTLIERS -> (1 + random.nextGaussian() * cv) * (random.nextDouble() < 0.05 ? 1.3 : 1);
            case HEAVY_TAIL -> (1 + random.nextGaussian() * cv)
                    * (random.nextDouble() < 0.04 ? 1 - 0.7 * Math.log(1 - random.nextDouble()) : 1);
            default -> 1 + random.nextGaussian() * cv;
        };
    }

    private static double[] trials(double[][] builds) {
        return Arrays.stream(builds).flatMapToDouble(Arrays::stream).toArray();
    }

    /** Returns the verdict of {@code method} on one run's trials. */
    static Verdict judge(Method method, double[][][] draw, Thresholds t) {
        double[] base = trials(draw[0]);
        double[] head = trials(draw[1]);
        Direction d = Direction.LOWER_IS_BETTER;
        return switch (method) {
            case WELCH -> Comparison.of(Sample.of(base), Sample.of(head), d, t).verdict();
            case ROBUST -> Comparison.of(Sample.of(Outliers.without(base, Outliers.of(base, t.minEffect()))),
                    Sample.of(Outliers.without(head, Outliers.of(head, t.minEffect()))), d, t).verdict();
            case YUEN -> {
                double b = Yuen.trimmedMean(base);
                double pct = (Yuen.trimmedMean(head) / b - 1) * 100;
                yield VerdictRule.classify(d, pct, Yuen.p(base, head), t);
            }
            case MANN_WHITNEY -> {
                double pct = (median(head) / median(base) - 1) * 100;
                yield VerdictRule.classify(d, pct, new MannWhitneyUTest().mannWhitneyUTest(base, head), t);
            }
            case BUILD_MEDIANS -> {
                double[] bm = new double[BUILDS];
                double[] hm = new double[BUILDS];
                for (int b = 0; b < BUILDS; b++) {
                    bm[b] = median(draw[0][b]);
                    hm[b] = median(draw[1][b]);
                }
                yield Comparison.of(Sample.of(bm), Sample.of(hm), d, t).verdict();
            }
        };
    }

    private static double median(double[] values) {
        double[] s = values.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    /**
     * How adaptive trials fare against runs of a fixed size on the same draws.
     *
     * @param first the rates of a run of the first round's size
     * @param max the rates of a run of the most trials
     * @param adaptive the rates of adaptive trials from the first round's size to the most
     * @param meanTrials the trials per side adaptive trials took, on average
     */
    public record AdaptiveRates(Rates first, Rates max, Rates adaptive, double meanTrials) {
    }

    /**
     * Returns how {@code runs} simulated runs of {@code c} fare with {@code c.n()} trials per side,
     * with {@code max}, and with adaptive trials between the two (see {@link Sequential}); every
     * way sets outlier trials aside, as perfab does, and sees the same draws, in the order they ran.
     */
    public static AdaptiveRates adaptive(Case c, int max, int runs, Random random, Thresholds thresholds) {
        Sequential looks = new Sequential(c.n(), max);
        Thresholds t = thresholds.withAdaptive(looks);
        int[][] counts = new int[3][3];
        long trials = 0;
        for (int r = 0; r < runs; r++) {
            double[][] draw = inOrder(new Case(c.noise(), c.cv(), max, c.effect()), random);
            count(counts[0], robust(draw, c.n(), thresholds).verdict());
            count(counts[1], robust(draw, max, thresholds).verdict());
            List<Comparison> seen = new ArrayList<>();
            int used = 0;
            for (int k = 1; k <= looks.looks().size(); k++) {
                used = looks.looks().get(k - 1);
                Comparison at = robust(draw, used, t.atLook(k));
                seen.add(at);
                if (!Sequential.undecided(at, thresholds)) {
                    break;
                }
            }
            trials += used;
            count(counts[2], seen.get(Sequential.standing(seen)).verdict());
        }
        return new AdaptiveRates(rates(counts[0], runs), rates(counts[1], runs), rates(counts[2], runs),
                (double) trials / runs);
    }

    private static void count(int[] n, Verdict v) {
        if (v == Verdict.REGRESSION) {
            n[0]++;
        } else if (v == Verdict.INCONCLUSIVE) {
            n[1]++;
        } else if (v == Verdict.IMPROVEMENT) {
            n[2]++;
        }
    }

    private static Rates rates(int[] n, int runs) {
        return new Rates(100.0 * n[0] / runs, 100.0 * n[1] / runs, 100.0 * n[2] / runs);
    }

    /** Returns the comparison of the first {@code n} trials of each side, outlier trials set aside. */
    private static Comparison robust(double[][] draw, int n, Thresholds t) {
        double[] base = Arrays.copyOf(draw[0], n);
        double[] head = Arrays.copyOf(draw[1], n);
        return Comparison.of(Sample.of(Outliers.without(base, Outliers.of(base, t.minEffect()))),
                Sample.of(Outliers.without(head, Outliers.of(head, t.minEffect()))), Direction.LOWER_IS_BETTER, t);
    }

    /** Returns one run's trials of one build per side, {@code [side][trial]}, in the order they ran. */
    private static double[][] inOrder(Case c, Random random) {
        double[][] sides = new double[2][c.n()];
        for (int pair = 0; pair < c.n(); pair++) {
            for (int k = 0; k < 2; k++) {
                int s = pair % 2 == 0 ? k : 1 - k;
                double level = s == 0 ? 100 : 100 * (1 + c.effect() / 100);
                double drift = c.noise() == Noise.DRIFT ? 1 + 0.03 * (2 * pair + k) / (2.0 * c.n()) : 1;
                sides[s][pair] = level * drift * noise(c, random);
            }
        }
        return sides;
    }

    /**
     * The false alarms and findings of a suite of cells.
     *
     * @param allFound the share of runs in which every truly changed cell was a regression, in percent
     * @param falseRegressions regressions among unchanged cells, per run
     */
    public record SuiteRates(double allFound, double falseRegressions) {
    }

    /**
     * Returns how a suite of {@code cells} cells fares, {@code changed} of them truly slower by
     * {@code effect} percent, the rest unchanged, all with normal noise of {@code cv} percent and
     * {@code n} trials per side: judged cell by cell (Welch on trials) when {@code fdr} is NaN, else
     * with Benjamini-Hochberg at {@code fdr} over the suite's p values.
     */
    public static SuiteRates suite(int cells, int changed, double effect, double cv, int n, double fdr, int runs,
            Random random, Thresholds thresholds) {
        int allFound = 0;
        long falseRegressions = 0;
        for (int r = 0; r < runs; r++) {
            List<Comparison> comparisons = new ArrayList<>();
            for (int i = 0; i < cells; i++) {
                double[][][] draw = draw(new Case(Noise.NORMAL, cv, n, i < changed ? effect : 0), random);
                comparisons.add(Comparison.of(Sample.of(trials(draw[0])), Sample.of(trials(draw[1])),
                        Direction.LOWER_IS_BETTER, thresholds));
            }
            List<Comparison> judged = Double.isNaN(fdr) ? comparisons : FalseDiscovery.apply(comparisons, fdr, thresholds);
            boolean all = true;
            for (int i = 0; i < cells; i++) {
                boolean regression = judged.get(i).verdict() == Verdict.REGRESSION;
                if (i < changed) {
                    all &= regression;
                } else if (regression) {
                    falseRegressions++;
                }
            }
            allFound += all ? 1 : 0;
        }
        return new SuiteRates(100.0 * allFound / runs, (double) falseRegressions / runs);
    }
}
