package org.perfab.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import org.perfab.model.NoiseFile;
import org.perfab.model.Sizing;
import org.perfab.model.TableJson;
import org.perfab.stats.Comparison;
import org.perfab.stats.NoiseFloor;

/**
 * Renders a {@link Sizing}: per cell, its spread within and between builds, what a run of
 * {@link NoiseFile#DEFAULT_TRIALS} trials finds, and the builds and trials a run needs to find the
 * sizing's change; past a cap, "more than" the cap, and a note under the table saying why.
 */
final class SizingRenderer {
    private static final String[] HEADER = {
        "cell",
        "metric",
        "within ±cv",
        "between ±cv",
        "in pairs ±cv",
        NoiseFile.DEFAULT_TRIALS + " trials find",
        "builds",
        "trials",
        "finds"
    };

    private SizingRenderer() {}

    /** Returns the sizing as an aligned table for a terminal, and its notes. */
    static String text(Sizing sizing) {
        List<String[]> lines = new ArrayList<>();
        lines.add(HEADER);
        for (Sizing.Row r : sizing.cells()) {
            lines.add(row(r, s -> Untrusted.plain(s, 80), s -> Untrusted.plain(s, 40)));
        }
        StringBuilder s = new StringBuilder(heading(sizing)).append("\n\n");
        s.append(Tables.aligned(lines, new boolean[] {false, false, true, true, true, true, true, true, true}));
        Set<String> notes = notes(sizing);
        if (!notes.isEmpty()) {
            s.append('\n');
            notes.forEach(n -> s.append(n).append('\n'));
        }
        return s.toString();
    }

    /** Returns the sizing as a Markdown table, and its notes. */
    static String markdown(Sizing sizing) {
        List<String[]> lines = new ArrayList<>();
        lines.add(HEADER);
        for (Sizing.Row r : sizing.cells()) {
            lines.add(row(r, s -> Untrusted.markdown(s, 80), s -> Untrusted.markdown(s, 40)));
        }
        StringBuilder s =
                new StringBuilder("### perfab plan\n\n").append(heading(sizing)).append("\n\n");
        s.append(Tables.markdown(lines, "|:--|:--|--:|--:|--:|--:|--:|--:|--:|"));
        Set<String> notes = notes(sizing);
        if (!notes.isEmpty()) {
            s.append('\n');
            notes.forEach(n -> s.append("- ").append(n).append('\n'));
        }
        return s.toString();
    }

    /** Returns the sizing as schema {@code perfab/plan/v2}. */
    static String json(Sizing sizing) {
        ObjectNode root = Json.object();
        root.put("schema", "perfab/plan/v2")
                .put("effect", sizing.effect())
                .put("alpha", sizing.alpha())
                .put("power", Comparison.POWER)
                .put("maxBuilds", NoiseFloor.MAX_BUILDS)
                .put("maxTrials", NoiseFloor.MAX_TRIALS);
        ArrayNode cells = root.putArray("cells");
        for (Sizing.Row r : sizing.cells()) {
            ObjectNode c = cells.addObject()
                    .put("cell", r.cell().name())
                    .put("metric", r.cell().metric())
                    .put("within", r.floor().within());
            TableJson.number(c, "between", r.floor().between());
            TableJson.number(c, "paired", r.floor().paired());
            TableJson.number(c, "mdeAtDefault", r.mdeAtDefault());
            advice(c.putObject("advice"), r.advice());
        }
        return Json.write(root);
    }

    /** Returns a line per cell; a count past a cap is empty, and the cap is in its own column. */
    static String csv(Sizing sizing) {
        Csv out = new Csv(
                "cell",
                "metric",
                "within cv %",
                "between cv %",
                "in pairs cv %",
                "mde at " + NoiseFile.DEFAULT_TRIALS + " trials %",
                "builds",
                "builds more than",
                "trials",
                "trials more than",
                "finds %");
        for (Sizing.Row r : sizing.cells()) {
            NoiseFloor.Advice a = r.advice();
            boolean builds = a.beyond() == NoiseFloor.Cap.BUILDS;
            boolean trials = a.beyond() == NoiseFloor.Cap.TRIALS;
            out.line(
                    r.cell().name(),
                    r.cell().metric(),
                    Csv.number(r.floor().within()),
                    Csv.number(r.floor().between()),
                    Csv.number(r.floor().paired()),
                    Csv.number(r.mdeAtDefault()),
                    builds ? "" : Integer.toString(a.builds()),
                    builds ? Integer.toString(a.builds()) : "",
                    a.found() ? Integer.toString(a.trials()) : "",
                    trials ? Integer.toString(a.trials()) : "",
                    Csv.number(a.mde()));
        }
        return out.text();
    }

    private static String heading(Sizing sizing) {
        return String.format(
                Locale.ROOT,
                "To find a change of %s with 80%% power at alpha %s (trials per side; spread over the builds):",
                percent(sizing.effect()),
                sizing.alpha());
    }

    private static String[] row(Sizing.Row r, UnaryOperator<String> name, UnaryOperator<String> metric) {
        String[] run = columns(r.advice());
        return new String[] {
            name.apply(r.cell().name()),
            metric.apply(r.cell().metric()),
            percent(r.floor().within()),
            percent(r.floor().between()),
            percent(r.floor().paired()),
            finds(r.mdeAtDefault()),
            run[0],
            run[1],
            run[2]
        };
    }

    /** Returns the notes under the table: why a cell's sizing says "no change" or "more than". */
    private static Set<String> notes(Sizing sizing) {
        Set<String> notes = new TreeSet<>();
        for (Sizing.Row r : sizing.cells()) {
            NoiseFloor.Advice advice = r.advice();
            if (r.mdeAtDefault() == Double.POSITIVE_INFINITY) {
                notes.add("no change: a run of " + NoiseFile.DEFAULT_TRIALS + " trials finds none, however large, with"
                        + " 80% power (the slower side spreads as much wider).");
            }
            if (advice.beyond() == NoiseFloor.Cap.TRIALS) {
                notes.add("more than " + advice.trials() + " trials: no run of at most that many trials per side finds"
                        + " the change, with 1 build, or up to " + NoiseFloor.MAX_BUILDS + " when the spread between"
                        + " builds is known.");
            }
            if (!Double.isNaN(r.floor().paired())) {
                notes.add("in pairs: the A/A run's trials moved in pairs (its runner drifted), and a run of one build"
                        + " is judged in pairs: what it finds is of the pairs' spread, at their degrees of freedom.");
            }
            if (advice.beyond() == NoiseFloor.Cap.BUILDS) {
                notes.add("more than " + advice.builds() + " builds: the spread between builds alone hides the change"
                        + " from any run of at most that many builds per side, whatever its trials.");
            }
        }
        return notes;
    }

    /** Returns the builds, trials and finds columns of {@code advice}; past a cap, "more than" the cap. */
    private static String[] columns(NoiseFloor.Advice advice) {
        return switch (advice.beyond()) {
            case NONE ->
                new String[] {
                    Integer.toString(advice.builds()), Integer.toString(advice.trials()), percent(advice.mde())
                };
            case TRIALS -> new String[] {Integer.toString(advice.builds()), "more than " + advice.trials(), "-"};
            case BUILDS -> new String[] {"more than " + advice.builds(), "-", "-"};
        };
    }

    /**
     * Puts {@code advice} into {@code a}: builds, trials and the mde of the run found; past a cap, the
     * cap as {@code buildsMoreThan} or {@code trialsMoreThan} and null for what is not known.
     */
    private static void advice(ObjectNode a, NoiseFloor.Advice advice) {
        boolean builds = advice.beyond() == NoiseFloor.Cap.BUILDS;
        a.put("builds", builds ? null : advice.builds())
                .put("buildsMoreThan", builds ? advice.builds() : null)
                .put("trials", advice.found() ? advice.trials() : null)
                .put("trialsMoreThan", advice.beyond() == NoiseFloor.Cap.TRIALS ? advice.trials() : null);
        TableJson.number(a, "mde", advice.mde());
    }

    private static String percent(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.2f%%", v);
    }

    /** Returns the smallest change a run finds: "no change" when none, however large, is found with 80% power. */
    private static String finds(double mde) {
        return mde == Double.POSITIVE_INFINITY ? "no change" : percent(mde);
    }
}
