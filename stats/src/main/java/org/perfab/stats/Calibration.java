package org.perfab.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Measures how often each way of judging a cell is right, on synthetic trials with the noise of
 * shared runners: the false-alarm rate when nothing changed, and the power when something did. All
 * methods see the same draws, and each judges them through its {@link ShiftTest}, the door perfab's
 * own verdicts go through. No processes, no clock: a seeded {@link Random} makes every figure
 * reproducible.
 */
public final class Calibration {
    /** Builds per side in every simulated run, so that code layout can be simulated and judged. */
    public static final int BUILDS = 3;

    private Calibration() {}

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
        /** Normal noise, and one trial in ten 1.5 times slower: a busy machine's heavy tail. */
        HEAVY_TAIL_10("1 in 10 x1.5"),
        /**
         * Normal noise, and the candidate's trials slower by 30% one time in five, beside the case's
         * effect: a change that hits only some trials (its mean is 6% worse at effect 0).
         */
        PARTIAL("partial slowdown"),
        /**
         * Normal noise, and exactly one in five of the candidate's trials 30% slower, beside the
         * case's effect: a change that hits some trials, as few as a test can see (its mean is 6%
         * worse at effect 0).
         */
        PARTIAL_EXACT("exactly 1 in 5 slower"),
        /** Normal noise, and half of each side's trials 40% slower: two modes of a busy machine. */
        SPLIT("two modes"),
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

    /** A way of judging a cell: a label for the table and the {@link ShiftTest} it names. */
    public enum Method {
        /** Welch's test on every trial: the seed's rule. */
        WELCH("Welch, trials", KnownTests.WELCH),
        /** perfab's verdict ({@link Comparison#judge}): far trials set aside on both sides, one-sided and swapped groups. */
        PERFAB("perfab", KnownTests.TRIALS),
        /** Yuen's test on 20% trimmed means. */
        YUEN("Yuen, trimmed", KnownTests.YUEN),
        /** benchstat's: Mann-Whitney's test (exact), the change between medians. */
        MANN_WHITNEY("benchstat (Mann-Whitney)", KnownTests.MANN_WHITNEY),
        /** Welch's test on the median of each build. */
        BUILD_MEDIANS("Welch, build medians", KnownTests.BUILD_MEDIANS);

        private final String label;
        private final ShiftTest test;

        Method(String label, ShiftTest test) {
            this.label = label;
            this.test = test;
        }

        /** The name a table shows. */
        public String label() {
            return label;
        }

        /** The test this method applies. */
        public ShiftTest test() {
            return test;
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
    public record Case(Noise noise, double cv, int n, double effect) {}

    /**
     * How often a method gave each verdict, in percent of runs.
     *
     * @param regression regressions
     * @param inconclusive inconclusive verdicts
     * @param improvement improvements
     * @param noisy "too noisy to tell"
     * @param falseNoChange unchanged rows of runs in which one side had far trials that make the
     *     candidate look worse and the other none (see {@link FarTrials}): a row that says "no
     *     change" where a partial slowdown may hide
     * @param small small changes: worse and significant, under the bar
     * @param unchanged unchanged rows: "no change of X or more"
     */
    public record Rates(
            double regression,
            double inconclusive,
            double improvement,
            double noisy,
            double falseNoChange,
            double small,
            double unchanged) {}

    /**
     * Returns the true change of the mean of a case, in percent: its effect, and for a partial
     * slowdown the share of trials it slows on top.
     */
    public static double truth(Case c) {
        double partial = c.noise() == Noise.PARTIAL || c.noise() == Noise.PARTIAL_EXACT ? 0.2 * 0.3 : 0;
        return ((1 + c.effect() / 100) * (1 + partial) - 1) * 100;
    }

    /** Returns the rates of every method over {@code runs} simulated runs of {@code c}. */
    public static Map<Method, Rates> run(Case c, int runs, Random random, Thresholds thresholds) {
        Map<Method, int[]> counts = new EnumMap<>(Method.class);
        for (Method m : Method.values()) {
            counts.put(m, new int[7]);
        }
        for (int r = 0; r < runs; r++) {
            double[][][] draw = draw(c, random);
            double[] base = trials(draw[0]);
            double[] head = trials(draw[1]);
            FarTrials far = FarTrials.of(base, head, thresholds.effectiveOutlierFloor());
            boolean oneSided = far.oneSided() && far.candidateWorseInSome(base, head, Direction.LOWER_IS_BETTER);
            for (Method m : Method.values()) {
                Verdict v = judge(m, draw, thresholds);
                count(counts.get(m), v);
                if (oneSided && v == Verdict.UNCHANGED) {
                    counts.get(m)[4]++;
                }
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
        boolean[] slowed = exactlyOneInFive(c, random);
        for (int pair = 0; pair < c.n(); pair++) {
            for (int k = 0; k < 2; k++) {
                int s = pair % 2 == 0 ? k : 1 - k;
                int position = 2 * pair + k;
                int b = pair % BUILDS;
                double level = s == 0 ? 100 : 100 * (1 + c.effect() / 100);
                double drift = c.noise() == Noise.DRIFT ? 1 + 0.03 * position / (2.0 * c.n()) : 1;
                double partial = s == 1 && slowed[pair] ? 1.3 : 1;
                double value = level * drift * partial * (1 + offsets[s][b] / 100) * noise(c, s, random);
                sides[s][b][filled[s][b]++] = value;
            }
        }
        return sides;
    }

    /**
     * Returns which of the candidate's trials, by pair, a partial slowdown of exactly one in five
     * slows: {@code n / 5} of them (rounded), drawn at random; none for other noises.
     */
    private static boolean[] exactlyOneInFive(Case c, Random random) {
        boolean[] slowed = new boolean[c.n()];
        if (c.noise() != Noise.PARTIAL_EXACT) {
            return slowed;
        }
        int left = Math.round(c.n() / 5f);
        for (int i = 0; i < c.n() && left > 0; i++) {
            if (random.nextInt(c.n() - i) < left) {
                slowed[i] = true;
                left--;
            }
        }
        return slowed;
    }

    private static double noise(Case c, int side, Random random) {
        double cv = c.cv() / 100;
        return switch (c.noise()) {
            case HEAVY_TAIL_10 -> (1 + random.nextGaussian() * cv) * (random.nextDouble() < 0.1 ? 1.5 : 1);
            case PARTIAL -> (1 + random.nextGaussian() * cv) * (side == 1 && random.nextDouble() < 0.2 ? 1.3 : 1);
            case SPLIT -> (1 + random.nextGaussian() * cv) * (random.nextDouble() < 0.5 ? 1.4 : 1);
            case LOGNORMAL -> {
                double sigma = Math.sqrt(Math.log(1 + cv * cv));
                yield Math.exp(random.nextGaussian() * sigma - sigma * sigma / 2);
            }
            case OUTLIERS -> (1 + random.nextGaussian() * cv) * (random.nextDouble() < 0.05 ? 1.3 : 1);
            case HEAVY_TAIL ->
                (1 + random.nextGaussian() * cv)
                        * (random.nextDouble() < 0.04 ? 1 - 0.7 * Math.log(1 - random.nextDouble()) : 1);
            default -> 1 + random.nextGaussian() * cv;
        };
    }

    private static double[] trials(double[][] builds) {
        return Arrays.stream(builds).flatMapToDouble(Arrays::stream).toArray();
    }

    /** Returns the verdict of {@code method} on one run's trials, through its {@link ShiftTest}. */
    static Verdict judge(Method method, double[][][] draw, Thresholds t) {
        return method.test()
                .judge(side(draw[0]), side(draw[1]), Direction.LOWER_IS_BETTER, t, false)
                .comparison()
                .verdict();
    }

    /** Returns one side's trials of a run, build after build, each with its build. */
    private static Trials side(double[][] builds) {
        int[] of = new int[Arrays.stream(builds).mapToInt(b -> b.length).sum()];
        int i = 0;
        for (int b = 0; b < builds.length; b++) {
            for (int k = 0; k < builds[b].length; k++) {
                of[i++] = b;
            }
        }
        return Trials.of(trials(builds), of);
    }

    /**
     * How adaptive trials fare against runs of a fixed size on the same draws.
     *
     * @param first the rates of a run of the first round's size
     * @param max the rates of a run of the most trials
     * @param adaptive the rates of adaptive trials from the first round's size to the most
     * @param meanTrials the trials per side adaptive trials took, on average
     */
    public record AdaptiveRates(Rates first, Rates max, Rates adaptive, double meanTrials) {}

    /**
     * Returns how {@code runs} simulated runs of {@code c} fare with {@code c.n()} trials per side,
     * with {@code max}, and with adaptive trials between the two (see {@link Sequential}); every
     * way sets outlier trials aside, as perfab does, and sees the same draws, in the order they ran.
     */
    public static AdaptiveRates adaptive(Case c, int max, int runs, Random random, Thresholds thresholds) {
        Sequential looks = new Sequential(c.n(), max);
        Thresholds t = thresholds.withAdaptive(looks);
        int[][] counts = new int[3][7];
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
                if (!at.undecided(thresholds)) {
                    break;
                }
            }
            trials += used;
            count(counts[2], seen.get(Sequential.standing(verdicts(seen))).verdict());
        }
        return new AdaptiveRates(
                rates(counts[0], runs), rates(counts[1], runs), rates(counts[2], runs), (double) trials / runs);
    }

    private static List<Verdict> verdicts(List<Comparison> looks) {
        return looks.stream().map(Comparison::verdict).toList();
    }

    private static void count(int[] n, Verdict v) {
        switch (v) {
            case REGRESSION -> n[0]++;
            case INCONCLUSIVE -> n[1]++;
            case IMPROVEMENT -> n[2]++;
            case NOISY -> n[3]++;
            case SMALL -> n[5]++;
            case UNCHANGED -> n[6]++;
            case PROFILE, NO_DATA -> {
                // never classified, or nothing measured: not counted among the verdicts
            }
        }
    }

    private static Rates rates(int[] n, int runs) {
        return new Rates(
                100.0 * n[0] / runs,
                100.0 * n[1] / runs,
                100.0 * n[2] / runs,
                100.0 * n[3] / runs,
                100.0 * n[4] / runs,
                100.0 * n[5] / runs,
                100.0 * n[6] / runs);
    }

    /** Returns perfab's comparison of the first {@code n} trials of each side. */
    private static Comparison robust(double[][] draw, int n, Thresholds t) {
        return KnownTests.TRIALS
                .judge(
                        Trials.of(Arrays.copyOf(draw[0], n)),
                        Trials.of(Arrays.copyOf(draw[1], n)),
                        Direction.LOWER_IS_BETTER,
                        t,
                        false)
                .comparison();
    }

    /** Returns one run's trials of one build per side, {@code [side][trial]}, in the order they ran. */
    private static double[][] inOrder(Case c, Random random) {
        double[][] sides = new double[2][c.n()];
        boolean[] slowed = exactlyOneInFive(c, random);
        for (int pair = 0; pair < c.n(); pair++) {
            for (int k = 0; k < 2; k++) {
                int s = pair % 2 == 0 ? k : 1 - k;
                double level = s == 0 ? 100 : 100 * (1 + c.effect() / 100);
                double drift = c.noise() == Noise.DRIFT ? 1 + 0.03 * (2 * pair + k) / (2.0 * c.n()) : 1;
                double partial = s == 1 && slowed[pair] ? 1.3 : 1;
                sides[s][pair] = level * drift * partial * noise(c, s, random);
            }
        }
        return sides;
    }

    /**
     * The false alarms and findings of a suite of cells.
     *
     * @param allFound the share of runs in which every truly changed cell was a regression, in percent
     * @param falseRegressions regressions among unchanged cells, per run
     * @param falseHeadline the share of runs, in percent, whose headline counts a regression or an
     *     improvement among the unchanged cells
     * @param meanTrials the trials per side a run took, on average
     */
    public record SuiteRates(double allFound, double falseRegressions, double falseHeadline, double meanTrials) {}

    /**
     * Returns how a suite of {@code cells} cells fares, {@code changed} of them truly slower by
     * {@code effect} percent, the rest unchanged, all with {@code noise} of {@code cv} percent and
     * {@code n} trials per side, each judged by perfab's rule ({@link Comparison#judge}; code layout
     * on the medians of the builds): cell by cell when {@code fdr} is NaN, else together, with
     * Benjamini-Hochberg at {@code fdr}.
     */
    public static SuiteRates suite(
            Noise noise,
            int cells,
            int changed,
            double effect,
            double cv,
            int n,
            double fdr,
            int runs,
            Random random,
            Thresholds thresholds) {
        int allFound = 0;
        int falseHeadline = 0;
        long falseRegressions = 0;
        for (int r = 0; r < runs; r++) {
            List<Comparison> comparisons = new ArrayList<>();
            for (int i = 0; i < cells; i++) {
                double[][][] draw = draw(new Case(noise, cv, n, i < changed ? effect : 0), random);
                // Code layout shows between builds: judged on their medians, as an A/B with several
                // builds per side is.
                ShiftTest test = noise == Noise.LAYOUT ? KnownTests.PERFAB : KnownTests.TRIALS;
                comparisons.add(test.judge(side(draw[0]), side(draw[1]), Direction.LOWER_IS_BETTER, thresholds, false)
                        .comparison());
            }
            List<Comparison> judged =
                    Double.isNaN(fdr) ? comparisons : FalseDiscovery.apply(comparisons, thresholds.withFdr(fdr));
            boolean all = true;
            boolean headline = false;
            for (int i = 0; i < cells; i++) {
                Verdict v = judged.get(i).verdict();
                boolean regression = v == Verdict.REGRESSION;
                if (i < changed) {
                    all &= regression;
                } else {
                    falseRegressions += regression ? 1 : 0;
                    headline |= regression || v == Verdict.IMPROVEMENT;
                }
            }
            allFound += all ? 1 : 0;
            falseHeadline += headline ? 1 : 0;
        }
        return new SuiteRates(
                100.0 * allFound / runs, (double) falseRegressions / runs, 100.0 * falseHeadline / runs, n);
    }

    /**
     * Returns how a suite fares with adaptive trials ({@code first} trials per side, then rounds of
     * as many while a cell is undecided, up to {@code max}), as a run of perfab judges it: each look
     * judges every cell on the trials so far at its level, together (Benjamini-Hochberg at
     * that share) when {@code together}; a cell's standing look decides it (see
     * {@link Sequential#standing}). The figures are those of {@link #suite}, and
     * {@link SuiteRates#meanTrials} the trials per side the runs took.
     */
    public static SuiteRates suiteAdaptive(
            Noise noise,
            int cells,
            int changed,
            double effect,
            double cv,
            int first,
            int max,
            boolean together,
            int runs,
            Random random,
            Thresholds thresholds) {
        Sequential design = new Sequential(first, max);
        Thresholds adaptive = thresholds.withAdaptive(design);
        int allFound = 0;
        int falseHeadline = 0;
        long falseRegressions = 0;
        long trials = 0;
        List<Integer> sizes = design.looks();
        for (int r = 0; r < runs; r++) {
            double[][][] draws = new double[cells][][];
            for (int i = 0; i < cells; i++) {
                draws[i] = inOrder(new Case(noise, cv, max, i < changed ? effect : 0), random);
            }
            List<List<Comparison>> seen = new ArrayList<>();
            for (int i = 0; i < cells; i++) {
                seen.add(new ArrayList<>());
            }
            int used = 0;
            for (int k = 1; k <= sizes.size(); k++) {
                used = sizes.get(k - 1);
                Thresholds at = adaptive.atLook(k);
                List<Comparison> look = new ArrayList<>();
                for (int i = 0; i < cells; i++) {
                    look.add(robust(draws[i], used, at));
                }
                if (together) {
                    look = FalseDiscovery.apply(look, at);
                }
                boolean undecided = false;
                for (int i = 0; i < cells; i++) {
                    seen.get(i).add(look.get(i));
                    undecided |= look.get(i).undecided(thresholds);
                }
                if (!undecided) {
                    break;
                }
            }
            trials += used;
            boolean all = true;
            boolean headline = false;
            for (int i = 0; i < cells; i++) {
                List<Comparison> looks = seen.get(i);
                Verdict v = looks.get(Sequential.standing(verdicts(looks))).verdict();
                if (i < changed) {
                    all &= v == Verdict.REGRESSION;
                } else {
                    falseRegressions += v == Verdict.REGRESSION ? 1 : 0;
                    headline |= v == Verdict.REGRESSION || v == Verdict.IMPROVEMENT;
                }
            }
            allFound += all ? 1 : 0;
            falseHeadline += headline ? 1 : 0;
        }
        return new SuiteRates(
                100.0 * allFound / runs,
                (double) falseRegressions / runs,
                100.0 * falseHeadline / runs,
                (double) trials / runs);
    }

    /**
     * What a runner does to a run's trials over time, beside each trial's own noise of
     * {@value #RUNNER_CV}%: the models that decide between Welch's test and the pairs. Every cell of
     * a run shares the runner's level at each place of the order.
     */
    public enum Runner {
        /** No movement of the runner: each trial's noise is its own. */
        INDEPENDENT("independent"),
        /** A slow drift: the level takes a random step of 1.5% (a logarithm's sd) at every trial. */
        WALK("random walk"),
        /** A slow drift: one wave of the level over the run, 8% high and low, at a random phase. */
        WAVE("wave"),
        /** Bursts of load: one in 20 trials starts a burst of 1 to 4 trials, 10 to 25% slower. */
        BURSTS("load bursts"),
        /**
         * A sticky slow mode: 15% slower, entered with a chance of 5% at each trial and left with
         * 15%; a quarter of runs start in it.
         */
        STICKY("sticky slow mode"),
        /** Two speeds drawn anew for each trial of each cell: half of them 1.4 times slower. */
        TWO_SPEEDS("two speeds"),
        /** A slot effect: the second trial of each pair 4% faster (a cache the first one warms). */
        SLOT("slot effect"),
        /** The mix a shared runner shows: a random walk of 0.5% a trial, bursts, a sticky slow mode. */
        SHARED("shared (mix)");

        private final String label;

        Runner(String label) {
            this.label = label;
        }

        /** The name a table shows. */
        public String label() {
            return label;
        }
    }

    /** Each trial's own noise under every {@link Runner}, in percent. */
    public static final double RUNNER_CV = 3;

    /**
     * How often a test gave each verdict under a runner model, in percent of cells, and how often
     * p fell under alpha at all.
     *
     * @param rates the verdicts
     * @param significant cells whose p was under alpha, in percent
     * @param inPairs runs whose cells the pairs judged, in percent
     */
    public record RunnerRates(Rates rates, double significant, double inPairs) {}

    /**
     * Returns how each {@link TrialTest} fares under {@code runner}: {@code runs} simulated runs of
     * {@code cells} cells each, {@code n} trials a side in the interleaved order (A B, B A, ...), every
     * cell truly changed by {@code effect} percent, each judged alone by perfab's rules
     * ({@link KnownTests#TRIALS}, or {@link KnownTests#PAIRS} where the run's {@link Pairing} says so),
     * every test on the same draws.
     */
    public static Map<TrialTest, RunnerRates> runner(
            Runner runner, int n, double effect, int cells, int runs, Random random, Thresholds thresholds) {
        Map<TrialTest, int[]> counts = new EnumMap<>(TrialTest.class);
        Map<TrialTest, int[]> extra = new EnumMap<>(TrialTest.class);
        for (TrialTest t : TrialTest.values()) {
            counts.put(t, new int[7]);
            extra.put(t, new int[2]);
        }
        for (int r = 0; r < runs; r++) {
            double[] level = runnerLevel(runner, 2 * n, random);
            List<Trials[]> run = new ArrayList<>();
            for (int c = 0; c < cells; c++) {
                run.add(runnerCell(runner, level, n, effect, random));
            }
            for (TrialTest t : TrialTest.values()) {
                Pairing pairing = Pairing.decide(t, run);
                ShiftTest test = pairing.inPairs() ? KnownTests.PAIRS : KnownTests.TRIALS;
                extra.get(t)[1] += pairing.inPairs() ? 1 : 0;
                for (Trials[] cell : run) {
                    Comparison c = test.judge(cell[0], cell[1], Direction.LOWER_IS_BETTER, thresholds, false)
                            .comparison();
                    count(counts.get(t), c.verdict());
                    extra.get(t)[0] += c.pValue() < thresholds.alpha() ? 1 : 0;
                }
            }
        }
        Map<TrialTest, RunnerRates> out = new EnumMap<>(TrialTest.class);
        for (TrialTest t : TrialTest.values()) {
            out.put(
                    t,
                    new RunnerRates(
                            rates(counts.get(t), runs * cells),
                            100.0 * extra.get(t)[0] / (runs * cells),
                            100.0 * extra.get(t)[1] / runs));
        }
        return out;
    }

    /** Returns the runner's level, a logarithm, at each of {@code places} places of a run's order. */
    private static double[] runnerLevel(Runner runner, int places, Random random) {
        double[] level = new double[places];
        switch (runner) {
            case WALK, SHARED -> {
                double step = runner == Runner.WALK ? 0.015 : 0.005;
                double at = 0;
                for (int i = 0; i < places; i++) {
                    at += random.nextGaussian() * step;
                    level[i] += at;
                }
            }
            case WAVE -> {
                double phase = random.nextDouble() * 2 * Math.PI;
                for (int i = 0; i < places; i++) {
                    level[i] += 0.08 * Math.sin(2 * Math.PI * i / places + phase);
                }
            }
            default -> {
                // the other runners move no level of their own here
            }
        }
        if (runner == Runner.BURSTS || runner == Runner.SHARED) {
            for (int i = 0; i < places; ) {
                if (random.nextDouble() < 0.05) {
                    int length = 1 + random.nextInt(4);
                    double slower = Math.log1p(0.10 + 0.15 * random.nextDouble());
                    for (int k = i; k < Math.min(places, i + length); k++) {
                        level[k] += slower;
                    }
                    i += length;
                } else {
                    i++;
                }
            }
        }
        if (runner == Runner.STICKY || runner == Runner.SHARED) {
            boolean slow = random.nextDouble() < 0.25;
            for (int i = 0; i < places; i++) {
                level[i] += slow ? Math.log(1.15) : 0;
                slow = slow ? random.nextDouble() >= 0.15 : random.nextDouble() < 0.05;
            }
        }
        return level;
    }

    /**
     * Returns one cell's trials on a runner at {@code level}: {@code n} pairs, the base first in even
     * pairs, each trial carrying its pair and place.
     */
    private static Trials[] runnerCell(Runner runner, double[] level, int n, double effect, Random random) {
        double[][] values = new double[2][n];
        int[][] places = new int[2][n];
        for (int pair = 0; pair < n; pair++) {
            for (int k = 0; k < 2; k++) {
                int s = pair % 2 == 0 ? k : 1 - k;
                int place = 2 * pair + k;
                double v = 100 * Math.exp(level[place]) * (1 + random.nextGaussian() * RUNNER_CV / 100);
                if (runner == Runner.TWO_SPEEDS && random.nextDouble() < 0.5) {
                    v *= 1.4;
                }
                if (runner == Runner.SLOT && k == 1) {
                    v *= 0.96;
                }
                values[s][pair] = s == 1 ? v * (1 + effect / 100) : v;
                places[s][pair] = place;
            }
        }
        int[] pairs = new int[n];
        for (int i = 0; i < n; i++) {
            pairs[i] = i;
        }
        int[] builds = new int[n];
        return new Trials[] {
            Trials.inPairs(values[0], builds, pairs, places[0]), Trials.inPairs(values[1], builds, pairs, places[1])
        };
    }
}
