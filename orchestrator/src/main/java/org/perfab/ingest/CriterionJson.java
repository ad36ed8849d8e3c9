package org.perfab.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.perfab.failure.BadInputException;

/**
 * Criterion, as {@code cargo criterion --message-format json} prints it (one JSON message per line,
 * {@code "reason": "benchmark-complete"}) or as one {@code estimates.json}. A message gives cell
 * {@code id}, metric {@code time}, one reading per sample (measured value over iteration count), or
 * the {@code typical} estimate when the message has no samples (a message whose
 * {@code measured_values} and {@code iteration_count} differ in length is an error naming both
 * lengths, not one sample); an estimates file
 * gives its {@code mean} point estimate in nanoseconds, named after the folder it is in
 * ({@code target/criterion/GROUP/BENCH/new/estimates.json}).
 */
final class CriterionJson extends ToolFormat {
    @Override
    public String id() {
        return "criterion";
    }

    @Override
    public boolean recognises(String head) {
        return head.contains("\"benchmark-complete\"")
                || head.contains("\"point_estimate\"") && head.contains("\"confidence_interval\"");
    }

    @Override
    public List<Reading> readings(Path file) {
        String text = BadInputException.read(file);
        List<Reading> readings = new ArrayList<>();
        if (text.contains("\"point_estimate\"") && !text.contains("\"reason\"")) {
            JsonNode root = json(file, text);
            Path dir = file.toAbsolutePath().getParent();
            if (dir != null
                    && dir.getFileName() != null
                    && List.of("new", "base").contains(dir.getFileName().toString())) {
                dir = dir.getParent();
            }
            Path criterion = dir;
            while (criterion != null
                    && criterion.getFileName() != null
                    && !criterion.getFileName().toString().equals("criterion")) {
                criterion = criterion.getParent();
            }
            String name = criterion == null || dir == null
                    ? String.valueOf(dir.getFileName())
                    : criterion.relativize(dir).toString().replace('\\', '/');
            readings.add(new Reading(
                    cell(file, "", name, "time", "ns"),
                    number(file, "mean", root.path("mean").get("point_estimate"), "\"mean.point_estimate\""),
                    file,
                    0,
                    0));
            return readings;
        }
        String[] lines = text.split("\n");
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].isBlank()) {
                continue;
            }
            JsonNode m = json(file, lines[i]);
            if (!m.path("reason").asText().equals("benchmark-complete")) {
                continue;
            }
            String where = Integer.toString(i + 1);
            JsonNode typical = m.path("typical");
            var cell = cell(
                    file,
                    where,
                    m.path("id").asText(),
                    "time",
                    m.path("unit").asText(typical.path("unit").asText("ns")));
            JsonNode values = m.path("measured_values");
            JsonNode counts = m.path("iteration_count");
            int nValues = values.isArray() ? values.size() : 0;
            int nCounts = counts.isArray() ? counts.size() : 0;
            if (nValues != nCounts) {
                throw bad(
                        file,
                        where,
                        "benchmark '" + m.path("id").asText() + "' has " + nValues + " measured values but " + nCounts
                                + " iteration counts; each sample is one of each");
            }
            if (nValues > 0) {
                // Criterion's samples: each a batch of iterations, its time per iteration.
                for (int k = 0; k < values.size(); k++) {
                    double n = number(file, where, counts.get(k), "an iteration count");
                    if (!(n > 0)) {
                        throw bad(file, where, "an iteration count of " + counts.get(k) + "; counts are positive");
                    }
                    readings.add(new Reading(
                            cell, number(file, where, values.get(k), "a measured value") / n, file, i + 1, 1));
                }
            } else {
                readings.add(new Reading(
                        cell, number(file, where, typical.get("estimate"), "\"typical.estimate\""), file, i + 1, 1));
            }
        }
        if (readings.isEmpty()) {
            throw bad(file, "", "no \"benchmark-complete\" messages (cargo criterion --message-format json)");
        }
        return readings;
    }
}
