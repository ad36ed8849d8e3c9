package org.perfab.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.perfab.model.Bisection;

/** Renders what a bisect found: its end, the evidence, and every step it ran. */
public final class BisectRenderer {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private BisectRenderer() {
    }

    /** The forms of a bisect. */
    public enum Form {
        /** Lines for a terminal. */
        TEXT,
        /** Markdown, for a job summary. */
        MARKDOWN,
        /** Schema {@code perfab/bisect/v1}: {@code firstBad}, {@code verdict}, {@code steps}. */
        JSON
    }

    /** Returns {@code b} rendered as {@code form}. */
    public static String render(Bisection b, Form form) {
        return switch (form) {
            case TEXT -> text(b);
            case MARKDOWN -> markdown(b);
            case JSON -> json(b);
        };
    }

    /** Returns the end of a bisect in one sentence. */
    static String end(Bisection b) {
        return switch (b.outcome()) {
            case FOUND -> "First bad commit: " + b.firstBad().orElseThrow().substring(0, 12) + ", still worse when rebuilt"
                    + " with its layout shifted.";
            case NO_CHANGE -> "The bad commit is not worse than the good one by " + Numbers.percent(b.effect())
                    + " or more: nothing to bisect.";
            case NO_SINGLE_COMMIT -> "No single commit explains the change: code layout or noise, not a commit.";
        };
    }

    private static List<String[]> rows(Bisection b, boolean markdown) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"step", "commit", "purpose", "builds", "cell", "change [95% CI]", "p", "between builds",
            "verdict", "bad"});
        int i = 1;
        for (Bisection.Step s : b.steps()) {
            String subject = Untrusted.plain(s.subject(), 60);
            rows.add(new String[] {Integer.toString(i++),
                s.commit().substring(0, 12) + " " + (markdown ? Untrusted.markdown(subject, 60) : subject), s.purpose(),
                Integer.toString(s.builds()), markdown ? Untrusted.markdown(s.cell()) : Untrusted.plain(s.cell()),
                Numbers.signedPercent(s.pctChange()) + " " + Numbers.interval(s.ciLow(), s.ciHigh()),
                Numbers.pValue(s.pValue()).replace("<", markdown ? "&lt;" : "<"),
                Double.isNaN(s.buildSpread()) ? Numbers.UNDEFINED : "±" + Numbers.percent(s.buildSpread()),
                s.verdict(), s.bad() ? "bad" : "good"});
        }
        return rows;
    }

    private static String text(Bisection b) {
        StringBuilder out = new StringBuilder(Tables.aligned(rows(b, false)));
        out.append('\n').append(end(b)).append('\n');
        for (String e : b.evidence()) {
            out.append("  - ").append(Untrusted.plain(e, Untrusted.MAX_PROSE)).append('\n');
        }
        return out.toString();
    }

    private static String markdown(Bisection b) {
        StringBuilder out = new StringBuilder("### perfab bisect · " + Untrusted.markdown(b.cell()) + "\n\n**"
                + end(b) + "**\n");
        for (String e : b.evidence()) {
            out.append("\n- ").append(Untrusted.markdown(e, Untrusted.MAX_PROSE));
        }
        out.append("\n\n");
        List<String[]> rows = rows(b, true);
        for (int r = 0; r < rows.size(); r++) {
            out.append("| ").append(String.join(" | ", rows.get(r))).append(" |\n");
            if (r == 0) {
                out.append("|--:|:--|:--|--:|:--|--:|--:|--:|:--|:--|\n");
            }
        }
        return out.toString();
    }

    private static String json(Bisection b) {
        ObjectNode root = JSON.createObjectNode();
        root.put("schema", "perfab/bisect/v1").put("cell", b.cell()).put("effect", b.effect());
        if (b.firstBad().isPresent()) {
            root.put("firstBad", b.firstBad().get());
        } else {
            root.putNull("firstBad");
        }
        root.put("verdict", b.outcome().id());
        ArrayNode evidence = root.putArray("evidence");
        b.evidence().forEach(evidence::add);
        ArrayNode steps = root.putArray("steps");
        for (Bisection.Step s : b.steps()) {
            ObjectNode n = steps.addObject().put("commit", s.commit()).put("subject", s.subject())
                    .put("purpose", s.purpose()).put("builds", s.builds()).put("cell", s.cell())
                    .put("verdict", s.verdict());
            number(n, "pctChange", s.pctChange());
            if (Double.isNaN(s.ciLow())) {
                n.putNull("ci95");
            } else {
                n.putArray("ci95").add(s.ciLow()).add(s.ciHigh());
            }
            number(n, "pValue", s.pValue());
            number(n, "buildSpread", s.buildSpread());
            n.put("bad", s.bad());
        }
        try {
            return JSON.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree failed to serialise", e);
        }
    }

    private static void number(ObjectNode node, String name, double v) {
        if (Double.isFinite(v)) {
            node.put(name, v);
        } else {
            node.putNull(name);
        }
    }
}
