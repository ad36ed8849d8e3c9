package org.perfab.ingest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.nio.file.Path;
import org.perfab.failure.BadInputException;
import org.perfab.model.Cell;
import org.perfab.model.StrictJson;
import org.perfab.model.Units;
import org.perfab.stats.Direction;

/** What the adapters of other tools' formats share: reading, JSON, units, and messages. */
abstract class ToolFormat implements MeasurementFormat {
    static final ObjectMapper JSON = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .build();

    /** Returns the JSON tree of {@code text}, naming line and column of a syntax error. */
    static JsonNode json(Path file, String text) {
        try {
            JsonNode n = JSON.readTree(text);
            if (n == null) {
                throw new BadInputException(file + ": empty file");
            }
            return n;
        } catch (JsonProcessingException e) {
            throw StrictJson.malformed(file.toString(), e);
        }
    }

    /** Returns a bad-input error about {@code file}. */
    static BadInputException bad(Path file, String where, String message) {
        return new BadInputException(file + (where.isEmpty() ? "" : ": " + where) + ": " + message);
    }

    /**
     * Returns the cell, its direction from the unit.
     *
     * @throws BadInputException naming the unit when it does not tell the direction
     */
    static Cell cell(Path file, String where, String name, String metric, String unit) {
        if (name == null || name.isBlank()) {
            throw bad(file, where, "a benchmark without a name");
        }
        if (metric == null || metric.isBlank()) {
            throw bad(file, where, "the metric of " + name + " is empty");
        }
        Direction d = Units.direction(unit)
                .orElseThrow(() -> bad(
                        file,
                        where,
                        "unit '" + unit + "' of " + name + " " + metric + " does not tell which way is better"));
        return new Cell(name, metric, unit, d);
    }

    /** Returns a finite number from {@code node}, or throws naming what it is. */
    static double number(Path file, String where, JsonNode node, String what) {
        if (node == null || !node.isNumber() || !Double.isFinite(node.asDouble())) {
            throw bad(
                    file,
                    where,
                    what + " is " + (node == null || node.isMissingNode() ? "missing" : node) + ", not a number");
        }
        return node.asDouble();
    }
}
