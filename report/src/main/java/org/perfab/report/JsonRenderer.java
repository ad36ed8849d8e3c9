package org.perfab.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import org.perfab.model.CellComparison;
import org.perfab.model.ComparisonTable;
import org.perfab.model.ResultsJson;
import org.perfab.stats.Verdict;

/**
 * Renders the machine-readable form: for a run, its {@code results.json}; for a comparison of
 * files, schema {@value #SCHEMA}. Numbers are full precision;
 * undefined figures (NaN, infinite) are {@code null}. Percentages ({@code pctChange},
 * {@code ci95}, {@code mde}, {@code detectable}, {@code cv}, thresholds) are in percent.
 */
final class JsonRenderer implements Renderer<Report> {
    static final String SCHEMA = "perfab/comparison/v2";


    @Override
    public String render(Report report) {
        if (report.run().isPresent()) {
            return ResultsJson.write(report.run().get());
        }
        ComparisonTable table = report.table();
        ObjectNode root = Json.object();
        root.put("schema", SCHEMA);
        root.put("base", table.baseLabel());
        root.put("head", table.headLabel());
        root.set("thresholds", ResultsJson.thresholds(table.thresholds()));
        ObjectNode counts = root.putObject("counts");
        for (Map.Entry<Verdict, Integer> e : table.counts().entrySet()) {
            counts.put(e.getKey().id(), e.getValue());
        }
        ObjectNode benchmarks = root.putObject("benchmarks");
        for (Map.Entry<Verdict, Integer> e : table.benchmarks().entrySet()) {
            benchmarks.put(e.getKey().id(), e.getValue());
        }
        root.set("warnings", ResultsJson.warnings(table.warnings()));
        ArrayNode rows = root.putArray("comparisons");
        for (CellComparison row : table.rows()) {
            rows.add(ResultsJson.comparison(row, table.thresholds()));
        }
        return Json.write(root);
    }
}
