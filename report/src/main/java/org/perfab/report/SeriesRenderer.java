package org.perfab.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.perfab.model.SeriesCheck;
import org.perfab.model.SeriesReplay;
import org.perfab.stats.SeriesRules;

/**
 * Renders what the rules of a nightly ratio series found in one run ({@link SeriesCheck}), and a
 * replay of them over a whole series ({@link SeriesReplay}). Keys and processor models come from a
 * file a pull request can change, so every one is escaped for where it goes.
 */
public final class SeriesRenderer {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** What every section says under its table: what a movement means, and what it does not. */
    static final String REMINDER = "A movement says that a ratio moved: not whether its baseline or the benchmark"
            + " compared with it did, nor whether the move was wanted; that is for a reader. A processor model no"
            + " earlier reading of a key ran on can move its ratio by itself: the CPU column says \"new\" then.";

    private SeriesRenderer() {
    }

    /** The forms of a check. */
    public enum Form {
        /** A table for a terminal. */
        TEXT,
        /** Schema {@code perfab/series-check/v1}. */
        JSON,
        /** The section for the page and the job summary. */
        MARKDOWN,
        /** One {@code ::warning} per new movement, within GitHub's ten per step. */
        GITHUB,
        /** The one line for a pull request's body. */
        COUNT
    }

    /** Returns {@code check} rendered as {@code form}. */
    public static String render(SeriesCheck check, Form form) {
        return switch (form) {
            case TEXT -> text(check);
            case JSON -> json(check);
            case MARKDOWN -> markdown(check);
            case GITHUB -> github(check);
            case COUNT -> count(check) + "\n";
        };
    }

    /** Returns the count line: {@code perfab series: 2 new movements, 5 persisting, in run R (DATE)}. */
    public static String count(SeriesCheck c) {
        int fresh = c.newCount();
        int persisting = c.movements().size() - fresh;
        return "perfab series: " + fresh + " new movement" + (fresh == 1 ? "" : "s") + ", " + persisting
                + " persisting, in run " + Untrusted.plain(c.run(), 80) + " (" + c.date() + ") of " + c.compared()
                + " ratio" + (c.compared() == 1 ? "" : "s") + " compared";
    }

    private static String text(SeriesCheck c) {
        StringBuilder out = new StringBuilder(count(c)).append('\n');
        out.append("rules: ").append(c.options().describe()).append("\n\n");
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
        return new String[] {first, escape.apply(m.key()), move.rule().id(), Numbers.value(move.ratio()),
            Numbers.value(move.reference()), Numbers.signedPercent(move.change()), cpu};
    }

    /** Returns what the reference readings ran on, for a movement on a new processor model. */
    private static String earlier(SeriesCheck.Movement m, UnaryOperator<String> escape) {
        List<String> cpus = m.referenceCpus();
        int shown = Math.min(2, cpus.size());
        return "the reference ran on " + String.join(", ", cpus.subList(0, shown).stream().map(escape).toList())
                + (cpus.size() > shown ? " and " + (cpus.size() - shown) + " more" : "");
    }

    private static String markdown(SeriesCheck c) {
        int fresh = c.newCount();
        int persisting = c.movements().size() - fresh;
        StringBuilder out = new StringBuilder("### Nightly ratios: ").append(fresh).append(" new movement")
                .append(fresh == 1 ? "" : "s").append(", ").append(persisting).append(" persisting\n\n");
        out.append("Run `").append(Untrusted.plain(c.run(), 80).replace("`", "'")).append("` (").append(c.date())
                .append(") · ").append(c.readings()).append(" ratios, ").append(c.compared())
                .append(" with enough history to compare · ").append(c.options().describe()).append('\n');
        section(out, "New", c.movements().stream().filter(SeriesCheck.Movement::isNew).toList());
        section(out, "Persisting", c.movements().stream().filter(m -> !m.isNew()).toList());
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
        out.append("\n**").append(title).append("**\n\n| key | rule | ratio | reference | change | CPU |\n")
                .append("|:--|:--|--:|--:|--:|:--|\n");
        for (SeriesCheck.Movement m : movements) {
            UnaryOperator<String> escape = s -> Untrusted.markdown(s, Untrusted.MAX_LENGTH);
            String[] r = row(m, escape, "");
            if (m.newCpu()) {
                r[6] = "**" + escape.apply(m.cpu()) + "** (new: " + earlier(m, escape) + ")";
            }
            out.append("| ").append(String.join(" | ", List.of(r).subList(1, r.length))).append(" |\n");
        }
    }

    private static String github(SeriesCheck c) {
        List<SeriesCheck.Movement> fresh = c.movements().stream().filter(SeriesCheck.Movement::isNew).toList();
        StringBuilder out = new StringBuilder();
        int shown = fresh.size() <= GithubRenderer.PER_TYPE ? fresh.size() : GithubRenderer.PER_TYPE - 1;
        for (SeriesCheck.Movement m : fresh.subList(0, shown)) {
            SeriesRules.Move move = m.move();
            String message = Untrusted.plain(m.key(), Untrusted.MAX_LENGTH) + ": " + move.rule().id() + ", ratio "
                    + Numbers.value(move.ratio()) + " against " + Numbers.value(move.reference()) + " ("
                    + Numbers.signedPercent(move.change()) + "), on " + Untrusted.plain(m.cpu(), Untrusted.MAX_LENGTH)
                    + (m.newCpu() ? ", a processor no earlier reading of it ran on" : "");
            out.append("::warning title=").append(GithubRenderer.property("perfab series: " + move.rule().id()))
                    .append("::").append(GithubRenderer.data(message)).append('\n');
        }
        if (fresh.size() > shown) {
            out.append("::warning title=").append(GithubRenderer.property("perfab series")).append("::")
                    .append(GithubRenderer.data("and " + (fresh.size() - shown) + " more new movements; see the job"
                            + " summary")).append('\n');
        }
        return out.toString();
    }

    private static String json(SeriesCheck c) {
        ObjectNode root = JSON.createObjectNode();
        root.put("schema", "perfab/series-check/v1").put("run", c.run()).put("date", c.date().toString())
                .put("rules", c.options().describe());
        options(root.putObject("options"), c.options());
        root.put("readings", c.readings()).put("compared", c.compared()).put("new", c.newCount())
                .put("persisting", c.movements().size() - c.newCount());
        ArrayNode movements = root.putArray("movements");
        for (SeriesCheck.Movement m : c.movements()) {
            ObjectNode n = movements.addObject().put("key", m.key()).put("rule", m.move().rule().id())
                    .put("new", m.isNew()).put("ratio", m.move().ratio()).put("reference", m.move().reference())
                    .put("change", m.move().change()).put("limit", m.move().limit()).put("cpu", m.cpu());
            ArrayNode cpus = n.putArray("referenceCpus");
            m.referenceCpus().forEach(cpus::add);
            n.put("newCpu", m.newCpu()).put("commit", m.commit());
        }
        return write(root);
    }

    private static void options(ObjectNode n, SeriesRules.Options o) {
        n.put("step", o.stepFloor()).put("noise", o.noiseTimes());
        if (Double.isNaN(o.drift())) {
            n.putNull("drift");
        } else {
            n.put("drift", o.drift());
        }
        n.put("window", o.window()).put("recent", o.driftRecent()).put("days", o.driftDays())
                .put("min", o.minEarlier());
    }

    /** The forms of a replay. */
    public enum ReplayForm {
        /** A table for a terminal. */
        TEXT,
        /** A Markdown table. */
        MARKDOWN,
        /** Schema {@code perfab/series-replay/v1}. */
        JSON
    }

    /** Returns {@code replay} rendered as {@code form}. */
    public static String render(SeriesReplay replay, ReplayForm form) {
        if (form == ReplayForm.JSON) {
            return replayJson(replay);
        }
        boolean md = form == ReplayForm.MARKDOWN;
        UnaryOperator<String> escape = md ? s -> Untrusted.markdown(s, 60) : s -> Untrusted.plain(s, 60);
        List<String[]> rows = new ArrayList<>();
        List<String> header = new ArrayList<>(List.of("option", "new, total", "new per full run, median / max"));
        List<String> keys = replay.rows().isEmpty() ? List.of() : List.copyOf(replay.rows().get(0).caught().keySet());
        keys.forEach(k -> header.add(escape.apply(k)));
        rows.add(header.toArray(String[]::new));
        for (SeriesReplay.Row r : replay.rows()) {
            List<String> row = new ArrayList<>(List.of(r.options().describe(), Integer.toString(r.newTotal()),
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

    private static String replayJson(SeriesReplay replay) {
        ObjectNode root = JSON.createObjectNode();
        root.put("schema", "perfab/series-replay/v1").put("runs", replay.runs()).put("fullRuns", replay.fullRuns());
        ArrayNode rows = root.putArray("options");
        for (SeriesReplay.Row r : replay.rows()) {
            ObjectNode n = rows.addObject().put("rules", r.options().describe());
            options(n.putObject("options"), r.options());
            n.put("newTotal", r.newTotal()).put("newPerFullRunMedian", r.perFullRunMedian())
                    .put("newPerFullRunMax", r.perFullRunMax());
            ObjectNode caught = n.putObject("caught");
            r.caught().forEach((key, c) -> {
                if (c.isEmpty()) {
                    caught.putNull(key);
                } else {
                    caught.putObject(key).put("run", c.get().run()).put("date", c.get().date().toString())
                            .put("rule", c.get().rule().id()).put("noise", c.get().noise());
                }
            });
        }
        return write(root);
    }

    private static String write(ObjectNode root) {
        try {
            return JSON.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree failed to serialise", e);
        }
    }
}
