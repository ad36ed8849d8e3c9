package org.perfab.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** The comparisons of a results.json or of {@code compare --format json} output, by {@code CELL:METRIC}. */
public final class Comparisons {
    private Comparisons() {}

    /** Returns the comparisons of {@code root}, in file order, by {@code CELL:METRIC}. */
    public static Map<String, JsonNode> of(JsonNode root) {
        Map<String, JsonNode> rows = new LinkedHashMap<>();
        for (JsonNode c : root.get("comparisons")) {
            rows.put(c.get("cell").asText() + ":" + c.get("metric").asText(), c);
        }
        return rows;
    }

    /** Returns the comparisons of the JSON text {@code json}. */
    public static Map<String, JsonNode> of(String json) {
        try {
            return of(new ObjectMapper().readTree(json));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Returns the comparisons of the JSON file {@code file}. */
    public static Map<String, JsonNode> of(Path file) {
        try {
            return of(new ObjectMapper().readTree(file.toFile()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Returns the first warning of {@code kind} (its id) among the warnings of {@code root}; null when there is none. */
    public static JsonNode warning(JsonNode root, String kind) {
        for (JsonNode w : root.get("warnings")) {
            if (w.get("kind").asText().equals(kind)) {
                return w;
            }
        }
        return null;
    }
}
