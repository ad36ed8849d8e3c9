package org.perfab.ingest;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.perfab.failure.BadInputException;
import org.perfab.model.Cell;
import org.perfab.model.StrictJson;
import org.perfab.model.Units;
import org.perfab.stats.Direction;

/**
 * The perfab-json format:
 *
 * <pre>{@code
 * {"schema": "perfab/measurements/v1",
 *  "measurements": [{"cell": "publish/256B/1sub", "metric": "throughput", "unit": "msg/s",
 *                    "direction": "higher", "value": 12408.0}]}
 * }</pre>
 *
 * <p>{@code cell}, {@code metric} and {@code value} are required; {@code unit} may be left out
 * (empty), and so may {@code direction} when the unit tells it. An optional top-level
 * {@code context} object is free for the harness's own notes and is not read. An optional top-level
 * {@code seconds} object gives how long the run spent in each benchmark, by its cell name
 * ({@code {"publish/256B/1sub": 2.5}}), for a later run's shards to be cut by (see
 * {@link #seconds}). Any other key is an error, so a misspelt {@code dirction} cannot silently
 * change a verdict.
 */
final class PerfabJson implements MeasurementFormat {
    static final PerfabJson INSTANCE = new PerfabJson();
    static final String SCHEMA = "perfab/measurements/v1";

    private static final Set<String> FIELDS = Set.of("cell", "metric", "unit", "direction", "value");
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private PerfabJson() {}

    @Override
    public String id() {
        return "perfab-json";
    }

    @Override
    public boolean recognises(String head) {
        return head.contains("\"" + SCHEMA + "\"");
    }

    @Override
    public List<Reading> readings(Path file) {
        return reader(file).readings;
    }

    /** The file's {@code seconds}: each benchmark's time, as the harness gives it; empty without. */
    @Override
    public Map<String, Double> seconds(Path file) {
        return reader(file).seconds;
    }

    /** Returns the file read whole. */
    private static FileReader reader(Path file) {
        try (InputStream in = BadInputException.open(file);
                JsonParser parser = FACTORY.createParser(in)) {
            FileReader r = new FileReader(file, parser);
            r.read();
            return r;
        } catch (JsonProcessingException e) {
            throw StrictJson.malformed(file.toString(), e);
        } catch (IOException e) {
            throw BadInputException.unreadable(file, e);
        }
    }

    /** The state of reading one file. */
    private static final class FileReader {
        private final Path file;
        private final JsonParser p;
        private final List<Reading> readings = new ArrayList<>();
        private final Map<String, Double> seconds = new java.util.LinkedHashMap<>();
        /** What each unit seen so far says about direction. */
        private final Map<String, Optional<Direction>> unitDirections = new HashMap<>();
        /** One instance per distinct cell, so a cell repeated for every trial is checked once. */
        private final Map<Cell, Cell> known = new HashMap<>();

        FileReader(Path file, JsonParser parser) {
            this.file = file;
            this.p = parser;
        }

        void read() throws IOException {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw error(
                        p.currentTokenLocation(),
                        "expected a JSON object with \"schema\": \"" + SCHEMA + "\" and \"measurements\"");
            }
            String schema = null;
            boolean sawMeasurements = false;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonLocation at = p.currentTokenLocation();
                JsonToken value = p.nextToken();
                switch (field) {
                    case "schema" -> {
                        if (value != JsonToken.VALUE_STRING) {
                            throw error(p.currentTokenLocation(), "\"schema\" must be a string");
                        }
                        schema = p.getText();
                        if (!schema.equals(SCHEMA)) {
                            throw error(
                                    p.currentTokenLocation(),
                                    "unsupported schema \"" + schema + "\" (expected \"" + SCHEMA + "\")");
                        }
                    }
                    case "measurements" -> {
                        if (schema == null) {
                            throw error(at, "\"schema\": \"" + SCHEMA + "\" must come before \"measurements\"");
                        }
                        if (value != JsonToken.START_ARRAY) {
                            throw error(p.currentTokenLocation(), "\"measurements\" must be an array");
                        }
                        readMeasurements();
                        sawMeasurements = true;
                    }
                    case "context" -> {
                        if (value != JsonToken.START_OBJECT) {
                            throw error(p.currentTokenLocation(), "\"context\" must be an object");
                        }
                        p.skipChildren();
                    }
                    case "seconds" -> readSeconds();
                    default ->
                        throw error(
                                at,
                                "unknown key \"" + field
                                        + "\" (expected \"schema\", \"measurements\", \"seconds\" or \"context\")");
                }
            }
            if (p.currentToken() != JsonToken.END_OBJECT) {
                throw error(p.currentTokenLocation(), "expected a key or '}'");
            }
            if (p.nextToken() != null) {
                throw error(p.currentTokenLocation(), "unexpected content after the JSON object");
            }
            if (schema == null) {
                throw error(p.currentTokenLocation(), "missing \"schema\": \"" + SCHEMA + "\"");
            }
            if (!sawMeasurements) {
                throw error(p.currentTokenLocation(), "missing \"measurements\"");
            }
        }

        /** Reads {@code "seconds": {"CELL": SECONDS, ...}}: each a number, 0 or more, of a named benchmark. */
        private void readSeconds() throws IOException {
            if (p.currentToken() != JsonToken.START_OBJECT) {
                throw error(
                        p.currentTokenLocation(),
                        "\"seconds\" must be an object of each benchmark's time, {\"NAME\": SECONDS}");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken token = p.nextToken();
                double v = token.isNumeric() && !p.isNaN() ? p.getDoubleValue() : Double.NaN;
                if (name.isEmpty() || !Double.isFinite(v) || v < 0) {
                    throw error(
                            p.currentTokenLocation(),
                            "\"seconds\" of '" + name + "' is " + p.getText()
                                    + ": a benchmark's time is a number of seconds, 0 or more");
                }
                seconds.put(name, v);
            }
        }

        private void readMeasurements() throws IOException {
            int index = 0;
            while (p.nextToken() != JsonToken.END_ARRAY) {
                index++;
                JsonLocation start = p.currentTokenLocation();
                if (p.currentToken() != JsonToken.START_OBJECT) {
                    throw error(start, "measurement #" + index + " must be an object");
                }
                readMeasurement(index, start);
            }
        }

        private void readMeasurement(int index, JsonLocation start) throws IOException {
            String cell = null;
            String metric = null;
            String unit = "";
            String direction = null;
            JsonLocation directionAt = null;
            double value = Double.NaN;
            boolean hasValue = false;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                if (!FIELDS.contains(field)) {
                    throw error(
                            p.currentTokenLocation(),
                            what(index, cell, metric) + ": unknown key \"" + field
                                    + "\" (expected cell, metric, unit, direction, value)");
                }
                JsonToken token = p.nextToken();
                if (field.equals("value")) {
                    value = value(token, what(index, cell, metric));
                    hasValue = true;
                    continue;
                }
                if (token != JsonToken.VALUE_STRING) {
                    throw error(
                            p.currentTokenLocation(),
                            what(index, cell, metric) + ": \"" + field + "\" must be a string");
                }
                switch (field) {
                    case "cell" -> cell = p.getText();
                    case "metric" -> metric = p.getText();
                    case "unit" -> unit = p.getText();
                    default -> {
                        direction = p.getText();
                        directionAt = p.currentTokenLocation();
                    }
                }
            }
            if (cell == null || cell.isEmpty()) {
                throw error(start, what(index, cell, metric) + ": \"cell\" is " + (cell == null ? "missing" : "empty"));
            }
            if (metric == null || metric.isEmpty()) {
                throw error(
                        start, what(index, cell, metric) + ": \"metric\" is " + (metric == null ? "missing" : "empty"));
            }
            if (!hasValue) {
                throw error(start, what(index, cell, metric) + ": \"value\" is missing");
            }
            Direction dir = direction(direction, directionAt, unit, start, what(index, cell, metric));
            Cell fresh = new Cell(cell, metric, unit, dir);
            Cell c = known.computeIfAbsent(fresh, k -> k);
            readings.add(new Reading(c, value, file, start.getLineNr(), start.getColumnNr()));
        }

        /**
         * Returns the number of a measurement's "value", at {@code token}, finite.
         *
         * @param what names the measurement in an error
         */
        private double value(JsonToken token, String what) throws IOException {
            if (token == JsonToken.VALUE_NULL) {
                throw error(p.currentTokenLocation(), what + ": \"value\" is null");
            }
            if (!token.isNumeric()) {
                throw error(
                        p.currentTokenLocation(),
                        what + ": \"value\" must be a number, got "
                                + (token == JsonToken.VALUE_STRING
                                        ? "the string \"" + p.getText() + "\""
                                        : p.getText()));
            }
            if (p.isNaN()) {
                throw error(p.currentTokenLocation(), what + ": \"value\" is " + p.getText() + ", not a finite number");
            }
            double value = p.getDoubleValue();
            if (!Double.isFinite(value)) {
                throw error(
                        p.currentTokenLocation(),
                        what + ": \"value\" " + p.getText() + " is out of range for a number");
            }
            return value;
        }

        /**
         * Returns the direction a measurement gives ({@code direction}, at {@code directionAt}), or else
         * the one its {@code unit} tells.
         *
         * @param start where the measurement starts, named where neither tells
         * @param what names the measurement in an error
         */
        private Direction direction(
                String direction, JsonLocation directionAt, String unit, JsonLocation start, String what) {
            if (direction != null) {
                try {
                    return Direction.fromId(direction);
                } catch (IllegalArgumentException e) {
                    throw error(directionAt, what + ": " + e.getMessage());
                }
            }
            return unitDirections
                    .computeIfAbsent(unit, u -> Units.direction(u))
                    .orElseThrow(() -> error(
                            start,
                            what
                                    + ": " + (unit.isEmpty() ? "no unit" : "unit '" + unit + "'")
                                    + " does not tell which way is"
                                    + " better; add \"direction\": \"lower\" or \"higher\""));
        }

        private static String what(int index, String cell, String metric) {
            return "measurement #" + index + describe(cell, metric);
        }

        private static String describe(String cell, String metric) {
            if (cell == null) {
                return "";
            }
            return " (cell '" + cell + "'" + (metric == null ? "" : ", metric '" + metric + "'") + ")";
        }

        private String where(JsonLocation at) {
            return file + ":" + at.getLineNr() + ":" + at.getColumnNr();
        }

        private BadInputException error(JsonLocation at, String message) {
            return new BadInputException(where(at) + ": " + message);
        }
    }
}
