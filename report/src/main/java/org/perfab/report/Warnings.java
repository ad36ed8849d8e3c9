package org.perfab.report;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.perfab.model.CellComparison;
import org.perfab.model.ComparisonTable;
import org.perfab.model.Counted;
import org.perfab.model.Warning;
import org.perfab.stats.Caveat;
import org.perfab.stats.Comparison;
import org.perfab.stats.Verdict;

/**
 * The warnings of a report: the run's own (identical builds, failed trials, missing trials, A/A),
 * then what the table shows about itself: cells too noisy to tell, and tail percentiles measured
 * over few trials.
 */
final class Warnings {
    /** How many cells a warning names before it counts the rest. */
    static final int NAMED = 8;
    /** How many subjects (trials, files) a run's warning names before it counts the rest. */
    static final int SUBJECTS_SHOWN = 5;
    /** The tail-percentile warning applies below this many trials per side. */
    static final int FEW_TRIALS_FOR_TAILS = 20;

    private static final Pattern TAIL = Pattern.compile("(p99\\d*(\\.\\d+)?|p999\\d*|max)", Pattern.CASE_INSENSITIVE);

    private Warnings() {}

    static List<String> of(Report report) {
        ComparisonTable table = report.table();
        List<String> warnings = new ArrayList<>();
        ShardWords.warning(report).ifPresent(warnings::add);
        for (Warning w : table.warnings()) {
            warnings.add(words(w));
        }
        List<String> noisy = new ArrayList<>();
        List<CellComparison> noisyRows = new ArrayList<>();
        List<String> alone = new ArrayList<>();
        List<String> tails = new ArrayList<>();
        List<CellComparison> tailRows = new ArrayList<>();
        List<String> countedInstead = new ArrayList<>();
        for (CellComparison r : table.rows()) {
            Comparison c = r.comparison();
            if (r.countedInstead()) {
                countedInstead.add(
                        name(r) + " (CV " + Numbers.percent(nanToZero(c.base().cv())) + " and "
                                + Numbers.percent(nanToZero(c.head().cv())) + ")");
            } else if (c.verdict() == Verdict.NOISY
                    && r.sameAs().isEmpty()
                    && c.caveats().contains(Caveat.NOT_AMONG_MANY)) {
                alone.add(name(r) + " (p " + Numbers.pValue(c.pValue()) + ", q " + Numbers.pValue(c.qValue()) + ")");
            } else if (c.verdict() == Verdict.NOISY && r.sameAs().isEmpty()) {
                noisy.add(name(r) + " (" + whyNoisy(r) + ")");
                noisyRows.add(r);
            }
            if (TAIL.matcher(r.cell().metric()).matches()
                    && c.verdict() != Verdict.NO_DATA
                    && Words.trials(report, r) < FEW_TRIALS_FOR_TAILS) {
                tails.add(name(r));
                tailRows.add(r);
            }
        }
        Optional<String> count = countInstead(report, noisy.size());
        if (!noisy.isEmpty()) {
            // Where the run can be counted, the line after says how; else the way is named here.
            warnings.add(
                    "Too noisy to tell for " + noisy.size() + " cell" + (noisy.size() == 1 ? "" : "s")
                            + ": " + names(noisy) + ". Not a pass: " + Advice.narrow(report, noisyRows)
                            + (count.isPresent()
                                    ? " and pinning the trials to quiet CPUs (harness.cpus) removes a busy"
                                            + " neighbour's share."
                                    : ", pinning the trials to quiet CPUs (harness.cpus) removes a busy"
                                            + " neighbour's share, and counting instructions instead of time takes the machine out of it."));
        }
        count.ifPresent(warnings::add);
        if (!countedInstead.isEmpty()) {
            warnings.add("Timed too noisily to tell on this machine, so counted instead, in the same run (measure:"
                    + " auto): " + names(countedInstead) + ". Their verdicts are their counts' rows"
                    + " (instructions/op), which a busy machine cannot move; their time rows claim nothing.");
        }
        if (!alone.isEmpty()) {
            warnings.add("Significant on its own, not among the run's " + table.tested() + " tested cells, for "
                    + alone.size() + " cell" + (alone.size() == 1 ? "" : "s") + ": " + names(alone) + ". Judging the"
                    + " cells together keeps the headline's false alarms at alpha, and at few trials it costs power:"
                    + " more trials"
                    + Advice.moreTrials(report).map(a -> " (" + a + ")").orElse("")
                    + ", following these cells alone (--cell), or --fdr off gets it back.");
        }
        manyCells(table).ifPresent(warnings::add);
        List<String> wrong = table.inconsistencies();
        if (!wrong.isEmpty()) {
            warnings.add("perfab's own check of its rows found " + wrong.size() + " it cannot stand behind, a bug of"
                    + " perfab's to report: " + names(wrong) + ". Read those rows' figures, not their verdicts.");
        }
        if (!tails.isEmpty()) {
            warnings.add("Tail percentiles over few trials (" + Words.trials(report, tailRows) + " per side): "
                    + names(tails) + ". A p99 or p999 within one trial rests on a handful of samples, and one slow"
                    + " scheduler tick moves it; read these as a profile and rerun before believing a move.");
        }
        return warnings;
    }

    /**
     * Returns why a row too noisy to tell is: far trials on one side, two groups of trials, a test
     * significant at another look's level, or else how big a change it could miss (its CV when that
     * is unknown).
     */
    private static String whyNoisy(CellComparison r) {
        Comparison c = r.comparison();
        double cv = Math.max(nanToZero(c.base().cv()), nanToZero(c.head().cv()));
        double detectable = r.detectable();
        return c.caveats().contains(Caveat.ONE_SIDED)
                ? "far trials on one side"
                : c.caveats().contains(Caveat.SPLIT)
                        ? "two groups of trials"
                        : c.caveats().contains(Caveat.NOT_AT_LOOK)
                                ? "significant, not at its look's level"
                                : Double.isNaN(detectable)
                                        ? "CV " + Numbers.percent(cv)
                                        : "could miss " + Numbers.percent(detectable);
    }

    /**
     * Returns the line that says how many cells pass the test by chance alone, when the run has
     * {@value Words#MANY_CELLS} or more tested cells and judges each on its own p ({@code --fdr off});
     * empty otherwise.
     */
    static Optional<String> manyCells(ComparisonTable table) {
        int cells = table.tested();
        var t = table.thresholds();
        if (cells < Words.MANY_CELLS || t.judgedTogether(cells)) {
            return Optional.empty();
        }
        long chance = Math.round(cells * t.alpha());
        return Optional.of("With " + cells + " cells at alpha " + Numbers.value(t.alpha()) + ", about " + chance
                + (chance == 1 ? " looks" : " look") + " significant by chance before the "
                + Numbers.percent(t.minEffect()) + " bar; the bar stops most of them, not all. Judging them together"
                + " (the default; --fdr off turned it off) holds flukes to about " + Numbers.percent(t.alpha() * 100)
                + " of the cells flagged.");
    }

    /** Returns the sentence that says whether the check can fail the job. */
    static String gate(Report report) {
        if (report.failOn().isEmpty()) {
            return "Advisory: this check never fails the job.";
        }
        return "This check fails the job when a cell is "
                + String.join(" or ", report.failOn().stream().map(Verdict::id).toList()) + " (--fail-on)"
                + (report.table().notMeasured().isEmpty()
                        ? "."
                        : ", and when a cell was not measured, as here: a shard without results may hold either.");
    }

    /**
     * Returns the sentence of a run's warning; its subjects are untrusted, and escaped later.
     * Long because it is one table of cases, one sentence per kind of warning, each read beside
     * the others; the longest kinds have methods of their own.
     */
    static String words(Warning w) {
        List<String> s = w.subjects();
        return switch (w.kind()) {
            case SEVERAL_MERGE_BASES ->
                "Base and head have " + s.size() + " merge-bases (a criss-cross merge: each"
                        + " merged the other): " + list(w, s) + ". The baseline is the first; against another the"
                        + " change could read otherwise. Merge the base into the head (or rebase it) for one.";
            case UNCOMMITTED_HEAD ->
                "The candidate is a working tree, not a commit: " + w.figure("files")
                        + " file(s) changed and not committed, on top of " + first(s) + ", snapshotted as "
                        + (s.size() > 1 ? s.get(1) : "?")
                        + ", which no ref names. Commit and push the change to measure it where others can.";
            case AA_RUN ->
                "A/A run: both sides are commit " + first(s) + ", so every difference measured is noise;"
                        + " use it to learn each cell's noise floor.";
            case SAME_SOURCES ->
                "The baseline and the candidate have the same source tree (" + first(s)
                        + "): every difference measured is noise.";
            case IDENTICAL_BUILDS ->
                "The build outputs of base and head"
                        + (s.isEmpty() || s.equals(List.of("0")) ? "" : " (build " + list(w, s) + ")")
                        + " are byte-identical (" + w.figure("files") + " files) although their sources differ: the"
                        + " change does not reach what was built, so any difference measured is noise.";
            case HARNESS_IS_THE_CHANGE ->
                "Every file that differs between the baseline and the candidate is a"
                        + " harness file (" + list(w, s)
                        + "), and the base ran the head's copy: both sides ran the same"
                        + " sources, so every difference measured is noise. If some of these files are the code under"
                        + " test, list the harness in harness.files, or set harness.from: self.";
            case LONG_TRIALS ->
                "A pair of trials took " + clock(w.figure("pairSeconds")) + ", and the run could take up"
                        + " to " + clock(w.figure("mostSeconds")) + " more at " + w.figure("most")
                        + " trials a side: past"
                        + " the hour a CI job is given. Shorten a trial with " + first(s) + ", or bound the run with"
                        + " --budget.";
            case SUBMODULES_LEFT_OUT ->
                count(s.size(), "submodule", "submodules") + " the clone has not checked out "
                        + (s.size() == 1 ? "was" : "were") + " left out of both sides' trees alike (" + list(w, s, ", ")
                        + "): the workload does not need " + (s.size() == 1 ? "it" : "them")
                        + " ('submodules: required',"
                        + " or a list of paths, says it does).";
            case SUBMODULES_CHANGED ->
                count(s.size(), "submodule differs", "submodules differ") + " between the"
                        + " baseline and the candidate (" + list(w, s, "; ") + "): " + (s.size() == 1 ? "its" : "their")
                        + " code is part of the change.";
            case SHARED_PROGRAMS ->
                "Both sides' trials start the same programs, outside either side's tree ("
                        + list(w, s) + "): this run may be measuring one side twice. Name programs by paths inside"
                        + " the tree (./build/app), which each side's trials resolve in their own tree.";
            case DAMAGED_CACHE ->
                "The cached build " + first(s) + " did not match the digest stored with it (it was"
                        + " damaged or edited), so " + (s.size() > 1 ? s.get(1) : "that side") + " was built again.";
            case CACHED_COUNTS ->
                "Not counted in this run: " + w.figure("counts") + " benchmark count(s) of "
                        + list(w, s) + ", over " + count((int) w.figure("trials"), "trial", "trials")
                        + ", came from perfab's"
                        + " count cache (an earlier run counted the same tree, build, toolchain and workload on this CPU"
                        + " model; " + w.figure("counted") + " count(s) were taken here).";
            case LEFTOVER_PROCESSES ->
                count(w.count(), "trial", "trials") + " left processes running after "
                        + (w.count() == 1 ? "it" : "they") + " ended, which perfab killed (" + list(w, s, "; ")
                        + "): a process that outlives its trial takes the machine from the trials after it.";
            case CPU_CLOCKS ->
                "The CPU time of " + w.figure("ticks") + " of " + w.figure("trials") + " trials ("
                        + list(w, s)
                        + ") was counted in clock ticks of 10 ms, the rest's by cgroups to the microsecond:"
                        + " perfab could not make or join a cgroup for those trials, so their cpu figures, and the"
                        + " disturbance each trial is judged by, are coarser.";
            case BUSY_MACHINE ->
                "The machine was busy while trials"
                        + (w.figure("shard") > 0 ? " of shard " + w.figure("shard") + " of " + w.figure("shards") : "")
                        + " ran: other processes used "
                        + Numbers.oneDecimal(w.figure("othersMillicores") / 1000.0) + " of " + w.figure("cores")
                        + (w.figure("cores") == 1 ? " core" : " cores") + " on average (run queue "
                        + Numbers.oneDecimal(w.figure("runQueueMilli") / 1000.0) + ", steal "
                        + Numbers.percent(w.figure("stealPermille") / 10.0) + "); timings carry their noise, see each"
                        + " row's spread.";
            case DISTURBED_TRIALS ->
                count(w.count(), "trial was", "trials were") + " disturbed: most of "
                        + (w.count() == 1 ? "its" : "their") + " cells moved far beyond their spread, and the machine"
                        + " says it was the machine, not the code (" + list(w, s, "; ")
                        + "). Set aside from every cell; "
                        + (w.figure("replaced") == 0
                                ? "none was replaced"
                                : count((int) w.figure("replaced"), "replacement trial", "replacement trials") + " ran")
                        + " (at most " + w.figure("most") + " a side).";
            case FAILED_TRIALS ->
                count(w.count(), "trial", "trials") + " failed (" + list(w, s, "; ") + "); see logs/trials/.";
            case MISSING_TRIALS ->
                first(s) + " has " + w.figure("measured") + " of the " + w.figure("asked") + " trials asked for"
                        + (w.figure("interrupted") > 0 ? " (the run was interrupted)" : "") + ".";
            case UNPERTURBED_BUILDS -> unperturbedBuilds(w, s);
            case BUDGET_STOP -> budgetStop(w, s);
            case UNREADABLE_SHARD ->
                "The shard results " + at(s, 0)
                        + (w.figure("shard") > 0
                                ? " (shard " + w.figure("shard") + " of " + w.figure("shards") + ")"
                                : "")
                        + " do not read (" + at(s, 1)
                        + "): the shards that did are merged without it, and its benchmarks are not measured.";
            case UNCONVERTIBLE_UNITS ->
                count((int) w.figure("values"), "value", "values") + " of cell '"
                        + at(s, 0) + "' (" + at(s, 1) + ") in unit '" + at(s, 2)
                        + "' were left out: the cell is in unit '"
                        + at(s, 3) + "', and the two do not convert.";
        };
    }

    /** Returns the sentence of builds that could not differ: no build step, no effect of build.perturb, or none. */
    private static String unperturbedBuilds(Warning w, List<String> s) {
        return w.figure("noBuildStep") > 0
                ? "The workload has no build step, so the " + w.figure("builds") + " builds of each side are"
                        + " identical checkouts: the builds of " + list(w, s) + " are the same code, the spread"
                        + " between them says nothing of code layout, and judging on their medians only loses"
                        + " power. Give the workload a build step (build.run) with a build.perturb command that"
                        + " shifts layout (a no-op in a cold function, a padding symbol), or run one build per"
                        + " side (--builds 1)."
                : w.figure("perturbed") > 0
                        ? "build.perturb left the " + w.figure("builds") + " builds of " + list(w, s)
                                + " byte-identical:"
                                + " it does not reach what is built, so the spread between builds says nothing of code"
                                + " layout."
                        : "Each side was built " + w.figure("builds") + " times without build.perturb"
                                + (s.isEmpty()
                                        ? ": if the build is deterministic, the builds are the same, and"
                                        : ", and the builds of " + list(w, s) + " are byte-identical:")
                                + " the spread between builds says nothing of code layout. Give the build a perturb"
                                + " command (a no-op in a cold function, a padding symbol) to put layout inside the test.";
    }

    /** Returns the sentence of a run stopped by --budget: where, what was undecided and the budget that lets it run. */
    private static String budgetStop(Warning w, List<String> s) {
        return "The run stopped at look " + w.figure("look") + " of at most " + w.figure("looks")
                + " (" + w.figure("trials") + " trials per side) with " + count(w.count(), "cell", "cells")
                + " undecided (" + list(w, s) + "): the next look, " + w.figure("more") + " more trial"
                + (w.figure("more") == 1 ? "" : "s") + " a side of "
                + count((int) w.figure("benchmarks"), "benchmark", "benchmarks") + ", would have "
                + (w.figures().containsKey("nextMillis")
                        ? "taken about " + Spans.span(w.figure("nextMillis") / 1000.0) + ", past"
                        : "passed")
                + " --budget " + Spans.option(Duration.ofMillis(w.figure("budgetMillis"))) + " ("
                + Spans.span(w.figure("spentMillis") / 1000.0) + " spent). --budget "
                + Spans.option(Duration.ofMillis(w.figure("enoughMillis"))) + " lets it run.";
    }

    /**
     * Returns the one line that points a timed run most of whose rows were too noisy to tell at
     * counting, where its harness can be counted: go test's benchmarks, each on its own, or
     * {@code format: time}'s commands. Empty otherwise.
     */
    static Optional<String> countInstead(Report report, int noisy) {
        if (report.run().isEmpty()) {
            return Optional.empty();
        }
        String format = report.run().get().settings().format();
        long timed = report.table().rows().stream()
                .filter(r -> !Counted.is(r.cell().metric())
                        && r.comparison().verdict() != Verdict.NO_DATA
                        && r.comparison().verdict() != Verdict.PROFILE)
                .count();
        boolean counted =
                report.table().rows().stream().anyMatch(r -> Counted.is(r.cell().metric()));
        if (counted || timed == 0 || 2 * noisy <= timed || !format.equals("go") && !format.equals("time")) {
            return Optional.empty();
        }
        return Optional.of("Most rows (" + noisy + " of " + timed + ") are too noisy to tell on this machine; a count"
                + " does not move with its load: add measure: [instructions] to the workload's harness to count "
                + (format.equals("go") ? "each benchmark per operation" : "each command") + " under Valgrind (two"
                + " trials a side).");
    }

    private static String first(List<String> s) {
        return at(s, 0);
    }

    private static String at(List<String> s, int i) {
        return i < s.size() ? s.get(i) : "?";
    }

    /** Returns the first few subjects, and how many more there were. */
    private static String list(Warning w, List<String> s) {
        return list(w, s, ", ");
    }

    private static String list(Warning w, List<String> s, String separator) {
        int shown = Math.min(s.size(), SUBJECTS_SHOWN);
        return String.join(separator, s.subList(0, shown))
                + (w.count() > shown ? separator.strip() + " and " + (w.count() - shown) + " more" : "");
    }

    /** Returns {@code seconds} as a clock reads: {@code 5:12}, {@code 1:02:30}. */
    private static String clock(long seconds) {
        long h = seconds / 3600;
        long m = seconds / 60 % 60;
        long sec = seconds % 60;
        return h > 0
                ? String.format(java.util.Locale.ROOT, "%d:%02d:%02d", h, m, sec)
                : String.format(java.util.Locale.ROOT, "%d:%02d", m, sec);
    }

    private static String count(int n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }

    private static String names(List<String> names) {
        if (names.size() <= NAMED) {
            return String.join(", ", names);
        }
        return String.join(", ", names.subList(0, NAMED)) + " and " + (names.size() - NAMED) + " more";
    }

    /** Returns a row's cell as a warning names it: {@code NAME METRIC}, each made plain. */
    private static String name(CellComparison r) {
        return Untrusted.plain(r.cell().name()) + " " + Untrusted.plain(r.cell().metric());
    }

    private static double nanToZero(double v) {
        return Double.isNaN(v) ? 0 : v;
    }
}
