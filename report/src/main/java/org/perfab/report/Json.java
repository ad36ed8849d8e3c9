package org.perfab.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The JSON every product writes: indented, properties in the order put, a newline at the end. An
 * undefined figure is written as null through {@link org.perfab.model.ResultsJson#number}.
 */
final class Json {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private Json() {}

    /** Returns a new, empty object to fill. */
    static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    /** Returns {@code root} as indented text, ending with a newline. */
    static String write(ObjectNode root) {
        try {
            return MAPPER.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree failed to serialise", e);
        }
    }
}
