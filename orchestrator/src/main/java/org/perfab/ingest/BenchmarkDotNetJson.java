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
 *
 * <p>A benchmark without {@code Statistics} (BenchmarkDotNet writes null for one that failed), or
 * whose every time is 0 (BenchmarkDotNet takes an empty method's overhead off each measurement,
 * down to 0, so a method it cannot tell from an empty one measures 0), is an error naming it: it has
 * no time, and a 0 would compare with any other time as a confident -100%. A 0 among other times
 * is kept, as is an allocation of 0 bytes (the memory diagnoser measured none).
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
            JsonNode statistics = b.path("Statistics");
            if (!statistics.isObject()) {
                throw bad(
                        file,
                        where,
                        "'" + name + "' has no \"Statistics\": BenchmarkDotNet writes none for a"
                                + " benchmark that failed, so it has no time to compare");
            }
            JsonNode values = statistics.path("OriginalValues");
            List<Reading> times = new ArrayList<>();
            if (values.isArray() && !values.isEmpty()) {
                for (int k = 0; k < values.size(); k++) {
                    times.add(new Reading(time, number(file, where, values.get(k), "an original value"), file, 0, 0));
                }
            } else {
                times.add(new Reading(
                        time, number(file, where, statistics.get("Mean"), "\"Statistics.Mean\""), file, 0, 0));
            }
            if (times.stream().allMatch(r -> r.value() == 0)) {
                // Not a time: BenchmarkDotNet takes the overhead of an empty method off every
                // measurement, down to 0, and a 0 compares with any other time as -100%.
                throw bad(
                        file,
                        where,
                        "every time of '" + name + "' is 0 ns/op: BenchmarkDotNet could not tell it from"
                                + " an empty method, so it has no time to compare (a 0 would compare as -100%); give each"
                                + " operation more work");
            }
            readings.addAll(times);
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
