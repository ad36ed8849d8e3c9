package org.perfab.ab;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.perfab.exec.Commands;
import org.perfab.exec.Processes;
import org.perfab.failure.BadInputException;
import org.perfab.failure.RunFailedException;
import org.perfab.git.Commit;
import org.perfab.git.GitRepo;
import org.perfab.model.StrictJson;
import org.perfab.model.Warning;
import org.perfab.model.WholeFile;
import org.perfab.workload.Workload;

/** Builds one side into its private folder, or takes the build from the cache. */
final class Builder {
    /** The schema of a build record ({@code build.json} of a side, and of a cache entry). */
    static final String SCHEMA = "perfab/build/v1";
    /** Inherited variables that can change what a build produces, and so key the cache. */
    private static final List<String> KEYED_ENV = List.of(
            "PATH",
            "JAVA_HOME",
            "CC",
            "CXX",
            "CFLAGS",
            "CXXFLAGS",
            "CPPFLAGS",
            "LDFLAGS",
            "RUSTFLAGS",
            "GOFLAGS",
            "MAVEN_OPTS",
            "GRADLE_OPTS",
            "NODE_OPTIONS",
            "PYTHONPATH");

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Commands processes;
    private final Optional<Path> cache;
    private final Path logs;
    private final Consumer<Warning> warnings;
    private final Consumer<String> notes;

    /**
     * A builder that runs builds with {@code processes}, keeps them in {@code cache} when given,
     * writes their logs into {@code logs}, tells {@code warnings} what a run's results should say
     * (a damaged cache entry) and {@code notes} what only the operator needs to know (a cached
     * build that could not move to this run's folder).
     */
    Builder(Commands processes, Optional<Path> cache, Path logs, Consumer<Warning> warnings, Consumer<String> notes) {
        this.processes = processes;
        this.cache = cache;
        this.logs = logs;
        this.warnings = warnings;
        this.notes = notes;
    }

    /**
     * What a build left.
     *
     * @param outputs the fingerprint of its outputs
     * @param seconds how long it took (a copy from the cache, when cached)
     * @param cached whether it came from the cache
     * @param savedSeconds when cached, how long the build it replaced took
     */
    record Result(Trees.Fingerprint outputs, double seconds, boolean cached, double savedSeconds) {
        ObjectNode json() {
            ObjectNode n = JSON.createObjectNode();
            n.put("schema", SCHEMA)
                    .put("digest", outputs.digest())
                    .put("files", outputs.files())
                    .put("bytes", outputs.bytes())
                    .put("seconds", seconds)
                    .put("cached", cached)
                    .put("savedSeconds", savedSeconds);
            return n;
        }

        /** Returns the result {@code n} holds; the caller checks for fields it does not read. */
        static Result of(StrictJson.Obj n) {
            return new Result(
                    new Trees.Fingerprint(
                            n.text("digest"),
                            n.integer("files", 0, Integer.MAX_VALUE),
                            n.integer("bytes", 0L, Long.MAX_VALUE)),
                    n.number("seconds"),
                    n.bool("cached"),
                    n.number("savedSeconds"));
        }
    }

    /**
     * A build record as kept in a {@code build.json}.
     *
     * @param result the build's result
     * @param content in a cache entry, the digest of everything the entry holds; empty otherwise
     * @param root in a cache entry, the absolute side folder it was built in; empty otherwise
     */
    record Stored(Result result, String content, String root) {
        /**
         * Returns the record kept in {@code file}, or empty when it is missing or damaged: perfab's
         * own bookkeeping, which a rebuild replaces.
         */
        static Optional<Stored> read(Path file) {
            try {
                StrictJson.Obj n =
                        StrictJson.parse(Files.readString(file, StandardCharsets.UTF_8), SCHEMA, file.toString());
                Stored s = new Stored(
                        Result.of(n), n.has("content") ? n.text("content") : "", n.has("root") ? n.text("root") : "");
                n.done();
                return Optional.of(s);
            } catch (IOException | BadInputException e) {
                return Optional.empty();
            }
        }
    }

    /**
     * What a side's build starts from: a commit's tree, and the harness files copied over it.
     *
     * @param commit the commit checked out
     * @param key what identifies the sources: the commit's tree id, and the harness files copied
     */
    record Sources(Commit commit, String key) {}

    /**
     * Returns the sources of {@code commit}'s tree with {@code copies} written over it, and then
     * changed by {@code perturb} when the build has one.
     */
    static Sources sources(Commit commit, List<GitRepo.Entry> copies, Optional<Workload.Build> spec) {
        return sources(commit, copies, spec, java.util.Set.of());
    }

    /**
     * Returns {@link #sources(Commit, List, Optional)} of a tree whose submodules at the paths
     * {@code leftOut} were left out: another tree, whose build is not that of the whole one.
     */
    static Sources sources(
            Commit commit, List<GitRepo.Entry> copies, Optional<Workload.Build> spec, java.util.Set<String> leftOut) {
        StringBuilder key = new StringBuilder(commit.tree());
        for (GitRepo.Entry e : copies) {
            key.append("\ncopy ")
                    .append(e.kind())
                    .append(' ')
                    .append(e.id())
                    .append(' ')
                    .append(e.path());
        }
        new java.util.TreeSet<>(leftOut).forEach(p -> key.append("\nwithout ").append(p));
        spec.flatMap(Workload.Build::perturb)
                .ifPresent(p -> p.forEach(a -> key.append("\nperturb ").append(a)));
        return new Sources(commit, key.toString());
    }

    /**
     * Runs the build's {@code perturb} command in {@code dir}'s fresh checkout, with
     * {@code PERFAB_BUILD} naming the build: a harmless change that shifts code layout, so that
     * each build of a side is laid out differently. Does nothing when there is none.
     *
     * @throws RunFailedException when it fails, with the tail of its log
     */
    void perturb(SideDir dir, Commit commit, Optional<Workload.Build> spec) throws IOException, InterruptedException {
        if (spec.isEmpty() || spec.get().perturb().isEmpty()) {
            return;
        }
        Files.createDirectories(logs);
        Files.createDirectories(dir.out());
        Files.createDirectories(dir.tmp());
        Path log = logs.resolve("perturb-" + dir.side().id() + "-" + dir.build() + ".log");
        Processes.Outcome outcome = processes.run(new Processes.Command(
                spec.get().perturb().get(),
                dir.tree(),
                environment(dir, spec.get()),
                spec.get().timeout(),
                log,
                log,
                false));
        if (!outcome.succeeded()) {
            String tail = Processes.tail(log, 30);
            throw new RunFailedException("build.perturb of " + dir.label() + " (" + commit.shortId() + ") "
                    + outcome.failure() + "; the last lines of " + log + ":\n" + indent(tail));
        }
    }

    /** Returns the log file of a side's build: {@code logs/build-base.log}, {@code build-head-1.log}. */
    Path logOf(SideDir dir) {
        return logs.resolve("build-" + dir.side().id() + (dir.build() == 0 ? "" : "-" + dir.build()) + ".log");
    }

    /**
     * Builds {@code dir}, freshly checked out from {@code commit} with {@code checkout} its
     * snapshot, and records the result in its build record.
     *
     * @throws RunFailedException when the build fails or times out, with the tail of its log
     */
    Result build(SideDir dir, Sources sources, Optional<Workload.Build> spec, Map<String, Trees.Stamp> checkout)
            throws IOException, InterruptedException {
        Files.createDirectories(dir.out());
        Files.createDirectories(dir.tmp());
        Result result;
        if (spec.isEmpty()) {
            result = new Result(Trees.outputs(dir.tree(), checkout, dir.out()), 0, false, 0);
        } else {
            Map<String, String> env = environment(dir, spec.get());
            Optional<Path> entry =
                    cache.map(c -> c.resolve(key(dir, sources, spec.get(), env, processes.environment())));
            Optional<Result> cached =
                    entry.isPresent() && Files.exists(entry.get().resolve("build.json"))
                            ? restore(dir, entry.get())
                            : Optional.empty();
            if (cached.isPresent()) {
                result = cached.get();
            } else {
                result = run(dir, sources.commit(), spec.get(), env, checkout);
                if (entry.isPresent()) {
                    store(dir, entry.get(), result);
                }
            }
        }
        Files.writeString(dir.buildRecord(), JSON.writeValueAsString(result.json()) + "\n", StandardCharsets.UTF_8);
        return result;
    }

    /** Returns the result a finished build recorded, or empty when it has not finished. */
    static Optional<Result> recorded(SideDir dir) {
        return Stored.read(dir.buildRecord()).map(Stored::result);
    }

    private Result run(
            SideDir dir, Commit commit, Workload.Build spec, Map<String, String> env, Map<String, Trees.Stamp> checkout)
            throws IOException, InterruptedException {
        Files.createDirectories(logs);
        Path log = logOf(dir);
        Processes.Outcome outcome =
                processes.run(new Processes.Command(spec.run(), dir.tree(), env, spec.timeout(), log, log, false));
        if (!outcome.succeeded()) {
            String tail = Processes.tail(log, 30);
            Processes.bound(log);
            throw new RunFailedException("the build of " + dir.label() + " (" + commit.shortId() + ") "
                    + outcome.failure()
                    + (outcome.timedOut() ? " after " + spec.timeout().toSeconds() + " s" : "")
                    + "; the last lines of " + log + ":\n" + indent(tail));
        }
        Processes.bound(log);
        return new Result(Trees.outputs(dir.tree(), checkout, dir.out()), outcome.wallSeconds(), false, 0);
    }

    /**
     * Copies a cached build into {@code dir} and returns its result, or empty when the entry does
     * not hold what was stored: its content is checked against the digest stored with it before
     * anything is copied, since a damaged or edited entry would be measured as the side's build.
     */
    private Optional<Result> restore(SideDir dir, Path entry) throws IOException {
        long start = System.nanoTime();
        Optional<Stored> stored = Stored.read(entry.resolve("build.json"));
        String content = Trees.outputs(entry.resolve("tree"), Map.of(), entry.resolve("out"))
                .digest();
        if (stored.isEmpty() || !content.equals(stored.get().content())) {
            warnings.accept(Warning.of(Warning.Kind.DAMAGED_CACHE, entry.toString(), dir.label()));
            return Optional.empty();
        }
        String root = dir.root().toAbsolutePath().toString();
        String built = stored.get().root();
        if (!built.equals(root)
                && (built.isEmpty()
                        || Trees.mentions(entry.resolve("tree"), built)
                        || Trees.mentions(entry.resolve("out"), built))) {
            notes.accept("the cached build of " + dir.label() + " was built in "
                    + (built.isEmpty() ? "another folder" : built)
                    + ", and its files name that folder, so it cannot move to this run's: built again"
                    + " (the same --out reuses it)");
            return Optional.empty();
        }
        // Marks the entry used: a cache kept between CI runs holds the entries its last run used.
        // A file's time is the file system's clock, which whatever keeps the cache compares.
        Files.setLastModifiedTime(entry, FileTime.from(Instant.now()));
        Trees.delete(dir.tree());
        Trees.delete(dir.out());
        Trees.copy(entry.resolve("tree"), dir.tree());
        Trees.copy(entry.resolve("out"), dir.out());
        Result r = stored.get().result();
        return Optional.of(new Result(r.outputs(), (System.nanoTime() - start) / 1e9, true, r.seconds()));
    }

    private static void store(SideDir dir, Path entry, Result result) throws IOException {
        Path partial = entry.resolveSibling(entry.getFileName() + ".partial");
        Trees.delete(partial);
        Files.createDirectories(partial);
        Trees.copy(dir.tree(), partial.resolve("tree"));
        Trees.copy(dir.out(), partial.resolve("out"));
        ObjectNode n = result.json();
        n.put(
                "content",
                Trees.outputs(partial.resolve("tree"), Map.of(), partial.resolve("out"))
                        .digest());
        n.put("root", dir.root().toAbsolutePath().toString());
        Files.writeString(partial.resolve("build.json"), JSON.writeValueAsString(n) + "\n");
        Trees.delete(entry);
        WholeFile.replace(partial, entry);
    }

    /** Returns the environment a build runs with: the isolation variables win over the workload's. */
    static Map<String, String> environment(SideDir dir, Workload.Build spec) {
        Map<String, String> env = new LinkedHashMap<>(spec.env());
        env.putAll(dir.isolation());
        return env;
    }

    /**
     * Returns the cache key of a build: its tree, argv, side and build number, added variables and
     * the variables inherited from {@code machine} that can change what a compiler produces
     * ({@link #KEYED_ENV}). The
     * run's folder is not part of it: each of the side's folders in a variable is keyed by its place
     * in the side's folder, so a run into another --out finds the entry, and {@link #restore} takes
     * it when its files do not name the folder it was built in.
     */
    private static String key(
            SideDir dir, Sources sources, Workload.Build spec, Map<String, String> env, Map<String, String> machine) {
        String root = dir.root().toAbsolutePath().toString();
        Map<String, String> keyed = new TreeMap<>();
        env.forEach((k, v) -> keyed.put(k, v.replace(root, "<side>")));
        keyed.putAll(inherited(machine, env));
        StringBuilder s = new StringBuilder("sources ").append(sources.key()).append('\n');
        s.append("side ")
                .append(dir.side().id())
                .append('-')
                .append(dir.build())
                .append('\n');
        spec.run().forEach(a -> s.append("arg ").append(a).append('\u0000'));
        keyed.forEach((k, v) -> s.append("\nenv ").append(k).append('=').append(v));
        return Trees.entryName(s.toString());
    }

    /**
     * Returns the variables of {@link #KEYED_ENV} that {@code machine} (the environment the engine's
     * commands inherit) sets and {@code env} does not, in name order: what a build or a counted run
     * inherits that can change what it produces.
     */
    static Map<String, String> inherited(Map<String, String> machine, Map<String, String> env) {
        Map<String, String> keyed = new TreeMap<>();
        for (String name : KEYED_ENV) {
            String v = machine.get(name);
            if (v != null && !env.containsKey(name)) {
                keyed.put(name, v);
            }
        }
        return keyed;
    }

    private static String indent(String text) {
        return text.isEmpty() ? "    (empty)" : "    " + text.replace("\n", "\n    ");
    }
}
