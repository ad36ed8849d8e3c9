package org.perfab.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.perfab.failure.BadInputException;
import org.perfab.model.Cell;

/**
 * JMH's {@code -rf json}: one cell per benchmark method and parameter set
 * ({@code org.Foo.bar/size=10}), metric the mode ({@code thrpt}, {@code avgt}, {@code sample},
 * {@code ss}) in the score's unit. Each fork is a reading: the mean of its measurement iterations,
 * since iterations within one JVM are not independent. A score below 0, in any mode, is an error
 * naming the benchmark: JMH's scores are rates and times, never negative, so one that is comes from
 * a broken or edited file.
 */
final class JmhJson extends ToolFormat {
    @Override
    public String id() {
        return "jmh";
    }

    @Override
    public boolean recognises(String head) {
        return head.stripLeading().startsWith("[")
                && head.contains("\"primaryMetric\"")
                && head.contains("\"jmhVersion\"");
    }

    @Override
    public List<Reading> readings(Path file) {
        JsonNode root = json(file, BadInputException.read(file));
        if (!root.isArray()) {
            throw bad(file, "", "expected JMH's JSON result: an array of benchmarks (-rf json)");
        }
        List<Reading> readings = new ArrayList<>();
        for (int i = 0; i < root.size(); i++) {
            JsonNode b = root.get(i);
            String where = "[" + i + "]";
            String name = name(b);
            if (b.path("benchmark").asText("").isEmpty()) {
                throw bad(file, where, "\"benchmark\" is missing");
            }
            JsonNode metric = b.path("primaryMetric");
            String unit = metric.path("scoreUnit").asText("");
            var cell = cell(file, where, name, b.path("mode").asText("score"), unit);
            JsonNode raw = metric.path("rawData");
            if (!raw.isArray() || raw.isEmpty()) {
                readings.add(new Reading(cell, score(file, where, cell, metric.get("score"), "\"score\""), file, 0, 0));
                continue;
            }
            for (int f = 0; f < raw.size(); f++) {
                JsonNode fork = raw.get(f);
                double sum = 0;
                for (int k = 0; k < fork.size(); k++) {
                    sum += score(
                            file, where + ".rawData[" + f + "][" + k + "]", cell, fork.get(k), "an iteration's score");
                }
                if (fork.isEmpty()) {
                    throw bad(file, where, "fork " + f + " has no iterations");
                }
                readings.add(new Reading(cell, sum / fork.size(), file, 0, 0));
            }
        }
        return readings;
    }

    /**
     * Each benchmark's forks times its iterations' time, warm-up and measurement, as its settings
     * say ({@code forks}, {@code warmupIterations}, {@code warmupTime}, {@code measurementIterations},
     * {@code measurementTime}, a time such as {@code 10 s}).
     */
    @Override
    public Map<String, Double> seconds(Path file) {
        Map<String, Double> seconds = new LinkedHashMap<>();
        for (JsonNode b : json(file, BadInputException.read(file))) {
            String name = name(b);
            double t = Math.max(1, b.path("forks").asDouble(1))
                    * (b.path("warmupIterations").asDouble(0)
                                    * time(b.path("warmupTime").asText(""))
                            + b.path("measurementIterations").asDouble(0)
                                    * time(b.path("measurementTime").asText("")));
            if (!b.path("benchmark").asText("").isEmpty() && Double.isFinite(t) && t > 0) {
                seconds.merge(name, t, Double::sum);
            }
        }
        return seconds;
    }

    /** Returns a benchmark's cell name: its method, then each parameter as {@code /NAME=VALUE}. */
    private static String name(JsonNode b) {
        StringBuilder name = new StringBuilder(b.path("benchmark").asText(""));
        for (Iterator<Map.Entry<String, JsonNode>> it = b.path("params").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> p = it.next();
            name.append('/').append(p.getKey()).append('=').append(p.getValue().asText());
        }
        return name.toString();
    }

    /** Returns a JMH time setting ({@code 10 s}, {@code 200 ms}) in seconds; 0 when it is not one. */
    private static double time(String text) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("([0-9.]+) *(ns|us|ms|s|min|hr)")
                .matcher(text.strip());
        if (!m.matches()) {
            return 0;
        }
        double unit = switch (m.group(2)) {
            case "ns" -> 1e-9;
            case "us" -> 1e-6;
            case "ms" -> 1e-3;
            case "min" -> 60;
            case "hr" -> 3600;
            default -> 1;
        };
        try {
            return Double.parseDouble(m.group(1)) * unit;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * Returns the score in {@code node}, a finite number of 0 or more.
     *
     * @throws BadInputException naming the benchmark and its mode when the score is negative, or as
     *     {@link #number} does
     */
    private static double score(Path file, String where, Cell cell, JsonNode node, String what) {
        double score = number(file, where, node, what);
        if (score < 0) {
            throw bad(
                    file,
                    where,
                    "benchmark '" + cell.name() + "' (" + cell.metric() + "): " + what + " " + node + " " + cell.unit()
                            + " is negative, and a JMH score (a rate or a time) cannot be");
        }
        return score;
    }
}
