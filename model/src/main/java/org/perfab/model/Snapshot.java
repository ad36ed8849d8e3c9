package org.perfab.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One CI run's measurements on one machine, as a ratchet baseline is seeded from and checked
 * against ({@code perfab/snapshot/v1}). Its file is named {@code DATE-SHA-MACHINESLUG.json}
 * ({@link #fileName}).
 *
 * @param machine the machine key: the runner class, or tier, whose snapshots are comparable
 * @param arch the architecture, as Go names it ({@code amd64}, {@code arm64}; see {@link #arch})
 * @param cpu the processor model
 * @param commit the commit measured
 * @param date the day of the run
 * @param benchmarks the benchmarks, each once
 */
public record Snapshot(
        String machine, String arch, String cpu, String commit, LocalDate date, List<Benchmark> benchmarks) {
    /** The schema of a snapshot file. */
    public static final String SCHEMA = "perfab/snapshot/v1";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    /**
     * A snapshot's file name: the date, the commit (7 to 40 hex digits) and the machine's slug,
     * which is full of dashes itself. Anchored: a name that does not match whole is not a
     * snapshot's, where a split on {@code -} would read a plausible wrong commit out of it.
     */
    private static final Pattern NAME =
            Pattern.compile("^(\\d{4}-\\d{2}-\\d{2})-([0-9a-f]{7,40})-([a-z0-9]+(?:[-_.][a-z0-9]+)*)\\.json$");

    private static final Pattern NAMED_ARCH = Pattern.compile(
            "(?<![a-z0-9])(amd64|x86[-_]64|x64|arm64|aarch64|i386|i686|386|riscv64|ppc64le|s390x|loong64)(?![a-z0-9])");
    private static final Map<String, String> ARCHES = Map.ofEntries(
            Map.entry("amd64", "amd64"),
            Map.entry("x86_64", "amd64"),
            Map.entry("x86-64", "amd64"),
            Map.entry("x64", "amd64"),
            Map.entry("arm64", "arm64"),
            Map.entry("aarch64", "arm64"),
            Map.entry("386", "386"),
            Map.entry("i386", "386"),
            Map.entry("i686", "386"),
            Map.entry("x86", "386"),
            Map.entry("arm", "arm"),
            Map.entry("armv7", "arm"),
            Map.entry("riscv64", "riscv64"),
            Map.entry("ppc64le", "ppc64le"),
            Map.entry("s390x", "s390x"),
            Map.entry("loong64", "loong64"),
            Map.entry("wasm", "wasm"));

    /**
     * One benchmark of a snapshot.
     *
     * @param name its name
     * @param value its cost (ns/op, or any cost where lower is better), finite and above 0
     * @param unit the value's unit
     * @param iterations the iterations its timing loop ran (Go's {@code b.N}), when the tool says
     */
    public record Benchmark(String name, double value, String unit, OptionalLong iterations) {
        public Benchmark {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(unit, "unit");
            Objects.requireNonNull(iterations, "iterations");
            if (name.isBlank()) {
                throw new IllegalArgumentException("a benchmark needs a name");
            }
            if (!(value > 0) || Double.isInfinite(value)) {
                throw new IllegalArgumentException(
                        "the value of " + name + " must be finite and above 0, got " + value);
            }
            if (iterations.isPresent() && iterations.getAsLong() < 1) {
                throw new IllegalArgumentException(
                        "the iterations of " + name + " must be 1 or more, got " + iterations.getAsLong());
            }
        }
    }

    public Snapshot {
        Objects.requireNonNull(machine, "machine");
        Objects.requireNonNull(cpu, "cpu");
        Objects.requireNonNull(commit, "commit");
        Objects.requireNonNull(date, "date");
        if (machine.isBlank()) {
            throw new IllegalArgumentException("a snapshot needs a machine key");
        }
        String given = arch;
        arch = arch(given)
                .orElseThrow(() -> new IllegalArgumentException("'" + given + "' is not an architecture"
                        + " perfab knows (" + String.join(", ", new TreeSet<>(ARCHES.values())) + ")"));
        benchmarks = List.copyOf(benchmarks);
        Set<String> names = new HashSet<>();
        for (Benchmark b : benchmarks) {
            if (!names.add(b.name())) {
                throw new IllegalArgumentException("benchmark " + b.name() + " is there twice");
            }
        }
    }

    /**
     * Returns the architecture {@code text} names, as Go names it ({@code x86_64} is {@code amd64},
     * {@code aarch64} is {@code arm64}), or empty.
     */
    public static Optional<String> arch(String text) {
        return text == null ? Optional.empty() : Optional.ofNullable(ARCHES.get(text.toLowerCase(Locale.ROOT)));
    }

    /** Returns each benchmark's value, by name. */
    public Map<String, Double> values() {
        Map<String, Double> v = new LinkedHashMap<>();
        benchmarks.forEach(b -> v.put(b.name(), b.value()));
        return v;
    }

    /** Returns the benchmark called {@code name}, or empty. */
    public Optional<Benchmark> benchmark(String name) {
        return benchmarks.stream().filter(b -> b.name().equals(name)).findFirst();
    }

    /** Returns {@code machine} as a file name's slug: lower case, each run of other characters one dash. */
    public static String slug(String machine) {
        String s =
                machine.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
        return s.isEmpty() ? "machine" : s;
    }

    /**
     * Returns this snapshot's file name, {@code DATE-SHA-MACHINESLUG.json}, with the commit's first
     * 12 digits.
     *
     * @throws IllegalArgumentException when the commit is not 7 or more hex digits
     */
    public String fileName() {
        if (!commit.matches("[0-9a-f]{7,40}")) {
            throw new IllegalArgumentException("commit '" + commit + "' is not 7 to 40 lower-case hex digits, which a"
                    + " snapshot's file name needs");
        }
        return date + "-" + Ids.shortId(commit) + "-" + slug(machine) + ".json";
    }

    /**
     * What a snapshot's file name says.
     *
     * @param date the day
     * @param commit the commit's digits
     * @param slug the machine's slug
     */
    public record Name(LocalDate date, String commit, String slug) {
        /**
         * Returns the architecture a word of the slug names ({@code linux-arm64-m3},
         * {@code epyc-x86_64}), or empty. Only unambiguous names count: {@code arm} and {@code x86}
         * stand in runner names for families ({@code ubuntu-24.04-arm} is an arm64 runner).
         */
        public Optional<String> arch() {
            Matcher m = NAMED_ARCH.matcher(slug);
            return m.find() ? Snapshot.arch(m.group(1).replace('-', '_')) : Optional.empty();
        }
    }

    /** Returns what the file name {@code name} says, or empty when it is not a snapshot's name. */
    public static Optional<Name> parseName(String name) {
        Matcher m = NAME.matcher(name);
        if (!m.matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Name(LocalDate.parse(m.group(1)), m.group(2), m.group(3)));
        } catch (DateTimeException e) {
            return Optional.empty();
        }
    }

    /** Returns the snapshot's file text. */
    public String write() {
        ObjectNode root = JSON.createObjectNode();
        root.put("schema", SCHEMA)
                .put("machine", machine)
                .put("arch", arch)
                .put("cpu", cpu)
                .put("commit", commit)
                .put("date", date.toString());
        ArrayNode list = root.putArray("benchmarks");
        for (Benchmark b : benchmarks) {
            ObjectNode n = list.addObject()
                    .put("name", b.name())
                    .put("value", b.value())
                    .put("unit", b.unit());
            if (b.iterations().isPresent()) {
                n.put("iterations", b.iterations().getAsLong());
            } else {
                n.putNull("iterations");
            }
        }
        try {
            return JSON.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a snapshot failed to serialise", e);
        }
    }

    /**
     * Returns the snapshot {@code text} holds; {@code shown} names it in messages.
     *
     * @throws org.perfab.failure.BadInputException naming the field when it is not a snapshot
     */
    public static Snapshot read(String text, String shown) {
        StrictJson.Obj n = StrictJson.parse(text, SCHEMA, shown);
        List<Benchmark> benchmarks = n.objects(
                "benchmarks",
                b -> b.check(
                        "value",
                        () -> new Benchmark(
                                b.text("name"),
                                b.number("value"),
                                b.text("unit"),
                                !b.has("iterations") || b.isNull("iterations")
                                        ? OptionalLong.empty()
                                        : OptionalLong.of(b.integer("iterations", 1L, Long.MAX_VALUE)))));
        Snapshot s = n.check(
                "benchmarks",
                () -> new Snapshot(
                        n.text("machine"),
                        n.check(
                                "arch",
                                () -> arch(n.text("arch"))
                                        .orElseThrow(() -> new IllegalArgumentException(
                                                "'" + n.text("arch") + "' is not an architecture perfab knows"))),
                        n.text("cpu"),
                        n.text("commit"),
                        n.check("date", () -> LocalDate.parse(n.text("date"))),
                        benchmarks));
        n.done();
        return s;
    }
}
