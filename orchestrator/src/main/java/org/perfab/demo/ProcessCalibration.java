package org.perfab.demo;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.perfab.ab.AbRequest;
import org.perfab.ab.AbRun;
import org.perfab.model.CellComparison;
import org.perfab.model.RealRuns;
import org.perfab.model.RunResults;
import org.perfab.stats.Sample;
import org.perfab.stats.Verdict;

/**
 * perfab's calibration on real processes: real A/B runs of the calibration subject (see
 * {@link CalibrationRepository}) on this machine, for commits that slow {@code target} by known
 * amounts and for an A/A, the runs of every effect taking turns so that the machine's drift over
 * the calibration weighs on all alike. Counts how often {@code target} is found, how often the
 * cells no commit changes are called regressions, and what share of each run perfab itself took.
 */
public final class ProcessCalibration {
    private ProcessCalibration() {}

    /**
     * One real run ended.
     *
     * @param done the runs ended so far, this one included
     * @param total the runs in all
     * @param effect the slowdown in percent the run's head has (0 for an A/A)
     * @param target the verdict of the cell the slowdown is in
     * @param seconds how long the run took
     */
    public record Ran(int done, int total, int effect, Verdict target, double seconds) {}

    /**
     * Makes the repository in {@code dir}, then {@code runs} A/B runs of each of {@code effects}
     * with {@code trials} trials per side, and returns the figures of each, in the order of
     * {@code effects}. The runs tell {@code context} what they do; {@code ran} hears of each run as
     * it ends. At least one run.
     */
    public static RealRuns run(
            Path dir, List<Integer> effects, int runs, int trials, AbRun.Context context, Consumer<Ran> ran)
            throws IOException, InterruptedException {
        Path repo = dir.resolve("repo");
        CalibrationRepository.create(repo, effects.stream().filter(e -> e != 0).toList());
        Map<Integer, List<RunResults>> byEffect = new LinkedHashMap<>();
        effects.forEach(e -> byEffect.put(e, new ArrayList<>()));
        int done = 0;
        for (int i = 0; i < runs; i++) {
            for (int effect : effects) {
                Path out = dir.resolve("runs").resolve(String.format(Locale.ROOT, "%02d-%03d", effect, i));
                AbRequest request = AbRequest.of(
                                repo, "main", effect == 0 ? "main" : CalibrationRepository.branch(effect), out)
                        .trials(Optional.of(trials))
                        .builds(Optional.of(1))
                        .cache(Optional.of(dir.resolve("cache")))
                        .adaptive(Optional.of(0))
                        .build();
                RunResults r = AbRun.run(request, context);
                byEffect.get(effect).add(r);
                done++;
                ran.accept(new Ran(
                        done,
                        runs * effects.size(),
                        effect,
                        target(r).comparison().verdict(),
                        r.timing().total()));
            }
        }
        List<RealRuns.Commit> commits = new ArrayList<>();
        byEffect.forEach((effect, results) -> commits.add(commit(effect, results)));
        return new RealRuns(
                dir, runs, trials, byEffect.get(effects.get(0)).get(0).machine(), commits);
    }

    private static RealRuns.Commit commit(int effect, List<RunResults> results) {
        int found = 0;
        int inconclusive = 0;
        int unchangedCells = 0;
        int falseRegressions = 0;
        int falseInconclusive = 0;
        double[] change = new double[results.size()];
        List<Double> cvs = new ArrayList<>();
        double own = 0;
        double total = 0;
        for (int i = 0; i < results.size(); i++) {
            RunResults r = results.get(i);
            for (CellComparison row : r.table().rows()) {
                Verdict v = row.comparison().verdict();
                cvs.add(row.comparison().base().cv());
                cvs.add(row.comparison().head().cv());
                if (row.cell().name().equals("target") && effect != 0) {
                    found += v == Verdict.REGRESSION ? 1 : 0;
                    inconclusive += v == Verdict.INCONCLUSIVE ? 1 : 0;
                } else {
                    unchangedCells++;
                    falseRegressions += v == Verdict.REGRESSION ? 1 : 0;
                    falseInconclusive += v == Verdict.INCONCLUSIVE ? 1 : 0;
                }
            }
            change[i] = target(r).comparison().pctChange();
            own += r.timing().checkout() + r.timing().overhead();
            total += r.timing().total();
        }
        int n = results.size();
        return new RealRuns.Commit(
                effect,
                n,
                effect == 0 ? Double.NaN : 100.0 * found / n,
                effect == 0 ? Double.NaN : 100.0 * inconclusive / n,
                100.0 * falseRegressions / unchangedCells,
                100.0 * falseInconclusive / unchangedCells,
                median(change),
                median(cvs.stream().mapToDouble(Double::doubleValue).toArray()),
                100.0 * own / total,
                total / n);
    }

    private static CellComparison target(RunResults r) {
        return r.table().rows().stream()
                .filter(row -> row.cell().name().equals("target"))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("the calibration subject measured no 'target' cell"));
    }

    /** Returns the median of the values that are numbers; NaN when none is. */
    private static double median(double[] values) {
        return Sample.median(Arrays.stream(values).filter(v -> !Double.isNaN(v)).toArray());
    }
}
