package org.perfab.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.perfab.model.CellComparison;
import org.perfab.model.ComparisonTable;
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
    private static final Pattern TAIL = Pattern.compile("(p99\\d*(\\.\\d+)?|p999\\d*|max)", Pattern.CASE_INSENSITIVE);

    private Warnings() {
    }

    static List<String> of(Report report) {
        ComparisonTable table = report.table();
        List<String> warnings = new ArrayList<>(table.warnings());
        List<String> noisy = new ArrayList<>();
        List<String> tails = new ArrayList<>();
        int fewest = Integer.MAX_VALUE;
        for (CellComparison r : table.rows()) {
            Comparison c = r.comparison();
            String name = Untrusted.plain(r.cell().name()) + " " + Untrusted.plain(r.cell().metric());
            if (c.verdict() == Verdict.UNCHANGED || c.verdict() == Verdict.INCONCLUSIVE) {
                double cv = Math.max(nanToZero(c.base().cv()), nanToZero(c.head().cv()));
                boolean cvOverChange = !Double.isNaN(c.pctChange()) && cv > Math.abs(c.pctChange())
                        && cv > table.thresholds().minEffect();
                if (c.caveats().contains(Caveat.UNDERPOWERED) || cvOverChange) {
                    noisy.add(name + " (" + (Double.isNaN(c.mde()) ? "CV " + Numbers.percent(cv)
                            : "could miss " + Numbers.percent(c.mde())) + ")");
                }
            }
            if (TAIL.matcher(r.cell().metric()).matches() && c.verdict() != Verdict.NO_DATA) {
                int n = Math.min(c.base().n(), c.head().n());
                if (n < MarkdownRenderer.FEW_TRIALS_FOR_TAILS) {
                    tails.add(name);
                    fewest = Math.min(fewest, n);
                }
            }
        }
        if (!noisy.isEmpty()) {
            warnings.add("Too noisy to tell for " + noisy.size() + " cell" + (noisy.size() == 1 ? "" : "s")
                    + ": at this spread and trial count a change as large as the figure shown could go"
                    + " unseen, more than the " + Numbers.percent(table.thresholds().minEffect())
                    + " bar, so unchanged there is not a pass; more trials narrow it: " + names(noisy) + ".");
        }
        if (!tails.isEmpty()) {
            warnings.add(String.format(Locale.ROOT, "Tail percentiles over few trials (%d per side): %s."
                    + " A p99 or p999 within one trial rests on a handful of samples, and one slow"
                    + " scheduler tick moves it; read these as a profile and rerun before believing a"
                    + " move.", fewest, names(tails)));
        }
        return warnings;
    }

    private static String names(List<String> names) {
        if (names.size() <= NAMED) {
            return String.join(", ", names);
        }
        return String.join(", ", names.subList(0, NAMED)) + " and " + (names.size() - NAMED) + " more";
    }

    private static double nanToZero(double v) {
        return Double.isNaN(v) ? 0 : v;
    }
}
