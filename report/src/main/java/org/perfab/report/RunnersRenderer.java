package org.perfab.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.perfab.model.RunnerTable;
import org.perfab.model.TableJson;
import org.perfab.stats.Comparison;
import org.perfab.stats.Verdict;

/**
 * Renders one A/B across runner classes ({@code perfab runners}): a row per cell, the change and
 * verdict on each runner, and the consensus, which flags for a bisect a change that is
 * significantly worse on two runners or more, whatever its size, unless every one of them measured
 * one build per side; and a warning naming the runners that did.
 */
final class RunnersRenderer {

    private RunnersRenderer() {}

    /**
     * Returns the consensus of a row, in words: what a release manager acts on. Only the runners
     * that measured the cell vote: "regression on 1 of 2", or "regression on 1 of 1 that measured
     * it (1 of 2 did not)", never "unchanged everywhere" of a cell a runner did not measure.
     */
    static String consensus(RunnerTable.Row row, int runners) {
        Map<Verdict, Integer> v = row.verdicts();
        int measured = row.measured();
        if (measured == 0) {
            return row.byRunner().stream().allMatch(Optional::isPresent)
                    ? "no data everywhere"
                    : "measured on no runner";
        }
        String missed = "(" + (runners - measured) + " of " + runners + " did not)";
        String of = measured == runners ? " of " + runners : " of " + measured + " that measured it " + missed;
        String counted;
        if (v.getOrDefault(Verdict.REGRESSION, 0) > 0) {
            counted = "regression on " + v.get(Verdict.REGRESSION) + of;
        } else if (v.getOrDefault(Verdict.INCONCLUSIVE, 0) > 0) {
            counted = "inconclusive on " + v.get(Verdict.INCONCLUSIVE) + of;
        } else if (v.getOrDefault(Verdict.SMALL, 0) > 0) {
            counted = "small on " + v.get(Verdict.SMALL) + of;
        } else if (v.getOrDefault(Verdict.IMPROVEMENT, 0) > 0 && row.worse() == 0) {
            counted = "improvement on " + v.get(Verdict.IMPROVEMENT) + of;
        } else if (v.size() == 1) {
            counted = Words.label(v.keySet().iterator().next())
                    + (measured == runners ? " everywhere" : " on " + measured + of);
        } else {
            counted = "mixed" + (measured == runners ? "" : " on the " + measured + " that measured it " + missed);
        }
        if (!row.bisect() && !row.worseOnlyWithOneBuild()) {
            return counted;
        }
        boolean said = counted.startsWith("small on " + row.worse() + " ");
        String worse = said ? "" : "; significantly worse on " + row.worse() + " of " + measured;
        return row.bisect()
                ? counted + worse + ": bisect before release"
                : counted + worse + ", each with one build per side: rerun with --builds 3 and build.perturb before"
                        + " a bisect";
    }

    /**
     * Returns the warning that some runners measured one build per side, whose agreement rules out
     * the runner and not the build; empty when every runner measured several differing builds.
     * The runner names are untrusted: {@code escape} makes them safe for the form.
     */
    static Optional<String> oneBuild(RunnerTable table, UnaryOperator<String> escape) {
        List<String> one = table.oneBuildRunners();
        if (one.isEmpty()) {
            return Optional.empty();
        }
        String who = one.size() == table.runners().size()
                ? "Every runner"
                : String.join(", ", one.stream().map(escape).toList());
        return Optional.of(who + " measured one build per side (--builds 1, or builds that did not differ): every"
                + " trial of a build inherits its code layout, so agreeing across runners rules out the runner, not"
                + " the build. A change significantly worse only on such runs is not flagged for a bisect; rerun"
                + " them with --preset release (3 builds per side, laid out differently by build.perturb) to put"
                + " layout inside the test.");
    }

    private static String cell(Optional<Comparison> c) {
        if (c.isEmpty()) {
            return "not measured";
        }
        return Numbers.signedPercent(c.get().pctChange()) + " (p "
                + Numbers.pValue(c.get().pValue()) + ") " + Words.label(c.get().verdict());
    }

    /** Returns the table for a terminal. */
    static String text(RunnerTable table) {
        List<String[]> lines = new ArrayList<>();
        List<String> header = new ArrayList<>(List.of("cell", "metric"));
        table.runners().forEach(r -> header.add(Untrusted.plain(r, 60)));
        header.add("consensus");
        lines.add(header.toArray(String[]::new));
        for (RunnerTable.Row row : table.rows()) {
            List<String> l = new ArrayList<>(List.of(
                    Untrusted.plain(row.cell().name()),
                    Untrusted.plain(row.cell().metric())));
            row.byRunner().forEach(c -> l.add(cell(c)));
            l.add(consensus(row, table.runners().size()));
            lines.add(l.toArray(String[]::new));
        }
        StringBuilder out = new StringBuilder("One A/B on " + table.runners().size() + " runner classes. "
                + Words.rules(table.thresholds()) + ".\n\n");
        oneBuild(table, r -> Untrusted.plain(r, 60))
                .ifPresent(w -> out.append("WARNING: ").append(w).append("\n\n"));
        out.append(Tables.aligned(lines));
        long flagged = table.rows().stream().filter(RunnerTable.Row::bisect).count();
        out.append('\n')
                .append(flagged)
                .append(flagged == 1 ? " cell" : " cells")
                .append(" to bisect before release.\n");
        return out.toString();
    }

    /** Returns the table in Markdown, for a job summary or a comment. */
    static String markdown(RunnerTable table) {
        StringBuilder out =
                new StringBuilder("### perfab · one A/B on " + table.runners().size() + " runner classes\n\n");
        oneBuild(table, r -> Untrusted.markdown(r, 60))
                .ifPresent(w -> out.append("> :warning: ").append(w).append("\n\n"));
        out.append("| cell | metric |");
        table.runners()
                .forEach(r -> out.append(' ').append(Untrusted.markdown(r, 60)).append(" |"));
        out.append(" consensus |\n|:--|:--|");
        table.runners().forEach(r -> out.append("--:|"));
        out.append(":--|\n");
        for (RunnerTable.Row row : table.rows()) {
            out.append("| ")
                    .append(Untrusted.markdown(row.cell().name()))
                    .append(" | ")
                    .append(Untrusted.markdown(row.cell().metric()))
                    .append(" |");
            row.byRunner()
                    .forEach(c ->
                            out.append(' ').append(cell(c).replace("<", "&lt;")).append(" |"));
            out.append(' ')
                    .append(
                            row.bisect()
                                    ? "**" + consensus(row, table.runners().size()) + "**"
                                    : consensus(row, table.runners().size()))
                    .append(" |\n");
        }
        out.append("\n<sub>")
                .append(Words.rules(table.thresholds()))
                .append(". A change significantly worse on"
                        + " two runner classes or more is flagged for a bisect, whatever its size, when one of them at least"
                        + " measured several differing builds per side: repeating across runners rules out the runner, not"
                        + " the build.</sub>\n");
        return out.toString();
    }

    /** Returns schema {@code perfab/merge/v1}, named for the command's former name and kept for readers. */
    static String json(RunnerTable table) {
        ObjectNode root = Json.object();
        root.put("schema", "perfab/merge/v1");
        ArrayNode runners = root.putArray("runners");
        table.runners().forEach(runners::add);
        ArrayNode builds = root.putArray("builds");
        table.builds().forEach(builds::add);
        root.set("thresholds", TableJson.thresholds(table.thresholds()));
        ArrayNode rows = root.putArray("cells");
        for (RunnerTable.Row row : table.rows()) {
            ObjectNode r = rows.addObject()
                    .put("cell", row.cell().name())
                    .put("metric", row.cell().metric())
                    .put("unit", row.cell().unit());
            ArrayNode each = r.putArray("byRunner");
            for (Optional<Comparison> c : row.byRunner()) {
                if (c.isEmpty()) {
                    each.addNull();
                } else {
                    ObjectNode x =
                            each.addObject().put("verdict", c.get().verdict().id());
                    TableJson.number(x, "pctChange", c.get().pctChange());
                    TableJson.number(x, "pValue", c.get().pValue());
                }
            }
            r.put("measured", row.measured())
                    .put("worse", row.worse())
                    .put("worseOfOneBuild", row.worseOfOneBuild())
                    .put("better", row.better())
                    .put("bisect", row.bisect())
                    .put("consensus", consensus(row, table.runners().size()));
        }
        return Json.write(root);
    }

    /** Returns a line per cell: its change, p and verdict on each runner, then the consensus. */
    static String csv(RunnerTable table) {
        List<String> header = new ArrayList<>(List.of("cell", "metric", "unit"));
        for (String r : table.runners()) {
            header.addAll(List.of(r + " change %", r + " p", r + " verdict"));
        }
        header.addAll(List.of("worse", "bisect", "consensus"));
        Csv out = new Csv(header.toArray(String[]::new));
        for (RunnerTable.Row row : table.rows()) {
            List<String> line = new ArrayList<>(
                    List.of(row.cell().name(), row.cell().metric(), row.cell().unit()));
            for (Optional<Comparison> c : row.byRunner()) {
                line.addAll(
                        c.isEmpty()
                                ? List.of("", "", "not measured")
                                : List.of(
                                        Csv.number(c.get().pctChange()),
                                        Csv.number(c.get().pValue()),
                                        c.get().verdict().id()));
            }
            line.addAll(List.of(
                    Integer.toString(row.worse()),
                    Boolean.toString(row.bisect()),
                    consensus(row, table.runners().size())));
            out.line(line);
        }
        return out.text();
    }
}
