package org.perfab.calibrate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import org.perfab.ab.AbRun;
import org.perfab.ab.Engine;
import org.perfab.ab.Events;
import org.perfab.demo.ProcessCalibration;
import org.perfab.exec.Processes;
import org.perfab.failure.BadInputException;
import org.perfab.model.CalibrationFigures;
import org.perfab.model.RealRuns;
import org.perfab.model.Side;
import org.perfab.model.Simulation;
import org.perfab.model.Simulation.AdaptiveRow;
import org.perfab.model.Simulation.Earned;
import org.perfab.model.Simulation.Figure;
import org.perfab.model.Simulation.NoiseTable;
import org.perfab.model.Simulation.Row;
import org.perfab.model.Simulation.Suite;
import org.perfab.model.Simulation.Target;
import org.perfab.stats.Calibration;
import org.perfab.stats.Calibration.Method;
import org.perfab.stats.Calibration.Noise;
import org.perfab.stats.Calibration.Rates;
import org.perfab.stats.Thresholds;

/**
 * perfab's calibration: a grid of simulated cases judged every way on the same draws
 * ({@link #simulate}), then real A/B runs on this machine; {@link #run} returns both as one value
 * for the command line to render (as {@code calibrate.EXT}).
 */
public final class Calibrate {
    /** The true slowdowns of the simulated cases, in percent; 0 is an A/A. */
    static final List<Double> EFFECTS = List.of(0.0, 2.0, 3.0, 5.0, 10.0);
    /** The true speed-ups simulated for the wrong signs alone, in percent. */
    static final List<Double> SPEED_UPS = List.of(-10.0, -5.0);
    /** The coefficients of variation of the simulated cases, in percent. */
    static final double[] CVS = {1, 3, 10};
    /** The trials per side of the simulated cases. */
    static final int[] TRIALS = {5, 10, 20};
    /** The commits of the real runs: the slowdown each makes, in percent; 0 is the A/A. */
    static final List<Integer> REAL_EFFECTS = List.of(0, 3, 5, 10);
    /** Trials per side of each real run. */
    static final int REAL_TRIALS = 5;

    private Calibrate() {}

    /**
     * What to calibrate.
     *
     * @param runs simulated runs per case, at least 1
     * @param seed the seed of every simulated draw
     * @param noises the noises to simulate, in this order; empty for all
     * @param abRuns real A/B runs of each of {@link #REAL_EFFECTS}, 0 to 1000
     * @param dir where the real runs go; empty for a new temporary folder
     * @param thresholds the verdict rules' settings every method is judged with
     */
    public record Request(
            int runs, long seed, List<Noise> noises, int abRuns, Optional<Path> dir, Thresholds thresholds) {
        public Request {
            if (runs < 1) {
                throw new IllegalArgumentException("--runs must be at least 1, got " + runs);
            }
            if (abRuns < 0 || abRuns > 1000) {
                throw new IllegalArgumentException("--ab-runs must be from 0 to 1000, got " + abRuns);
            }
            noises = List.copyOf(noises);
            Objects.requireNonNull(dir, "dir");
            Objects.requireNonNull(thresholds, "thresholds");
        }

        /** Returns the noises simulated: those asked for, or all. */
        public List<Noise> simulated() {
            return noises.isEmpty() ? List.of(Noise.values()) : noises;
        }
    }

    /**
     * What a calibration tells its caller while it runs, for the command to word and show: the
     * simulation's figures before the real runs (35 minutes to an hour by default), where those go,
     * and each as it ends.
     */
    public interface Listener {
        /** The simulation is done and real runs follow. */
        void simulated(Simulation simulation);

        /** The real runs start in {@code root}: {@code runs} of each effect, {@code trials} trials per side. */
        void started(Path root, int runs, int trials);

        /** A real run ended. */
        void ran(ProcessCalibration.Ran run);
    }

    /**
     * Returns what {@code request} asks for: the simulation, then the real runs on this machine
     * when it asks for any, rendered once at the end; {@code listener} hears of both as they go
     * (of nothing when there are no real runs). The runs are real processes whatever
     * {@code context}'s engine: their comment and report are its.
     *
     * @throws BadInputException when real runs are asked for and there is no {@code java} on PATH,
     *     which the subject's build and harness run
     */
    public static CalibrationFigures run(Request request, AbRun.Context context, Listener listener)
            throws IOException, InterruptedException {
        if (request.abRuns() > 0 && Processes.find("java", context.env()).isEmpty()) {
            throw new BadInputException("the calibration's build and harness run 'java' from PATH, and there is none");
        }
        Simulation simulation = simulate(request);
        if (request.abRuns() == 0) {
            return new CalibrationFigures(simulation, Optional.empty());
        }
        listener.simulated(simulation);
        return new CalibrationFigures(simulation, Optional.of(processes(request, context, listener)));
    }

    /** Returns the simulation {@code request} asks for: every figure from one seeded generator. */
    public static Simulation simulate(Request request) {
        int n = request.runs();
        Thresholds t = request.thresholds();
        Random random = new Random(request.seed());
        Map<List<Object>, Map<Method, Rates>> seen = new LinkedHashMap<>();
        List<NoiseTable> tables = noiseTables(request, random, seen);
        List<AdaptiveRow> adaptive = adaptive(request, random);
        // Suites cost a run of every cell each: a quarter of the runs of a single cell, and a tenth of
        // that for the suites of 1,000 cells. As few as the runs asked for make a coarse table, but
        // never more runs than asked for.
        int suiteRuns = Math.max(Math.min(n, 10), n / 4);
        int bigRuns = Math.max(Math.min(n, 5), suiteRuns / 10);
        Suites fixed = new Suites(random, t, false);
        for (Noise noise : List.of(Noise.NORMAL, Noise.HEAVY_TAIL_10)) {
            for (int cells : new int[] {10, 20, 40, 100}) {
                fixed.add(noise, cells, 0, 0, 3, Figure.HEADLINE, suiteRuns);
            }
        }
        // Every noise that leaves some code unchanged (a partial slowdown never does), at 5 trials,
        // where judging together is hardest.
        for (Noise noise : request.simulated()) {
            if (noise != Noise.PARTIAL && noise != Noise.PARTIAL_EXACT) {
                for (int cells : new int[] {50, 200}) {
                    fixed.add(noise, cells, 0, 0, 3, Figure.HEADLINE, suiteRuns);
                }
            }
        }
        fixed.add(Noise.NORMAL, 20, 1, 10, 3, Figure.FOUND, suiteRuns);
        fixed.add(Noise.NORMAL, 40, 2, 8, 1, Figure.FOUND, suiteRuns);
        fixed.add(Noise.NORMAL, 1000, 1, 5, 1, Figure.FOUND, bigRuns);
        fixed.add(Noise.NORMAL, 1000, 1, 5, 1, 10, Figure.FOUND, bigRuns);
        Suites adaptiveSuites = new Suites(random, t, true);
        for (int cells : new int[] {5, 10, 20, 40}) {
            adaptiveSuites.add(Noise.NORMAL, cells, 0, 0, 3, Figure.HEADLINE, suiteRuns);
        }
        for (int cells : new int[] {5, 10, 20, 40}) {
            adaptiveSuites.add(Noise.NORMAL, cells, 1, 10, 3, Figure.FOUND, suiteRuns);
        }
        fixed.add(Noise.NORMAL, 1000, 0, 0, 3, Figure.FALSE_REGRESSIONS, bigRuns);
        List<Earned> earned = earned(request, seen, random);
        List<Simulation.RunnerRow> runners = runners(n, random, t);
        return new Simulation(
                n,
                request.seed(),
                t,
                EFFECTS,
                tables,
                targets(seen, t),
                earned,
                adaptive,
                fixed.suites,
                adaptiveSuites.suites,
                runners);
    }

    /**
     * Returns a table per simulated noise of every method's rates at each coefficient of variation,
     * number of trials and effect, drawn from {@code random}; puts each case's rates in {@code seen}.
     */
    private static List<NoiseTable> noiseTables(
            Request request, Random random, Map<List<Object>, Map<Method, Rates>> seen) {
        int n = request.runs();
        Thresholds t = request.thresholds();
        List<NoiseTable> tables = new ArrayList<>();
        for (Noise noise : request.simulated()) {
            List<Row> rows = new ArrayList<>();
            for (double cv : CVS) {
                for (int trials : TRIALS) {
                    Map<Method, List<Rates>> byMethod = new LinkedHashMap<>();
                    for (Method m : Method.values()) {
                        byMethod.put(m, new ArrayList<>());
                    }
                    for (double e : EFFECTS) {
                        Map<Method, Rates> rates =
                                Calibration.run(new Calibration.Case(noise, cv, trials, e), n, random, t);
                        seen.put(List.of(noise, cv, trials, e), rates);
                        rates.forEach((m, r) -> byMethod.get(m).add(r));
                    }
                    rows.add(new Row(cv, trials, byMethod));
                }
            }
            tables.add(new NoiseTable(noise, rows));
        }
        return tables;
    }

    /**
     * Returns adaptive trials (5, up to 20 per side) against 5 and 20, at each coefficient of variation
     * and effect, for each of the normal, outlier and heavy-tailed noises simulated, drawn from
     * {@code random}.
     */
    private static List<AdaptiveRow> adaptive(Request request, Random random) {
        int n = request.runs();
        Thresholds t = request.thresholds();
        List<AdaptiveRow> adaptive = new ArrayList<>();
        for (Noise noise : List.of(Noise.NORMAL, Noise.OUTLIERS, Noise.HEAVY_TAIL_10)) {
            if (!request.simulated().contains(noise)) {
                continue;
            }
            for (double cv : CVS) {
                List<Calibration.AdaptiveRates> byEffect = new ArrayList<>();
                for (double e : EFFECTS) {
                    byEffect.add(Calibration.adaptive(new Calibration.Case(noise, cv, 5, e), 20, n, random, t));
                }
                adaptive.add(new AdaptiveRow(noise, cv, byEffect));
            }
        }
        return adaptive;
    }

    /**
     * Returns the runner models: {@code n} runs of several cells sharing the runner's movement, at each
     * number of trials, unchanged and 5% slower, every test on the same draws from {@code random}.
     */
    private static List<Simulation.RunnerRow> runners(int n, Random random, Thresholds t) {
        List<Simulation.RunnerRow> runners = new ArrayList<>();
        for (Calibration.Runner runner : Calibration.Runner.values()) {
            for (int trials : TRIALS) {
                runners.add(new Simulation.RunnerRow(
                        runner,
                        trials,
                        Calibration.runner(runner, trials, 0, Simulation.RUNNER_CELLS, n, random, t),
                        Calibration.runner(runner, trials, 5, Simulation.RUNNER_CELLS, n, random, t)));
            }
        }
        return runners;
    }

    /** The suites of one kind, simulated in the order they are added. */
    private static final class Suites {
        private final Random random;
        private final Thresholds thresholds;
        private final boolean adaptive;
        private final List<Suite> suites = new ArrayList<>();

        Suites(Random random, Thresholds thresholds, boolean adaptive) {
            this.random = random;
            this.thresholds = thresholds;
            this.adaptive = adaptive;
        }

        void add(Noise noise, int cells, int changed, double effect, double cv, Figure figure, int runs) {
            add(noise, cells, changed, effect, cv, 5, figure, runs);
        }

        void add(Noise noise, int cells, int changed, double effect, double cv, int trials, Figure figure, int runs) {
            Calibration.SuiteRates alone = rates(noise, cells, changed, effect, cv, trials, false, runs);
            Calibration.SuiteRates together = rates(noise, cells, changed, effect, cv, trials, true, runs);
            suites.add(new Suite(noise, cells, changed, effect, cv, trials, adaptive, figure, alone, together));
        }

        private Calibration.SuiteRates rates(
                Noise noise, int cells, int changed, double effect, double cv, int trials, boolean together, int runs) {
            if (adaptive) {
                return Calibration.suiteAdaptive(
                        noise, cells, changed, effect, cv, trials, 20, together, runs, random, thresholds);
            }
            return Calibration.suite(
                    noise,
                    cells,
                    changed,
                    effect,
                    cv,
                    trials,
                    together ? thresholds.alpha() : Double.NaN,
                    runs,
                    random,
                    thresholds);
        }
    }

    /**
     * Returns the targets on false alarms and power at CV 1% the simulation reached: outlier trials
     * at 5, 10 and 20 trials per side, one trial in ten 1.5 times slower at 20.
     */
    private static List<Target> targets(Map<List<Object>, Map<Method, Rates>> seen, Thresholds thresholds) {
        List<Target> targets = new ArrayList<>();
        List<Object[]> cases = List.of(
                new Object[] {Noise.OUTLIERS, 5},
                new Object[] {Noise.OUTLIERS, 10},
                new Object[] {Noise.OUTLIERS, 20},
                new Object[] {Noise.HEAVY_TAIL_10, 20});
        for (Object[] c : cases) {
            Map<Method, Rates> aa = seen.get(List.of(c[0], 1.0, c[1], 0.0));
            Map<Method, Rates> five = seen.get(List.of(c[0], 1.0, c[1], 5.0));
            if (aa == null || five == null) {
                continue;
            }
            double falseRate = aa.get(Method.PERFAB).regression();
            double power = five.get(Method.PERFAB).regression();
            double benchstat = five.get(Method.MANN_WHITNEY).regression();
            // A heavy tail of one trial in ten puts four or more of twenty on the candidate and none
            // on the baseline in about 1.5% of runs: what a slowdown of one trial in five looks
            // like, which perfab must flag. Its false regressions are held under half of alpha.
            double most = c[0] == Noise.HEAVY_TAIL_10 ? thresholds.alpha() * 100 / 2 : 1;
            targets.add(new Target(
                    (Noise) c[0],
                    (Integer) c[1],
                    falseRate,
                    power,
                    benchstat,
                    most,
                    falseRate <= most && power >= benchstat));
        }
        return targets;
    }

    /**
     * Returns whether every verdict was earned, by noise and trials per side (see {@link Earned}):
     * from the cases already simulated, and from cases of a true speed-up of 5% and 10%, simulated
     * here on the same generator, for the wrong signs.
     */
    private static List<Earned> earned(Request request, Map<List<Object>, Map<Method, Rates>> seen, Random random) {
        List<Earned> earned = new ArrayList<>();
        for (Noise noise : request.simulated()) {
            Method perfab = noise == Noise.LAYOUT ? Method.BUILD_MEDIANS : Method.PERFAB;
            for (int trials : TRIALS) {
                double passes = 0;
                double wrong = 0;
                double benchstatWrong = 0;
                double small = Double.NaN;
                List<Double> found = new ArrayList<>();
                List<Double> benchstatFound = new ArrayList<>();
                for (double cv : CVS) {
                    Map<Double, Map<Method, Rates>> byEffect = new LinkedHashMap<>();
                    for (double e : EFFECTS) {
                        byEffect.put(e, seen.get(List.of(noise, cv, trials, e)));
                    }
                    for (double e : SPEED_UPS) {
                        byEffect.put(
                                e,
                                Calibration.run(
                                        new Calibration.Case(noise, cv, trials, e),
                                        request.runs(),
                                        random,
                                        request.thresholds()));
                    }
                    double passShare = 0;
                    int slowdowns = 0;
                    double wrongShare = 0;
                    double benchstatShare = 0;
                    int changes = 0;
                    for (Map.Entry<Double, Map<Method, Rates>> e : byEffect.entrySet()) {
                        double truth = Calibration.truth(new Calibration.Case(noise, cv, trials, e.getKey()));
                        Rates r = e.getValue().get(perfab);
                        Rates b = e.getValue().get(Method.MANN_WHITNEY);
                        // A partial slowdown drawn at random may slow none of a draw's trials:
                        // a pass is on a slowdown only where its effect alone is one.
                        if ((noise == Noise.PARTIAL ? e.getKey() : truth) >= 2) {
                            passShare += r.unchanged();
                            slowdowns++;
                        }
                        if (Math.abs(truth) >= 5) {
                            wrongShare += truth > 0 ? r.improvement() : r.regression() + r.small();
                            benchstatShare += truth > 0 ? b.improvement() : b.regression() + b.small();
                            changes++;
                        }
                        if (truth == 0) {
                            small = Double.isNaN(small) ? r.small() : Math.max(small, r.small());
                        }
                        if (cv == 3 && (e.getKey() == 5 || e.getKey() == 10)) {
                            found.add(r.regression());
                            benchstatFound.add(b.regression());
                        }
                    }
                    passes = Math.max(passes, passShare / slowdowns);
                    wrong = Math.max(wrong, changes == 0 ? 0 : wrongShare / changes);
                    benchstatWrong = Math.max(benchstatWrong, changes == 0 ? 0 : benchstatShare / changes);
                }
                earned.add(new Earned(noise, trials, passes, wrong, benchstatWrong, small, found, benchstatFound));
            }
        }
        return earned;
    }

    /**
     * Runs the real A/Bs {@code request} asks for on this machine: {@code abRuns} of each of
     * {@link #REAL_EFFECTS}, {@value #REAL_TRIALS} trials per side, telling {@code listener} where
     * they go and of each as it ends.
     */
    private static RealRuns processes(Request request, AbRun.Context context, Listener listener)
            throws IOException, InterruptedException {
        Path root = request.dir().isPresent() ? request.dir().get() : Files.createTempDirectory("perfab-calibrate-");
        listener.started(root, request.abRuns(), REAL_TRIALS);
        AbRun.Context quiet = new AbRun.Context(
                QUIET,
                context.env(),
                context.clock(),
                context.comment(),
                context.report(),
                Engine.REAL); // the calibration of real runs is of the machine's processes
        return ProcessCalibration.run(root, REAL_EFFECTS, request.abRuns(), REAL_TRIALS, quiet, listener::ran);
    }

    /** Events nobody watches: the listener hears of each run instead, not of its trials. */
    private static final Events QUIET = new Events() {
        @Override
        public void note(String text) {}

        @Override
        public void planned(int total, int done) {}

        @Override
        public void starting(Side side, boolean warmup, int trial, int ofSide) {}

        @Override
        public void finished(Side side, boolean warmup, int trial, int ofSide, double seconds, String status) {}
    };
}
