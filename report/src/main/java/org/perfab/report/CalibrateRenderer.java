package org.perfab.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.perfab.model.CalibrationFigures;
import org.perfab.model.RealRuns;
import org.perfab.model.Simulation;
import org.perfab.model.TableJson;
import org.perfab.stats.Calibration;
import org.perfab.stats.Calibration.Method;
import org.perfab.stats.Calibration.Rates;
import org.perfab.stats.TrialTest;

/**
 * Renders what {@code perfab calibrate} measured ({@link CalibrationFigures}): aligned tables for a
 * terminal, the same tables in Markdown, or JSON; and the simulation's headline
 * figures as the lines the command prints while the real runs go on. All the wording of
 * {@code perfab calibrate} is here.
 */
public final class CalibrateRenderer {
    private CalibrateRenderer() {}

    /** Returns the simulation's tables, then the real runs' table when there were any. */
    static String text(CalibrationFigures figures) {
        StringBuilder out = new StringBuilder(text(figures.simulation()));
        figures.real().ifPresent(r -> out.append(text(r)));
        return out.toString();
    }

    /**
     * Returns the same figures as {@link #text} for a page or a pull request: a heading, then each
     * of its tables as a Markdown table under its own heading, and the targets as a list.
     */
    static String markdown(CalibrationFigures figures) {
        Simulation s = figures.simulation();
        StringBuilder out = new StringBuilder("### perfab calibrate\n\n");
        out.append(String.format(
                Locale.ROOT,
                "%d simulated runs per case, seed %d. Each cell: the share of runs judged a"
                        + " regression, in percent (at 0%%: false alarms), and in brackets the share judged inconclusive."
                        + " Alpha %s, bar %s%%.%n",
                s.runs(),
                s.seed(),
                s.thresholds().alpha(),
                s.thresholds().minEffect()));
        s.tables().forEach(table -> markdownNoise(out, s, table));
        if (!s.targets().isEmpty() || !s.earned().isEmpty()) {
            out.append("\n#### Targets\n\n");
            s.targets()
                    .forEach(t -> out.append("- ").append(unaligned(target(t))).append('\n'));
            earnedTargets(s).forEach(t -> out.append("- ").append(t).append('\n'));
        }
        if (!s.earned().isEmpty()) {
            out.append("\n#### Every verdict earned\n\n").append(EARNED).append("\n\n");
            List<String[]> rows = new ArrayList<>();
            rows.add(EARNED_HEAD);
            s.earned().forEach(e -> rows.add(earnedRow(e)));
            out.append(Tables.markdown(rows, "|:--|--:|--:|--:|--:|--:|--:|--:|"));
        }
        out.append("\n\\* no change: the share of runs whose row says \"no change\" although one side had far trials"
                + " and the other none (a slowdown that hits only some trials hides there).\n");
        markdownAdaptive(out, s);
        markdownSuites(out, s);
        if (!s.runners().isEmpty()) {
            out.append("\n#### Runner models\n\n").append(RUNNERS).append("\n\n");
            out.append(Tables.markdown(runnerRows(s), "|:--|--:|:--|--:|--:|--:|--:|--:|--:|--:|"));
            out.append('\n');
            runnerTargets(s).forEach(t -> out.append("- ").append(t).append('\n'));
        }
        figures.real().ifPresent(r -> markdown(out, r));
        return out.toString();
    }

    /** Appends the real runs' table in Markdown. */
    private static void markdown(StringBuilder out, RealRuns r) {
        int k = r.runs();
        out.append(String.format(
                Locale.ROOT,
                "%n#### Real processes%n%n%d A/B run%s of each commit on this machine (%s,"
                        + " %d cores), %d trials per side, 1 warm-up; a subject whose 'target' costs a set number of steps, and"
                        + " commits that raise it; three more cells no commit changes.%n%n",
                k,
                k == 1 ? "" : "s",
                Untrusted.markdown(r.machine().cpu(), 120),
                r.machine().cores(),
                r.trials()));
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {
            "commit",
            "runs",
            "found (target)",
            "inconclusive (target)",
            "false regressions (other cells)",
            "inconclusive (other cells)",
            "measured (target)",
            "cv (median)",
            "perfab's own time",
            "run"
        });
        for (RealRuns.Commit f : r.commits()) {
            rows.add(new String[] {
                commit(f),
                Integer.toString(f.runs()),
                share(f.found()),
                share(f.inconclusive()),
                share(f.falseRegressions()),
                share(f.falseInconclusive()),
                String.format(Locale.ROOT, "%+.1f%%", f.change()),
                share(f.cv()),
                share(f.overhead()),
                String.format(Locale.ROOT, "%.0f s", f.seconds())
            });
        }
        out.append(Tables.markdown(rows, "|:--|--:|--:|--:|--:|--:|--:|--:|--:|--:|"));
        out.append("\nThe runs, their results and comments are in ")
                .append(Untrusted.markdown(r.dir().toString(), 4096))
                .append(".\n");
    }

    /** Returns a regression share and, in brackets, an inconclusive one: {@code 80.0 (20.0)}. */
    private static String rates(Rates r) {
        return String.format(Locale.ROOT, "%.1f (%.1f)", r.regression(), r.inconclusive());
    }

    private static String one(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    /**
     * Returns the lines that say, once the simulation is done, how its targets fared: a first line
     * of what was simulated, then one per target as the table of targets words it, and the "no
     * change" target; a line saying there is no target among the noises simulated when there is
     * none.
     */
    public static List<String> headlines(Simulation s) {
        List<String> lines = new ArrayList<>();
        lines.add(String.format(
                Locale.ROOT,
                "simulation done: %d runs per case of %d noise%s",
                s.runs(),
                s.tables().size(),
                s.tables().size() == 1 ? "" : "s"));
        for (Simulation.Target t : s.targets()) {
            lines.add("target: " + unaligned(target(t)));
        }
        earnedTargets(s).forEach(t -> lines.add("target: " + t));
        runnerTargets(s).forEach(t -> lines.add("target: " + t));
        if (s.targets().isEmpty() && s.earned().isEmpty() && s.runners().isEmpty()) {
            lines.add("no target among the noises simulated");
        }
        return lines;
    }

    /** Returns a line of a table on its own: the spaces that aligned its columns one each. */
    private static String unaligned(String line) {
        return line.strip().replaceAll(" {2,}", " ");
    }

    private static String text(Simulation s) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(
                Locale.ROOT,
                "perfab calibrate: %d simulated runs per case, seed %d. Each cell: the"
                        + " share of runs judged a regression, in percent (at 0%%: false alarms), and in brackets the share"
                        + " judged inconclusive. Alpha %s, bar %s%%.%n",
                s.runs(),
                s.seed(),
                s.thresholds().alpha(),
                s.thresholds().minEffect()));
        s.tables().forEach(table -> textNoise(out, s, table));
        targets(out, s);
        if (!s.earned().isEmpty()) {
            out.append('\n').append(EARNED).append('\n');
            List<String[]> rows = new ArrayList<>();
            rows.add(EARNED_HEAD);
            s.earned().forEach(e -> rows.add(earnedRow(e)));
            out.append(Tables.aligned(rows, new boolean[] {false, true, true, true, true, true, true, true}));
        }
        out.append("\n* no change: the share of runs whose row says \"no change\" although one side had far trials"
                + " and the other none (a slowdown that hits only some trials hides there).\n");
        textAdaptive(out, s);
        textSuites(out, s);
        if (!s.runners().isEmpty()) {
            out.append('\n').append(RUNNERS).append('\n');
            out.append(Tables.aligned(
                    runnerRows(s), new boolean[] {false, true, false, true, true, true, true, true, true, true}));
            out.append("\nTargets of the runner models (the default test, auto)\n");
            runnerTargets(s).forEach(t -> out.append("  ").append(t).append('\n'));
        }
        return out.toString();
    }

    /** Appends one noise's table in Markdown: each case's rates, by method, at each effect. */
    private static void markdownNoise(StringBuilder out, Simulation s, Simulation.NoiseTable table) {
        out.append("\n#### Noise: ").append(table.noise().label()).append("\n\n");
        List<String[]> rows = new ArrayList<>();
        List<String> head = new ArrayList<>(
                List.of("cv", "n", "method", "at 0%: regression (incon.)", "improv.", "noisy", "no change*"));
        StringBuilder align = new StringBuilder("|--:|--:|:--|--:|--:|--:|--:|");
        for (double e : s.effects()) {
            if (e > 0) {
                head.add("at +" + (int) e + "%");
                align.append("--:|");
            }
        }
        rows.add(head.toArray(String[]::new));
        for (Simulation.Row row : table.rows()) {
            for (Method m : Method.values()) {
                List<String> cells =
                        new ArrayList<>(List.of((int) row.cv() + "%", Integer.toString(row.trials()), m.label()));
                List<Rates> rates = row.rates().get(m);
                for (int i = 0; i < rates.size(); i++) {
                    Rates r = rates.get(i);
                    cells.add(rates(r));
                    if (s.effects().get(i) == 0) {
                        cells.addAll(List.of(one(r.improvement()), one(r.noisy()), one(r.falseNoChange())));
                    }
                }
                rows.add(cells.toArray(String[]::new));
            }
        }
        out.append(Tables.markdown(rows, align.toString()));
    }

    /** Appends the adaptive trials' table in Markdown, against 5 and 20 trials per side. */
    private static void markdownAdaptive(StringBuilder out, Simulation s) {
        out.append("\n#### Adaptive trials\n\n--trials 5 --adaptive 20 against 5 and 20 trials per side, on the same"
                + " draws, each judged by perfab's rule: regressions (inconclusive) in percent, and the trials per side"
                + " adaptive trials took.\n\n");
        List<String[]> adaptive = new ArrayList<>();
        List<String> head = new ArrayList<>(List.of("noise", "cv", "trials"));
        StringBuilder align = new StringBuilder("|:--|--:|:--|");
        s.effects().forEach(e -> {
            head.add("at +" + (int) (double) e + "%");
            align.append("--:|");
        });
        adaptive.add(head.toArray(String[]::new));
        String[] labels = {"5", "20", "adaptive", "its trials"};
        for (Simulation.AdaptiveRow row : s.adaptive()) {
            for (int i = 0; i < labels.length; i++) {
                List<String> cells = new ArrayList<>(List.of(row.noise().label(), (int) row.cv() + "%", labels[i]));
                for (Calibration.AdaptiveRates a : row.byEffect()) {
                    cells.add(
                            i == 3 ? one(a.meanTrials()) : rates(i == 0 ? a.first() : i == 1 ? a.max() : a.adaptive()));
                }
                adaptive.add(cells.toArray(String[]::new));
            }
        }
        out.append(Tables.markdown(adaptive, align.toString()));
    }

    /** Appends the suites' tables in Markdown: at set trials, then with adaptive trials. */
    private static void markdownSuites(StringBuilder out, Simulation s) {
        out.append("\n#### Suites\n\nSuites of many cells, each judged by perfab's rule: cell by cell, and together"
                + " (Benjamini-Hochberg at alpha, perfab's default).\n\n");
        List<String[]> suites = new ArrayList<>();
        suites.add(new String[] {"suite: figure", "cell by cell", "together"});
        for (Simulation.Suite suite : s.suites()) {
            String format = suite.figure() == Simulation.Figure.FALSE_REGRESSIONS ? "%.2f" : "%.1f%%";
            suites.add(new String[] {
                label(suite),
                String.format(Locale.ROOT, format, figure(suite, suite.alone())),
                String.format(Locale.ROOT, format, figure(suite, suite.together()))
            });
        }
        out.append(Tables.markdown(suites, "|:--|--:|--:|"));
        out.append("\nThe same with adaptive trials (5, then rounds of 5 up to 20 per side), as perfab ab runs by"
                + " default: cell by cell, and together (at each look's level); trials per side in"
                + " brackets.\n\n");
        List<String[]> adaptiveSuites = new ArrayList<>();
        adaptiveSuites.add(new String[] {"suite: figure", "cell by cell", "together"});
        for (Simulation.Suite suite : s.adaptiveSuites()) {
            adaptiveSuites.add(new String[] {
                label(suite),
                String.format(
                        Locale.ROOT,
                        "%.1f%% (%.0f)",
                        figure(suite, suite.alone()),
                        suite.alone().meanTrials()),
                String.format(
                        Locale.ROOT,
                        "%.1f%% (%.0f)",
                        figure(suite, suite.together()),
                        suite.together().meanTrials())
            });
        }
        out.append(Tables.markdown(adaptiveSuites, "|:--|--:|--:|"));
    }

    /** Appends one noise's table as aligned text: each case's rates, by method, at each effect. */
    private static void textNoise(StringBuilder out, Simulation s, Simulation.NoiseTable table) {
        out.append("\nnoise: ").append(table.noise().label()).append('\n');
        out.append(String.format(
                Locale.ROOT,
                "%-4s %3s  %-26s %28s %10s  %s%n",
                "",
                "",
                "",
                "at 0%: regression (incon.)",
                "",
                "found (inconclusive) at a true slowdown of"));
        out.append(String.format(
                Locale.ROOT,
                "%-4s %3s  %-26s %13s %7s %6s %10s",
                "cv",
                "n",
                "method",
                "",
                "improv.",
                "noisy",
                "no change*"));
        effects(out, s.effects(), true);
        for (Simulation.Row row : table.rows()) {
            for (Method m : Method.values()) {
                out.append(
                        String.format(Locale.ROOT, "%-4s %3d  %-26s", (int) row.cv() + "%", row.trials(), m.label()));
                List<Rates> rates = row.rates().get(m);
                for (int i = 0; i < rates.size(); i++) {
                    Rates r = rates.get(i);
                    out.append(String.format(Locale.ROOT, " %5.1f (%5.1f)", r.regression(), r.inconclusive()));
                    if (s.effects().get(i) == 0) {
                        out.append(String.format(
                                Locale.ROOT, " %7.1f %6.1f %10.1f", r.improvement(), r.noisy(), r.falseNoChange()));
                    }
                }
                out.append('\n');
            }
        }
    }

    /** Appends the adaptive trials' table as aligned text, against 5 and 20 trials per side. */
    private static void textAdaptive(StringBuilder out, Simulation s) {
        out.append("\nAdaptive trials (--trials 5 --adaptive 20) against 5 and 20 trials per side, on the same draws,"
                + " each judged by perfab's rule: regressions (inconclusive) in percent, and the trials per side"
                + " adaptive trials took\n");
        out.append(String.format(Locale.ROOT, "%-17s %3s  %-12s", "noise", "cv", "trials"));
        effects(out, s.effects(), false);
        String[] labels = {"5", "20", "adaptive", "  its trials"};
        for (Simulation.AdaptiveRow row : s.adaptive()) {
            for (int i = 0; i < labels.length; i++) {
                out.append(String.format(
                        Locale.ROOT, "%-17s %3s  %-12s", row.noise().label(), (int) row.cv() + "%", labels[i]));
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
    }

    /** Appends the suites' tables as aligned text: at set trials, then with adaptive trials. */
    private static void textSuites(StringBuilder out, Simulation s) {
        out.append(
                "\nSuites of many cells, each judged by perfab's rule: cell by cell, and together (Benjamini-Hochberg"
                        + " at alpha, perfab's default)\n");
        out.append(String.format(Locale.ROOT, "  %-72s %12s %12s%n", "suite: figure", "cell by cell", "together"));
        for (Simulation.Suite suite : s.suites()) {
            String format = suite.figure() == Simulation.Figure.FALSE_REGRESSIONS ? "%12.2f" : "%11.1f%%";
            out.append(String.format(
                    Locale.ROOT,
                    "  %-72s " + format + " " + format + "%n",
                    label(suite),
                    figure(suite, suite.alone()),
                    figure(suite, suite.together())));
        }
        out.append(
                "\nThe same with adaptive trials (5, then rounds of 5 up to 20 per side), as perfab ab runs by default:"
                        + " cell by cell, and together (at each look's level); trials per side in brackets\n");
        out.append(String.format(Locale.ROOT, "  %-72s %12s %12s%n", "suite: figure", "cell by cell", "together"));
        for (Simulation.Suite suite : s.adaptiveSuites()) {
            out.append(String.format(
                    Locale.ROOT,
                    "  %-72s %6.1f%% (%2.0f) %6.1f%% (%2.0f)%n",
                    label(suite),
                    figure(suite, suite.alone()),
                    suite.alone().meanTrials(),
                    figure(suite, suite.together()),
                    suite.together().meanTrials()));
        }
    }

    /** What the runner models' table shows. */
    static final String RUNNERS = "Runner models: runs of " + Simulation.RUNNER_CELLS + " cells sharing the runner's"
            + " movement, each trial with a noise of its own of " + (int) Calibration.RUNNER_CV + "%, trials in the"
            + " interleaved order (A B, B A, ...), each cell judged alone by Welch's test, by pairs, and by the"
            + " default (auto: pairs where the run's cells show the runner moved both trials of a pair alike), on"
            + " the same draws. In percent of cells: where nothing changed, false regressions or improvements, \"no"
            + " change\" and p under alpha; where the head was 5% slower, regressions found, \"no change\" and"
            + " wrong signs; and the runs auto judged in pairs.";

    private static final String[] RUNNER_HEAD = {
        "runner",
        "n",
        "test",
        "at 0%: false",
        "no change",
        "p < alpha",
        "at +5%: found",
        "no change",
        "wrong sign",
        "in pairs"
    };

    private static List<String[]> runnerRows(Simulation s) {
        List<String[]> rows = new ArrayList<>();
        rows.add(RUNNER_HEAD);
        for (Simulation.RunnerRow r : s.runners()) {
            for (TrialTest t : TrialTest.values()) {
                Calibration.RunnerRates zero = r.unchanged().get(t);
                Calibration.RunnerRates five = r.slower().get(t);
                rows.add(new String[] {
                    r.runner().label(),
                    Integer.toString(r.trials()),
                    t.id(),
                    one(zero.rates().regression() + zero.rates().improvement()),
                    one(zero.rates().unchanged()),
                    one(zero.significant()),
                    one(five.rates().regression()),
                    one(five.rates().unchanged()),
                    one(five.rates().improvement()),
                    one(zero.inPairs())
                });
            }
        }
        return rows;
    }

    /** Returns the runner models' targets, one line each. */
    static List<String> runnerTargets(Simulation s) {
        return s.runnerTargets().stream()
                .map(t -> String.format(
                        Locale.ROOT,
                        "%s: %s%% (%s %s%%) %s",
                        t.what(),
                        one(t.value()),
                        t.atLeast() ? "at least" : "at most",
                        one(t.bound()),
                        holds(t.holds())))
                .toList();
    }

    /** Appends the effects' column heads, without 0% when {@code pastZero}, and ends the line. */
    private static void effects(StringBuilder out, List<Double> effects, boolean pastZero) {
        for (double e : effects) {
            if (e > 0 || !pastZero) {
                out.append(String.format(Locale.ROOT, " %13s", (int) e + "%"));
            }
        }
        out.append('\n');
    }

    /** Returns the figure a suite's line reports, of {@code rates}. */
    private static double figure(Simulation.Suite suite, Calibration.SuiteRates rates) {
        return switch (suite.figure()) {
            case HEADLINE -> rates.falseHeadline();
            case FOUND -> rates.allFound();
            case FALSE_REGRESSIONS -> rates.falseRegressions();
        };
    }

    /** Returns the words of a suite's line, e.g. "20 cells, 1 slower by 10% (cv 3%, n 5): runs finding it". */
    private static String label(Simulation.Suite s) {
        String cells = String.format(Locale.ROOT, "%,d", s.cells());
        String n = s.adaptive() ? "" : ", n " + s.trials();
        String cv = "cv " + fmt(s.cv()) + "%";
        return switch (s.figure()) {
            case HEADLINE ->
                "A/A of " + cells + " cells (" + s.noise().label() + ", " + cv + n + "): runs headlining a change";
            case FALSE_REGRESSIONS -> "A/A of " + cells + " cells (" + cv + n + "): false regressions per run";
            case FOUND ->
                cells + " cells, " + s.changed() + " slower by " + fmt(s.effect()) + "% (" + cv + n + "): runs finding "
                        + (s.changed() == 1 ? "it" : s.changed() == 2 ? "both" : "all");
        };
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }

    private static void targets(StringBuilder out, Simulation s) {
        if (s.targets().isEmpty() && s.earned().isEmpty()) {
            return;
        }
        out.append("\nTargets\n");
        for (Simulation.Target t : s.targets()) {
            out.append("  ").append(target(t)).append('\n');
        }
        earnedTargets(s).forEach(t -> out.append("  ").append(t).append('\n'));
    }

    /** What the table of earned verdicts shows, and how its figures are counted. */
    static final String EARNED = "Every verdict earned, by noise and trials per side, each the worst over cv 1%, 3%"
            + " and 10%: passes (\"no change of X or more\") among draws whose true mean is 2% or more slower;"
            + " verdicts of the wrong sign among draws whose true mean moved 5% or more either way (an improvement"
            + " for a slowdown, a regression or small change for a speed-up), perfab's and benchstat's; small"
            + " changes where nothing changed; regressions found at a true +5% and +10% at cv 3%, perfab's and"
            + " benchstat's on the same draws. Code layout is judged on build medians, as an A/B with several"
            + " builds per side is.";

    private static final String[] EARNED_HEAD = {
        "noise",
        "n",
        "passes on slowdowns",
        "wrong signs",
        "benchstat's",
        "small on unchanged",
        "found at +5%, +10%",
        "benchstat's"
    };

    private static String[] earnedRow(Simulation.Earned e) {
        return new String[] {
            e.noise().label(),
            Integer.toString(e.trials()),
            pct(e.passesOnSlowdowns(), "%.1f%%"),
            pct(e.wrongSigns(), "%.2f%%"),
            pct(e.benchstatWrongSigns(), "%.2f%%"),
            pct(e.smallOnUnchanged(), "%.1f%%"),
            pair(e.found()),
            pair(e.benchstatFound())
        };
    }

    private static String pct(double v, String format) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, format, v);
    }

    private static String pair(List<Double> found) {
        return found.size() < 2 ? "-" : String.format(Locale.ROOT, "%.1f%%, %.1f%%", found.get(0), found.get(1));
    }

    /**
     * Returns the targets of the earned verdicts, one line each: the worst of every noise and size
     * simulated, and whether it holds.
     */
    static List<String> earnedTargets(Simulation s) {
        if (s.earned().isEmpty()) {
            return List.of();
        }
        Simulation.Earned passes = s.earned().get(0);
        Simulation.Earned wrong = passes;
        Simulation.Earned small = passes;
        for (Simulation.Earned e : s.earned()) {
            passes = e.passesOnSlowdowns() > passes.passesOnSlowdowns() ? e : passes;
            wrong = e.wrongSigns() > wrong.wrongSigns() ? e : wrong;
            small = e.smallOnUnchanged() > small.smallOnUnchanged() || Double.isNaN(small.smallOnUnchanged())
                    ? e
                    : small;
        }
        double alpha = s.thresholds().alpha() * 100;
        return List.of(
                String.format(
                        Locale.ROOT,
                        "passes on a slowdown of 2%% or more: at most %.1f%% (%s, n %d; at most %.0f%%) %s",
                        passes.passesOnSlowdowns(),
                        passes.noise().label(),
                        passes.trials(),
                        Simulation.MOST_PASSES_ON_SLOWDOWNS,
                        holds(passes.passesOnSlowdowns() <= Simulation.MOST_PASSES_ON_SLOWDOWNS)),
                String.format(
                        Locale.ROOT,
                        "wrong signs on a change of 5%% or more: at most %.2f%% (%s, n %d; at most %.1f%%) %s",
                        wrong.wrongSigns(),
                        wrong.noise().label(),
                        wrong.trials(),
                        Simulation.MOST_WRONG_SIGNS,
                        holds(wrong.wrongSigns() <= Simulation.MOST_WRONG_SIGNS)),
                String.format(
                        Locale.ROOT,
                        "small changes where nothing changed: at most %s (%s, n %d; at most alpha, %.0f%%) %s",
                        pct(small.smallOnUnchanged(), "%.1f%%"),
                        small.noise().label(),
                        small.trials(),
                        alpha,
                        holds(!(small.smallOnUnchanged() > alpha))));
    }

    /** Returns a target's line, its columns aligned for the table of targets. */
    private static String target(Simulation.Target t) {
        return String.format(
                Locale.ROOT,
                "%-16s cv 1%%, n %2d: false regressions %4.1f%% (at most %s%%), found at"
                        + " +5%% %5.1f%% (benchstat %5.1f%%)  %s",
                t.noise().label(),
                t.trials(),
                t.falseRegressions(),
                Numbers.value(t.most()),
                t.found(),
                t.benchstat(),
                holds(t.holds()));
    }

    private static String holds(boolean holds) {
        return holds ? "holds" : "MISSED";
    }

    private static String text(RealRuns r) {
        StringBuilder out = new StringBuilder();
        int k = r.runs();
        out.append(String.format(
                Locale.ROOT,
                "%nReal processes: %d A/B run%s of each commit on this machine (%s, %d"
                        + " cores), %d trials per side, 1 warm-up; a subject whose 'target' costs a set number of steps, and"
                        + " commits that raise it; three more cells no commit changes%n",
                k,
                k == 1 ? "" : "s",
                Untrusted.plain(r.machine().cpu(), 120),
                r.machine().cores(),
                r.trials()));
        out.append(String.format(
                Locale.ROOT,
                "%-10s %5s %8s %13s %18s %13s %9s %7s %9s %7s%n",
                "commit",
                "runs",
                "found",
                "inconclusive",
                "false regressions",
                "inconclusive",
                "measured",
                "cv",
                "perfab's",
                "run"));
        out.append(String.format(
                Locale.ROOT,
                "%-10s %5s %8s %13s %18s %13s %9s %7s %9s %7s%n",
                "",
                "",
                "(target)",
                "(target)",
                "(other cells)",
                "(other cells)",
                "(target)",
                "(median)",
                "own time",
                ""));
        for (RealRuns.Commit f : r.commits()) {
            out.append(String.format(
                    Locale.ROOT,
                    "%-10s %5d %8s %13s %17.1f%% %12.1f%% %+8.1f%% %6.1f%% %8.1f%% %6.0fs%n",
                    commit(f),
                    f.runs(),
                    share(f.found()),
                    share(f.inconclusive()),
                    f.falseRegressions(),
                    f.falseInconclusive(),
                    f.change(),
                    f.cv(),
                    f.overhead(),
                    f.seconds()));
        }
        out.append("The runs, their results and comments are in ")
                .append(Untrusted.plain(r.dir().toString(), 4096))
                .append('\n');
        return out.toString();
    }

    private static String commit(RealRuns.Commit f) {
        return f.effect() == 0 ? "A/A" : "+" + f.effect() + "%";
    }

    private static String share(double percent) {
        return Double.isNaN(percent) ? "-" : String.format(Locale.ROOT, "%.1f%%", percent);
    }

    /**
     * Returns everything as schema {@code perfab/calibration/v2}: the simulation's settings, each
     * noise's rows (every method's rates at each effect), the targets, adaptive trials and suites;
     * then the real runs, null when there were none. Shares are percent; an undefined one is null.
     */
    static String json(CalibrationFigures figures) {
        ObjectNode root = Json.object();
        root.put("schema", "perfab/calibration/v2");
        simulation(root.putObject("simulation"), figures.simulation());
        if (figures.real().isPresent()) {
            real(root.putObject("real"), figures.real().get());
        } else {
            root.putNull("real");
        }
        return Json.write(root);
    }

    private static void simulation(ObjectNode node, Simulation s) {
        node.put("runs", s.runs()).put("seed", s.seed()).set("thresholds", TableJson.thresholds(s.thresholds()));
        ArrayNode effects = node.putArray("effects");
        s.effects().forEach(effects::add);
        noises(node.putArray("noises"), s);
        ArrayNode targets = node.putArray("targets");
        for (Simulation.Target t : s.targets()) {
            ObjectNode o = targets.addObject()
                    .put("noise", id(t.noise()))
                    .put("cv", 1.0)
                    .put("trials", t.trials());
            TableJson.number(o, "falseRegressions", t.falseRegressions());
            TableJson.number(o, "most", t.most());
            TableJson.number(o, "found", t.found());
            TableJson.number(o, "benchstat", t.benchstat());
            o.put("holds", t.holds());
        }
        ArrayNode earned = node.putArray("earned");
        for (Simulation.Earned e : s.earned()) {
            ObjectNode o = earned.addObject().put("noise", id(e.noise())).put("trials", e.trials());
            TableJson.number(o, "passesOnSlowdowns", e.passesOnSlowdowns());
            TableJson.number(o, "wrongSigns", e.wrongSigns());
            TableJson.number(o, "benchstatWrongSigns", e.benchstatWrongSigns());
            TableJson.number(o, "smallOnUnchanged", e.smallOnUnchanged());
            ArrayNode found = o.putArray("found");
            e.found().forEach(found::add);
            ArrayNode benchstat = o.putArray("benchstatFound");
            e.benchstatFound().forEach(benchstat::add);
        }
        ArrayNode adaptive = node.putArray("adaptive");
        for (Simulation.AdaptiveRow row : s.adaptive()) {
            ObjectNode o = adaptive.addObject().put("noise", id(row.noise())).put("cv", row.cv());
            ArrayNode byEffect = o.putArray("rates");
            for (int i = 0; i < row.byEffect().size(); i++) {
                Calibration.AdaptiveRates a = row.byEffect().get(i);
                ObjectNode e = byEffect.addObject().put("effect", s.effects().get(i));
                rates(e.putObject("first"), a.first());
                rates(e.putObject("max"), a.max());
                rates(e.putObject("adaptive"), a.adaptive());
                TableJson.number(e, "adaptiveTrials", a.meanTrials());
            }
        }
        suites(node.putArray("suites"), s.suites());
        suites(node.putArray("adaptiveSuites"), s.adaptiveSuites());
        runners(node.putArray("runners"), s.runners());
        ArrayNode runnerTargets = node.putArray("runnerTargets");
        for (Simulation.RunnerTarget t : s.runnerTargets()) {
            ObjectNode o = runnerTargets.addObject().put("what", t.what());
            TableJson.number(o, "value", t.value());
            TableJson.number(o, "bound", t.bound());
            o.put("atLeast", t.atLeast()).put("holds", t.holds());
        }
    }

    /** Puts each noise's rows into {@code tables}: every method's rates at each of {@code s}'s effects. */
    private static void noises(ArrayNode tables, Simulation s) {
        for (Simulation.NoiseTable table : s.tables()) {
            ObjectNode t = tables.addObject()
                    .put("noise", id(table.noise()))
                    .put("label", table.noise().label());
            ArrayNode rows = t.putArray("rows");
            for (Simulation.Row row : table.rows()) {
                ObjectNode r = rows.addObject().put("cv", row.cv()).put("trials", row.trials());
                ArrayNode methods = r.putArray("methods");
                for (Method m : Method.values()) {
                    ObjectNode method = methods.addObject().put("method", id(m)).put("label", m.label());
                    ArrayNode byEffect = method.putArray("rates");
                    List<Rates> rates = row.rates().get(m);
                    for (int i = 0; i < rates.size(); i++) {
                        rates(byEffect.addObject().put("effect", s.effects().get(i)), rates.get(i));
                    }
                }
            }
        }
    }

    /** Puts each runner's rows into {@code runners}: every trial test's rates on unchanged and slower code. */
    private static void runners(ArrayNode runners, List<Simulation.RunnerRow> rows) {
        for (Simulation.RunnerRow r : rows) {
            ObjectNode o = runners.addObject()
                    .put("runner", id(r.runner()))
                    .put("label", r.runner().label())
                    .put("trials", r.trials());
            ArrayNode tests = o.putArray("tests");
            for (TrialTest t : TrialTest.values()) {
                ObjectNode test = tests.addObject().put("test", t.id());
                runnerRates(test.putObject("unchanged"), r.unchanged().get(t));
                runnerRates(test.putObject("slower"), r.slower().get(t));
            }
        }
    }

    private static void runnerRates(ObjectNode node, Calibration.RunnerRates r) {
        rates(node, r.rates());
        TableJson.number(node, "significant", r.significant());
        TableJson.number(node, "inPairs", r.inPairs());
    }

    private static void rates(ObjectNode node, Rates r) {
        TableJson.number(node, "regression", r.regression());
        TableJson.number(node, "inconclusive", r.inconclusive());
        TableJson.number(node, "improvement", r.improvement());
        TableJson.number(node, "noisy", r.noisy());
        TableJson.number(node, "falseNoChange", r.falseNoChange());
        TableJson.number(node, "small", r.small());
        TableJson.number(node, "unchanged", r.unchanged());
    }

    private static void suites(ArrayNode array, List<Simulation.Suite> suites) {
        for (Simulation.Suite s : suites) {
            ObjectNode o = array.addObject()
                    .put("noise", id(s.noise()))
                    .put("cells", s.cells())
                    .put("changed", s.changed())
                    .put("effect", s.effect())
                    .put("cv", s.cv())
                    .put("trials", s.trials())
                    .put("adaptive", s.adaptive())
                    .put("figure", id(s.figure()));
            suiteRates(o.putObject("cellByCell"), s.alone());
            suiteRates(o.putObject("together"), s.together());
        }
    }

    private static void suiteRates(ObjectNode node, Calibration.SuiteRates r) {
        TableJson.number(node, "allFound", r.allFound());
        TableJson.number(node, "falseRegressions", r.falseRegressions());
        TableJson.number(node, "falseHeadline", r.falseHeadline());
        TableJson.number(node, "trials", r.meanTrials());
    }

    private static void real(ObjectNode node, RealRuns r) {
        node.put("dir", r.dir().toString())
                .put("runs", r.runs())
                .put("trials", r.trials())
                .put("warmup", 1);
        node.putObject("machine")
                .put("cpu", r.machine().cpu())
                .put("cores", r.machine().cores());
        ArrayNode commits = node.putArray("commits");
        for (RealRuns.Commit f : r.commits()) {
            ObjectNode o = commits.addObject().put("effect", f.effect()).put("runs", f.runs());
            TableJson.number(o, "found", f.found());
            TableJson.number(o, "inconclusive", f.inconclusive());
            TableJson.number(o, "falseRegressions", f.falseRegressions());
            TableJson.number(o, "falseInconclusive", f.falseInconclusive());
            TableJson.number(o, "change", f.change());
            TableJson.number(o, "cv", f.cv());
            TableJson.number(o, "overhead", f.overhead());
            TableJson.number(o, "seconds", f.seconds());
        }
    }

    /** Returns an enum constant as JSON names it: {@code heavy_tail_10}, {@code false_regressions}. */
    private static String id(Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT);
    }
}
