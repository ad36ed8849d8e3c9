package org.perfab.bisect;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.perfab.ab.AbRequest;
import org.perfab.ab.AbRun;
import org.perfab.ab.Engine;
import org.perfab.ab.RunSettings;
import org.perfab.ab.Setting;
import org.perfab.failure.BadInputException;
import org.perfab.failure.RunFailedException;
import org.perfab.failure.RunInterruptedException;
import org.perfab.git.Commit;
import org.perfab.git.GitRepo;
import org.perfab.model.Bisection;
import org.perfab.model.Bisection.Call;
import org.perfab.model.Bisection.Outcome;
import org.perfab.model.CellComparison;
import org.perfab.model.Ids;
import org.perfab.model.RunResults;
import org.perfab.stats.Caveat;
import org.perfab.stats.Comparison;
import org.perfab.stats.Direction;
import org.perfab.stats.ThresholdSettings;
import org.perfab.stats.Thresholds;
import org.perfab.stats.Verdict;
import org.perfab.workload.CellGlob;
import org.perfab.workload.Workload;
import org.perfab.workload.WorkloadLoader;

/**
 * Finds the first commit that made a cell worse, says that no single commit explains the change,
 * or says where it could not decide and what to run to decide.
 *
 * <p>It checks that the bad commit is worse than the good one, then searches the first-parent
 * line between them with A/Bs of the good commit against a candidate, each with adaptive trials
 * (more rounds while the followed cells are undecided). A search step is bad only when it shows a
 * real share of the change the check found, and good only when it rules out that share (see
 * {@code call}). A step that cannot be measured (its commit does not build, has no workload, its
 * trials all fail) is skipped, as {@code git bisect skip} does, and the search goes on around it.
 * A step that cannot decide stops the search: an undecided step is never taken for a good one.
 *
 * <p>Code layout moves a cell between builds of one commit, and one build per side measures one
 * layout against another. When the workload can shift layout ({@code build.perturb}), the check
 * is measured with several perturbed builds per side judged on their medians, which also tells
 * how far this workload's layouts spread; a search step is measured with one build, and again with
 * several when layout could decide its call (see {@code layoutCouldDecide}).
 *
 * <p>The commit the search ends at is then measured again, against the last good commit before
 * it, with at least as many trials as the search gave it (evidence is never overruled by less
 * evidence), and, when the workload can shift code layout ({@code build.perturb}), with several
 * builds per side judged on their medians. The commit is named only when that A/B finds it worse
 * by a real share of the change hunted. Code layout is blamed only when the builds really differed
 * (their outputs' digests) and their spread could make the move the search saw; otherwise a
 * confirmation that cannot decide ends inconclusive, with the candidates and a rerun that would
 * decide.
 */
public final class Bisect {
    /** The fewest trials per build when the edge is rebuilt: a median of fewer is a mean of two. */
    static final int TRIALS_PER_BUILD = 3;

    /**
     * What to bisect.
     *
     * @param repository the git repository
     * @param good the ref of a commit without the change
     * @param bad the ref of a commit with it; {@code good} must be on its first-parent line
     * @param cells the cells to follow (a regression in any one makes a commit bad)
     * @param workload the workload file's path in each candidate's tree
     * @param settings the bisect's settings, the command line's over the bisect's own (see
     *     {@link #trials()}, {@link #builds()}, {@link #effect()} and {@link #adaptive()}), each layered
     *     over a candidate's workload as every run's are ({@link RunSettings})
     * @param out the folder each step's run is kept in
     * @param cache a folder of reusable builds; empty for none
     * @param earlier an earlier run of this bisect, to go on from: a step it would run again with
     *     the same commits and builds whose call was decided (or skipped) is reused; empty for a new
     *     bisect
     */
    public record Request(
            Path repository,
            String good,
            String bad,
            CellGlob cells,
            String workload,
            RunSettings settings,
            Path out,
            Optional<Path> cache,
            Optional<Bisection> earlier) {
        public Request {
            int builds = builds(settings);
            if (builds < 2) {
                throw new BadInputException("--builds of a bisect's confirmation must be 2 or more, got " + builds);
            }
            if (!(settings.minEffect() > 0)) {
                throw new BadInputException("--min-effect must be above 0, got " + settings.minEffect());
            }
            Objects.requireNonNull(earlier, "earlier");
        }

        /** Returns the counted trials per side of each A/B's first round as given; empty for the workload's. */
        public Optional<Integer> trials() {
            return settings.trials().map(Setting::value);
        }

        /** Returns the builds per side when the edge is measured again and the workload shifts layout, at least 2. */
        public int builds() {
            return builds(settings);
        }

        /** Returns the builds {@code settings} give; a bisect's always give them (its own, 3). */
        private static int builds(RunSettings settings) {
            return settings.builds().orElseThrow().value();
        }

        /** Returns the smallest change that counts, in percent. */
        public double effect() {
            return settings.minEffect();
        }

        /**
         * Returns the most trials per side of a step of one build per side (see {@link AbRequest}), 0
         * for steps of a fixed size; empty for the workload's choice.
         */
        public Optional<Integer> adaptive() {
            return settings.adaptive().map(Setting::value);
        }
    }

    private final Request request;
    private final AbRun.Context context;
    private final Consumer<Bisection> save;
    private final List<Bisection.Step> steps = new ArrayList<>();
    private final List<Bisection.Step> reusable;
    private Commit good;
    private Commit bad;
    private Bisection.WorkloadFile workloadFile;
    private boolean stopped;
    /** The widest spread between builds that a step of several differing builds showed, in percent; NaN before one. */
    private double layoutSpread = Double.NaN;

    private Bisect(Request request, AbRun.Context context, Consumer<Bisection> save) {
        this.request = request;
        this.context = context;
        this.save = save;
        this.reusable = new ArrayList<>(request.earlier().map(Bisection::steps).orElse(List.of()));
    }

    /**
     * Runs the bisect and returns what it found. {@code save} is given the bisect as it stands
     * after every step ({@link Outcome#RUNNING}), at its end, and, on a signal, with the finished
     * steps ({@link Outcome#INTERRUPTED}); it must write atomically, as it may run on the thread of
     * a shutdown hook.
     *
     * @throws BadInputException for an unknown ref, a good commit not on the bad one's line, or a
     *     check step (the good and bad commits) that cannot be measured
     */
    public static Bisection run(Request request, AbRun.Context context, Consumer<Bisection> save)
            throws IOException, InterruptedException {
        return new Bisect(request, context, save).run();
    }

    private Bisection run() throws IOException, InterruptedException {
        List<Commit> line;
        try (GitRepo git = GitRepo.open(request.repository())) {
            good = git.resolve(request.good());
            bad = git.resolve(request.bad());
            line = git.firstParents(good, bad);
            workloadFile = new Bisection.WorkloadFile(
                    request.workload(),
                    git.read(bad, request.workload()).map(Bisect::sha256).orElse(""));
        }
        if (request.earlier().isPresent()) {
            Bisection e = request.earlier().get();
            if (!e.good().equals(good.id())
                    || !e.bad().equals(bad.id())
                    || !e.cell().equals(request.cells().toString())
                    || e.effect() != request.effect()) {
                throw new BadInputException("--resume: the bisect in " + request.out() + " is of " + e.cell() + " from "
                        + shortId(e.good()) + " to " + shortId(e.bad()) + " at " + e.effect() + "%, not of "
                        + request.cells() + " from " + good.shortId() + " to " + bad.shortId() + " at "
                        + request.effect() + "%");
            }
            if (!e.workload().equals(workloadFile)) {
                throw new BadInputException("--resume: the bisect in " + request.out() + " measured with the workload "
                        + e.workload() + ", not " + workloadFile + ": its steps would mix two workloads; go on with"
                        + " --workload " + e.workload().path() + ", or choose another --out");
            }
        }
        Engine.Registration hook;
        try {
            hook = context.engine().signals().register("perfab-bisect-interrupt", this::interrupted);
        } catch (IllegalStateException e) {
            return end(Outcome.INTERRUPTED, Optional.empty(), List.of(), List.of(), Optional.empty());
        }
        try {
            Bisection found = search(line);
            synchronized (this) {
                if (!stopped) {
                    save.accept(found);
                }
            }
            return found;
        } catch (RunInterruptedException e) {
            return end(Outcome.INTERRUPTED, Optional.empty(), List.of(), List.of(), Optional.empty());
        } finally {
            hook.close(); // while a signal's hook runs, it stays: it writes the finished steps
        }
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java has SHA-256", e);
        }
    }

    /** Runs on SIGINT or SIGTERM: writes the finished steps, and lets no other step begin. */
    private void interrupted() {
        synchronized (this) {
            stopped = true;
            save.accept(end(Outcome.INTERRUPTED, Optional.empty(), List.of(), List.of(), Optional.empty()));
        }
        context.events().note("bisect interrupted after " + steps.size() + " finished steps; continue with --resume");
    }

    private Bisection search(List<Commit> line) throws IOException, InterruptedException {
        context.events()
                .note("bisect: " + line.size() + " commits from " + good.shortId() + " to " + bad.shortId() + "; about "
                        + (searches(line.size()) + 2) + " steps");
        Bisection.Step check = check(line);
        if (check.call() == Call.SKIPPED) {
            throw new RunFailedException("the bad commit " + bad.shortId() + " cannot be measured against the good"
                    + " commit " + good.shortId() + ": " + check.reason());
        }
        if (check.call() == Call.GOOD) {
            return end(Outcome.NO_CHANGE, Optional.empty(), List.of(), List.of(), Optional.empty());
        }
        if (check.call() == Call.UNDECIDED) {
            return undecided(check, ids(line), "the bad commit may not be worse than the good one");
        }
        // A step is good when its interval rules out half the change the check found, in ratio, and
        // bad when it rules out less (see call); a step between is undecided, never good.
        double hunt = half(check.pctChange());
        int lo = -1; // line[lo] is good (-1: the good commit itself)
        int hi = line.size() - 1; // line[hi] is bad
        Bisection.Step edge = check;
        TreeSet<Integer> skipped = new TreeSet<>();
        while (true) {
            Optional<Integer> next = middle(lo, hi, skipped);
            if (next.isEmpty()) {
                break;
            }
            int mid = next.get();
            int left = searches(hi
                            - lo
                            - 1
                            - (int) skipped.subSet(lo, false, hi, false).size())
                    + 1;
            Bisection.Step s = searchStep(line.get(mid), hunt, left);
            switch (s.call()) {
                case BAD -> {
                    hi = mid;
                    edge = s;
                }
                case GOOD -> lo = mid;
                case SKIPPED -> skipped.add(mid);
                case UNDECIDED -> {
                    return undecided(
                            s,
                            ids(line.subList(lo + 1, hi + 1)),
                            "the search could not tell whether " + line.get(mid).shortId() + " is worse than "
                                    + good.shortId());
                }
                default -> throw new IllegalStateException("unknown call " + s.call());
            }
        }
        List<Integer> gap = new ArrayList<>(skipped.subSet(lo, false, hi, false));
        Commit parent = lo >= 0 ? line.get(lo) : good;
        return confirm(parent, line.get(hi), edge, gap.stream().map(line::get).toList(), check, hunt);
    }

    /**
     * Returns the check step of the bisect of {@code line}: the bad commit measured against the good
     * one, with the builds that vary code layout where it can be varied.
     */
    private Bisection.Step check(List<Commit> line) throws IOException, InterruptedException {
        // The good and bad commits must be measurable: a failure here ends the bisect, with its
        // message (a skip would only repeat it at every step). Nothing to bisect takes trials that
        // rule out a change of the bisect's effect. With build.perturb the check varies layout too:
        // the change it finds is the one hunted, and its builds' spread is layout's reach in the
        // search (see layoutCouldDecide).
        int checkBuilds = shiftsLayout(bad) ? request.builds() : 1;
        return step(
                good,
                bad,
                "check",
                checkBuilds,
                trials(bad, checkBuilds, 0),
                request.effect(),
                searches(line.size()) + 1,
                "");
    }

    /**
     * Returns the search step of {@code commit} against the good commit, with the bisect's builds
     * per side where one build's reading lies within code layout's reach of the call it turns on.
     *
     * @param hunt the change the step's call turns on (see {@link #call})
     * @param left how many steps remain after this one, for the estimate
     */
    private Bisection.Step searchStep(Commit commit, double hunt, int left) throws IOException, InterruptedException {
        Bisection.Step s = step(good, commit, "search", 1, Optional.empty(), hunt, left, "");
        if (layoutCouldDecide(s, hunt) && shiftsLayout(commit)) {
            s = step(
                    good,
                    commit,
                    "search",
                    request.builds(),
                    trials(commit, request.builds(), s.trials()),
                    hunt,
                    left,
                    String.format(
                            Locale.ROOT,
                            "one build per side read %s, within code layout's reach"
                                    + " (±%.1f%%) of the %s its call turns on: measured again with %d builds per side",
                            pct(s.pctChange()),
                            reach(layoutSpread),
                            pct(hunt),
                            request.builds()));
        }
        return s;
    }

    /**
     * Measures {@code candidate} again against {@code parent}, the last good commit before it, and
     * names it, blames layout or noise, or ends undecided. It is judged as a search step is
     * ({@link #call}): a commit is named only when it alone shows a real share of the change the
     * check found, not for a move of a percent or two on the way.
     */
    private Bisection confirm(
            Commit parent,
            Commit candidate,
            Bisection.Step searched,
            List<Commit> gap,
            Bisection.Step check,
            double hunt)
            throws IOException, InterruptedException {
        int builds = shiftsLayout(candidate) ? request.builds() : 1;
        Optional<Integer> trials =
                Optional.of(Math.max(searched.trials(), request.trials().orElse(2)));
        if (builds > 1) {
            trials = this.trials(candidate, builds, searched.trials());
        }
        Bisection.Step c = step(parent, candidate, "confirm", builds, trials, hunt, 0, "");
        List<String> evidence = new ArrayList<>();
        List<String> candidates = new ArrayList<>(ids(gap));
        candidates.add(candidate.id());
        String measured = String.format(
                Locale.ROOT,
                "%s against %s, %d trial%s per side%s: %s %s, p %s",
                candidate.shortId(),
                parent.shortId(),
                c.trials(),
                c.trials() == 1 ? "" : "s",
                builds > 1 ? " over " + builds + " builds" : "",
                pct(c.pctChange()),
                interval(c),
                p(c.pValue()));
        if (c.call() == Call.SKIPPED) {
            evidence.add("the confirmation could not run: " + c.reason());
            return end(
                    Outcome.INCONCLUSIVE,
                    Optional.empty(),
                    evidence,
                    candidates,
                    Optional.of("fix what stopped it, then rerun with --resume"));
        }
        if (c.call() == Call.BAD) {
            if (!gap.isEmpty()) {
                evidence.add(measured + ": worse, but " + ids(gap).size() + " commit" + (gap.size() == 1 ? "" : "s")
                        + " before it could not be measured");
                return end(Outcome.AMONG, Optional.empty(), evidence, candidates, Optional.empty());
            }
            evidence.add(measured);
            evidence.add(String.format(
                    Locale.ROOT,
                    "the whole range, %s against %s, moved %s",
                    bad.shortId(),
                    good.shortId(),
                    pct(check.pctChange())));
            return end(Outcome.FOUND, Optional.of(candidate.id()), evidence, List.of(), Optional.empty());
        }
        if (layout(c, searched)) {
            evidence.add(String.format(
                    Locale.ROOT,
                    "builds of one commit, with their layouts shifted, spread by ±%.1f%%:"
                            + " enough to make the %s the search saw with one build per side",
                    c.buildSpread(),
                    pct(searched.pctChange())));
            evidence.add(measured + ": code layout, not a commit");
            return end(Outcome.NO_SINGLE_COMMIT, Optional.empty(), evidence, List.of(), Optional.empty());
        }
        if (c.call() == Call.GOOD) {
            evidence.add(measured + ": short of half the change hunted (" + pct(hunt) + "), measured with as many"
                    + " trials as the search's " + pct(searched.pctChange()));
            evidence.add("the search's reading was noise, or the change is spread over several commits");
            return end(Outcome.NO_SINGLE_COMMIT, Optional.empty(), evidence, List.of(), Optional.empty());
        }
        return undecided(
                c,
                candidates,
                "measured again against " + parent.shortId() + ", " + candidate.shortId()
                        + " was neither worse nor ruled out (" + pct(c.pctChange()) + " " + interval(c) + ")");
    }

    /**
     * Returns whether code layout can explain the move the search saw: it saw it with one build per
     * side, the confirmation's builds differed, and their spread reaches as far.
     */
    static boolean layout(Bisection.Step confirm, Bisection.Step searched) {
        return searched.builds() == 1
                && confirm.builds() > 1
                && confirm.buildsDiffer()
                && Double.isFinite(confirm.buildSpread())
                && Math.abs(searched.pctChange()) <= reach(confirm.buildSpread());
    }

    /**
     * Returns how far code layout can move a change measured with one build per side, in percent,
     * when builds of one commit spread by {@code spread} percent: one layout against another, whose
     * difference spreads by {@code spread} times the square root of 2, and reaches twice that.
     */
    static double reach(double spread) {
        return 2 * Math.sqrt(2) * spread;
    }

    /**
     * Returns whether code layout could decide the call of {@code s}, a step of one build per side
     * hunting {@code hunt} percent: the size of its change lies within layout's {@link #reach} of
     * {@code hunt}, the bar its call turns on, so that another layout of either side could move it
     * across. The reach is that of the widest spread between builds the bisect has measured (the
     * check's, with {@code build.perturb}); before any, or for a skipped step, false. Far from the
     * bar a step's call holds whatever the layout: a commit of the change reads about all of it,
     * one before it about none, each half the change away from the bar.
     */
    private boolean layoutCouldDecide(Bisection.Step s, double hunt) {
        return s.builds() == 1 && s.call() != Call.SKIPPED && near(s.pctChange(), hunt, layoutSpread);
    }

    /**
     * Returns whether a change of {@code pct} percent, of either sign, lies within code layout's
     * {@link #reach} of {@code hunt} percent, builds spreading by {@code spread} percent; false when
     * either is NaN.
     */
    static boolean near(double pct, double hunt, double spread) {
        return Double.isFinite(spread) && Double.isFinite(pct) && Math.abs(Math.abs(pct) - hunt) <= reach(spread);
    }

    /**
     * Returns the trials per side of a step of {@code candidate} with {@code builds} builds per side
     * that follows one of {@code least} trials: with one build, empty (the command line's, else the
     * workload's); with several, at least {@link #TRIALS_PER_BUILD} per build, {@code least}, and the
     * command line's {@code --trials}, else the candidate's workload's, rounded up to a whole number
     * per build.
     */
    private Optional<Integer> trials(Commit candidate, int builds, int least) {
        if (builds == 1) {
            return Optional.empty();
        }
        int asked = request.settings()
                .trials(workload(candidate), request.workload() + " at " + candidate.shortId())
                .value();
        int trials = Math.max(Math.max(least, asked), TRIALS_PER_BUILD * builds);
        return Optional.of((trials + builds - 1) / builds * builds);
    }

    /** Returns whether {@code candidate}'s workload shifts code layout between builds. */
    private boolean shiftsLayout(Commit candidate) {
        return workload(candidate)
                .flatMap(Workload::build)
                .flatMap(Workload.Build::perturb)
                .isPresent();
    }

    /** Returns whether {@code candidate}'s tree has a file at the bisect's workload path. */
    private boolean hasWorkload(Commit candidate) throws IOException {
        try (GitRepo git = GitRepo.open(request.repository())) {
            return git.read(candidate, request.workload()).isPresent();
        }
    }

    /** Returns the workload in {@code candidate}'s tree; empty when it has none at the bisect's path. */
    private Optional<Workload> workload(Commit candidate) {
        try (GitRepo git = GitRepo.open(request.repository())) {
            Optional<byte[]> yaml = git.read(candidate, request.workload());
            return yaml.map(y -> WorkloadLoader.parse(
                    new String(y, StandardCharsets.UTF_8), request.workload() + " at " + candidate.shortId()));
        }
    }

    /** Ends undecided at {@code s}, naming the candidates and a rerun that would decide. */
    private Bisection undecided(Bisection.Step s, List<String> candidates, String why) {
        String advice;
        if (s.builds() > 1) {
            advice = "rerun with --builds " + Math.min(Workload.MAX_BUILDS, 2 * s.builds()) + " --resume";
        } else {
            advice = "rerun with --trials " + Math.min(Workload.MAX_TRIALS, Math.max(2 * s.trials(), 10))
                    + " --adaptive off --resume";
        }
        List<String> evidence = new ArrayList<>(List.of(
                why + ": " + s.verdict() + ", " + pct(s.pctChange()) + " " + interval(s) + ", p " + p(s.pValue())));
        if (s.builds() > 1 && s.buildsDiffer() && Double.isFinite(s.buildSpread())) {
            evidence.add(String.format(
                    Locale.ROOT,
                    "builds of one commit, with their layouts shifted, spread by"
                            + " ±%.1f%%: code layout alone moves one build against another by up to ±%.1f%%",
                    s.buildSpread(),
                    reach(s.buildSpread())));
        }
        return end(Outcome.INCONCLUSIVE, Optional.empty(), evidence, candidates, Optional.of(advice));
    }

    private Bisection end(
            Outcome outcome,
            Optional<String> firstBad,
            List<String> evidence,
            List<String> candidates,
            Optional<String> advice) {
        synchronized (this) {
            return new Bisection(
                    request.cells().toString(),
                    request.effect(),
                    good.id(),
                    bad.id(),
                    workloadFile,
                    firstBad,
                    outcome,
                    steps,
                    evidence,
                    candidates,
                    advice);
        }
    }

    /**
     * Runs one A/B of {@code base} against {@code candidate} (or reuses one of an earlier run),
     * judges the candidate, keeps the step and saves the bisect. {@code left} is how many steps
     * remain after this one, for the estimate; {@code note} is kept as the step's reason, empty for
     * none. A decided step of an earlier run is reused when it has the same commits, purpose and
     * builds, or several builds where several are asked (a rerun with {@code --builds} more to
     * decide one step does not measure again those already decided).
     */
    private Bisection.Step step(
            Commit base,
            Commit candidate,
            String purpose,
            int builds,
            Optional<Integer> trials,
            double hunt,
            int left,
            String note)
            throws IOException, InterruptedException {
        synchronized (this) {
            if (stopped) {
                throw new RunInterruptedException("interrupted before step " + (steps.size() + 1));
            }
        }
        int number = steps.size() + 1;
        Optional<Bisection.Step> earlier = reusable.stream()
                .filter(s -> s.commit().equals(candidate.id())
                        && s.base().equals(base.id())
                        && s.purpose().equals(purpose)
                        && (s.builds() == builds || s.builds() > 1 && builds > 1)
                        && s.call() != Call.UNDECIDED)
                .findFirst();
        Bisection.Step s;
        if (earlier.isPresent()) {
            reusable.remove(earlier.get());
            s = earlier.get();
            context.events()
                    .note(String.format(
                            Locale.ROOT,
                            "bisect step %d (%s): %s %s, reused from the earlier run: %s",
                            number,
                            purpose,
                            candidate.shortId(),
                            candidate.subject(),
                            s.call().id()));
        } else {
            context.events()
                    .note(String.format(
                            Locale.ROOT,
                            "bisect step %d (%s): %s %s against %s, %d build%s per side%s",
                            number,
                            purpose,
                            candidate.shortId(),
                            candidate.subject(),
                            base.shortId(),
                            builds,
                            builds == 1 ? "" : "s",
                            estimate(left)));
            s = measure(base, candidate, purpose, builds, trials, hunt, number);
            if (!note.isEmpty() && s.call() != Call.SKIPPED) {
                s = new Bisection.Step(
                        s.commit(),
                        s.subject(),
                        s.base(),
                        s.purpose(),
                        s.builds(),
                        s.trials(),
                        s.cell(),
                        s.verdict(),
                        s.pctChange(),
                        s.ciLow(),
                        s.ciHigh(),
                        s.pValue(),
                        s.buildSpread(),
                        s.buildsDiffer(),
                        s.call(),
                        note,
                        s.seconds());
            }
        }
        if (s.builds() > 1 && s.buildsDiffer() && Double.isFinite(s.buildSpread())) {
            layoutSpread = Double.isNaN(layoutSpread) ? s.buildSpread() : Math.max(layoutSpread, s.buildSpread());
        }
        synchronized (this) {
            steps.add(s);
            if (!stopped) {
                save.accept(end(Outcome.RUNNING, Optional.empty(), List.of(), List.of(), Optional.empty()));
            }
        }
        return s;
    }

    /** Returns how long the steps after this one may take, judging by those so far. */
    private String estimate(int left) {
        double seconds = 0;
        int measured = 0;
        for (Bisection.Step s : steps) {
            if (s.seconds() > 0) {
                seconds += s.seconds();
                measured++;
            }
        }
        if (measured == 0) {
            return "; " + left + " more after it";
        }
        double minutes = seconds / measured * (left + 1) / 60;
        return String.format(
                Locale.ROOT,
                "; %d more after it, about %s left",
                left,
                minutes < 1 ? "a minute" : Math.round(minutes) + " min");
    }

    private Bisection.Step measure(
            Commit base,
            Commit candidate,
            String purpose,
            int builds,
            Optional<Integer> trials,
            double hunt,
            int number)
            throws IOException, InterruptedException {
        Path out = folder(String.format(Locale.ROOT, "%02d-%s-%s", number, purpose, candidate.shortId()));
        AbRequest ab = abRequest(base, candidate, purpose, builds, trials, hunt, out);
        long started = System.nanoTime();
        if (!purpose.equals("check") && !hasWorkload(candidate)) {
            // Said here, for a bisect: the A/B's own words would offer a working tree it cannot use.
            String why = "no " + request.workload() + " in this commit: each step runs the candidate's own workload"
                    + " and harness, so a commit from before the workload was added cannot be measured";
            context.events().note("bisect step " + number + " skips " + candidate.shortId() + ": " + why);
            return skipped(base, candidate, purpose, builds, why, 0);
        }
        RunResults results;
        try {
            results = AbRun.run(ab, context);
        } catch (RunInterruptedException e) {
            throw e;
        } catch (BadInputException | RunFailedException e) {
            if (purpose.equals("check")) {
                throw e;
            }
            context.events().note("bisect step " + number + " skips " + candidate.shortId() + ": " + e.getMessage());
            return skipped(base, candidate, purpose, builds, e.getMessage(), (System.nanoTime() - started) / 1e9);
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        if (results.interrupted()) {
            throw new RunInterruptedException("interrupted in " + out);
        }
        CellComparison shown = null;
        Call call = null;
        for (CellComparison row : results.table().rows()) {
            if (!followed(row)) {
                continue;
            }
            Call c = judge(purpose, row.comparison(), hunt);
            if (shown == null || rank(c) > rank(call) || rank(c) == rank(call) && worse(row) > worse(shown)) {
                shown = row;
                call = c;
            }
        }
        if (shown == null && purpose.equals("check")) {
            throw noCellMatches(results);
        }
        if (shown == null) {
            return skipped(base, candidate, purpose, builds, "no cell matches '" + request.cells() + "'", seconds);
        }
        Comparison c = shown.comparison();
        return new Bisection.Step(
                candidate.id(),
                candidate.subject(),
                base.id(),
                purpose,
                builds,
                results.settings().trials(),
                shown.cell().name() + " " + shown.cell().metric(),
                c.verdict().id(),
                c.pctChange(),
                c.ciLow(),
                c.ciHigh(),
                c.pValue(),
                shown.buildSpread(),
                builds > 1 && buildsDiffer(results),
                call,
                "",
                seconds);
    }

    /**
     * Returns the request of the A/B of a step: {@code base} against {@code candidate} in folder
     * {@code out}, its call turning on {@code hunt} (see {@link #call}), and with several builds,
     * padded and not adaptive.
     */
    private AbRequest abRequest(
            Commit base,
            Commit candidate,
            String purpose,
            int builds,
            Optional<Integer> trials,
            double hunt,
            Path out) {
        ThresholdSettings thresholds = new ThresholdSettings(
                Optional.empty(),
                Optional.of(request.effect()),
                Optional.of(Math.max(hunt, request.effect())),
                Optional.of(Thresholds.FDR_OFF));
        Optional<Integer> adaptive = builds > 1 ? Optional.of(0) : request.adaptive();
        return AbRequest.of(request.repository(), base.id(), candidate.id(), out)
                .workload(request.workload())
                .trials(trials.or(request::trials))
                .builds(Optional.of(builds))
                .cache(request.cache())
                .overrides(thresholds)
                .padding(builds > 1)
                .adaptive(adaptive)
                .undecided(
                        Optional.of(row -> followed(row) && judge(purpose, row.comparison(), hunt) == Call.UNDECIDED))
                .build();
    }

    /** Returns the failure of a {@code --cell} that matches none of the cells of the check's {@code results}. */
    private BadInputException noCellMatches(RunResults results) {
        List<String> cells = results.table().rows().stream()
                .map(r -> r.cell().name() + ":" + r.cell().metric())
                .distinct()
                .toList();
        return new BadInputException("--cell '" + request.cells() + "' matches no cell the check measured ("
                + (cells.isEmpty()
                        ? "none"
                        : String.join(", ", cells.subList(0, Math.min(10, cells.size())))
                                + (cells.size() > 10 ? " and " + (cells.size() - 10) + " more" : ""))
                + ")");
    }

    /** Returns a folder for a step's run that no earlier run of this bisect used. */
    private Path folder(String name) {
        Path steps = request.out().resolve("steps");
        Path out = steps.resolve(name);
        for (int i = 2; Files.exists(out); i++) {
            out = steps.resolve(name + "-" + i);
        }
        return out;
    }

    private static Bisection.Step skipped(
            Commit base, Commit candidate, String purpose, int builds, String reason, double seconds) {
        return new Bisection.Step(
                candidate.id(),
                candidate.subject(),
                base.id(),
                purpose,
                builds,
                0,
                "",
                "skipped",
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                false,
                Call.SKIPPED,
                reason,
                seconds);
    }

    /** Returns whether the bisect follows {@code row}'s cell. */
    private boolean followed(CellComparison row) {
        return request.cells().matches(row.cell()) && row.comparison().verdict() != Verdict.PROFILE;
    }

    /**
     * Returns what a cell's comparison says of a candidate in the search (and in the confirmation),
     * hunting a change whose half, in ratio, is {@code hunt} percent for the worse ({@link #half}).
     *
     * <ul>
     *   <li>bad: a regression under the bisect's effect whose 95% interval rules out a change for
     *       the worse of less than {@code hunt}: its better end reaches half the change hunted, so
     *       the step shows a real share of that change. A significant move smaller than that (a
     *       code layout step of a percent or two, when the hunt is +10%) explains none of it;
     *   <li>good: its 95% interval rules out a change for the worse of {@code hunt} and its trials
     *       do not disagree among themselves (far trials on one side, two groups that swap);
     *   <li>undecided: anything between, and a step whose trials disagree, have no data or are
     *       inconclusive. Never good for want of evidence, whatever its point estimate.
     * </ul>
     *
     * <p>The two calls are mirror images, the interval lying wholly on one side of {@code hunt}:
     * more trials (the adaptive rounds) narrow an interval that straddles it until it lies on one
     * side. A NaN interval decides nothing.
     *
     * <p>Calling bad on the point estimate reaching {@code hunt} was rejected: at few trials
     * an interval of [+0.5%, +11%] around +6% would call a step bad that a layout move of one or two
     * percent could make, and a step once called bad is never measured again by the search. The
     * interval's better end costs a real +10% commit nothing: at three trials of a 1% spread its
     * interval is about [+8%, +12%], far past a hunt of +5%.
     */
    static Call call(Comparison c, double hunt) {
        if (c.verdict() == Verdict.REGRESSION && better(c) >= hunt) {
            return Call.BAD;
        }
        if (unsettled(c)) {
            return Call.UNDECIDED;
        }
        return worst(c) < hunt ? Call.GOOD : Call.UNDECIDED;
    }

    /**
     * Returns what a cell's comparison says of the bad commit against the good one, in the check
     * that starts a bisect: bad when it is a regression under the bisect's {@code effect}, good when
     * its 95% interval rules out a change for the worse of {@code effect} and its trials do not
     * disagree, undecided otherwise. The check finds the change the search then hunts, so any
     * regression counts: there is no change yet to take a share of.
     */
    static Call check(Comparison c, double effect) {
        if (c.verdict() == Verdict.REGRESSION) {
            return Call.BAD;
        }
        if (unsettled(c)) {
            return Call.UNDECIDED;
        }
        return worst(c) < effect ? Call.GOOD : Call.UNDECIDED;
    }

    /**
     * Returns whether a comparison leaves its cell unsettled whatever its interval: no data,
     * inconclusive, or trials that disagree among themselves.
     */
    private static boolean unsettled(Comparison c) {
        return c.verdict() == Verdict.NO_DATA
                || c.verdict() == Verdict.INCONCLUSIVE
                || c.caveats().contains(Caveat.ONE_SIDED)
                || c.caveats().contains(Caveat.SPLIT);
    }

    /** Returns the worse end of a comparison's 95% interval, as a change for the worse in percent; NaN if none. */
    private static double worst(Comparison c) {
        return c.direction() == Direction.LOWER_IS_BETTER ? c.ciHigh() : -c.ciLow();
    }

    /** Returns the better end of a comparison's 95% interval, as a change for the worse in percent; NaN if none. */
    private static double better(Comparison c) {
        return c.direction() == Direction.LOWER_IS_BETTER ? c.ciLow() : -c.ciHigh();
    }

    /** Returns a step's call of a comparison: by {@link #check} for the check, by {@link #call} otherwise. */
    private static Call judge(String purpose, Comparison c, double hunt) {
        return purpose.equals("check") ? check(c, hunt) : call(c, hunt);
    }

    /** Bad over undecided over good: the cell a step shows is the one that decides its call. */
    private static int rank(Call c) {
        return switch (c) {
            case BAD -> 2;
            case UNDECIDED -> 1;
            default -> 0;
        };
    }

    /** Returns whether every side's builds wrote outputs different from each other's. */
    private static boolean buildsDiffer(RunResults results) {
        return results.oneBuildSides().isEmpty();
    }

    /** Returns how much worse a row is, in percent: its change with the sign of its direction's harm. */
    private static double worse(CellComparison row) {
        double pct = row.comparison().pctChange();
        if (Double.isNaN(pct)) {
            return Double.NEGATIVE_INFINITY;
        }
        return row.cell().direction().isWorse(0, 1) ? pct : -pct;
    }

    /**
     * Returns half of a change, in ratio (the change whose square is {@code pct}'s ratio), as a
     * positive percent: the change a step must rule out to read good.
     */
    static double half(double pct) {
        double ratio = 1 + pct / 100;
        if (!(ratio > 0) || Double.isNaN(pct)) {
            return 10;
        }
        double r = ratio >= 1 ? ratio : 1 / ratio;
        return (Math.sqrt(r) - 1) * 100;
    }

    /** Returns the candidate to measure next: of those between {@code lo} and {@code hi} not skipped, the one nearest the middle. */
    static Optional<Integer> middle(int lo, int hi, java.util.Set<Integer> skipped) {
        double centre = (lo + hi) / 2.0;
        Optional<Integer> best = Optional.empty();
        for (int i = lo + 1; i < hi; i++) {
            if (!skipped.contains(i) && (best.isEmpty() || Math.abs(i - centre) < Math.abs(best.get() - centre))) {
                best = Optional.of(i);
            }
        }
        return best;
    }

    /** Returns about how many search steps {@code n} candidates take. */
    private static int searches(int n) {
        return n <= 0 ? 0 : 32 - Integer.numberOfLeadingZeros(n);
    }

    private static String shortId(String id) {
        return Ids.shortId(id);
    }

    private static List<String> ids(List<Commit> commits) {
        return commits.stream().map(Commit::id).toList();
    }

    private static String pct(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%+.1f%%", v);
    }

    private static String interval(Bisection.Step s) {
        return Double.isNaN(s.ciLow()) ? "" : String.format(Locale.ROOT, "[%+.1f%%, %+.1f%%]", s.ciLow(), s.ciHigh());
    }

    private static String p(double v) {
        return Double.isNaN(v) ? "-" : v < 0.0001 ? "<0.0001" : String.format(Locale.ROOT, "%.2g", v);
    }
}
