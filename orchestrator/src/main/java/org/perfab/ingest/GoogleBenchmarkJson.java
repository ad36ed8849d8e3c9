package org.perfab.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.perfab.failure.BadInputException;

/**
 * Google Benchmark's {@code --benchmark_format=json} (or {@code --benchmark_out}): one cell per
 * {@code run_name}, metrics {@code real_time} and {@code cpu_time} in the run's {@code time_unit},
 * and {@code items_per_second} and {@code bytes_per_second} when the benchmark sets them.
 * Each repetition ({@code run_type: iteration}) is a reading; when the file holds only aggregates
 * ({@code --benchmark_report_aggregates_only}), the {@code mean} aggregate is the one reading.
 */
final class GoogleBenchmarkJson extends ToolFormat {
    @Override
    public String id() {
        return "google-benchmark";
    }

    /** Returns true: perfab counts each benchmark under Callgrind, one loop at a time. */
    @Override
    public boolean countsEachBenchmark() {
        return true;
    }

    @Override
    public boolean recognises(String head) {
        return head.contains("\"benchmarks\"")
                && head.contains("\"context\"")
                && (head.contains("\"library_build_type\"") || head.contains("\"num_cpus\""));
    }

    @Override
    public List<Reading> readings(Path file) {
        JsonNode benchmarks = json(file, BadInputException.read(file)).path("benchmarks");
        if (!benchmarks.isArray()) {
            throw bad(file, "", "expected Google Benchmark's {\"context\": ..., \"benchmarks\": [...]}");
        }
        boolean iterations = false;
        for (JsonNode b : benchmarks) {
            iterations |= !b.path("run_type").asText("iteration").equals("aggregate");
        }
        List<Reading> readings = new ArrayList<>();
        for (int i = 0; i < benchmarks.size(); i++) {
            JsonNode b = benchmarks.get(i);
            String where = "benchmarks[" + i + "]";
            boolean aggregate = b.path("run_type").asText("iteration").equals("aggregate");
            if (iterations ? aggregate : !b.path("aggregate_name").asText().equals("mean")) {
                continue;
            }
            if (b.path("error_occurred").asBoolean(false)) {
                throw bad(
                        file,
                        where,
                        b.path("name").asText() + " failed: "
                                + b.path("error_message").asText());
            }
            String name = b.path("run_name").asText(b.path("name").asText(""));
            if (name.isEmpty()) {
                throw bad(file, where, "\"name\" is missing");
            }
            String unit = b.path("time_unit").asText("ns");
            for (String metric : List.of("real_time", "cpu_time")) {
                readings.add(new Reading(
                        cell(file, where, name, metric, unit),
                        number(file, where, b.get(metric), "\"" + metric + "\""),
                        file,
                        0,
                        0));
            }
            // The rates of SetItemsProcessed and SetBytesProcessed; other user counters carry no
            // unit that tells their direction, and are not read.
            if (b.has("items_per_second")) {
                readings.add(new Reading(
                        cell(file, where, name, "items_per_second", "items/s"),
                        number(file, where, b.get("items_per_second"), "\"items_per_second\""),
                        file,
                        0,
                        0));
            }
            if (b.has("bytes_per_second")) {
                readings.add(new Reading(
                        cell(file, where, name, "bytes_per_second", "B/s"),
                        number(file, where, b.get("bytes_per_second"), "\"bytes_per_second\""),
                        file,
                        0,
                        0));
            }
        }
        if (readings.isEmpty()) {
            throw bad(file, "", "no benchmark runs in \"benchmarks\"");
        }
        return readings;
    }

    /** Each benchmark's iterations times its real time, over its repetitions; aggregates say none. */
    @Override
    public Map<String, Double> seconds(Path file) {
        Map<String, Double> seconds = new LinkedHashMap<>();
        for (JsonNode b : json(file, BadInputException.read(file)).path("benchmarks")) {
            String name = b.path("run_name").asText(b.path("name").asText(""));
            double unit = switch (b.path("time_unit").asText("ns")) {
                case "ns" -> 1e-9;
                case "us" -> 1e-6;
                case "ms" -> 1e-3;
                case "s" -> 1;
                default -> 0;
            };
            double t = b.path("iterations").asDouble(0) * b.path("real_time").asDouble(0) * unit;
            if (!b.path("run_type").asText("iteration").equals("aggregate")
                    && !name.isEmpty()
                    && Double.isFinite(t)
                    && t > 0) {
                seconds.merge(name, t, Double::sum);
            }
        }
        return seconds;
    }
}
