package org.perfab.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.perfab.failure.BadInputException;
import org.perfab.model.Cell;

/**
 * hyperfine's {@code --export-json}: one cell per command (its {@code command}, which is the
 * {@code --command-name} when one was given), metric {@code wall} in seconds, one reading per run
 * ({@code times}; the {@code mean} when there are none); and metrics {@code user} and
 * {@code system}, the CPU seconds the command spent in user and kernel mode, one reading each:
 * hyperfine keeps only their mean over its runs (to 1.20). A file without them gives wall alone.
 */
final class HyperfineJson extends ToolFormat {
    @Override
    public String id() {
        return "hyperfine";
    }

    @Override
    public boolean recognises(String head) {
        return head.contains("\"results\"") && head.contains("\"times\"") && head.contains("\"command\"");
    }

    @Override
    public List<Reading> readings(Path file) {
        JsonNode root = json(file, BadInputException.read(file));
        JsonNode results = root.path("results");
        if (!results.isArray()) {
            throw bad(file, "", "expected hyperfine's {\"results\": [...]} (hyperfine --export-json)");
        }
        List<Reading> readings = new ArrayList<>();
        for (int i = 0; i < results.size(); i++) {
            JsonNode r = results.get(i);
            String where = "results[" + i + "]";
            String command = r.path("command").asText("");
            if (command.isEmpty()) {
                throw bad(file, where, "\"command\" is missing");
            }
            Cell cell = cell(file, where, command, "wall", "s");
            JsonNode times = r.path("times");
            if (!times.isArray() || times.isEmpty()) {
                readings.add(new Reading(cell, number(file, where, r.get("mean"), "\"mean\""), file, 0, 0));
            } else {
                for (int k = 0; k < times.size(); k++) {
                    readings.add(new Reading(cell, number(file, where + ".times[" + k + "]", times.get(k), "the time"),
                            file, 0, 0));
                }
            }
            for (String metric : List.of("user", "system")) {
                if (r.has(metric)) {
                    readings.add(new Reading(cell(file, where, command, metric, "s"),
                            number(file, where, r.get(metric), "\"" + metric + "\""), file, 0, 0));
                }
            }
        }
        return readings;
    }
}
