package org.perfab.calibrate;

import java.util.List;
import java.util.Locale;
import org.perfab.demo.ProcessCalibration;
import org.perfab.report.Format;
import org.perfab.stats.Calibration;
import org.perfab.stats.Calibration.Method;
import org.perfab.stats.Calibration.Rates;

/**
 * Lays out what {@link Calibrate} measured: aligned tables for a terminal ({@link Format#TEXT}),
 * or the same tables in a Markdown code block ({@link Format#MARKDOWN}). All the wording of
 * {@code perfab calibrate} is here.
 */
public final class CalibrationRenderer {
    private CalibrationRenderer() {
    }

    /**
     * Returns the simulation's tables in {@code format}.
     *
     * @throws IllegalArgumentException for a format other than text or Markdown
     */
    public static String render(Calibrate.Simulation s, Format format) {
        return in(format, text(s));
    }

    /**
     * Returns the real runs' table in {@code format}.
     *
     * @throws IllegalArgumentException for a format other than text or Markdown
     */
    public static String render(Calibrate.RealRuns r, Format format) {
        return in(format, text(r));
    }

    private static String in(Format format, String text) {
        return switch (format) {
            case TEXT -> text;
            case MARKDOWN -> "```text\n" + text.strip() + "\n```\n";
            default -> throw new IllegalArgumentException("calibrate writes text or markdown, not " + format.id());
        };
    }

    private static String text(Calibrate.Simulation s) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "perfab calibrate: %d simulated runs per case, seed %d. Each cell: the"
                + " share of runs judged a regression, in percent (at 0%%: false alarms), and in brackets the share"
                + " judged inconclusive. Alpha %s, bar %s%%.%n", s.request().runs(), s.request().seed(),
                s.request().thresholds().alpha(), s.request().thresholds().minEffect()));
        for (Calibrate.NoiseTable table : s.tables()) {
            out.append("\nnoise: ").append(table.noise().label()).append('\n');
            out.append(String.format(Locale.ROOT, "%-4s %3s  %-26s %28s %10s  %s%n", "", "", "",
                    "at 0%: regression (incon.)", "", "found (inconclusive) at a true slowdown of"));
            out.append(String.format(Locale.ROOT, "%-4s %3s  %-26s %13s %7s %6s %10s", "cv", "n", "method", "",
                    "improv.", "noisy", "no change*"));
            effects(out, true);
            for (Calibrate.Row row : table.rows()) {
                for (Method m : Method.values()) {
                    out.append(String.format(Locale.ROOT, "%-4s %3d  %-26s", (int) row.cv() + "%", row.trials(),
                            m.label()));
                    List<Rates> rates = row.rates().get(m);
                    for (int i = 0; i < rates.size(); i++) {
                        Rates r = rates.get(i);
                        out.append(String.format(Locale.ROOT, " %5.1f (%5.1f)", r.regression(), r.inconclusive()));
                        if (Calibrate.EFFECTS.get(i) == 0) {
                            out.append(String.format(Locale.ROOT, " %7.1f %6.1f %10.1f", r.improvement(), r.noisy(),
                                    r.falseNoChange()));
                        }
                    }
                    out.append('\n');
                }
            }
        }
        targets(out, s);
        out.append("\n* no change: the share of runs whose row says \"no change\" although one side had far trials"
                + " and the other none (a slowdown that hits only some trials hides there).\n");
        out.append("\nAdaptive trials (--trials 5 --adaptive 20) against 5 and 20 trials per side, on the same draws,"
                + " each judged by perfab's rule: regressions (inconclusive) in percent, and the trials per side"
                + " adaptive trials took\n");
        out.append(String.format(Locale.ROOT, "%-17s %3s  %-12s", "noise", "cv", "trials"));
        effects(out, false);
        String[] labels = {"5", "20", "adaptive", "  its trials"};
        for (Calibrate.AdaptiveRow row : s.adaptive()) {
            for (int i = 0; i < labels.length; i++) {
                out.append(String.format(Locale.ROOT, "%-17s %3s  %-12s", row.noise().label(), (int) row.cv() + "%",
                        labels[i]));
                for (Calibration.AdaptiveRates a : row.byEffect()) {
                    if (i == 3) {
                        out.append(String.format(Locale.ROOT, " %13.1f", a.meanTrials()));
                    } else {
                        Rates r = i == 0 ? a.first() : i == 1 ? a.max() : a.adaptive();
                        out.append(String.format(Locale.ROOT, " %5.1f (%5.1f)", r.regression(), r.inconclusive()));
                    }
                }
                out.append('\n');
            }
        }
        out.append("\nSuites of many cells, each judged by perfab's rule: cell by cell, and together (Benjamini-Hochberg"
                + " at alpha, perfab's default)\n");
        out.append(String.format(Locale.ROOT, "  %-72s %12s %12s%n", "suite: figure", "cell by cell", "together"));
        for (Calibrate.Suite suite : s.suites()) {
            String format = suite.figure() == Calibrate.Figure.FALSE_REGRESSIONS ? "%12.2f" : "%11.1f%%";
            out.append(String.format(Locale.ROOT, "  %-72s " + format + " " + format + "%n", label(suite),
                    suite.of(suite.alone()), suite.of(suite.together())));
        }
        out.append("\nThe same with adaptive trials (5, then rounds of 5 up to 20 per side), as perfab ab runs by default:"
                + " cell by cell, and together (at each look's share of alpha); trials per side in brackets\n");
        out.append(String.format(Locale.ROOT, "  %-72s %12s %12s%n", "suite: figure", "cell by cell", "together"));
        for (Calibrate.Suite suite : s.adaptiveSuites()) {
            out.append(String.format(Locale.ROOT, "  %-72s %6.1f%% (%2.0f) %6.1f%% (%2.0f)%n", label(suite),
                    suite.of(suite.alone()), suite.alone().meanTrials(), suite.of(suite.together()),
                    suite.together().meanTrials()));
        }
        return out.toString();
    }

    /** Appends the effects' column heads, without 0% when {@code pastZero}, and ends the line. */
    private static void effects(StringBuilder out, boolean pastZero) {
        for (double e : Calibrate.EFFECTS) {
            if (e > 0 || !pastZero) {
                out.append(String.format(Locale.ROOT, " %13s", (int) e + "%"));
            }
        }
        out.append('\n');
    }

    /** Returns the words of a suite's line, e.g. "20 cells, 1 slower by 10% (cv 3%, n 5): runs finding it". */
    private static String label(Calibrate.Suite s) {
        String cells = String.format(Locale.ROOT, "%,d", s.cells());
        String n = s.adaptive() ? "" : ", n " + s.trials();
        String cv = "cv " + fmt(s.cv()) + "%";
        return switch (s.figure()) {
            case HEADLINE -> "A/A of " + cells + " cells (" + s.noise().label() + ", " + cv + n
                    + "): runs headlining a change";
            case FALSE_REGRESSIONS -> "A/A of " + cells + " cells (" + cv + n + "): false regressions per run";
            case FOUND -> cells + " cells, " + s.changed() + " slower by " + fmt(s.effect()) + "% (" + cv + n
                    + "): runs finding " + (s.changed() == 1 ? "it" : s.changed() == 2 ? "both" : "all");
        };
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }

    private static void targets(StringBuilder out, Calibrate.Simulation s) {
        if (s.targets().isEmpty() && s.noChange().isEmpty()) {
            return;
        }
        out.append("\nTargets\n");
        for (Calibrate.Target t : s.targets()) {
            out.append(String.format(Locale.ROOT, "  %-16s cv 1%%, n %2d: false regressions %4.1f%% (at most 1%%),"
                    + " found at +5%% %5.1f%% (benchstat %5.1f%%)  %s%n", t.noise().label(), t.trials(),
                    t.falseRegressions(), t.found(), t.benchstat(), t.holds() ? "holds" : "MISSED"));
        }
        s.noChange().ifPresent(c -> out.append(String.format(Locale.ROOT, "  rows saying \"no change\" with far trials"
                + " on one side only: at most %.1f%% of runs in any case (%d of them partial slowdowns)  %s%n",
                c.worst(), c.partialCases(), c.holds() ? "holds" : "MISSED")));
    }

    private static String text(Calibrate.RealRuns r) {
        StringBuilder out = new StringBuilder();
        int k = r.runs();
        out.append(String.format(Locale.ROOT, "%nReal processes: %d A/B run%s of each commit on this machine (%s, %d"
                + " cores), %d trials per side, 1 warm-up; a subject whose 'target' costs a set number of steps, and"
                + " commits that raise it; three more cells no commit changes%n", k, k == 1 ? "" : "s",
                r.outcome().machine().cpu(), r.outcome().machine().cores(), Calibrate.REAL_TRIALS));
        out.append(String.format(Locale.ROOT, "%-10s %5s %8s %13s %18s %13s %9s %7s %9s %7s%n", "commit", "runs",
                "found", "inconclusive", "false regressions", "inconclusive", "measured", "cv", "perfab's", "run"));
        out.append(String.format(Locale.ROOT, "%-10s %5s %8s %13s %18s %13s %9s %7s %9s %7s%n", "", "", "(target)",
                "(target)", "(other cells)", "(other cells)", "(target)", "(median)", "own time", ""));
        for (ProcessCalibration.Figures f : r.outcome().figures()) {
            out.append(String.format(Locale.ROOT, "%-10s %5d %8s %13s %17.1f%% %12.1f%% %+8.1f%% %6.1f%% %8.1f%% %6.0fs%n",
                    f.effect() == 0 ? "A/A" : "+" + f.effect() + "%", f.runs(), share(f.found()),
                    share(f.inconclusive()), f.falseRegressions(), f.falseInconclusive(), f.change(), f.cv(),
                    f.overhead(), f.seconds()));
        }
        out.append("The runs, their results and comments are in ").append(r.dir()).append('\n');
        return out.toString();
    }

    private static String share(double percent) {
        return Double.isNaN(percent) ? "-" : String.format(Locale.ROOT, "%.1f%%", percent);
    }
}
