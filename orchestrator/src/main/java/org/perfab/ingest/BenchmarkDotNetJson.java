package org.perfab.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.perfab.failure.BadInputException;

/**
 * BenchmarkDotNet's full JSON exporter: one cell per benchmark ({@code FullName}), metric
 * {@code time} in ns per operation, one reading per workload measurement of the result stage
 * ({@code Statistics.OriginalValues}); allocated bytes per operation, when the memory diagnoser
 * ran, as metric {@code alloc-bytes}, repeated once per measurement (it is one figure for the run).
 */
final class BenchmarkDotNetJson extends ToolFormat {
    @Override
    public String id() {
        return "benchmarkdotnet";
    }

    @Override
    public boolean recognises(String head) {
        return head.contains("\"Benchmarks\"") && head.contains("\"HostEnvironmentInfo\"");
    }

    @Override
    public List<Reading> readings(Path file) {
        JsonNode benchmarks = json(file, BadInputException.read(file)).path("Benchmarks");
        if (!benchmarks.isArray()) {
            throw bad(file, "", "expected BenchmarkDotNet's full JSON ({\"Benchmarks\": [...]})");
        }
        List<Reading> readings = new ArrayList<>();
        for (int i = 0; i < benchmarks.size(); i++) {
            JsonNode b = benchmarks.get(i);
            String where = "Benchmarks[" + i + "]";
            String name = b.path("FullName").asText(b.path("DisplayInfo").asText(""));
            var time = cell(file, where, name, "time", "ns/op");
            JsonNode values = b.path("Statistics").path("OriginalValues");
            if (values.isArray() && !values.isEmpty()) {
                for (int k = 0; k < values.size(); k++) {
                    readings.add(new Reading(time, number(file, where, values.get(k), "an original value"), file, 0, 0));
                }
            } else {
                readings.add(new Reading(time, number(file, where, b.path("Statistics").get("Mean"),
                        "\"Statistics.Mean\""), file, 0, 0));
            }
            JsonNode bytes = b.path("Memory").get("BytesAllocatedPerOperation");
            if (bytes != null && bytes.isNumber()) {
                // One figure for the whole run, as true of every measurement as of the run: it stands
                // once per measurement, so a change between runs compares as two constant samples.
                var alloc = cell(file, where, name, "alloc-bytes", "B/op");
                int n = Math.max(1, values.isArray() ? values.size() : 1);
                for (int k = 0; k < n; k++) {
                    readings.add(new Reading(alloc, bytes.asDouble(), file, 0, 0));
                }
            }
        }
        return readings;
    }
}
