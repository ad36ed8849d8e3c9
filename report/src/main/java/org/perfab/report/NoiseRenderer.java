package org.perfab.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;
import org.perfab.model.SeriesNoiseTable;
import org.perfab.model.TableJson;

/**
 * Renders the noise of a nightly series ({@link SeriesNoiseTable}): the percentiles of the
 * deviations over every key, then per key, with each key's noise. Deviations are shown in percent.
 * Keys come from a file a pull request can change, so each is escaped for where it goes.
 */
final class NoiseRenderer {
    /** What the figures are, under every table. */
    static final String MEANING = "A deviation is |ratio / median - 1|, the median of the key's previous readings"
            + " (up to the window); a key's first reading has none. Percentiles interpolate linearly between the"
            + " deviations (numpy's default). A key's noise is the median of its deviations before its latest"
            + " reading: the step rule's limit there is the larger of its floor and a multiple of it.";

    private NoiseRenderer() {}

    /** Returns the table, aligned for a terminal. */
    static String text(SeriesNoiseTable t) {
        return head(t) + "\n\n" + Tables.aligned(rows(t, s -> Untrusted.plain(s, 60)), right(t)) + "\n" + MEANING
                + "\n";
    }

    /** Returns the table in Markdown. */
    static String markdown(SeriesNoiseTable t) {
        String align = "|:--|--:|" + "--:|".repeat(t.percentiles().size() + 1);
        return head(t) + "\n\n" + Tables.markdown(rows(t, s -> Untrusted.markdown(s, 60)), align) + "\n<sub>" + MEANING
                + "</sub>\n";
    }

    private static String head(SeriesNoiseTable t) {
        SeriesNoiseTable.Row all = t.overall();
        return "perfab series noise: " + t.keys().size() + " key" + (t.keys().size() == 1 ? "" : "s") + ", "
                + all.readings() + " reading" + (all.readings() == 1 ? "" : "s") + " over " + t.runs() + " run"
                + (t.runs() == 1 ? "" : "s") + "; " + all.deviations() + " deviation"
                + (all.deviations() == 1 ? "" : "s") + " from the median of the key's previous " + t.window()
                + " reading" + (t.window() == 1 ? "" : "s");
    }

    private static List<String[]> rows(SeriesNoiseTable t, UnaryOperator<String> escape) {
        List<String[]> rows = new ArrayList<>();
        List<String> header = new ArrayList<>(List.of("key", "readings"));
        t.percentiles().forEach(p -> header.add(ordinal(p)));
        header.add("noise");
        rows.add(header.toArray(String[]::new));
        rows.add(row(t.overall(), "all keys"));
        t.keys().forEach(k -> rows.add(row(k, escape.apply(k.key()))));
        return rows;
    }

    private static String[] row(SeriesNoiseTable.Row r, String shown) {
        List<String> cells = new ArrayList<>(List.of(shown, Integer.toString(r.readings())));
        r.values().forEach(v -> cells.add(Numbers.percent(v * 100)));
        cells.add(Double.isNaN(r.noise()) ? "" : Numbers.percent(r.noise() * 100));
        return cells.toArray(String[]::new);
    }

    private static boolean[] right(SeriesNoiseTable t) {
        boolean[] right = new boolean[t.percentiles().size() + 3];
        Arrays.fill(right, 1, right.length, true);
        return right;
    }

    /** Returns {@code 50th}, {@code 99th}, {@code 99.9th}. */
    private static String ordinal(double p) {
        return Csv.number(p) + "th";
    }

    /**
     * Returns a line per key, after one of every key with an empty key: its readings, deviations,
     * percentiles (in percent) and noise (in percent; empty for every key).
     */
    static String csv(SeriesNoiseTable t) {
        List<String> header = new ArrayList<>(List.of("key", "readings", "deviations"));
        t.percentiles().forEach(p -> header.add("p" + Csv.number(p) + " %"));
        header.add("noise %");
        Csv out = new Csv(header.toArray(String[]::new));
        csvLine(out, t.overall());
        t.keys().forEach(k -> csvLine(out, k));
        return out.text();
    }

    private static void csvLine(Csv out, SeriesNoiseTable.Row r) {
        List<String> line =
                new ArrayList<>(List.of(r.key(), Integer.toString(r.readings()), Integer.toString(r.deviations())));
        r.values().forEach(v -> line.add(Csv.number(v * 100)));
        line.add(Csv.number(r.noise() * 100));
        out.line(line);
    }

    /** Returns schema {@code perfab/series-noise/v1}; figures in percent, null where undefined. */
    static String json(SeriesNoiseTable t) {
        ObjectNode root = Json.object();
        root.put("schema", "perfab/series-noise/v1").put("window", t.window()).put("runs", t.runs());
        ArrayNode ps = root.putArray("percentiles");
        t.percentiles().forEach(ps::add);
        figures(root.putObject("overall"), t, t.overall());
        ArrayNode keys = root.putArray("keys");
        for (SeriesNoiseTable.Row k : t.keys()) {
            ObjectNode n = keys.addObject().put("key", k.key());
            figures(n, t, k);
            TableJson.number(n, "noise", k.noise() * 100);
        }
        return Json.write(root);
    }

    private static void figures(ObjectNode n, SeriesNoiseTable t, SeriesNoiseTable.Row r) {
        n.put("readings", r.readings()).put("deviations", r.deviations());
        ObjectNode values = n.putObject("deviation");
        for (int i = 0; i < t.percentiles().size(); i++) {
            TableJson.number(
                    values, Csv.number(t.percentiles().get(i)), r.values().get(i) * 100);
        }
    }
}
