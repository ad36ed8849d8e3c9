package org.perfab.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.perfab.failure.BadInputException;

/**
 * JMH's {@code -rf json}: one cell per benchmark method and parameter set
 * ({@code org.Foo.bar/size=10}), metric the mode ({@code thrpt}, {@code avgt}, {@code sample},
 * {@code ss}) in the score's unit. Each fork is a reading: the mean of its measurement iterations,
 * since iterations within one JVM are not independent.
 */
final class JmhJson extends ToolFormat {
    @Override
    public String id() {
        return "jmh";
    }

    @Override
    public boolean recognises(String head) {
        return head.stripLeading().startsWith("[") && head.contains("\"primaryMetric\"") && head.contains("\"jmhVersion\"");
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
            StringBuilder name = new StringBuilder(b.path("benchmark").asText(""));
            if (name.isEmpty()) {
                throw bad(file, where, "\"benchmark\" is missing");
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = b.path("params").fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> p = it.next();
                name.append('/').append(p.getKey()).append('=').append(p.getValue().asText());
            }
            JsonNode metric = b.path("primaryMetric");
            String unit = metric.path("scoreUnit").asText("");
            var cell = cell(file, where, name.toString(), b.path("mode").asText("score"), unit);
            JsonNode raw = metric.path("rawData");
            if (!raw.isArray() || raw.isEmpty()) {
                readings.add(new Reading(cell, number(file, where, metric.get("score"), "\"score\""), file, 0, 0));
                continue;
            }
            for (int f = 0; f < raw.size(); f++) {
                JsonNode fork = raw.get(f);
                double sum = 0;
                for (int k = 0; k < fork.size(); k++) {
                    sum += number(file, where + ".rawData[" + f + "][" + k + "]", fork.get(k), "an iteration's score");
                }
                if (fork.isEmpty()) {
                    throw bad(file, where, "fork " + f + " has no iterations");
                }
                readings.add(new Reading(cell, sum / fork.size(), file, 0, 0));
            }
        }
        return readings;
    }
}
