package org.perfab.workload;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Parameter;
import java.lang.reflect.ParameterizedType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.perfab.failure.BadInputException;
import org.perfab.ingest.CsvFormat;
import org.perfab.ingest.Formats;
import org.perfab.ingest.MeasurementFormat;
import org.perfab.stats.ThresholdSettings;
import org.perfab.stats.Thresholds;
import org.perfab.stats.TrialTest;

/** Reads and validates a workload file (YAML). */
public final class WorkloadLoader {
    /** The {@code harness.measure} that times a harness's benchmarks and counts those their timings cannot tell. */
    static final String AUTO = "auto";
    /** The formats a harness may use. */
    static final List<String> FORMATS = Stream.concat(
                    Formats.ALL.stream().map(MeasurementFormat::id), Stream.of("time"))
            .toList();

    // Note: repeated keys are found by checkKeys, which names the key's own line and column.
    private static final ObjectMapper YAML = YAMLMapper.builder(
                    YAMLFactory.builder().build())
            .enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_ENUMS)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .build();

    private WorkloadLoader() {}

    /** Returns the workload {@code yaml}; {@code shown} names it in messages. */
    public static Workload parse(String yaml, String shown) {
        if (yaml.isBlank()) {
            throw new BadInputException(shown + ": the workload file is empty");
        }
        RawWorkload raw;
        Map<String, JsonLocation> values = new HashMap<>();
        try {
            checkKeys(yaml, shown, values);
            raw = YAML.readValue(yaml, RawWorkload.class);
        } catch (JsonProcessingException e) {
            throw new BadInputException(describe(shown, e, values), e);
        } catch (IOException e) {
            throw new BadInputException(shown + ": cannot read: " + e.getMessage(), e);
        }
        if (raw == null) {
            throw new BadInputException(shown + ": the workload file is empty");
        }
        return raw.workload;
    }

    /**
     * The keys each object of a workload may have, by path ({@code harness.count}, {@code cells[]});
     * absent where any key is allowed. Derived from the raw types Jackson reads the file into, so
     * that a key is named once: in its {@link JsonProperty}.
     */
    private static final Map<String, List<String>> KEYS = keys();

    private static Map<String, List<String>> keys() {
        Map<String, List<String>> keys = new HashMap<>();
        keys("", RawWorkload.class, keys);
        keys.put("harness.csv", CsvFormat.Columns.FIELDS.stream().sorted().toList());
        return Map.copyOf(keys);
    }

    /**
     * Puts into {@code keys} the keys of the object at {@code path}, read as {@code raw}: the names its
     * creator takes, sorted, and those of each object (or list of objects) below it that is read as
     * a type with a creator of its own.
     */
    private static void keys(String path, Class<?> raw, Map<String, List<String>> keys) {
        List<String> names = new ArrayList<>();
        for (Parameter p : creator(raw).orElseThrow().getParameters()) {
            String name = p.getAnnotation(JsonProperty.class).value();
            names.add(name);
            String child = path.isEmpty() ? name : path + "." + name;
            if (creator(p.getType()).isPresent()) {
                keys(child, p.getType(), keys);
            } else if (p.getType() == List.class
                    && p.getParameterizedType() instanceof ParameterizedType list
                    && list.getActualTypeArguments()[0] instanceof Class<?> item
                    && creator(item).isPresent()) {
                keys(child + "[]", item, keys);
            }
        }
        keys.put(path, names.stream().sorted().toList());
    }

    /** Returns the constructor Jackson reads {@code type} with, its {@link JsonCreator}; empty when it has none. */
    private static Optional<Constructor<?>> creator(Class<?> type) {
        return Arrays.stream(type.getDeclaredConstructors())
                .filter(c -> c.isAnnotationPresent(JsonCreator.class))
                .findFirst();
    }

    /**
     * Reports the first unknown or repeated key at the line and column of the key itself (Jackson
     * reports an unknown key of a creator-bound object where the object ends), refuses YAML
     * aliases, and records where each value is, by path ({@code harness.timeout},
     * {@code cells[1].match}), so that a bad value is reported at its own line.
     */
    private static void checkKeys(String yaml, String shown, Map<String, JsonLocation> values) throws IOException {
        try (JsonParser p = YAML.getFactory().createParser(yaml)) {
            JsonToken first = p.nextToken();
            noAlias(p, shown);
            if (first == JsonToken.START_OBJECT) {
                checkObject(p, "", shown, values);
            }
        }
    }

    /**
     * Refuses an alias ({@code *name}): Jackson reads one as the anchor's name, as a string, so a
     * workload would silently say something else than it seems to.
     */
    private static void noAlias(JsonParser p, String shown) throws IOException {
        if (p instanceof YAMLParser y && y.isCurrentAlias()) {
            JsonLocation at = p.currentTokenLocation();
            throw new BadInputException(shown + ":" + at.getLineNr() + ":" + at.getColumnNr() + ": a YAML alias (*"
                    + y.getText() + ") is not supported in a workload file; write the value out");
        }
    }

    /** Skips the value the parser is at, refusing any alias within it. */
    private static void skip(JsonParser p, String shown) throws IOException {
        noAlias(p, shown);
        if (p.currentToken() == JsonToken.START_OBJECT || p.currentToken() == JsonToken.START_ARRAY) {
            int depth = 1;
            while (depth > 0) {
                JsonToken t = p.nextToken();
                if (t == null) {
                    return;
                }
                noAlias(p, shown);
                if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
                    depth++;
                } else if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
                    depth--;
                }
            }
        }
    }

    private static void checkObject(JsonParser p, String path, String shown, Map<String, JsonLocation> values)
            throws IOException {
        List<String> allowed = KEYS.get(path.replaceAll("\\[\\d+]", "[]"));
        Set<String> seen = new HashSet<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            JsonLocation at = p.currentTokenLocation();
            String where = shown + ":" + at.getLineNr() + ":" + at.getColumnNr();
            if (allowed != null && !allowed.contains(key)) {
                throw new BadInputException(where + ": unknown key '" + key + "'"
                        + (path.isEmpty() ? "" : " in " + path.replaceAll("\\[\\d+]", ""))
                        + " (expected one of: " + String.join(", ", allowed) + ")");
            }
            if (!seen.add(key)) {
                throw new BadInputException(where + ": key '" + key + "' appears twice");
            }
            String child = path.isEmpty() ? key : path + "." + key;
            JsonToken value = p.nextToken();
            values.put(child, p.currentTokenLocation());
            noAlias(p, shown);
            if (value == JsonToken.START_OBJECT && allowed != null) {
                checkObject(p, child, shown, values);
            } else if (value == JsonToken.START_ARRAY && child.equals("cells")) {
                int i = 0;
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    noAlias(p, shown);
                    values.put("cells[" + i + "]", p.currentTokenLocation());
                    if (p.currentToken() == JsonToken.START_OBJECT) {
                        checkObject(p, "cells[" + i + "]", shown, values);
                    } else {
                        skip(p, shown);
                    }
                    i++;
                }
            } else {
                skip(p, shown);
            }
        }
    }

    private static String describe(String shown, JsonProcessingException e, Map<String, JsonLocation> values) {
        JsonLocation at = e.getLocation();
        if (e instanceof ValueInstantiationException v && v.getCause() instanceof FieldError f) {
            // At the value the creator refused, not where the object it is in ends.
            String p = path(v);
            at = values.getOrDefault(p.isEmpty() ? f.field : p + "." + f.field, at);
        }
        if (e instanceof UnrecognizedPropertyException
                && e.getProcessor() instanceof JsonParser parser
                && parser.currentTokenLocation() != null) {
            // The name of the unknown key, not the place reading stopped after it.
            at = parser.currentTokenLocation();
        }
        String where = at == null ? shown : shown + ":" + at.getLineNr() + ":" + at.getColumnNr();
        String path = e instanceof JsonMappingException m ? path(m) : "";
        String in = path.isEmpty() ? "" : " (at " + path + ")";
        if (e instanceof UnrecognizedPropertyException u) {
            List<String> known = u.getKnownPropertyIds().stream()
                    .map(Object::toString)
                    .sorted()
                    .collect(Collectors.toList());
            String parent = path.contains(".") ? path.substring(0, path.lastIndexOf('.')) : "";
            return where + ": unknown key '" + u.getPropertyName() + "'"
                    + (parent.isEmpty() ? "" : " in " + parent)
                    + " (expected one of: " + String.join(", ", known) + ")";
        }
        if (e instanceof ValueInstantiationException v && v.getCause() != null) {
            return where + ": " + v.getCause().getMessage() + in;
        }
        if (e instanceof InvalidFormatException f) {
            return where + ": '" + f.getValue() + "' is not a valid " + typeName(f.getTargetType()) + in;
        }
        if (e instanceof MismatchedInputException m && m.getTargetType() != null) {
            return where + ": expected " + typeName(m.getTargetType()) + in;
        }
        String message = e.getOriginalMessage();
        int cut = message.indexOf(" at [Source");
        return where + ": " + (cut > 0 ? message.substring(0, cut) : message) + in;
    }

    private static String path(JsonMappingException e) {
        StringBuilder s = new StringBuilder();
        for (JsonMappingException.Reference r : e.getPath()) {
            if (r.getFieldName() != null) {
                if (s.length() > 0) {
                    s.append('.');
                }
                s.append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                s.append('[').append(r.getIndex()).append(']');
            }
        }
        return s.toString();
    }

    private static String typeName(Class<?> type) {
        if (type == int.class || type == Integer.class) {
            return "a whole number";
        }
        if (type == double.class || type == Double.class) {
            return "a number";
        }
        if (type == String.class) {
            return "a string";
        }
        if (List.class.isAssignableFrom(type)) {
            return "a list";
        }
        if (type.isEnum()) {
            return "value (one of: "
                    + Arrays.stream(type.getEnumConstants())
                            .map(c -> c.toString().toLowerCase(Locale.ROOT))
                            .collect(Collectors.joining(", "))
                    + ")";
        }
        return "an object";
    }

    /** A value a creator refused, and the key it is under, so the error can name the value's line. */
    static final class FieldError extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;
        final String field;

        FieldError(String field, String message) {
            super(message);
            this.field = field;
        }
    }

    /** Runs {@code check} on the value under key {@code field}, reporting its failure there. */
    private static <T> T at(String field, Supplier<T> check) {
        try {
            return check.get();
        } catch (FieldError e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new FieldError(field, e.getMessage());
        }
    }

    /** Returns a failure of the value under key {@code field}. */
    private static FieldError bad(String field, String message) {
        return new FieldError(field, message);
    }

    private static List<String> argv(String what, List<String> argv) {
        if (argv == null || argv.isEmpty()) {
            throw new IllegalArgumentException(
                    what + " must be a non-empty list of arguments, e.g. [make, -j2, bench]");
        }
        for (String a : argv) {
            if (a == null) {
                throw new IllegalArgumentException(what + " has an empty (null) argument");
            }
        }
        return argv;
    }

    /**
     * Refuses a path that is not a relative path inside a tree: absolute, empty, with a {@code ..}
     * or {@code .} segment, or with a backslash.
     */
    private static void checkTreePath(String what, String path) {
        if (path == null || path.isBlank()) {
            throw new IllegalArgumentException(what + ": an entry is empty");
        }
        boolean bad = path.startsWith("/") || path.contains("\\") || path.indexOf('\0') >= 0;
        for (String segment : path.split("/", -1)) {
            bad |= segment.equals("..") || segment.equals(".") || segment.isEmpty();
        }
        if (bad) {
            throw new IllegalArgumentException(what + ": '" + path + "' is not a path inside the repository"
                    + " (relative, with / between names, no . or .. segments)");
        }
    }

    // The raw shapes of the file. Each validates in its creator, so a problem is reported at the
    // line and column of the object it is in.

    static final class RawWorkload {
        final Workload workload;

        @JsonCreator
        RawWorkload(
                @JsonProperty("name") String name,
                @JsonProperty("trials") Integer trials,
                @JsonProperty("warmup") Integer warmup,
                @JsonProperty("build") RawBuild build,
                @JsonProperty("harness") RawHarness harness,
                @JsonProperty("cells") List<RawCell> cells,
                @JsonProperty("thresholds") RawThresholds thresholds,
                @JsonProperty("adaptive") Object adaptive,
                @JsonProperty("builds") Integer builds,
                @JsonProperty("seed") Long seed,
                @JsonProperty("test") String test,
                @JsonProperty("submodules") Object submodules) {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("'name' is required (it names the comment and the results)");
            }
            // Counts barely vary: two trials a side decide them, and rounds follow while undecided.
            int t = trials != null
                    ? trials
                    : harness != null && harness.harness.counted() ? Workload.COUNTED_TRIALS : Workload.DEFAULT_TRIALS;
            if (t < 2 || t > Workload.MAX_TRIALS) {
                throw bad(
                        "trials",
                        "'trials' must be from 2 (a side needs 2 values to compare) to " + Workload.MAX_TRIALS
                                + ", got " + t);
            }
            int w = warmup == null ? Workload.DEFAULT_WARMUP : warmup;
            if (w < 0 || w > Workload.MAX_WARMUP) {
                throw bad("warmup", "'warmup' must be from 0 to " + Workload.MAX_WARMUP + ", got " + w);
            }
            if (harness == null) {
                throw new IllegalArgumentException("'harness' is required (what runs each trial)");
            }
            if (builds != null && (builds < 1 || builds > Workload.MAX_BUILDS)) {
                throw bad("builds", "'builds' must be from 1 to " + Workload.MAX_BUILDS + ", got " + builds);
            }
            if (builds != null && builds > t) {
                throw bad(
                        "builds",
                        "'builds' (" + builds + ") is more than 'trials' (" + t + "): trials take turns"
                                + " among the builds, and each build needs one");
            }
            Optional<Integer> most = adaptive(adaptive, t);
            if (builds != null && builds > 1 && most.isPresent() && most.get() > 0) {
                throw bad(
                        "adaptive",
                        "'adaptive' needs one build per side: with " + builds + " builds the medians of"
                                + " the builds decide, and more trials do not add builds (adaptive: off)");
            }
            List<Workload.CellPolicy> policies = new ArrayList<>();
            if (cells != null) {
                for (RawCell c : cells) {
                    policies.add(c.policy);
                }
            }
            Optional<TrialTest> judge =
                    test == null ? Optional.empty() : Optional.of(at("test", () -> TrialTest.fromId(test)));
            this.workload = new Workload(
                    name,
                    t,
                    w,
                    Optional.ofNullable(build).map(b -> b.build),
                    harness.harness,
                    policies,
                    (thresholds == null ? ThresholdSettings.NONE : thresholds.settings).withTest(judge),
                    most,
                    Optional.ofNullable(builds),
                    Optional.ofNullable(seed),
                    submodules(submodules));
        }
    }

    /**
     * Returns the submodules {@code submodules:} needs: {@code required} every one, {@code optional}
     * (or no key) none, or a list of their paths.
     */
    private static Workload.Submodules submodules(Object submodules) {
        if (submodules == null || "optional".equals(submodules)) {
            return Workload.Submodules.OPTIONAL;
        }
        if ("required".equals(submodules)) {
            return new Workload.Submodules(true, List.of());
        }
        if (submodules instanceof List<?> list
                && !list.isEmpty()
                && list.stream()
                        .allMatch(p -> p instanceof String s
                                && !s.isBlank()
                                && !s.startsWith("/")
                                && s.length() <= 4096
                                && s.codePoints().noneMatch(Character::isISOControl))) {
            return new Workload.Submodules(
                    false,
                    list.stream().map(p -> ((String) p).replaceAll("/+$", "")).toList());
        }
        throw bad(
                "submodules",
                "'submodules' must be required, optional, or a list of submodule paths (such as"
                        + " [third_party/benchmark]), got '" + submodules + "'");
    }

    /** Returns the most trials {@code adaptive: N} gives (0 for {@code adaptive: off}); empty when absent. */
    private static Optional<Integer> adaptive(Object adaptive, int trials) {
        if (adaptive == null) {
            return Optional.empty();
        }
        if (Boolean.FALSE.equals(adaptive) || "off".equals(adaptive)) {
            return Optional.of(0);
        }
        if (!(adaptive instanceof Integer n) || n < trials || n > Workload.MAX_TRIALS) {
            throw bad(
                    "adaptive",
                    "'adaptive' must be off or the most trials per side, from 'trials' (" + trials + ") to "
                            + Workload.MAX_TRIALS + ", got '" + adaptive + "'");
        }
        return Optional.of(n);
    }

    static final class RawBuild {
        final Workload.Build build;

        @JsonCreator
        RawBuild(
                @JsonProperty("run") List<String> run,
                @JsonProperty("timeout") String timeout,
                @JsonProperty("env") LinkedHashMap<String, String> env,
                @JsonProperty("perturb") List<String> perturb) {
            Duration d = timeout == null
                    ? Workload.Build.DEFAULT_TIMEOUT
                    : at("timeout", () -> Durations.parse("build timeout", timeout));
            Map<String, String> e = env == null ? Map.of() : env;
            e.forEach((k, v) -> {
                if (k.isEmpty() || k.contains("=") || v == null) {
                    throw bad("env", "build env: '" + k + "' is not a NAME: value pair");
                }
            });
            this.build = new Workload.Build(
                    at("run", () -> argv("build 'run'", run)),
                    d,
                    e,
                    perturb == null
                            ? Optional.empty()
                            : Optional.of(at("perturb", () -> argv("build 'perturb'", perturb))));
        }
    }

    static final class RawHarness {
        final Workload.Harness harness;

        @JsonCreator
        RawHarness(
                @JsonProperty("from") Workload.From from,
                @JsonProperty("run") List<String> run,
                @JsonProperty("format") String format,
                @JsonProperty("timeout") String timeout,
                @JsonProperty("commands") LinkedHashMap<String, List<String>> commands,
                @JsonProperty("cpus") String cpus,
                @JsonProperty("csv") Map<String, String> csv,
                @JsonProperty("files") List<String> files,
                @JsonProperty("measure") Object measure,
                @JsonProperty("count") RawCount count,
                @JsonProperty("shard") RawShard shard) {
            if (cpus != null && !cpus.matches("\\d+(-\\d+)?(,\\d+(-\\d+)?)*")) {
                throw bad("cpus", "harness cpus '" + cpus + "' is not a CPU list such as 0, 2-3 or 0,2");
            }
            String f = format == null ? "perfab-json" : format;
            if (!FORMATS.contains(f)) {
                throw bad(
                        "format",
                        "harness format '" + f + "' is not known (known: " + String.join(", ", FORMATS) + ")");
            }
            Duration d = timeout == null
                    ? Workload.Harness.DEFAULT_TIMEOUT
                    : at("timeout", () -> Durations.parse("harness timeout", timeout));
            Map<String, List<String>> cmds = commands == null ? Map.of() : commands;
            List<String> argv = run == null ? List.of() : run;
            runOrCommands(f, run, cmds);
            List<String> harnessFiles = files(files, from);
            Workload.HarnessFormat measuring = measuring(f, argv, cmds, csv);
            boolean countsEach =
                    measuring instanceof Workload.Read r && r.format().countsEachBenchmark();
            boolean auto = AUTO.equals(measure);
            if (auto && !countsEach) {
                throw bad(
                        "measure",
                        "harness measure: auto times the benchmarks of format go or google-benchmark and"
                                + " counts those their timings cannot tell; format " + f
                                + " names no benchmarks perfab can"
                                + " count one at a time: list what to measure instead");
            }
            List<Workload.Measure> measures = auto
                    ? List.of(Workload.Measure.WALL, Workload.Measure.INSTRUCTIONS)
                    : measures(measureList(measure), f, countsEach);
            boolean perBenchmark = countsEach && measures.contains(Workload.Measure.INSTRUCTIONS);
            Optional<String> needs = perBenchmark && measuring instanceof Workload.Read r
                    ? r.format().countingNeeds(argv)
                    : Optional.empty();
            if (needs.isPresent()) {
                throw bad(
                        "run",
                        "counting each benchmark of format " + f + " needs " + needs.get() + "; got "
                                + String.join(" ", argv));
            }
            if (count != null && !perBenchmark) {
                throw bad(
                        "count",
                        "harness 'count' chooses the benchmarks of format go or google-benchmark that"
                                + " measure: [instructions] counts one at a time");
            }
            Workload.Counting counting = count == null ? Workload.Counting.ALL : count.counting;
            this.harness = new Workload.Harness(
                    from == null ? Workload.From.HEAD : from,
                    measuring,
                    d,
                    Optional.ofNullable(cpus),
                    harnessFiles,
                    measures,
                    auto ? counting.asAuto() : counting,
                    shard == null ? Optional.empty() : Optional.of(shard.slicing));
            if (shard != null && f.equals("time")) {
                throw bad(
                        "shard",
                        "harness 'shard' lists and filters the benchmarks of a 'run' harness; format"
                                + " 'time' times its own commands, every one in each trial");
            }
        }

        /**
         * Checks that a harness of format {@code f} has what it runs: named {@code commands} and no
         * {@code run} for format {@code time}, else an argv to {@code run} and no commands.
         */
        private static void runOrCommands(String f, List<String> run, Map<String, List<String>> cmds) {
            if (f.equals("time")) {
                if (cmds.isEmpty()) {
                    throw bad(
                            "format",
                            "harness format 'time' needs 'commands': named"
                                    + " argv lists that perfab times, e.g. startup: [./app, --selftest]");
                }
                if (run != null && !run.isEmpty()) {
                    throw bad("run", "harness format 'time' runs 'commands', not 'run'");
                }
                cmds.forEach((name, c) -> {
                    if (name.isBlank()) {
                        throw bad("commands", "harness commands: a command needs a name");
                    }
                    at("commands." + name, () -> argv("harness command '" + name + "'", c));
                });
            } else {
                at("run", () -> argv("harness 'run'", run));
                if (!cmds.isEmpty()) {
                    throw bad("commands", "harness 'commands' are only for format 'time'");
                }
            }
        }

        /**
         * Returns the harness {@code files}, each a path inside the tree; none where the harness is each
         * side's own.
         */
        private static List<String> files(List<String> files, Workload.From from) {
            if (files == null) {
                return List.of();
            }
            for (String p : files) {
                at("files", () -> {
                    checkTreePath("harness files", p);
                    return p;
                });
            }
            if (!files.isEmpty() && from == Workload.From.SELF) {
                throw bad(
                        "files",
                        "harness 'files' are copied from the head; with 'from: self'"
                                + " each side runs its own, so leave 'files' out");
            }
            return files;
        }

        /**
         * Returns what a harness of format {@code f} measures: its timed commands, or how to read what
         * {@code argv} writes.
         */
        private static Workload.HarnessFormat measuring(
                String f, List<String> argv, Map<String, List<String>> cmds, Map<String, String> csv) {
            if (csv != null && !f.equals("csv")) {
                throw bad("csv", "harness 'csv' columns are only for format 'csv'");
            }
            if (f.equals("time")) {
                return new Workload.Timed(cmds);
            }
            if (f.equals("csv")) {
                CsvFormat.Columns columns;
                try {
                    columns = CsvFormat.Columns.of(csv == null ? Map.of() : csv);
                } catch (IllegalArgumentException e) {
                    throw bad("csv", "harness csv: " + e.getMessage());
                }
                return new Workload.Read(argv, new CsvFormat(columns));
            }
            return new Workload.Read(argv, Formats.byId(f).orElseThrow());
        }
    }

    static final class RawShard {
        final Workload.Slicing slicing;

        @JsonCreator
        RawShard(@JsonProperty("list") List<String> list, @JsonProperty("filter") List<String> filter) {
            List<String> l = at("list", () -> argv("harness shard 'list'", list));
            if (filter == null
                    || filter.isEmpty()
                    || filter.stream()
                            .noneMatch(a -> a != null
                                    && (a.contains(Workload.Slicing.REGEX) || a.contains(Workload.Slicing.NAME)))) {
                throw bad(
                        "filter",
                        "harness shard 'filter' is the arguments that run a slice of the benchmarks,"
                                + " one of them with " + Workload.Slicing.REGEX
                                + " (the slice as a regular expression) or "
                                + Workload.Slicing.NAME + " (repeated for each name), e.g. [--filter, '{regex}']");
            }
            List<String> f = at("filter", () -> argv("harness shard 'filter'", filter));
            this.slicing = new Workload.Slicing(l, f);
        }
    }

    /**
     * Returns {@code harness.measure} as a list of names: absent, or a list; any other scalar than
     * {@value #AUTO} is refused, naming what it may be.
     */
    @SuppressWarnings("unchecked")
    private static List<String> measureList(Object measure) {
        if (measure == null
                || measure instanceof List<?> l && l.stream().allMatch(x -> x == null || x instanceof String)) {
            return (List<String>) measure;
        }
        throw bad(
                "measure",
                "harness 'measure' is a list of what perfab measures (such as [instructions]) or auto, not " + measure);
    }

    /**
     * Returns what {@code harness.measure} asks for: with {@code format: time}, the timings when it
     * is absent; with a harness that reports its own results, counts only (the whole command
     * counted), or nothing (its results). {@code countsEach} says whether the format's benchmarks are
     * counted one at a time, which may keep the harness's own timings beside their counts.
     */
    private static List<Workload.Measure> measures(List<String> ids, String format, boolean countsEach) {
        boolean timed = format.equals("time");
        if (ids == null) {
            return timed ? Workload.Measure.TIMED : List.of();
        }
        String known = Arrays.stream(Workload.Measure.values())
                .map(Workload.Measure::id)
                .collect(Collectors.joining(", "));
        if (ids.isEmpty()) {
            throw bad("measure", "harness 'measure' lists what perfab measures (" + known + "); it is empty");
        }
        List<Workload.Measure> measures = new ArrayList<>();
        for (String id : ids) {
            Workload.Measure m = Workload.Measure.byId(id == null ? "" : id)
                    .orElseThrow(
                            () -> bad("measure", "harness measure '" + id + "' is not known (known: " + known + ")"));
            if (measures.contains(m)) {
                throw bad("measure", "harness measure '" + id + "' is listed twice");
            }
            boolean ownResults = countsEach && m == Workload.Measure.WALL;
            if (!timed && !m.count() && !ownResults) {
                throw bad(
                        "measure",
                        "harness measure '" + id + "' is a timing perfab takes of 'commands' with"
                                + " format: time; a harness that reports its own results can be counted as a whole"
                                + " (instructions, hw-instructions, hw-cycles), and go test's and Google Benchmark's, each"
                                + " benchmark (instructions, with wall for its own timings too)");
            }
            measures.add(m);
        }
        if (countsEach
                && measures.contains(Workload.Measure.WALL)
                && !measures.contains(Workload.Measure.INSTRUCTIONS)) {
            throw bad(
                    "measure",
                    "harness measure 'wall' on format " + format + " keeps the tool's own timings"
                            + " beside its counts: list instructions too, or leave 'measure' out for its timings alone");
        }
        return measures;
    }

    static final class RawCount {
        final Workload.Counting counting;

        @JsonCreator
        RawCount(@JsonProperty("benchmarks") String benchmarks, @JsonProperty("budget") String budget) {
            Optional<java.util.regex.Pattern> only = Optional.empty();
            if (benchmarks != null) {
                try {
                    only = Optional.of(java.util.regex.Pattern.compile(benchmarks));
                } catch (java.util.regex.PatternSyntaxException e) {
                    throw bad(
                            "benchmarks",
                            "harness count.benchmarks '" + benchmarks + "' is not a regular expression: "
                                    + e.getDescription());
                }
            }
            this.counting = new Workload.Counting(
                    only,
                    budget == null
                            ? Optional.empty()
                            : Optional.of(at("budget", () -> Durations.parse("harness count.budget", budget))),
                    false);
        }
    }

    static final class RawCell {
        final Workload.CellPolicy policy;

        @JsonCreator
        RawCell(
                @JsonProperty("match") String match,
                @JsonProperty("role") Workload.Role role,
                @JsonProperty("ratio_to") String ratioTo) {
            if (match == null) {
                throw new IllegalArgumentException("a cell policy needs 'match' (a NAME or NAME:METRIC glob)");
            }
            this.policy = at(
                    "ratio_to",
                    () -> new Workload.CellPolicy(
                            at("match", () -> CellGlob.of(match)),
                            role == null ? Workload.Role.MEASURE : role,
                            Optional.ofNullable(ratioTo)));
        }
    }

    static final class RawThresholds {
        final ThresholdSettings settings;

        @JsonCreator
        RawThresholds(
                @JsonProperty("alpha") Double alpha,
                @JsonProperty("min_effect") Double minEffect,
                @JsonProperty("inconclusive") Double inconclusive,
                @JsonProperty("fdr") Object fdr,
                @JsonProperty("outlier_floor") Double outlierFloor,
                @JsonProperty("noisy_above") Double noisyAbove) {
            // Each value's range is checked by the settings themselves, naming its key.
            this.settings = new ThresholdSettings(
                    Optional.ofNullable(alpha),
                    Optional.ofNullable(minEffect),
                    Optional.ofNullable(inconclusive),
                    Optional.ofNullable(fdr(fdr)),
                    Optional.ofNullable(outlierFloor),
                    Optional.ofNullable(noisyAbove));
        }

        /** Returns the rate {@code fdr: Q} gives, or {@link Thresholds#FDR_OFF} for {@code fdr: off}. */
        private static Double fdr(Object fdr) {
            if (fdr == null) {
                return null;
            }
            if (fdr instanceof Number n) {
                return n.doubleValue();
            }
            if (Boolean.FALSE.equals(fdr) || "off".equals(fdr)) {
                return Thresholds.FDR_OFF;
            }
            throw new IllegalArgumentException("fdr must be a rate in (0, 1) or off, got '" + fdr + "'");
        }
    }
}
