package org.perfab.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import org.perfab.stats.Caveat;
import org.perfab.stats.Comparison;
import org.perfab.stats.Summary;
import org.perfab.stats.Thresholds;
import org.perfab.stats.Verdict;

/**
 * Renders the machine-readable form: for a run, its {@code results.json}; for a comparison of
 * files, schema {@value #SCHEMA}. Numbers are full precision;
 * undefined figures (NaN, infinite) are {@code null}. Percentages ({@code pctChange},
 * {@code ci95}, {@code mde}, {@code cv}, thresholds) are in percent.
 */
final class JsonRenderer implements Renderer {
    static final String SCHEMA = "perfab/comparison/v1";

    private static final ObjectMapper MAPPER =
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Override
    public String render(Report report) {
        if (report.run().isPresent()) {
            return ResultsJson.write(report.run().get());
        }
        ComparisonTable table = report.table();
        ObjectNode root = MAPPER.createObjectNode();
        root.put("schema", SCHEMA);
        root.put("base", table.baseLabel());
        root.put("head", table.headLabel());
        root.set("thresholds", thresholds(table.thresholds()));
        ObjectNode counts = root.putObject("counts");
        for (Map.Entry<Verdict, Integer> e : table.counts().entrySet()) {
            counts.put(e.getKey().id(), e.getValue());
        }
        ArrayNode warnings = root.putArray("warnings");
        table.warnings().forEach(warnings::add);
        ArrayNode rows = root.putArray("comparisons");
        for (CellComparison row : table.rows()) {
            rows.add(comparison(row));
        }
        try {
            return MAPPER.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree failed to serialise", e);
        }
    }

    static ObjectNode thresholds(Thresholds t) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("alpha", t.alpha());
        node.put("minEffect", t.minEffect());
        node.put("inconclusive", t.inconclusive());
        return node;
    }

    static ObjectNode comparison(CellComparison row) {
        Cell cell = row.cell();
        Comparison c = row.comparison();
        ObjectNode node = MAPPER.createObjectNode();
        node.put("cell", cell.name());
        node.put("metric", cell.metric());
        node.put("unit", cell.unit());
        node.put("direction", cell.direction().id());
        node.put("verdict", c.verdict().id());
        number(node, "pctChange", c.pctChange());
        if (Double.isNaN(c.ciLow()) || Double.isNaN(c.ciHigh())) {
            node.putNull("ci95");
        } else {
            node.putArray("ci95").add(c.ciLow()).add(c.ciHigh());
        }
        number(node, "pValue", c.pValue());
        number(node, "t", c.t());
        number(node, "df", c.df());
        number(node, "mde", c.mde());
        node.set("base", summary(c.base()));
        node.set("head", summary(c.head()));
        ArrayNode caveats = node.putArray("caveats");
        for (Caveat caveat : c.caveats()) {
            caveats.add(Notes.id(caveat));
        }
        return node;
    }

    private static ObjectNode summary(Summary s) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("n", s.n());
        number(node, "mean", s.mean());
        number(node, "median", s.median());
        number(node, "stddev", s.stddev());
        number(node, "cv", s.cv());
        number(node, "min", s.min());
        number(node, "max", s.max());
        return node;
    }

    private static void number(ObjectNode node, String name, double value) {
        if (Double.isFinite(value)) {
            node.put(name, value);
        } else {
            node.putNull(name);
        }
    }
}
