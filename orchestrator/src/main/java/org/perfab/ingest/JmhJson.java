package org.perfab.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
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
                readings.add(new Reading(cell, score(file, where, cell, metric.get("score"), "\"score\""), file, 0,
                        0));
                continue;
            }
            for (int f = 0; f < raw.size(); f++) {
                JsonNode fork = raw.get(f);
                double sum = 0;
                for (int k = 0; k < fork.size(); k++) {
                    sum += score(file, where + ".rawData[" + f + "][" + k + "]", cell, fork.get(k),
                            "an iteration's score");
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
     * Returns the score in {@code node}, a finite number of 0 or more.
     *
     * @throws BadInputException naming the benchmark and its mode when the score is negative, or as
     *     {@link #number} does
     */
    private static double score(Path file, String where, Cell cell, JsonNode node, String what) {
        double score = number(file, where, node, what);
        if (score < 0) {
            throw bad(file, where, "benchmark '" + cell.name() + "' (" + cell.metric() + "): " + what + " " + node + " "
                    + cell.unit() + " is negative, and a JMH score (a rate or a time) cannot be");
        }
        return score;
    }
}
