package org.perfab.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.perfab.failure.BadInputException;

/**
 * pytest-benchmark's {@code --benchmark-json}: one cell per test ({@code fullname}), metric
 * {@code time} in seconds. Each round is a reading when the file has them
 * ({@code --benchmark-save-data}); otherwise the mean is the one reading.
 */
final class PytestBenchmarkJson extends ToolFormat {
    @Override
    public String id() {
        return "pytest-benchmark";
    }

    @Override
    public boolean recognises(String head) {
        return head.contains("\"benchmarks\"") && head.contains("\"machine_info\"") && head.contains("\"stats\"");
    }

    @Override
    public List<Reading> readings(Path file) {
        JsonNode benchmarks = json(file, BadInputException.read(file)).path("benchmarks");
        if (!benchmarks.isArray()) {
            throw bad(file, "", "expected pytest-benchmark's {\"machine_info\": ..., \"benchmarks\": [...]}");
        }
        List<Reading> readings = new ArrayList<>();
        for (int i = 0; i < benchmarks.size(); i++) {
            JsonNode b = benchmarks.get(i);
            String where = "benchmarks[" + i + "]";
            String name = b.path("fullname").asText(b.path("name").asText(""));
            var cell = cell(file, where, name, "time", "s");
            JsonNode data = b.path("stats").path("data");
            if (data.isArray() && !data.isEmpty()) {
                for (int k = 0; k < data.size(); k++) {
                    readings.add(new Reading(
                            cell, number(file, where + ".stats.data[" + k + "]", data.get(k), "a round"), file, 0, 0));
                }
            } else {
                readings.add(new Reading(
                        cell, number(file, where, b.path("stats").get("mean"), "\"stats.mean\""), file, 0, 0));
            }
        }
        return readings;
    }

    /** Each test's {@code stats.total}: the time of all its rounds. */
    @Override
    public Map<String, Double> seconds(Path file) {
        Map<String, Double> seconds = new LinkedHashMap<>();
        for (JsonNode b : json(file, BadInputException.read(file)).path("benchmarks")) {
            String name = b.path("fullname").asText(b.path("name").asText(""));
            double t = b.path("stats").path("total").asDouble(0);
            if (!name.isEmpty() && Double.isFinite(t) && t > 0) {
                seconds.merge(name, t, Double::sum);
            }
        }
        return seconds;
    }
}
