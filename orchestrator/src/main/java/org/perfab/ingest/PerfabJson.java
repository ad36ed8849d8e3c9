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
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.perfab.failure.BadInputException;
import org.perfab.report.Cell;
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
 * {@code context} object is free for the harness's own notes and is not read. Any other key is an
 * error, so a misspelt {@code dirction} cannot silently change a verdict.
 */
final class PerfabJson implements MeasurementFormat {
    static final PerfabJson INSTANCE = new PerfabJson();
    static final String SCHEMA = "perfab/measurements/v1";

    private static final Set<String> FIELDS = Set.of("cell", "metric", "unit", "direction", "value");
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private PerfabJson() {
    }

    @Override
    public String id() {
        return "perfab-json";
    }

    @Override
    public List<Reading> read(Path file) {
        try (InputStream in = Files.newInputStream(file);
                JsonParser parser = FACTORY.createParser(in)) {
            return new FileReader(file, parser).read();
        } catch (NoSuchFileException e) {
            throw new BadInputException(file + ": no such file");
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            String where = at == null ? file.toString()
                    : file + ":" + at.getLineNr() + ":" + at.getColumnNr();
            String message = e.getOriginalMessage().replaceAll("\\[Source: [^;]*; ", "[");
            throw new BadInputException(where + ": malformed JSON: " + message, e);
        } catch (IOException e) {
            throw new BadInputException(file + ": cannot read: " + e.getMessage(), e);
        }
    }

    /** The state of reading one file. */
    private static final class FileReader {
        private final Path file;
        private final JsonParser p;
        private final List<Reading> readings = new ArrayList<>();
        /** The first cell seen under each key, and where, to hold every repeat to its unit. */
        private final Map<String, Reading> firstByKey = new HashMap<>();

        FileReader(Path file, JsonParser parser) {
            this.file = file;
            this.p = parser;
        }

        List<Reading> read() throws IOException {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw error(p.currentTokenLocation(), "expected a JSON object with \"schema\": \""
                        + SCHEMA + "\" and \"measurements\"");
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
                            throw error(p.currentTokenLocation(), "unsupported schema \"" + schema
                                    + "\" (expected \"" + SCHEMA + "\")");
                        }
                    }
                    case "measurements" -> {
                        if (schema == null) {
                            throw error(at, "\"schema\": \"" + SCHEMA
                                    + "\" must come before \"measurements\"");
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
                    default -> throw error(at, "unknown key \"" + field
                            + "\" (expected \"schema\", \"measurements\" or \"context\")");
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
            return readings;
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
            Double value = null;
            JsonLocation valueAt = null;
            JsonLocation directionAt = null;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonLocation at = p.currentTokenLocation();
                JsonToken token = p.nextToken();
                String what = "measurement #" + index + describe(cell, metric);
                if (!FIELDS.contains(field)) {
                    throw error(at, what + ": unknown key \"" + field
                            + "\" (expected cell, metric, unit, direction, value)");
                }
                if (field.equals("value")) {
                    valueAt = p.currentTokenLocation();
                    if (token == JsonToken.VALUE_NULL) {
                        throw error(valueAt, what + ": \"value\" is null");
                    }
                    if (!token.isNumeric()) {
                        throw error(valueAt, what + ": \"value\" must be a number, got " + p.getText());
                    }
                    value = p.getDoubleValue();
                    if (p.isNaN()) {
                        throw error(valueAt, what + ": \"value\" is " + p.getText()
                                + ", not a finite number");
                    }
                    continue;
                }
                if (token != JsonToken.VALUE_STRING) {
                    throw error(p.currentTokenLocation(), what + ": \"" + field + "\" must be a string");
                }
                String text = p.getText();
                switch (field) {
                    case "cell" -> cell = text;
                    case "metric" -> metric = text;
                    case "unit" -> unit = text;
                    default -> {
                        direction = text;
                        directionAt = p.currentTokenLocation();
                    }
                }
            }
            String what = "measurement #" + index + describe(cell, metric);
            if (cell == null || cell.isEmpty()) {
                throw error(start, what + ": \"cell\" is " + (cell == null ? "missing" : "empty"));
            }
            if (metric == null || metric.isEmpty()) {
                throw error(start, what + ": \"metric\" is " + (metric == null ? "missing" : "empty"));
            }
            if (value == null) {
                throw error(start, what + ": \"value\" is missing");
            }
            Direction dir;
            if (direction != null) {
                try {
                    dir = Direction.fromId(direction);
                } catch (IllegalArgumentException e) {
                    throw error(directionAt, what + ": " + e.getMessage());
                }
            } else {
                dir = Units.direction(unit).orElse(null);
                if (dir == null) {
                    throw error(start, what + ": " + (unit.isEmpty() ? "no unit" : "unit '" + unit + "'")
                            + " does not tell which way is better; add \"direction\": \"lower\" or"
                            + " \"higher\"");
                }
            }
            Cell c = new Cell(cell, metric, unit, dir);
            Reading reading = new Reading(c, value, where(valueAt));
            Reading first = firstByKey.putIfAbsent(c.key(), reading);
            if (first != null && !first.cell().equals(c)) {
                throw error(start, what + ": unit '" + unit + "' (" + dir.id()
                        + " is better) differs from unit '" + first.cell().unit() + "' ("
                        + first.cell().direction().id() + " is better) at " + first.where());
            }
            readings.add(reading);
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
