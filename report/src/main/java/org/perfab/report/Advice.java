package org.perfab.report;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.perfab.model.CellComparison;
import org.perfab.model.RunResults;
import org.perfab.model.Warning;
import org.perfab.stats.Comparison;
import org.perfab.stats.Sensitivity;
import org.perfab.stats.Sequential;
import org.perfab.stats.Thresholds;

/**
 * What a report tells a reader to do for cells that more trials could settle, worded against the
 * run the report came from: never an option the run already used to its end. A run of a fixed
 * size is pointed at adaptive trials; a run with adaptive trials that did not reach its last look
 * is pointed at what stopped it (the looks still to come, {@code --resume}, a larger
 * {@code --budget}); a run that reached its most trials, one of several builds, or cells whose
 * spread would hide a change at the bar even at the most trials, at {@code perfab plan}, which says
 * from the run's own spreads how many trials and builds each cell needs.
 */
final class Advice {
    /**
     * The most trials per side {@code perfab ab}'s adaptive trials take by default: what a run of a
     * fixed size with fewer is pointed at.
     */
    static final int ADAPTIVE = 20;

    private Advice() {}

    /**
     * Returns how {@code report}'s run can get more trials, as words that follow "more trials" in
     * parentheses: {@code --adaptive 20}, {@code --resume takes the run on, up to 20 trials a side},
     * or for a run its budget stopped ({@link Warning.Kind#BUDGET_STOP}) the budget that lets its
     * next look run; empty for a comparison of files, whose trials are the files' own.
     */
    static Optional<String> moreTrials(Report report) {
        if (report.run().isEmpty()) {
            return Optional.empty();
        }
        RunResults run = report.run().get();
        int trials = run.settings().trials();
        Optional<Sequential> adaptive = report.table().thresholds().adaptive();
        Optional<Warning> stop = report.table().warnings().stream()
                .filter(w -> w.kind() == Warning.Kind.BUDGET_STOP)
                .findFirst();
        if (stop.isPresent()) {
            Warning w = stop.get();
            return Optional.of("--budget " + Spans.option(Duration.ofMillis(w.figure("enoughMillis"))) + " lets the"
                    + " next look run, to " + (w.figure("trials") + w.figure("more")) + " trials a side, where"
                    + " --budget " + Spans.option(Duration.ofMillis(w.figure("budgetMillis"))) + " stopped the run at "
                    + w.figure("trials"));
        }
        if (adaptive.isPresent() && trials < adaptive.get().max()) {
            int max = adaptive.get().max();
            if (run.partial().isPresent()) {
                return Optional.of("the run goes on, up to " + max + " trials a side");
            }
            if (run.interrupted()) {
                return Optional.of("--resume takes the run on, up to " + max + " trials a side");
            }
            // A run that ended short of its last look with cells open was stopped by its budget
            // (results written before perfab recorded the stop say no more).
            return Optional.of("the run stopped at " + trials + " of its most " + max + " trials a side: a larger"
                    + " --budget lets its later looks run");
        }
        if (offersAdaptive(run, report.table().thresholds())) {
            return Optional.of("--adaptive " + ADAPTIVE);
        }
        return Optional.of("past this run's " + trials + " trials a side: " + PLAN);
    }

    /** Returns whether the run is one of a fixed size that adaptive trials would take further. */
    private static boolean offersAdaptive(RunResults run, Thresholds t) {
        return t.adaptive().isEmpty()
                && run.settings().builds() == 1
                && run.settings().trials() < ADAPTIVE;
    }

    /**
     * Returns what more trials would do for {@code rows}, cells too noisy to tell, as a clause:
     * "more trials (--adaptive 20) narrow the spread"; where no one of them could tell a change at
     * the bar even at the most trials an option of the run offers (see {@link #hopeless}), that
     * they would not, and that {@code perfab plan} says what would.
     */
    static String narrow(Report report, List<CellComparison> rows) {
        Optional<String> how = moreTrials(report);
        Thresholds t = report.table().thresholds();
        boolean further = report.run().isPresent()
                && (offersAdaptive(report.run().get(), t)
                        || t.adaptive().isPresent()
                                && report.run().get().settings().trials()
                                        < t.adaptive().get().max());
        if (!further) {
            return "more trials" + how.map(h -> " (" + h + ")").orElse("") + " narrow the spread";
        }
        int most = t.adaptive().map(Sequential::max).orElse(ADAPTIVE);
        Sensitivity test = new Sensitivity(t.alpha(), Comparison.POWER);
        if (rows.isEmpty() || !rows.stream().allMatch(r -> hopeless(r, t, most, test))) {
            return "more trials (" + how.get() + ") narrow the spread";
        }
        return (t.adaptive().isPresent()
                        ? "even " + most + " trials a side, the most this run may take,"
                        : "even --adaptive " + ADAPTIVE)
                + " would not narrow their spread under the "
                + Numbers.percent(t.minEffect()) + " bar (" + PLAN + ")";
    }

    /** Where to learn how many trials and builds a run needs. */
    private static final String PLAN =
            "perfab plan on this run's results.json says how many trials and builds each cell needs";

    /**
     * Returns whether {@code row}'s spread would hide a change at the bar even at {@code most} trials
     * per side (see {@link Comparison#detectableAt}), by {@code test}: a choice made on its spread
     * alone, never on the change measured. A row whose spread is not known is not.
     */
    private static boolean hopeless(CellComparison row, Thresholds t, int most, Sensitivity test) {
        return row.comparison().detectableAt(most, test) > t.minEffect();
    }
}
