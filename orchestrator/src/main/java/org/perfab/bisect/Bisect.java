package org.perfab.bisect;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.perfab.ab.AbRun;
import org.perfab.failure.BadInputException;
import org.perfab.git.Commit;
import org.perfab.git.GitRepo;
import org.perfab.model.Bisection;
import org.perfab.model.CellComparison;
import org.perfab.model.RunResults;
import org.perfab.stats.Comparison;
import org.perfab.stats.ThresholdSettings;
import org.perfab.stats.Verdict;
import org.perfab.workload.CellGlob;

/**
 * Finds the first commit that made a cell worse, or says that no single commit explains it.
 *
 * <p>It checks that the bad commit is bad, then searches the first-parent line between the two
 * with A/Bs of one build per side, each of the good commit against a candidate. A candidate is bad
 * when a matching cell is a regression under the bisect's effect (1% by default, far below a pull
 * request's bar). The edge it finds is then rebuilt: the first bad commit and the one before it, each
 * with several builds per side and their layouts perturbed, judged on the median of each build. A
 * commit is named only when it is still bad and the one before still good, and no commit the search
 * judged bad is followed by one it judged good. Otherwise it blames code layout or noise, and says
 * why: a build's layout alone moves a cell by a percent or two, and a bisect that trusts one build
 * per side will name an innocent commit.
 */
public final class Bisect {
    private Bisect() {
    }

    /**
     * What to bisect.
     *
     * @param repository the git repository
     * @param good the ref of a commit without the change
     * @param bad the ref of a commit with it; {@code good} must be on its first-parent line
     * @param cells the cells to follow (a regression in any one makes a commit bad)
     * @param workload the workload file's path in each candidate's tree
     * @param trials counted trials per side of each A/B; empty for the workload's
     * @param builds builds per side when the edge is rebuilt, at least 2
     * @param effect the smallest change that counts, in percent
     * @param out the folder each step's run is kept in
     * @param cache a folder of reusable builds; empty for none
     * @param adaptive the most trials per side of a check or search step with adaptive trials (see
     *     {@link AbRun.Request}); empty for steps of a fixed size. The edge's rebuilds, with several
     *     builds per side, then run that many trials per side from the start.
     */
    public record Request(Path repository, String good, String bad, CellGlob cells, String workload,
            Optional<Integer> trials, int builds, double effect, Path out, Optional<Path> cache,
            Optional<Integer> adaptive) {
        public Request {
            if (builds < 2) {
                throw new BadInputException("--builds of a bisect's confirmation must be 2 or more, got " + builds);
            }
            if (!(effect > 0)) {
                throw new BadInputException("--min-effect must be above 0, got " + effect);
            }
        }
    }

    /** Runs the bisect and returns what it found. */
    public static Bisection run(Request request, AbRun.Context context) throws IOException, InterruptedException {
        Commit good;
        Commit bad;
        List<Commit> line;
        try (GitRepo git = GitRepo.open(request.repository())) {
            good = git.resolve(request.good());
            bad = git.resolve(request.bad());
            line = git.firstParents(good, bad);
        }
        List<Bisection.Step> steps = new ArrayList<>();
        context.events().note("bisect: " + line.size() + " commits from " + good.shortId() + " to " + bad.shortId());
        Bisection.Step check = step(request, context, good, bad, "check", 1, steps.size());
        steps.add(check);
        if (!check.bad()) {
            return new Bisection(request.cells().toString(), request.effect(), Optional.empty(),
                    Bisection.Outcome.NO_CHANGE, steps, List.of());
        }
        // line[hi] is bad; line[lo] is good (lo == -1: the good commit itself).
        int lo = -1;
        int hi = line.size() - 1;
        List<int[]> judged = new ArrayList<>(); // {index, bad}
        judged.add(new int[] {hi, 1});
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            Bisection.Step s = step(request, context, good, line.get(mid), "search", 1, steps.size());
            steps.add(s);
            judged.add(new int[] {mid, s.bad() ? 1 : 0});
            if (s.bad()) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        List<String> evidence = new ArrayList<>();
        for (int[] a : judged) {
            for (int[] b : judged) {
                if (a[0] < b[0] && a[1] == 1 && b[1] == 0) {
                    evidence.add(String.format(Locale.ROOT, "neighbours out of order: %s was bad, and the later %s good",
                            line.get(a[0]).shortId(), line.get(b[0]).shortId()));
                }
            }
        }
        Bisection.Step edge = step(request, context, good, line.get(hi), "confirm", request.builds(), steps.size());
        steps.add(edge);
        if (!edge.bad()) {
            evidence.add(String.format(Locale.ROOT, "%s was bad with one build per side, but not with %d builds whose"
                    + " layouts differ (%s, p %s)", line.get(hi).shortId(), request.builds(), pct(edge.pctChange()),
                    p(edge.pValue())));
        }
        if (!Double.isNaN(edge.buildSpread()) && edge.buildSpread() >= Math.abs(edge.pctChange())) {
            evidence.add(String.format(Locale.ROOT, "builds of one commit spread by %s, as much as the change (%s):"
                    + " code layout alone moves the cell that far", pct(edge.buildSpread()).substring(1),
                    pct(edge.pctChange())));
        }
        if (lo >= 0) {
            Bisection.Step before = step(request, context, good, line.get(lo), "confirm", request.builds(),
                    steps.size());
            steps.add(before);
            if (before.bad()) {
                evidence.add(String.format(Locale.ROOT, "%s, before the edge, is bad too when rebuilt with %d builds"
                        + " (%s)", line.get(lo).shortId(), request.builds(), pct(before.pctChange())));
            }
        }
        boolean named = edge.bad() && evidence.isEmpty();
        return new Bisection(request.cells().toString(), request.effect(),
                named ? Optional.of(line.get(hi).id()) : Optional.empty(),
                named ? Bisection.Outcome.FOUND : Bisection.Outcome.NO_SINGLE_COMMIT, steps,
                named ? List.of() : evidence);
    }

    /** Runs one A/B of {@code good} against {@code candidate}, and judges the candidate. */
    private static Bisection.Step step(Request request, AbRun.Context context, Commit good, Commit candidate,
            String purpose, int builds, int number) throws IOException, InterruptedException {
        context.events().note(String.format(Locale.ROOT, "bisect step %d (%s): %s %s against %s, %d build%s per side",
                number + 1, purpose, candidate.shortId(), candidate.subject(), good.shortId(), builds,
                builds == 1 ? "" : "s"));
        Path out = request.out().resolve("steps").resolve(String.format(Locale.ROOT, "%02d-%s-%s", number + 1, purpose,
                candidate.shortId()));
        ThresholdSettings thresholds = new ThresholdSettings(Optional.empty(), Optional.of(request.effect()),
                Optional.of(Math.max(10, request.effect())));
        AbRun.Request ab = new AbRun.Request(request.repository(), good.id(), candidate.id(), request.workload(),
                builds > 1 && request.adaptive().isPresent() ? request.adaptive() : request.trials(), builds, out, request.cache(), Optional.empty(), thresholds, false, false, List.of(),
                builds > 1, Optional.empty(), Optional.of(builds > 1 ? 0 : request.adaptive().orElse(0)), Optional.empty());
        RunResults results = AbRun.run(ab, context);
        CellComparison worst = null;
        for (CellComparison row : results.table().rows()) {
            if (request.cells().matches(row.cell())
                    && (worst == null || worse(row) > worse(worst))) {
                worst = row;
            }
        }
        if (worst == null) {
            throw new BadInputException("no cell of " + candidate.shortId() + " matches '" + request.cells() + "'");
        }
        Comparison c = worst.comparison();
        return new Bisection.Step(candidate.id(), candidate.subject(), purpose, builds,
                worst.cell().name() + " " + worst.cell().metric(), c.verdict().id(), c.pctChange(), c.ciLow(),
                c.ciHigh(), c.pValue(), worst.buildSpread(), c.verdict() == Verdict.REGRESSION);
    }

    /** Returns how much worse a row is, in percent: its change with the sign of its direction's harm. */
    private static double worse(CellComparison row) {
        double pct = row.comparison().pctChange();
        if (Double.isNaN(pct)) {
            return Double.NEGATIVE_INFINITY;
        }
        return row.cell().direction().isWorse(0, 1) ? pct : -pct;
    }

    private static String pct(double v) {
        return String.format(Locale.ROOT, "%+.1f%%", v);
    }

    private static String p(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.2g", v);
    }
}
