package org.perfab.report;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.perfab.model.ComparisonTable;
import org.perfab.model.ResultsJson;
import org.perfab.model.TableJson;

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
        root.set("thresholds", TableJson.thresholds(table.thresholds()));
        TableJson.write(root, table);
        return Json.write(root);
    }
}
