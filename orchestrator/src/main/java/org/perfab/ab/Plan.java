package org.perfab.ab;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.perfab.failure.BadInputException;
import org.perfab.git.Commit;
import org.perfab.model.NoiseFile;
import org.perfab.model.Sharding;
import org.perfab.model.StrictJson;
import org.perfab.model.TableJson;
import org.perfab.stats.Thresholds;
import org.perfab.stats.Verdict;
import org.perfab.workload.Durations;
import org.perfab.workload.Workload;
import org.perfab.workload.WorkloadLoader;

/**
 * What a run will do, fixed before its first trial and kept in {@code run.json}, so that
 * {@code --resume} continues the same run: the same commits, workload, trial order and settings.
 *
 * @param repository the repository as given
 * @param baseTip the base ref, resolved
 * @param head the head ref, resolved
 * @param mergeBase the baseline commit
 * @param workloadPath the workload's path in the head's tree
 * @param workloadText the workload file as read from the head
 * @param trials counted trials per side
 * @param warmup warm-ups per side
 * @param builds builds per side
 * @param seed the seed of the trial order; empty for alternation
 * @param padding the seed of each trial's environment padding (see {@link Trial}); empty
 *     for none
 * @param thresholds the verdict settings
 * @param startedAt when the run first started
 * @param shard the shard of the suite the run measures; empty for the whole suite
 * @param shardTimes each benchmark's time in a trial pair of an earlier run, which the shard's
 *     suite is cut by; empty to cut by count
 * @param open the names of the cells the round of trials measures: those still undecided at the
 *     look before it, sorted; empty for every cell (the first round, or a harness measured whole)
 * @param counting with {@code measure: auto}, the names of the benchmarks too noisy to time, which
 *     the rounds from the one they were found in count in place of timing them, sorted; empty when
 *     none is
 * @param options the run's options beside its trial order (its budget, the verdicts that fail it,
 *     its noise floors, its cache); empty for a {@code run.json} of an earlier perfab, which did not
 *     keep them
 */
record Plan(
        String repository,
        Commit baseTip,
        Commit head,
        Commit mergeBase,
        String workloadPath,
        String workloadText,
        int trials,
        int warmup,
        int builds,
        Optional<Long> seed,
        Optional<Long> padding,
        Thresholds thresholds,
        Instant startedAt,
        Optional<Sharding.Shard> shard,
        Map<String, Double> shardTimes,
        List<String> open,
        List<String> counting,
        Optional<Options> options) {
    Plan {
        shardTimes = Map.copyOf(shardTimes);
        open = List.copyOf(new java.util.TreeSet<>(open));
        counting = List.copyOf(new java.util.TreeSet<>(counting));
        Objects.requireNonNull(options, "options");
    }

    /**
     * The options of a run that its trial order does not hold, kept with its plan so that
     * {@code --resume} continues the run with them.
     *
     * @param budget the time the run's trials may take in all, those of every process of the run
     *     together; empty for no limit
     * @param failOn the verdicts that fail the job, sorted; empty for an advisory run
     * @param noise the noise file of an A/A run whose floors mark the cells, as the run first read it;
     *     empty for none
     * @param cache the folder of reusable builds; empty for none
     */
    record Options(Optional<Duration> budget, List<Verdict> failOn, Optional<Noise> noise, Optional<Path> cache) {
        /** No budget, an advisory run, no noise floors, no cache. */
        static final Options NONE = new Options(Optional.empty(), List.of(), Optional.empty(), Optional.empty());

        Options {
            Objects.requireNonNull(budget, "budget");
            failOn = List.copyOf(new java.util.TreeSet<>(failOn));
            Objects.requireNonNull(noise, "noise");
            Objects.requireNonNull(cache, "cache");
        }
    }

    /**
     * An A/A run's noise file as a run read it ({@code --noise}).
     *
     * @param file where it was, an absolute path
     * @param text what it held
     */
    record Noise(Path file, String text) {
        Noise {
            Objects.requireNonNull(file, "file");
            Objects.requireNonNull(text, "text");
        }

        /** Returns the noise floors the file holds. */
        NoiseFile floors() {
            return NoiseFile.read(text, file.toString());
        }
    }

    /** A plan of the whole suite. */
    Plan(
            String repository,
            Commit baseTip,
            Commit head,
            Commit mergeBase,
            String workloadPath,
            String workloadText,
            int trials,
            int warmup,
            int builds,
            Optional<Long> seed,
            Optional<Long> padding,
            Thresholds thresholds,
            Instant startedAt) {
        this(
                repository,
                baseTip,
                head,
                mergeBase,
                workloadPath,
                workloadText,
                trials,
                warmup,
                builds,
                seed,
                padding,
                thresholds,
                startedAt,
                Optional.empty(),
                Map.of(),
                List.of(),
                List.of(),
                Optional.of(Options.NONE));
    }

    static final String SCHEMA = "perfab/run/v1";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** Returns the workload, parsed from the text the run started with. */
    Workload workload() {
        return WorkloadLoader.parse(workloadText, workloadPath + " at " + head.shortId());
    }

    /**
     * Returns this plan with {@code n} counted trials per side: the next round of adaptive trials,
     * measuring the cells named {@code open} (every cell, when empty), and counting the benchmarks
     * named {@code counting} in place of timing them.
     */
    Plan withRound(int n, List<String> open, List<String> counting) {
        return new Plan(
                repository,
                baseTip,
                head,
                mergeBase,
                workloadPath,
                workloadText,
                n,
                warmup,
                builds,
                seed,
                padding,
                thresholds,
                startedAt,
                shard,
                shardTimes,
                open,
                counting,
                options);
    }

    /** Returns this plan with the options {@code o}. */
    Plan withOptions(Options o) {
        return new Plan(
                repository,
                baseTip,
                head,
                mergeBase,
                workloadPath,
                workloadText,
                trials,
                warmup,
                builds,
                seed,
                padding,
                thresholds,
                startedAt,
                shard,
                shardTimes,
                open,
                counting,
                Optional.of(o));
    }

    /** Returns the trial order. */
    TrialOrder order() {
        return new TrialOrder(trials, warmup, builds, seed);
    }

    /** Returns whether both sides are one tree: an A/A run. */
    boolean aa() {
        return mergeBase.id().equals(head.id());
    }

    void write(Path file) throws IOException {
        ObjectNode n = JSON.createObjectNode();
        n.put("schema", SCHEMA).put("repository", repository);
        n.set("baseTip", commit(baseTip));
        n.set("head", commit(head));
        n.set("mergeBase", commit(mergeBase));
        n.put("workloadPath", workloadPath).put("workloadText", workloadText);
        n.put("trials", trials).put("warmup", warmup).put("builds", builds);
        if (seed.isPresent()) {
            n.put("seed", seed.get());
        } else {
            n.putNull("seed");
        }
        if (padding.isPresent()) {
            n.put("padding", padding.get());
        } else {
            n.putNull("padding");
        }
        n.set("thresholds", TableJson.thresholds(thresholds));
        n.put("startedAt", startedAt.toString());
        shard.ifPresent(k -> n.put("shard", k.toString()));
        if (!shardTimes.isEmpty()) {
            ObjectNode times = n.putObject("shardTimes");
            new java.util.TreeMap<>(shardTimes).forEach(times::put);
        }
        if (!open.isEmpty()) {
            open.forEach(n.putArray("open")::add);
        }
        if (!counting.isEmpty()) {
            counting.forEach(n.putArray("counting")::add);
        }
        options.ifPresent(o -> n.set("options", options(o)));
        Files.writeString(file, JSON.writeValueAsString(n) + "\n", StandardCharsets.UTF_8);
    }

    /**
     * Returns the plan {@code file} holds.
     *
     * @throws BadInputException naming the file and field when it is not a whole plan
     */
    static Plan read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new BadInputException(file + ": cannot read the run to resume: " + e.getMessage(), e);
        }
        StrictJson.Obj n = StrictJson.parse(text, SCHEMA, file.toString());
        Thresholds thresholds = TableJson.thresholds(n, "thresholds");
        Plan p = new Plan(
                n.text("repository"),
                commit(n.object("baseTip")),
                commit(n.object("head")),
                commit(n.object("mergeBase")),
                n.text("workloadPath"),
                n.text("workloadText"),
                n.integer("trials", 2, Workload.MAX_TRIALS),
                n.integer("warmup", 0, Workload.MAX_WARMUP),
                n.integer("builds", 1, Workload.MAX_BUILDS),
                n.isNull("seed") ? Optional.empty() : Optional.of(n.integer("seed", Long.MIN_VALUE, Long.MAX_VALUE)),
                n.isNull("padding")
                        ? Optional.empty()
                        : Optional.of(n.integer("padding", Long.MIN_VALUE, Long.MAX_VALUE)),
                thresholds,
                n.check("startedAt", () -> Instant.parse(n.text("startedAt"))),
                n.has("shard")
                        ? Optional.of(n.check("shard", () -> Sharding.parse(n.text("shard"))))
                        : Optional.empty(),
                n.has("shardTimes") ? times(n.object("shardTimes")) : Map.of(),
                n.has("open") ? n.texts("open") : List.of(),
                n.has("counting") ? n.texts("counting") : List.of(),
                n.has("options") ? Optional.of(options(n.object("options"))) : Optional.empty());
        n.done();
        return p;
    }

    private static ObjectNode options(Options o) {
        ObjectNode n = JSON.createObjectNode();
        if (o.budget().isPresent()) {
            n.put("budget", Durations.format(o.budget().get()));
        } else {
            n.putNull("budget");
        }
        ArrayNode failOn = n.putArray("failOn");
        o.failOn().forEach(v -> failOn.add(v.id()));
        if (o.noise().isPresent()) {
            n.putObject("noise")
                    .put("file", o.noise().get().file().toString())
                    .put("text", o.noise().get().text());
        } else {
            n.putNull("noise");
        }
        if (o.cache().isPresent()) {
            n.put("cache", o.cache().get().toString());
        } else {
            n.putNull("cache");
        }
        return n;
    }

    private static Options options(StrictJson.Obj n) {
        Optional<Duration> budget =
                n.textOrNull("budget").map(b -> n.check("budget", () -> Durations.parse("budget", b)));
        List<Verdict> failOn = new java.util.ArrayList<>();
        for (String id : n.texts("failOn")) {
            failOn.add(n.check("failOn", () -> Verdict.fromId(id)));
        }
        Optional<Noise> noise = Optional.empty();
        if (!n.isNull("noise")) {
            StrictJson.Obj f = n.object("noise");
            noise = Optional.of(new Noise(f.check("file", () -> Path.of(f.text("file"))), f.text("text")));
            f.done();
        }
        Optional<Path> cache = n.textOrNull("cache").map(c -> n.check("cache", () -> Path.of(c)));
        n.done();
        return new Options(budget, failOn, noise, cache);
    }

    private static Map<String, Double> times(StrictJson.Obj n) {
        Map<String, Double> times = new java.util.HashMap<>();
        for (String name : n.names()) {
            times.put(name, n.number(name));
        }
        n.done();
        return times;
    }

    private static ObjectNode commit(Commit c) {
        ObjectNode n = JSON.createObjectNode();
        n.put("typed", c.typed()).put("id", c.id()).put("tree", c.tree()).put("subject", c.subject());
        return n;
    }

    private static Commit commit(StrictJson.Obj n) {
        Commit c = new Commit(n.text("typed"), n.text("id"), n.text("tree"), n.text("subject"));
        n.done();
        return c;
    }
}
