package org.perfab.model;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.DateTimeException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import org.perfab.failure.BadInputException;

/**
 * Reads the JSON files perfab keeps, strictly: every field it needs is there with its type, no
 * field it does not know is, and every error names the file and the field ({@code trials[3].value}).
 * A file a pull request's code could have written (an artifact, a trial log) is a trust boundary:
 * nothing is filled in by default.
 */
public final class StrictJson {
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private StrictJson() {}

    /**
     * Returns the failure of JSON that does not parse, {@code e}, in the file {@code shown}: its line
     * and column where Jackson knows them, and Jackson's message without the source it quotes (the
     * file's own text, which a pull request may have written).
     */
    public static BadInputException malformed(String shown, JsonProcessingException e) {
        JsonLocation at = e.getLocation();
        return new BadInputException(
                shown + (at == null ? "" : ":" + at.getLineNr() + ":" + at.getColumnNr()) + ": malformed JSON: "
                        + e.getOriginalMessage().replaceAll("\\[Source: [^;]*; ", "["),
                e);
    }

    /**
     * Returns the object {@code text} holds, whose schema must be {@code schema}; {@code shown}
     * names the file in messages.
     *
     * @throws BadInputException when it is not JSON, not an object, or of another schema
     */
    public static Obj parse(String text, String schema, String shown) {
        return parse(text, List.of(schema), shown);
    }

    /**
     * Returns the object {@code text} holds, whose schema must be one of {@code schemas}, the current
     * first and the earlier ones still read after it; {@code shown} names the file in messages.
     *
     * @throws BadInputException when it is not JSON, not an object, or of another schema
     */
    public static Obj parse(String text, List<String> schemas, String shown) {
        JsonNode n;
        try {
            n = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw malformed(shown, e);
        }
        if (n == null || !n.isObject()) {
            throw new BadInputException(shown + ": expected a JSON object");
        }
        Obj root = new Obj(n, "", shown);
        String found = root.text("schema");
        if (!schemas.contains(found)) {
            throw new BadInputException(shown + ": schema '" + found + "' is not " + String.join(" or ", schemas));
        }
        return root;
    }

    /** One JSON object being read: it remembers which fields were read, so {@link #done} can refuse the rest. */
    public static final class Obj {
        private final JsonNode node;
        private final String path;
        private final String shown;
        private final Set<String> read = new LinkedHashSet<>();

        private Obj(JsonNode node, String path, String shown) {
            this.node = node;
            this.path = path;
            this.shown = shown;
        }

        private String field(String name) {
            return path.isEmpty() ? name : path + "." + name;
        }

        /** Returns an error about field {@code name} of this object. */
        public BadInputException error(String name, String what) {
            return new BadInputException(shown + ": field '" + field(name) + "': " + what);
        }

        private JsonNode get(String name) {
            read.add(name);
            JsonNode v = node.get(name);
            if (v == null) {
                throw error(name, "missing");
            }
            return v;
        }

        /** Returns whether the object has field {@code name} (and counts it as read). */
        public boolean has(String name) {
            read.add(name);
            return node.has(name);
        }

        /** Returns the string field {@code name}. */
        public String text(String name) {
            JsonNode v = get(name);
            if (!v.isTextual()) {
                throw error(name, "expected a string, got " + kind(v));
            }
            return v.textValue();
        }

        /** Returns whether the field {@code name}, which must be there, is null. */
        public boolean isNull(String name) {
            return get(name).isNull();
        }

        /** Returns whether the field {@code name}, which must be there, is text (not a number, null or another kind). */
        public boolean isText(String name) {
            return get(name).isTextual();
        }

        /** Returns the string field {@code name}, or empty when it is null. */
        public Optional<String> textOrNull(String name) {
            JsonNode v = get(name);
            return v.isNull() ? Optional.empty() : Optional.of(text(name));
        }

        /** Returns the whole-number field {@code name}, which must be from {@code min} to {@code max}. */
        public long integer(String name, long min, long max) {
            JsonNode v = get(name);
            if (!v.isIntegralNumber() || !v.canConvertToLong()) {
                throw error(name, "expected a whole number, got " + kind(v));
            }
            long n = v.longValue();
            if (n < min || n > max) {
                throw error(name, n + " is not from " + min + " to " + max);
            }
            return n;
        }

        /** Returns the whole-number field {@code name} as an int from {@code min} to {@code max}. */
        public int integer(String name, int min, int max) {
            return (int) integer(name, (long) min, (long) max);
        }

        /** Returns the finite number field {@code name}. */
        public double number(String name) {
            JsonNode v = get(name);
            if (!v.isNumber() || !Double.isFinite(v.doubleValue())) {
                throw error(name, "expected a finite number, got " + kind(v));
            }
            return v.doubleValue();
        }

        /** Returns the number field {@code name}, NaN when it is null (an undefined figure). */
        public double numberOrNaN(String name) {
            return get(name).isNull() ? Double.NaN : number(name);
        }

        /** Returns the boolean field {@code name}. */
        public boolean bool(String name) {
            JsonNode v = get(name);
            if (!v.isBoolean()) {
                throw error(name, "expected true or false, got " + kind(v));
            }
            return v.booleanValue();
        }

        /** Returns the object field {@code name}. */
        public Obj object(String name) {
            JsonNode v = get(name);
            if (!v.isObject()) {
                throw error(name, "expected an object, got " + kind(v));
            }
            return new Obj(v, field(name), shown);
        }

        /** Returns the field {@code name}, a list of objects, each read by {@code each} and checked for unknown fields. */
        public <T> List<T> objects(String name, Function<Obj, T> each) {
            JsonNode v = array(name);
            List<T> out = new ArrayList<>(v.size());
            for (int i = 0; i < v.size(); i++) {
                JsonNode e = v.get(i);
                String at = field(name) + "[" + i + "]";
                if (!e.isObject()) {
                    throw new BadInputException(shown + ": field '" + at + "': expected an object, got " + kind(e));
                }
                Obj o = new Obj(e, at, shown);
                out.add(each.apply(o));
                o.done();
            }
            return out;
        }

        /** Returns the field {@code name}, a list of strings. */
        public List<String> texts(String name) {
            JsonNode v = array(name);
            List<String> out = new ArrayList<>(v.size());
            for (int i = 0; i < v.size(); i++) {
                if (!v.get(i).isTextual()) {
                    throw new BadInputException(shown + ": field '" + field(name) + "[" + i
                            + "]': expected a string, got " + kind(v.get(i)));
                }
                out.add(v.get(i).textValue());
            }
            return out;
        }

        /** Returns the field {@code name}, a list of finite numbers. */
        public double[] numbers(String name) {
            JsonNode v = array(name);
            double[] out = new double[v.size()];
            for (int i = 0; i < v.size(); i++) {
                if (!v.get(i).isNumber() || !Double.isFinite(v.get(i).doubleValue())) {
                    throw new BadInputException(shown + ": field '" + field(name) + "[" + i + "]': expected a finite"
                            + " number, got " + kind(v.get(i)));
                }
                out[i] = v.get(i).doubleValue();
            }
            return out;
        }

        /** Returns the names of this object's fields, in file order. */
        public List<String> names() {
            List<String> names = new ArrayList<>();
            Iterator<String> it = node.fieldNames();
            it.forEachRemaining(names::add);
            return names;
        }

        /** Returns {@code value}, or an error naming field {@code name} with the problem {@code check} found. */
        public <T> T check(String name, Supplier<T> value) {
            try {
                return value.get();
            } catch (IllegalArgumentException | DateTimeException e) {
                throw error(name, e.getMessage());
            }
        }

        private JsonNode array(String name) {
            JsonNode v = get(name);
            if (!v.isArray()) {
                throw error(name, "expected a list, got " + kind(v));
            }
            return v;
        }

        /**
         * Refuses a field this object has that was never read.
         *
         * @throws BadInputException naming the first unknown field
         */
        public void done() {
            for (String name : names()) {
                if (!read.contains(name)) {
                    throw error(name, "unknown field");
                }
            }
        }

        private static String kind(JsonNode v) {
            if (v.isNull()) {
                return "null";
            }
            if (v.isTextual()) {
                String s = v.textValue();
                return "\"" + (s.length() > 40 ? s.substring(0, 40) + "..." : s) + "\"";
            }
            if (v.isNumber() || v.isBoolean()) {
                return v.asText();
            }
            return v.isArray() ? "a list" : "an object";
        }
    }
}
