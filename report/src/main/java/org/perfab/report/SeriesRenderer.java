package org.perfab.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import org.perfab.model.Ids;
import org.perfab.model.SeriesCheck;
import org.perfab.model.SeriesCuration;
import org.perfab.model.SeriesFile;
import org.perfab.model.SeriesImport;
import org.perfab.model.SeriesReplay;
import org.perfab.model.TableJson;
import org.perfab.stats.SeriesRules;

/**
 * Renders what the rules of a nightly ratio series found in one run ({@link SeriesCheck}), and a
 * replay of them over a whole series ({@link SeriesReplay}). Keys and processor models come from a
 * file a pull request can change, so every one is escaped for where it goes.
 */
final class SeriesRenderer {

    /** What every section says under its table: what a movement means, and what it does not. */
    static final String REMINDER = "A movement says that a ratio moved: not whether its baseline or the benchmark"
            + " compared with it did, nor whether the move was wanted; that is for a reader. A processor model no"
            + " earlier reading of a key ran on can move its ratio by itself: the CPU column says \"new\" then.";

    private SeriesRenderer() {}

    /**
     * Returns the count line: {@code perfab series: 2 new movements, 5 persisting, in run R (DATE)
     * of N ratios compared}, and {@code ; K re-based} when keys were.
     */
    static String count(SeriesCheck c) {
        int fresh = c.newCount();
        int persisting = c.movements().size() - fresh;
        return "perfab series: " + fresh + " new movement" + (fresh == 1 ? "" : "s") + ", " + persisting
                + " persisting, in run " + Untrusted.plain(c.run(), 80) + " (" + c.date() + ") of " + c.compared()
                + " ratio" + (c.compared() == 1 ? "" : "s") + " compared"
                + (c.rebasings().isEmpty() ? "" : "; " + c.rebasings().size() + " re-based");
    }

    /** Returns the re-basings of {@code c} grouped by their old and new base, in order of first appearance. */
    private static Map<List<String>, List<SeriesCheck.Rebasing>> rebased(SeriesCheck c) {
        Map<List<String>, List<SeriesCheck.Rebasing>> groups = new LinkedHashMap<>();
        c.rebasings()
                .forEach(r -> groups.computeIfAbsent(List.of(r.from(), r.to()), k -> new ArrayList<>())
                        .add(r));
        return groups;
    }

    /**
     * Returns one sentence per old and new base: {@code 3 keys re-based from A to B (not compared
     * across it; compared again after 3 readings of the new base): k1, k2, k3}, at most five keys
     * named.
     */
    private static List<String> rebasedLines(SeriesCheck c, UnaryOperator<String> escape, UnaryOperator<String> code) {
        List<String> lines = new ArrayList<>();
        for (Map.Entry<List<String>, List<SeriesCheck.Rebasing>> e : rebased(c).entrySet()) {
            List<SeriesCheck.Rebasing> keys = e.getValue();
            int shown = Math.min(5, keys.size());
            lines.add(keys.size() + " key" + (keys.size() == 1 ? "" : "s") + " re-based from "
                    + code.apply(escape.apply(e.getKey().get(0))) + " to "
                    + code.apply(escape.apply(e.getKey().get(1)))
                    + " (not compared across it; compared again after "
                    + c.options().minEarlier() + " readings of the"
                    + " new base): "
                    + String.join(
                            ", ",
                            keys.subList(0, shown).stream()
                                    .map(r -> code.apply(escape.apply(r.key())))
                                    .toList())
                    + (keys.size() > shown ? " and " + (keys.size() - shown) + " more" : ""));
        }
        return lines;
    }

    /** Returns the count line, the rules, the re-basings and the movements, for a terminal. */
    static String text(SeriesCheck c) {
        StringBuilder out = new StringBuilder(count(c)).append('\n');
        out.append("rules: ").append(c.options().describe()).append('\n');
        for (String line : rebasedLines(c, s -> Untrusted.plain(s, 80), s -> s)) {
            out.append(line).append('\n');
        }
        out.append('\n');
        if (!c.movements().isEmpty()) {
            List<String[]> rows = new ArrayList<>();
            rows.add(new String[] {"", "key", "rule", "ratio", "reference", "change", "cpu"});
            for (SeriesCheck.Movement m : c.movements()) {
                rows.add(row(m, s -> Untrusted.plain(s, Untrusted.MAX_LENGTH), m.isNew() ? "new" : "persisting"));
            }
            out.append(Tables.aligned(rows)).append('\n');
        }
        out.append(REMINDER).append('\n');
        return out.toString();
    }

    private static String[] row(SeriesCheck.Movement m, UnaryOperator<String> escape, String first) {
        SeriesRules.Move move = m.move();
        String cpu = escape.apply(m.cpu()) + (m.newCpu() ? " (new: " + earlier(m, escape) + ")" : "");
        return new String[] {
            first,
            escape.apply(m.key()),
            move.rule().id(),
            Numbers.value(move.ratio()),
            Numbers.value(move.reference()),
            Numbers.signedPercent(move.change()),
            cpu
        };
    }

    /** Returns what the reference readings ran on, for a movement on a new processor model. */
    private static String earlier(SeriesCheck.Movement m, UnaryOperator<String> escape) {
        List<String> cpus = m.referenceCpus();
        int shown = Math.min(2, cpus.size());
        return "the reference ran on "
                + String.join(", ", cpus.subList(0, shown).stream().map(escape).toList())
                + (cpus.size() > shown ? " and " + (cpus.size() - shown) + " more" : "");
    }

    /** Returns the section for the page and the job summary. */
    static String markdown(SeriesCheck c) {
        int fresh = c.newCount();
        int persisting = c.movements().size() - fresh;
        StringBuilder out = new StringBuilder("### Nightly ratios: ")
                .append(fresh)
                .append(" new movement")
                .append(fresh == 1 ? "" : "s")
                .append(", ")
                .append(persisting)
                .append(" persisting")
                .append(c.rebasings().isEmpty() ? "" : ", " + c.rebasings().size() + " re-based")
                .append("\n\n");
        out.append("Run `")
                .append(Untrusted.plain(c.run(), 80).replace("`", "'"))
                .append("` (")
                .append(c.date())
                .append(") · ")
                .append(c.readings())
                .append(" ratios, ")
                .append(c.compared())
                .append(" with enough history to compare · ")
                .append(c.options().describe())
                .append('\n');
        List<String> rebased = rebasedLines(c, s -> Untrusted.plain(s, 80).replace("`", "'"), s -> "`" + s + "`");
        if (!rebased.isEmpty()) {
            out.append("\n**Re-based**\n\n");
            rebased.forEach(line -> out.append("- ").append(line).append('\n'));
        }
        section(
                out,
                "New",
                c.movements().stream().filter(SeriesCheck.Movement::isNew).toList());
        section(
                out,
                "Persisting",
                c.movements().stream().filter(m -> !m.isNew()).toList());
        if (c.movements().isEmpty()) {
            out.append("\nNo ratio moved past the rules.\n");
        }
        out.append("\n<sub>").append(REMINDER).append("</sub>\n");
        return out.toString();
    }

    private static void section(StringBuilder out, String title, List<SeriesCheck.Movement> movements) {
        if (movements.isEmpty()) {
            return;
        }
        out.append("\n**")
                .append(title)
                .append("**\n\n| key | rule | ratio | reference | change | CPU |\n")
                .append("|:--|:--|--:|--:|--:|:--|\n");
        for (SeriesCheck.Movement m : movements) {
            UnaryOperator<String> escape = s -> Untrusted.markdown(s, Untrusted.MAX_LENGTH);
            String[] r = row(m, escape, "");
            if (m.newCpu()) {
                r[6] = "**" + escape.apply(m.cpu()) + "** (new: " + earlier(m, escape) + ")";
            }
            out.append("| ")
                    .append(String.join(" | ", List.of(r).subList(1, r.length)))
                    .append(" |\n");
        }
    }

    /**
     * Returns one {@code ::warning} per new movement, within GitHub's ten per step, and one
     * {@code ::notice} per old and new base of the keys re-based.
     */
    static String github(SeriesCheck c) {
        StringBuilder out = new StringBuilder();
        List<String> rebased = rebasedLines(c, s -> Untrusted.plain(s, 80), s -> s);
        Workflow.annotate(
                out,
                "notice",
                "perfab series: re-based",
                rebased.stream()
                        .map(line -> "run " + Untrusted.plain(c.run(), 80) + ", " + line)
                        .toList(),
                Workflow.PER_TYPE,
                more -> "and " + more + " more pairs of bases; see the job summary");
        List<SeriesCheck.Movement> fresh =
                c.movements().stream().filter(SeriesCheck.Movement::isNew).toList();
        int shown = fresh.size() <= Workflow.PER_TYPE ? fresh.size() : Workflow.PER_TYPE - 1;
        for (SeriesCheck.Movement m : fresh.subList(0, shown)) {
            SeriesRules.Move move = m.move();
            out.append(Workflow.command(
                    "warning",
                    "perfab series: " + move.rule().id(),
                    Untrusted.plain(m.key(), Untrusted.MAX_LENGTH) + ": "
                            + move.rule().id() + ", ratio " + Numbers.value(move.ratio())
                            + " against " + Numbers.value(move.reference()) + " ("
                            + Numbers.signedPercent(move.change())
                            + "), on " + Untrusted.plain(m.cpu(), Untrusted.MAX_LENGTH)
                            + (m.newCpu() ? ", a processor no earlier reading of it ran on" : "")));
        }
        if (fresh.size() > shown) {
            out.append(Workflow.command(
                    "warning",
                    "perfab series",
                    "and " + (fresh.size() - shown) + " more new movements; see the job summary"));
        }
        return out.toString();
    }

    /**
     * Returns a line per movement: its key, rule, ratio against its reference, processor, commit
     * and base; then a line per re-based key, its rule {@code rebase}, its ratio, its base and the
     * base before it.
     */
    static String csv(SeriesCheck c) {
        Csv out = new Csv(
                "key",
                "new",
                "rule",
                "ratio",
                "reference",
                "change %",
                "limit %",
                "cpu",
                "new cpu",
                "commit",
                "base",
                "previous base");
        for (SeriesCheck.Movement m : c.movements()) {
            out.line(
                    m.key(),
                    Boolean.toString(m.isNew()),
                    m.move().rule().id(),
                    Csv.number(m.move().ratio()),
                    Csv.number(m.move().reference()),
                    Csv.number(m.move().change()),
                    Csv.number(m.move().limit()),
                    m.cpu(),
                    Boolean.toString(m.newCpu()),
                    m.commit(),
                    m.base(),
                    "");
        }
        for (SeriesCheck.Rebasing r : c.rebasings()) {
            out.line(r.key(), "", "rebase", Csv.number(r.ratio()), "", "", "", "", "", r.commit(), r.to(), r.from());
        }
        return out.text();
    }

    /**
     * Returns schema {@code perfab/series-check/v1}; {@code countLine} is the count line as the text
     * form starts with it, for a title or a first line (a nightly's pull request).
     */
    static String json(SeriesCheck c) {
        ObjectNode root = Json.object();
        root.put("schema", "perfab/series-check/v1")
                .put("run", c.run())
                .put("date", c.date().toString())
                .put("rules", c.options().describe());
        options(root.putObject("options"), c.options());
        root.put("readings", c.readings())
                .put("compared", c.compared())
                .put("new", c.newCount())
                .put("persisting", c.movements().size() - c.newCount())
                .put("countLine", count(c));
        ArrayNode movements = root.putArray("movements");
        for (SeriesCheck.Movement m : c.movements()) {
            ObjectNode n = movements
                    .addObject()
                    .put("key", m.key())
                    .put("rule", m.move().rule().id())
                    .put("new", m.isNew())
                    .put("ratio", m.move().ratio())
                    .put("reference", m.move().reference())
                    .put("change", m.move().change())
                    .put("limit", m.move().limit())
                    .put("cpu", m.cpu());
            ArrayNode cpus = n.putArray("referenceCpus");
            m.referenceCpus().forEach(cpus::add);
            n.put("newCpu", m.newCpu()).put("commit", m.commit()).put("base", m.base());
        }
        root.put("rebased", c.rebasings().size());
        ArrayNode rebasings = root.putArray("rebasings");
        for (SeriesCheck.Rebasing r : c.rebasings()) {
            rebasings
                    .addObject()
                    .put("key", r.key())
                    .put("from", r.from())
                    .put("to", r.to())
                    .put("ratio", r.ratio())
                    .put("commit", r.commit());
        }
        return Json.write(root);
    }

    private static void options(ObjectNode n, SeriesRules.Options o) {
        n.put("step", o.stepFloor()).put("noise", o.noiseTimes());
        TableJson.number(n, "drift", o.drift());
        n.put("window", o.window())
                .put("recent", o.driftRecent())
                .put("days", o.driftDays())
                .put("min", o.minEarlier());
    }

    /** Returns a replay as an aligned table, for a terminal. */
    static String replayText(SeriesReplay replay) {
        return replay(replay, false);
    }

    /** Returns a replay as a Markdown table. */
    static String replayMarkdown(SeriesReplay replay) {
        return replay(replay, true);
    }

    private static String replay(SeriesReplay replay, boolean md) {
        UnaryOperator<String> escape = md ? s -> Untrusted.markdown(s, 60) : s -> Untrusted.plain(s, 60);
        List<String[]> rows = new ArrayList<>();
        List<String> header = new ArrayList<>(List.of("option", "new, total", "new per full run, median / max"));
        List<String> keys = replay.rows().isEmpty()
                ? List.of()
                : List.copyOf(replay.rows().get(0).caught().keySet());
        keys.forEach(k -> header.add(escape.apply(k)));
        rows.add(header.toArray(String[]::new));
        for (SeriesReplay.Row r : replay.rows()) {
            List<String> row = new ArrayList<>(List.of(
                    r.options().describe(),
                    Integer.toString(r.newTotal()),
                    Numbers.value(r.perFullRunMedian()) + " / " + r.perFullRunMax()));
            for (Map.Entry<String, Optional<SeriesReplay.Catch>> e : r.caught().entrySet()) {
                row.add(e.getValue().map(SeriesRenderer::caught).orElse("missed"));
            }
            rows.add(row.toArray(String[]::new));
        }
        String head = "Replayed run by run over " + replay.runs() + " runs, " + replay.fullRuns() + " of them full ("
                + Math.round(SeriesReplay.FULL * 100) + "% of the largest run's readings or more). \"New\" counts"
                + " movements headlined as new; a key's entry is its first new movement.";
        if (!md) {
            return head + "\n\n" + Tables.aligned(rows);
        }
        StringBuilder out = new StringBuilder(head).append("\n\n");
        for (int i = 0; i < rows.size(); i++) {
            out.append("| ").append(String.join(" | ", rows.get(i))).append(" |\n");
            if (i == 0) {
                out.append("|:--|--:|--:|").append(":--|".repeat(keys.size())).append('\n');
            }
        }
        return out.toString();
    }

    private static String caught(SeriesReplay.Catch c) {
        String day = c.date().toString().substring(5);
        return day + (c.rule() == SeriesRules.Rule.DRIFT ? ", drift" : "") + (c.noise() ? " (noise)" : "");
    }

    /**
     * Returns schema {@code perfab/series-replay/v1}; with {@code curation} (the ref kept to, the runs
     * dropped and why) when runs were asked to be left out.
     */
    static String replayJson(SeriesReplay replay) {
        ObjectNode root = Json.object();
        root.put("schema", "perfab/series-replay/v1").put("runs", replay.runs()).put("fullRuns", replay.fullRuns());
        ArrayNode rows = root.putArray("options");
        for (SeriesReplay.Row r : replay.rows()) {
            ObjectNode n = rows.addObject().put("rules", r.options().describe());
            options(n.putObject("options"), r.options());
            n.put("newTotal", r.newTotal())
                    .put("newPerFullRunMedian", r.perFullRunMedian())
                    .put("newPerFullRunMax", r.perFullRunMax());
            ObjectNode caught = n.putObject("caught");
            r.caught().forEach((key, c) -> {
                if (c.isEmpty()) {
                    caught.putNull(key);
                } else {
                    caught.putObject(key)
                            .put("run", c.get().run())
                            .put("date", c.get().date().toString())
                            .put("rule", c.get().rule().id())
                            .put("noise", c.get().noise());
                }
            });
        }
        replay.curation().ifPresent(c -> curation(root.putObject("curation"), c));
        return Json.write(root);
    }

    /** Writes the runs a replay left out: the ref kept to, and each run dropped with its reason. */
    private static void curation(ObjectNode n, SeriesCuration c) {
        if (c.on().isPresent()) {
            n.put("on", c.on().get());
        } else {
            n.putNull("on");
        }
        n.put("runs", c.runs()).put("droppedReadings", c.readings());
        ArrayNode dropped = n.putArray("dropped");
        for (SeriesCuration.Dropped d : c.dropped()) {
            dropped.addObject()
                    .put("run", d.run())
                    .put("date", d.date().toString())
                    .put("commit", d.commit())
                    .put("reason", d.reason().id())
                    .put("readings", d.readings());
        }
    }

    /** Returns a line per setting: its new movements, and the first catch of each key followed. */
    static String replayCsv(SeriesReplay replay) {
        List<String> keys = replay.rows().isEmpty()
                ? List.of()
                : List.copyOf(replay.rows().get(0).caught().keySet());
        List<String> header =
                new ArrayList<>(List.of("rules", "new total", "new per full run median", "new per full run max"));
        keys.forEach(k -> header.add(k));
        Csv out = new Csv(header.toArray(String[]::new));
        for (SeriesReplay.Row r : replay.rows()) {
            List<String> line = new ArrayList<>(List.of(
                    r.options().describe(),
                    Integer.toString(r.newTotal()),
                    Csv.number(r.perFullRunMedian()),
                    Integer.toString(r.perFullRunMax())));
            r.caught()
                    .values()
                    .forEach(c -> line.add(c.map(SeriesRenderer::caught).orElse("missed")));
            out.line(line);
        }
        return out.text();
    }

    // ---- series import --------------------------------------------------------------------------

    /** The readings whose ratio differs that the text and Markdown name; JSON names them all. */
    static final int CONFLICTS_SHOWN = 20;

    /**
     * Returns the import's count line: {@code perfab: imported FROM into SERIES: 3 readings added, 1
     * already there, 2 whose ratio differs from the series' own (kept); 12 runs in all}.
     */
    static String importCount(SeriesImport m) {
        SeriesFile.Merge merged = m.merged();
        return "perfab: imported " + Untrusted.plain(m.from(), Untrusted.MAX_LENGTH) + " into "
                + Untrusted.plain(m.series(), Untrusted.MAX_LENGTH) + ": " + merged.added() + " reading"
                + Words.plural(merged.added()) + " added, " + merged.already() + " already there"
                + (merged.conflicting() == 0
                        ? ""
                        : ", " + merged.conflicting() + " whose ratio differs from the series' own (kept)")
                + "; " + m.runs() + " run" + Words.plural(m.runs()) + " in all";
    }

    /** Returns the count line, then a line per reading whose ratio differs (at most {@value #CONFLICTS_SHOWN}). */
    static String importText(SeriesImport m) {
        StringBuilder out = new StringBuilder(importCount(m)).append('\n');
        List<SeriesFile.Conflict> conflicts = m.merged().conflicts();
        for (SeriesFile.Conflict c : conflicts.subList(0, Math.min(conflicts.size(), CONFLICTS_SHOWN))) {
            out.append("  ").append(conflict(c)).append('\n');
        }
        if (conflicts.size() > CONFLICTS_SHOWN) {
            out.append("  and ")
                    .append(conflicts.size() - CONFLICTS_SHOWN)
                    .append(" more (--format json lists every one)\n");
        }
        return out.toString();
    }

    /** Returns a section for a job summary: the counts, the readings whose ratio differs, the runs left out. */
    static String importMarkdown(SeriesImport m) {
        SeriesFile.Merge merged = m.merged();
        UnaryOperator<String> code = s -> Untrusted.markdown(s, Untrusted.MAX_LENGTH);
        StringBuilder out = new StringBuilder("### perfab series import: ")
                .append(merged.added())
                .append(" reading")
                .append(Words.plural(merged.added()))
                .append(" added\n\n");
        out.append("Imported ")
                .append(code.apply(m.from()))
                .append(" into ")
                .append(code.apply(m.series()))
                .append(": ")
                .append(merged.already())
                .append(" already there, ")
                .append(merged.conflicting())
                .append(" whose ratio differs from the series' own; ")
                .append(m.runs())
                .append(" run")
                .append(Words.plural(m.runs()))
                .append(" in all.\n");
        List<SeriesFile.Conflict> conflicts = merged.conflicts();
        if (!conflicts.isEmpty()) {
            out.append(
                    "\nThe series keeps its own ratio where the other history holds another for the same run and"
                            + " key:\n\n| run | key | the series' ratio (kept) | the other's | change |\n|:--|:--|--:|--:|--:|\n");
            for (SeriesFile.Conflict c : conflicts.subList(0, Math.min(conflicts.size(), CONFLICTS_SHOWN))) {
                out.append("| ")
                        .append(Untrusted.markdown(c.run(), 80))
                        .append(" | ")
                        .append(Untrusted.markdown(c.key(), Untrusted.MAX_LENGTH))
                        .append(" | ")
                        .append(Numbers.value(c.kept()))
                        .append(" | ")
                        .append(Numbers.value(c.other()))
                        .append(" | ")
                        .append(Numbers.signedPercent(change(c)))
                        .append(" |\n");
            }
            if (conflicts.size() > CONFLICTS_SHOWN) {
                out.append("\nand ")
                        .append(conflicts.size() - CONFLICTS_SHOWN)
                        .append(" more (`--format json` lists every one).\n");
            }
        }
        SeriesCuration c = m.curation();
        if (c.any()) {
            out.append("\nLeft out of both: ")
                    .append(c.dropped().size())
                    .append(" of ")
                    .append(c.runs())
                    .append(" runs (")
                    .append(c.readings())
                    .append(" readings)")
                    .append(c.on().map(r -> ", every kept run's commit on " + code.apply(r))
                            .orElse(""))
                    .append(":\n\n");
            for (SeriesCuration.Dropped d : c.dropped()) {
                out.append("- ")
                        .append(Untrusted.markdown(d.run(), 80))
                        .append(" (")
                        .append(d.date())
                        .append(", ")
                        .append(d.commit().isEmpty() ? "no commit" : code.apply(Ids.shortCommit(d.commit())))
                        .append("): ")
                        .append(d.reason().id())
                        .append('\n');
            }
        }
        return out.toString();
    }

    /** Returns schema {@code perfab/series-merge/v1} (the command's former name, kept for readers): the counts, every reading whose ratio differs, the runs left out. */
    static String importJson(SeriesImport m) {
        SeriesFile.Merge merged = m.merged();
        ObjectNode root = Json.object();
        root.put("schema", "perfab/series-merge/v1")
                .put("series", m.series())
                .put("from", m.from())
                .put("added", merged.added())
                .put("already", merged.already())
                .put("conflicting", merged.conflicting())
                .put("runs", m.runs())
                .put("countLine", importCount(m));
        ArrayNode conflicts = root.putArray("conflicts");
        for (SeriesFile.Conflict c : merged.conflicts()) {
            conflicts
                    .addObject()
                    .put("run", c.run())
                    .put("key", c.key())
                    .put("kept", c.kept())
                    .put("other", c.other());
        }
        curation(root.putObject("curation"), m.curation());
        return Json.write(root);
    }

    /** Returns a warning per reading whose ratio differs from the series' own, at most {@link Workflow#PER_TYPE}. */
    static String importGithub(SeriesImport m) {
        StringBuilder out = new StringBuilder();
        Workflow.annotate(
                out,
                "warning",
                "perfab series import: ratio differs",
                m.merged().conflicts().stream().map(SeriesRenderer::conflict).toList(),
                Workflow.PER_TYPE,
                more -> "and " + more + " more readings whose ratio differs; the job summary lists " + CONFLICTS_SHOWN
                        + ", --format json every one");
        return out.toString();
    }

    /** Returns the readings added, already there, whose ratio differs, and the runs left out, for a step's outputs. */
    static Map<String, String> importCounts(SeriesImport m) {
        Map<String, String> out = new TreeMap<>();
        out.put("added", Integer.toString(m.merged().added()));
        out.put("already", Integer.toString(m.merged().already()));
        out.put("conflicting", Integer.toString(m.merged().conflicting()));
        out.put("dropped", Integer.toString(m.curation().dropped().size()));
        return out;
    }

    private static String conflict(SeriesFile.Conflict c) {
        return "run " + Untrusted.plain(c.run(), 80) + ", " + Untrusted.plain(c.key(), Untrusted.MAX_LENGTH)
                + ": the series holds "
                + Numbers.value(c.kept()) + " (kept), the other " + Numbers.value(c.other()) + " ("
                + Numbers.signedPercent(change(c)) + ")";
    }

    private static double change(SeriesFile.Conflict c) {
        return (c.other() / c.kept() - 1) * 100;
    }
}
