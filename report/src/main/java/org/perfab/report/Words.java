package org.perfab.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.stream.Collectors;
import org.perfab.model.CellComparison;
import org.perfab.model.ComparisonTable;
import org.perfab.model.Outlier;
import org.perfab.model.RunResults;
import org.perfab.model.Side;
import org.perfab.stats.Caveat;
import org.perfab.stats.Comparison;
import org.perfab.stats.Pairing;
import org.perfab.stats.Sequential;
import org.perfab.stats.Thresholds;
import org.perfab.stats.TrialTest;
import org.perfab.stats.Verdict;

/**
 * The words every format shares: a verdict's label and mark, the line of counts, the rules a table
 * was judged by. Renderers call these and never one another, so a sentence is worded once.
 */
final class Words {
    private Words() {}

    /** What a table decided by build medians says about itself. */
    static final String BUILDS_DECIDE = "Verdicts from the median of each build (one value per build and side),"
            + " so that how far code layout alone moves a cell is inside the test; the test over every trial is"
            + " shown beside, with the spread between builds.";

    /** Returns the ending of a count's noun: "" for one, "s" for any other number. */
    static String plural(long n) {
        return n == 1 ? "" : "s";
    }

    /** Returns one line stating the rules of a report's table: {@code alpha 0.05, min effect 3.0%, ...}. */
    static String rules(Report report) {
        ComparisonTable table = report.table();
        return rules(table.thresholds(), together(report), table.pairing().inPairs());
    }

    /** Returns one line stating the rules of {@code t} for trials that do not pair (runs merged). */
    static String rules(Thresholds t) {
        return rules(t, Optional.empty(), false);
    }

    /**
     * Returns the sentence that names the test that judged {@code table}'s trials, and how it sets far
     * trials aside.
     */
    static String test(ComparisonTable table) {
        if (!table.pairing().inPairs()) {
            return "Welch's t-test, far trials set aside where both sides have them; 95% interval of the change by"
                    + " Fieller's method.";
        }
        return "Paired t-test on the interleaved order's pairs (with a slot term where the second trial of a pair"
                + " runs faster or slower; signed ranks where a few pairs straddle a change of the runner), far trials"
                + " and their partners set aside where both sides have them; 95% interval of the change by Fieller's"
                + " method with the pairs' covariance. Welch's t-test judges cells whose trials do not pair.";
    }

    /**
     * Returns what the runner did during the run and which test that chose: "Runner: the pairs ran up
     * to 8.2% apart in speed over the run, both trials of a pair alike (p &lt; 0.0001 over 12 cells);
     * judged in pairs, the intervals are 2.1x narrower than Welch's"; empty for trials that do not
     * pair (files of measurements).
     */
    static Optional<String> runner(ComparisonTable table) {
        Pairing p = table.pairing();
        if (Double.isNaN(p.moved()) && p.cells() == 0) {
            return Optional.empty();
        }
        StringBuilder s = new StringBuilder("Runner: ");
        String moved = Double.isNaN(p.moved()) ? "" : Numbers.percent(p.moved());
        s.append(
                moved.isEmpty()
                        ? "its speed over the run is not known"
                        : moved.equals(Numbers.percent(0))
                                ? "the pairs of trials ran at one speed over the run"
                                : "the pairs of trials ran up to " + moved + " apart in speed over the run");
        if (p.cells() > 0 && !Double.isNaN(p.p())) {
            boolean together = p.p() < Pairing.LEVEL;
            s.append(
                            together
                                    ? ", both trials of a pair alike (p "
                                    : ", the trials of a pair no more alike than any two (p ")
                    .append(Numbers.pValue(p.p()))
                    .append(" over ")
                    .append(p.cells())
                    .append(p.cells() == 1 ? " cell)" : " cells)");
        }
        if (p.inPairs()) {
            s.append("; judged in pairs");
            if (!Double.isNaN(p.narrower())) {
                s.append(", the intervals are ").append(widths(p.narrower()));
            }
            if (p.asked() == TrialTest.PAIRED) {
                s.append(", as --test paired asks");
            }
        } else {
            s.append("; judged by Welch's t-test");
            s.append(p.asked() == TrialTest.WELCH ? ", as --test welch asks" : ", which pairs would not sharpen");
        }
        return Optional.of(s.append('.').toString());
    }

    /**
     * Returns how the pairs' intervals compare with Welch's, {@code narrower} times narrower: "2.1x
     * narrower than Welch's", "as narrow as Welch's" where the ratio shows as 1.0x, "1.3x wider than
     * Welch's" under it.
     */
    static String widths(double narrower) {
        if (Numbers.ratio(narrower).equals(Numbers.ratio(1))) {
            return "as narrow as Welch's";
        }
        return narrower > 1
                ? Numbers.ratio(narrower) + " narrower than Welch's"
                : Numbers.ratio(1 / narrower) + " wider than Welch's";
    }

    private static String rules(Thresholds t, Optional<String> together, boolean inPairs) {
        return (inPairs
                        ? "Paired t-test on the interleaved order's pairs (Welch's where trials do not pair)"
                        : "Welch's t-test")
                + " (far trials set aside where both sides have them, judged as the code's where only"
                + " the candidate has them), alpha " + Numbers.value(t.alpha())
                + "; regression/improvement at " + Numbers.percent(t.minEffect()) + " or more; inconclusive at "
                + Numbers.percent(t.inconclusive()) + " or more; too noisy when a slowdown past "
                + Numbers.percent(t.inconclusive()) + " could go unseen"
                + together.map(s -> "; " + s).orElse("")
                + t.adaptive().map(s -> "; adaptive trials: " + looks(t, s)).orElse("");
    }

    /**
     * Returns what a table judged together says about it: "the 24 tested cells judged together:
     * significant only when the Benjamini-Hochberg adjusted p is under 0.05", and, for a run of
     * {@value #MANY_CELLS} tested cells or more at fewer than {@value #FEW_TRIALS_TOGETHER}
     * trials per side, what that costs: a cell that changed alone among them must reach a p as many
     * times smaller as there are cells (its adjusted p is its p times their number). The trials are
     * the run's, or for a comparison of files those its tested rows measured; the cells are those
     * the table tested. Empty when each cell was judged on its own.
     */
    static Optional<String> together(Report report) {
        ComparisonTable table = report.table();
        Thresholds t = table.thresholds();
        int tested = table.tested();
        if (!t.judgedTogether(tested)) {
            return Optional.empty();
        }
        List<CellComparison> rows =
                table.rows().stream().filter(CellComparison::tested).toList();
        int fewest = report.run()
                .map(r -> r.settings().trials())
                .orElseGet(() ->
                        rows.stream().mapToInt(r -> trials(report, r)).min().orElse(0));
        String cost = tested >= MANY_CELLS && fewest > 0 && fewest < FEW_TRIALS_TOGETHER
                ? ". At " + (report.run().isPresent() ? Integer.toString(fewest) : trials(report, rows))
                        + " trials per side this costs power: a cell that changed alone among them must reach a p "
                        + tested + " times smaller than it would need on its own; more trials"
                        + Advice.moreTrials(report).map(a -> " (" + a + ")").orElse("")
                        + ", fewer cells (--cell) or --fdr off (more false alarms) get it back"
                : "";
        return Optional.of("the " + tested + " tested cells judged together: significant only when the"
                + " Benjamini-Hochberg adjusted p is under " + Numbers.value(t.fdrRate())
                + (Double.isNaN(t.fdr()) ? " (the default; --fdr off judges each alone)" : " (--fdr)") + cost);
    }

    /**
     * Returns how many trials per side measured {@code row}: with adaptive trials, those of the look
     * its figures are from; else its run's; else (a comparison of files) the fewer of its two
     * sides' values, those set aside as far included.
     */
    static int trials(Report report, CellComparison row) {
        if (row.look().isPresent()) {
            return row.look().get().trials();
        }
        if (report.run().isPresent()) {
            return report.run().get().settings().trials();
        }
        int base = row.comparison().base().n();
        int head = row.comparison().head().n();
        for (Outlier o : row.outliers()) {
            if (o.side() == Side.BASE) {
                base++;
            } else {
                head++;
            }
        }
        return Math.min(base, head);
    }

    /**
     * Returns how many trials per side measured {@code rows} (see {@link #trials(Report,
     * CellComparison)}), as a sentence says it: "5", or "3 to 5" when they differ; empty for no rows.
     */
    static String trials(Report report, List<CellComparison> rows) {
        int fewest = rows.stream().mapToInt(r -> trials(report, r)).min().orElse(0);
        int most = rows.stream().mapToInt(r -> trials(report, r)).max().orElse(0);
        return rows.isEmpty() ? "" : fewest == most ? Integer.toString(fewest) : fewest + " to " + most;
    }

    /**
     * From this many tested cells on, a report says what judging them together costs at few trials,
     * or, judged each on its own, how many pass the test by chance.
     */
    static final int MANY_CELLS = 20;

    /**
     * The trials per side from which judging cells together costs little power: at 5 a lone cell
     * 10% slower among 50 at CV 3% is found in 43% of runs, at 10 in 99% (perfab calibrate's
     * suites). A report says what judging together costs under it, in the run's own figures.
     */
    static final int FEW_TRIALS_TOGETHER = 10;

    /**
     * Returns the looks of a run with adaptive trials and the level of each, named apart from alpha,
     * which they share: "looks after 5, 10 trials per side ..., regressions and improvements at the
     * looks' levels 0.001, 0.0492 (alpha 0.05 over all the looks) ...".
     */
    static String looks(Thresholds t, Sequential s) {
        List<String> levels = new ArrayList<>();
        for (int k = 1; k <= s.looks().size(); k++) {
            levels.add(Numbers.value(s.alpha(k, t.alpha())));
        }
        return "looks after " + s.looks().stream().map(String::valueOf).collect(Collectors.joining(", "))
                + " trials per side while a cell is undecided, regressions and improvements at the looks' levels "
                + String.join(", ", levels) + " (alpha " + Numbers.value(t.alpha()) + " over all the looks), small"
                + " changes and passes at alpha " + Numbers.value(t.alpha());
    }

    /**
     * Returns the smallest slowdown the rules report with 80% power for this row (see
     * {@link CellComparison#detectable}), or the undefined mark: the one figure every format shows.
     */
    static String detects(CellComparison row) {
        return Numbers.percent(row.detectable());
    }

    /** Returns the verdict as a reader sees it in plain text. */
    static String label(Verdict v) {
        return Shown.of(v).label();
    }

    /**
     * Returns the verdict of a row as a reader sees it: a row that measures another cell again says
     * whose verdict it takes ("regression, as time").
     */
    static String label(CellComparison row) {
        String v = label(row.comparison());
        return row.sameAs().map(p -> v + ", as " + Untrusted.plain(p.metric())).orElse(v);
    }

    /**
     * Returns the verdict of a comparison as a reader sees it: a cell too noisy to tell because it is
     * significant alone but not among the run's cells, or not at its look's level, says so rather
     * than "too noisy".
     */
    static String label(Comparison c) {
        if (c.caveats().contains(Caveat.NOT_MEASURED)) {
            return "not measured";
        }
        if (c.verdict() == Verdict.NOISY && c.caveats().contains(Caveat.NOT_AMONG_MANY)) {
            return "not among many";
        }
        if (c.caveats().contains(Caveat.COUNTED_INSTEAD)) {
            return "counted instead";
        }
        if (c.verdict() == Verdict.NOISY && c.caveats().contains(Caveat.NOT_AT_LOOK)) {
            return "short of its look";
        }
        return label(c.verdict());
    }

    /** The verdicts a line of counts always shows, even at 0. */
    static final List<Verdict> ALWAYS_COUNTED =
            List.of(Verdict.REGRESSION, Verdict.INCONCLUSIVE, Verdict.IMPROVEMENT, Verdict.NOISY, Verdict.UNCHANGED);

    /**
     * Returns the line of counts, e.g. {@code 1 regression, 0 inconclusive, ...}: of benchmarks, each
     * counted once whatever its metrics (see {@link ComparisonTable#benchmarks}), and saying so when a
     * benchmark has several.
     */
    static String counts(ComparisonTable table) {
        return counts(table, (v, text) -> text);
    }

    /** Returns the line of counts with each count that is not 0 passed through {@code paint}. */
    static String counts(ComparisonTable table, BiFunction<Verdict, String, String> paint) {
        Map<Verdict, Integer> counts = table.benchmarks();
        Map<Verdict, Integer> cells = table.counts();
        int benchmarks = counts.values().stream().mapToInt(Integer::intValue).sum();
        int rows = cells.values().stream().mapToInt(Integer::intValue).sum();
        StringBuilder s = new StringBuilder();
        if (benchmarks != rows) {
            s.append(benchmarks).append(benchmarks == 1 ? " benchmark: " : " benchmarks: ");
        }
        for (Verdict v : Verdict.values()) {
            int n = counts.get(v);
            if (ALWAYS_COUNTED.contains(v) || n > 0) {
                if (s.length() > 0 && !s.toString().endsWith(": ")) {
                    s.append(", ");
                }
                String count = n + " " + word(v, n);
                s.append(n > 0 ? paint.apply(v, count) : count);
            }
        }
        return s.toString();
    }

    /** Returns how a count of {@code n} names its verdict: "2 regressions", "1 inconclusive". */
    static String word(Verdict v, int n) {
        String word = label(v);
        boolean plural = n != 1 && (v == Verdict.REGRESSION || v == Verdict.IMPROVEMENT);
        return plural ? word + "s" : word;
    }

    /** Returns the verdict with the mark a reviewer scans for. */
    static String verdict(Verdict v) {
        return mark(v) + " " + label(v);
    }

    /** Returns the mark of a verdict: inconclusive is a grey question mark, never a tick. */
    static String mark(Verdict v) {
        return Shown.of(v).mark();
    }

    /**
     * Returns what a run that goes on says before its counts: "partial: look 1 of at most 4, the run
     * goes on" (see {@link RunResults#partial}); empty for a run that ended, and a comparison of files.
     */
    static Optional<String> partial(Report report) {
        return report.run()
                .flatMap(RunResults::partial)
                .map(p -> "partial: look " + p.look() + " of at most " + p.looks() + ", the run goes on");
    }
}
