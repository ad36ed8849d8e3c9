package org.perfab.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.perfab.failure.BadInputException;
import org.perfab.model.Cell;

/**
 * hyperfine's {@code --export-json}: one cell per command (its {@code command}, which is the
 * {@code --command-name} when one was given), metric {@code wall} in seconds, one reading per run
 * ({@code times}; the {@code mean} when there are none); and metrics {@code user} and
 * {@code system}, the CPU seconds the command spent in user and kernel mode, one reading each:
 * hyperfine keeps only their mean over its runs (to 1.20). A file without them gives wall alone.
 *
 * <p>Two commands of one name would pool into one cell, so a name given twice is an error naming
 * both entries. A run whose command failed ({@code hyperfine -i} goes on past it, and writes its
 * {@code exit_codes}: not 0, or null for a command a signal ended) is no measurement of the command,
 * so such a file is an error naming the command and the run, as a harness that crashes fails its
 * trial.
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
        Map<String, Integer> named = new HashMap<>();
        for (int i = 0; i < results.size(); i++) {
            JsonNode r = results.get(i);
            String where = "results[" + i + "]";
            String command = r.path("command").asText("");
            if (command.isEmpty()) {
                throw bad(file, where, "\"command\" is missing");
            }
            Integer first = named.putIfAbsent(command, i);
            if (first != null) {
                throw bad(
                        file,
                        where,
                        "command '" + command + "' is also the name of results[" + first + "], and two"
                                + " commands of one name would pool into one cell; give each its own name (hyperfine -n)");
            }
            exitedWell(file, where, command, r.path("exit_codes"));
            Cell cell = cell(file, where, command, "wall", "s");
            JsonNode times = r.path("times");
            if (!times.isArray() || times.isEmpty()) {
                readings.add(new Reading(cell, number(file, where, r.get("mean"), "\"mean\""), file, 0, 0));
            } else {
                for (int k = 0; k < times.size(); k++) {
                    readings.add(new Reading(
                            cell, number(file, where + ".times[" + k + "]", times.get(k), "the time"), file, 0, 0));
                }
            }
            for (String metric : List.of("user", "system")) {
                if (r.has(metric)) {
                    readings.add(new Reading(
                            cell(file, where, command, metric, "s"),
                            number(file, where, r.get(metric), "\"" + metric + "\""),
                            file,
                            0,
                            0));
                }
            }
        }
        return readings;
    }

    /**
     * Refuses a run whose command failed: an exit code that is not 0, or null (a signal ended it).
     *
     * @throws BadInputException naming the command and the run, from 1; or when {@code exit_codes}
     *     is there and not a list
     */
    private static void exitedWell(Path file, String where, String command, JsonNode codes) {
        if (codes.isMissingNode() || codes.isNull()) {
            return; // an older hyperfine writes none
        }
        if (!codes.isArray()) {
            throw bad(file, where, "\"exit_codes\" is " + codes + ", not a list");
        }
        for (int k = 0; k < codes.size(); k++) {
            JsonNode code = codes.get(k);
            if (code.isIntegralNumber() && code.asLong() == 0) {
                continue;
            }
            throw bad(
                    file,
                    where + ".exit_codes[" + k + "]",
                    "command '" + command + "' "
                            + (code.isNull() ? "was ended by a signal" : "exited with " + code) + " in run " + (k + 1)
                            + " (hyperfine -i goes on past a failure); a run that failed is no measurement of the command");
        }
    }
}
