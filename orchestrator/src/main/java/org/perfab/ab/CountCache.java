package org.perfab.ab;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.perfab.exec.Counters;
import org.perfab.exec.Processes;
import org.perfab.failure.BadInputException;
import org.perfab.model.StrictJson;
import org.perfab.model.WholeFile;

/**
 * The counts of earlier runs, kept under {@code --cache}: a tree is counted once.
 *
 * <p>A benchmark's count per operation depends on what was built and how it runs, not on what else
 * the machine does: on the side's sources (its tree, the head's harness files written over it, the
 * build's perturbation), the build's outputs, the counter's recipe (the flags the benchmarks are
 * built and run with), the toolchain (the tool's version and target, Valgrind's), the inherited
 * variables a build reads, and the CPU model, whose caches Valgrind simulates. Those, in full, are
 * an entry's key; any change of them misses. An entry holds each trial's counts by benchmark, with
 * the iterations each was counted over: a trial of a side takes trial {@code t}'s count of a
 * benchmark from the entry when it was counted over the iterations this run counts, and counts
 * the rest, which join the entry. The iterations an entry holds are the run's choice for both
 * sides ({@link PerBenchmark#prefer}), so that a head counted fresh is counted as its cached base
 * was.
 *
 * <p>The side is not part of the key, so a tree counted as one run's head is the next run's base.
 * A run whose two sides have one key (an A/A run) reads nothing: its point is the difference
 * between two countings. An entry is read like any input: strictly, bounded, and set aside, with a
 * note, when it does not parse.
 */
final class CountCache {
    /** The schema of an entry. */
    static final String SCHEMA = "perfab/counts/v1";
    /** The largest entry read: a benchmark's counts by function are the bulk of it. */
    static final long MAX_BYTES = 64L << 20;

    private static final ObjectMapper JSON = new ObjectMapper();
    /** No cache: every count is taken. */
    static final CountCache NONE = new CountCache(Optional.empty(), List.of(), "", Map.of(), n -> {});

    /**
     * What one side's counts are taken from, as its builder knows it.
     *
     * @param dir the side's folders
     * @param sources its sources and build outputs, as text (see {@link #sources})
     */
    record Keyed(SideDir dir, String sources) {}

    /**
     * A benchmark's count as an entry keeps it.
     *
     * @param iterations the iterations it was counted over (0 where the tool chooses them)
     * @param perOp what one operation executed; empty when the side has no such benchmark
     */
    record Count(long iterations, Optional<PerBenchmark.PerOp> perOp) {}

    /** One side's entry: its file, its key in full, and its counts by trial and benchmark. */
    private static final class Entry {
        final Path file;
        final String key;
        final List<Map<String, Count>> trials = new ArrayList<>();

        Entry(Path file, String key) {
            this.file = file;
            this.key = key;
        }
    }

    private final Optional<Path> folder;
    private final List<Keyed> sides;
    private final String machine;
    private final Map<String, String> inherited;
    private final Consumer<String> notes;
    /** Each side's entry, by its tree; null until {@link #open}, empty when the cache is not used. */
    private Map<Path, Entry> entries;

    /**
     * A cache in {@code folder}'s {@code counts/} for {@code sides}, on a machine whose CPU is
     * {@code machine}, whose commands inherit the variables {@code inherited} that can change what
     * they produce ({@link Builder#inherited}); {@code notes} hears of entries set aside. Empty
     * {@code folder}: no cache.
     */
    CountCache(
            Optional<Path> folder,
            List<Keyed> sides,
            String machine,
            Map<String, String> inherited,
            Consumer<String> notes) {
        this.folder = folder.map(f -> f.resolve("counts"));
        this.sides = List.copyOf(sides);
        this.machine = machine;
        this.inherited = new TreeMap<>(inherited);
        this.notes = notes;
    }

    /** Returns how a side's sources key its counts: its checkout, build number and build outputs. */
    static String sources(Builder.Sources sources, SideDir dir, Trees.Fingerprint outputs) {
        return sources.key() + "\nbuild " + dir.build() + "\noutputs " + outputs.digest() + " " + outputs.files();
    }

    /**
     * Finds each side's entry, once, before anything is counted: the counter's toolchain is asked in
     * each side's tree, and the iterations the entries hold become the counter's choice.
     */
    synchronized void open(PerBenchmark counter, PerBenchmark.Logs logs, PerBenchmark.Exec exec)
            throws IOException, InterruptedException {
        if (entries != null) {
            return;
        }
        entries = new HashMap<>();
        if (folder.isEmpty()) {
            return;
        }
        String valgrind =
                version(List.of(Counters.VALGRIND, "--version"), sides.get(0).dir(), logs, exec);
        Map<Path, String> keys = new LinkedHashMap<>();
        for (Keyed s : sides) {
            StringBuilder k = new StringBuilder(SCHEMA).append('\n');
            k.append("counter ").append(counter.recipe()).append('\n');
            k.append("toolchain ")
                    .append(counter.toolchain(s.dir().tree(), s.dir().isolation(), logs, exec))
                    .append('\n');
            k.append("valgrind ").append(valgrind).append('\n');
            k.append("cpu ").append(machine).append('\n');
            k.append("sources ").append(s.sources()).append('\n');
            inherited.forEach(
                    (n, v) -> k.append("env ").append(n).append('=').append(v).append('\n'));
            keys.put(s.dir().tree(), k.toString());
        }
        if (keys.values().stream().distinct().count() < keys.size()) {
            notes.accept("the sides have the same sources, build and toolchain: each is counted, and the count"
                    + " cache is neither read nor written");
            return;
        }
        Files.createDirectories(folder.get());
        Map<String, Long> iterations = new LinkedHashMap<>();
        for (Map.Entry<Path, String> e : keys.entrySet()) {
            Entry entry = read(folder.get().resolve(Trees.entryName(e.getValue()) + ".json"), e.getValue());
            entries.put(e.getKey(), entry);
            entry.trials.forEach(t -> t.forEach((name, c) -> iterations.putIfAbsent(name, c.iterations())));
        }
        counter.prefer(iterations);
    }

    /**
     * Returns the count of {@code benchmark} in trial {@code trial} of the side of {@code tree},
     * when its entry holds one over the benchmark's iterations; empty when it must be counted.
     */
    synchronized Optional<Count> get(Path tree, int trial, PerBenchmark.Benchmark benchmark) {
        Entry e = entries == null ? null : entries.get(tree);
        if (e == null || trial >= e.trials.size()) {
            return Optional.empty();
        }
        Count c = e.trials.get(trial).get(benchmark.name());
        return c != null && c.iterations() == benchmark.iterations() ? Optional.of(c) : Optional.empty();
    }

    /** Keeps {@code counts}, trial {@code trial}'s fresh counts by benchmark, in the side's entry, on disk. */
    synchronized void put(Path tree, int trial, Map<PerBenchmark.Benchmark, Optional<PerBenchmark.PerOp>> counts)
            throws IOException {
        Entry e = entries == null ? null : entries.get(tree);
        if (e == null || counts.isEmpty()) {
            return;
        }
        while (e.trials.size() <= trial) {
            e.trials.add(new TreeMap<>());
        }
        counts.forEach((b, p) -> e.trials.get(trial).put(b.name(), new Count(b.iterations(), p)));
        write(e);
    }

    private String version(List<String> argv, SideDir side, PerBenchmark.Logs logs, PerBenchmark.Exec exec)
            throws IOException, InterruptedException {
        Processes.Outcome o = exec.run(new Processes.Command(
                argv,
                side.tree(),
                side.isolation(),
                java.time.Duration.ofMinutes(1),
                logs.out("version"),
                logs.err("version"),
                false));
        return o.succeeded()
                ? Files.readString(logs.out("version"), StandardCharsets.UTF_8).strip()
                : "unknown";
    }

    /** Returns the entry in {@code file}: empty when there is none, set aside with a note when it cannot be read. */
    private Entry read(Path file, String key) throws IOException {
        Entry entry = new Entry(file, key);
        if (!Files.exists(file)) {
            return entry;
        }
        try {
            if (Files.size(file) > MAX_BYTES) {
                throw new BadInputException(
                        "it holds " + Files.size(file) + " bytes, more than the " + MAX_BYTES + " perfab reads");
            }
            StrictJson.Obj n =
                    StrictJson.parse(Files.readString(file, StandardCharsets.UTF_8), SCHEMA, file.toString());
            if (!n.text("key").equals(key)) {
                throw n.error("key", "the entry was kept for other sources, build or toolchain");
            }
            entry.trials.addAll(n.objects("trials", CountCache::trial));
            n.done();
            // Marks the entry used: a cache kept between CI runs holds the entries its last run used.
            // A file's time is the file system's clock, which whatever keeps the cache compares.
            Files.setLastModifiedTime(file, FileTime.from(Instant.now()));
            return entry;
        } catch (BadInputException | IOException e) {
            notes.accept("the count cache entry " + file + " cannot be read (" + e.getMessage() + "): its side is"
                    + " counted, and the entry replaced");
            return new Entry(file, key);
        }
    }

    private static Map<String, Count> trial(StrictJson.Obj t) {
        Map<String, Count> counts = new TreeMap<>();
        for (String name : t.names()) {
            if (name.isEmpty() || name.length() > 1000) {
                throw t.error(name, "a benchmark's name is 1 to 1000 characters");
            }
            StrictJson.Obj c = t.object(name);
            long iterations = c.integer("iterations", 0L, Long.MAX_VALUE);
            if (c.has("absent") && c.bool("absent")) {
                c.done();
                counts.put(name, new Count(iterations, Optional.empty()));
                continue;
            }
            double instructions = c.number("instructions");
            double cycles = c.number("cycles");
            if (!(instructions > 0) || !(cycles >= 0) || !Double.isFinite(instructions) || !Double.isFinite(cycles)) {
                throw c.error("instructions", "a count per operation is a finite number above 0");
            }
            StrictJson.Obj f = c.object("byFunction");
            Map<String, Double> byFunction = new HashMap<>();
            for (String fn : f.names()) {
                double v = f.number(fn);
                if (!(v >= 0) || !Double.isFinite(v)) {
                    throw f.error(fn, "a function's count per operation is a finite number, 0 or more");
                }
                byFunction.put(fn, v);
            }
            f.done();
            c.done();
            counts.put(
                    name, new Count(iterations, Optional.of(new PerBenchmark.PerOp(instructions, cycles, byFunction))));
        }
        t.done();
        return counts;
    }

    private static void write(Entry e) throws IOException {
        ObjectNode n = JSON.createObjectNode();
        n.put("schema", SCHEMA).put("key", e.key);
        var trials = n.putArray("trials");
        for (Map<String, Count> t : e.trials) {
            ObjectNode tn = trials.addObject();
            t.forEach((name, c) -> {
                ObjectNode cn = tn.putObject(name).put("iterations", c.iterations());
                if (c.perOp().isEmpty()) {
                    cn.put("absent", true);
                } else {
                    PerBenchmark.PerOp p = c.perOp().get();
                    cn.put("instructions", p.instructions()).put("cycles", p.estimatedCycles());
                    ObjectNode f = cn.putObject("byFunction");
                    new TreeMap<>(p.byFunction()).forEach(f::put);
                }
            });
        }
        Path partial = e.file.resolveSibling(e.file.getFileName() + ".partial");
        Files.writeString(partial, JSON.writeValueAsString(n) + "\n", StandardCharsets.UTF_8);
        WholeFile.replace(partial, e.file);
    }
}
