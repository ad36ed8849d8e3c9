package org.perfab.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.perfab.model.CellComparison;
import org.perfab.model.ComparisonTable;
import org.perfab.stats.Comparison;
import org.perfab.stats.Sequential;
import org.perfab.stats.Thresholds;
import org.perfab.stats.Verdict;

/** Renders an aligned table for a terminal, in the manner of benchstat. */
final class TextRenderer implements Renderer {
    private static final String[] HEADER = {"cell", "metric", "unit", "base", "±cv", "head", "±cv",
        "n", "change", "95% CI", "p", "detects", "verdict"};
    /** The columns added when the medians of several builds decide: the spread and the trial-level test. */
    private static final String[] BUILD_HEADER = {"builds ±cv", "trials: change", "p"};
    /** Columns aligned to the right: the numbers. */
    private static final boolean[] RIGHT = {false, false, false, true, true, true, true, true, true,
        true, true, true, false, true, true, true};

    @Override
    public String render(Report report) {
        ComparisonTable table = report.table();
        StringBuilder out = new StringBuilder();
        Warnings.noComparison(report).ifPresent(none -> out.append("FAILED: ").append(none).append("\n"));
        out.append("base: ").append(Untrusted.plain(table.baseLabel(), Untrusted.MAX_PROSE)).append('\n');
        out.append("head: ").append(Untrusted.plain(table.headLabel(), Untrusted.MAX_PROSE)).append('\n');
        out.append(rules(table.thresholds())).append("\n\n");
        List<String> warnings = Warnings.of(report);
        for (String warning : warnings) {
            out.append("WARNING: ").append(Untrusted.plain(warning, Untrusted.MAX_PROSE)).append('\n');
        }
        if (!warnings.isEmpty()) {
            out.append('\n');
        }

        boolean builds = table.rows().stream().anyMatch(CellComparison::byBuilds);
        if (builds) {
            out.append(BUILDS_DECIDE).append("\n\n");
        }
        List<String[]> lines = new ArrayList<>();
        lines.add(builds ? concat(HEADER, BUILD_HEADER) : HEADER);
        List<String> notes = new ArrayList<>();
        for (CellComparison row : table.rows()) {
            Comparison c = row.comparison();
            String cell = Untrusted.plain(row.cell().name());
            String metric = Untrusted.plain(row.cell().metric());
            String[] line = new String[] {
                cell,
                metric,
                Untrusted.plain(row.cell().unit()),
                Numbers.value(c.base().mean()),
                Numbers.percent(c.base().cv()),
                Numbers.value(c.head().mean()),
                Numbers.percent(c.head().cv()),
                c.base().n() + "/" + c.head().n(),
                Numbers.signedPercent(c.pctChange()),
                Numbers.interval(c.ciLow(), c.ciHigh()),
                Numbers.pValue(c.pValue()),
                detects(c, table.thresholds()),
                label(c.verdict()),
            };
            if (builds) {
                Comparison t = row.trialLevel().orElse(c);
                line = concat(line, new String[] {Numbers.percent(row.buildSpread()),
                    Numbers.signedPercent(t.pctChange()), Numbers.pValue(t.pValue())});
            }
            lines.add(line);
            for (String note : Notes.of(row)) {
                notes.add(cell + " " + metric + ": " + note);
            }
        }
        out.append(Tables.aligned(lines, RIGHT));
        out.append('\n').append(counts(table.counts())).append('\n');
        if (!notes.isEmpty()) {
            out.append("\nnotes:\n");
            for (String note : notes) {
                out.append("  ").append(note).append('\n');
            }
        }
        return out.toString();
    }

    /** What a table decided by build medians says about itself. */
    static final String BUILDS_DECIDE = "Verdicts from the median of each build (one value per build and side),"
            + " so that how far code layout alone moves a cell is inside the test; the test over every trial is"
            + " shown beside, with the spread between builds.";

    private static String[] concat(String[] a, String[] b) {
        String[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    /** Returns one line stating the rules: {@code alpha 0.05, min effect 3.0%, ...}. */
    static String rules(Thresholds t) {
        return "Welch's t-test, alpha " + Numbers.value(t.alpha()) + "; regression/improvement at "
                + Numbers.percent(t.minEffect()) + " or more; inconclusive at "
                + Numbers.percent(t.inconclusive()) + " or more"
                + (Double.isNaN(t.fdr()) ? "" : "; significant only when the Benjamini-Hochberg adjusted p is under "
                        + Numbers.value(t.fdr()) + " (--fdr)")
                + t.adaptive().map(s -> "; adaptive trials: " + looks(t, s)).orElse("");
    }

    /** Returns the looks of a run with adaptive trials and the alpha of each: "5, 10 trials per side at alpha ...". */
    static String looks(Thresholds t, Sequential s) {
        List<String> alphas = new ArrayList<>();
        for (int k = 1; k <= s.looks().size(); k++) {
            alphas.add(Numbers.value(s.alpha(k, t.alpha())));
        }
        return "looks after " + s.looks().stream().map(String::valueOf).collect(Collectors.joining(", "))
                + " trials per side while a cell is undecided, at alpha " + String.join(", ", alphas) + " (shares of "
                + Numbers.value(t.alpha()) + ")";
    }

    /**
     * Returns the smallest slowdown the rules report with 80% power for this cell (see
     * {@link Comparison#detectable}), or the undefined mark.
     */
    static String detects(Comparison c, Thresholds t) {
        return Numbers.percent(c.detectable(t));
    }

    /** Returns the verdict as a reader sees it in plain text. */
    static String label(Verdict v) {
        return v == Verdict.NO_DATA ? "no data" : v.id();
    }

    /** Returns the line of counts, e.g. {@code 1 regression, 0 inconclusive, ...}. */
    static String counts(Map<Verdict, Integer> counts) {
        StringBuilder s = new StringBuilder();
        for (Verdict v : Verdict.values()) {
            int n = counts.get(v);
            boolean always = v != Verdict.PROFILE && v != Verdict.NO_DATA;
            if (always || n > 0) {
                if (s.length() > 0) {
                    s.append(", ");
                }
                String word = label(v);
                s.append(n).append(' ').append(n == 1 || v == Verdict.INCONCLUSIVE
                        || v == Verdict.UNCHANGED || v == Verdict.NO_DATA ? word : word + "s");
            }
        }
        return s.toString();
    }
}
