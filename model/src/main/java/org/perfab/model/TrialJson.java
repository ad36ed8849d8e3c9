package org.perfab.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.perfab.failure.BadInputException;
import org.perfab.stats.Direction;

/**
 * The JSON of a trial and its measurements: a line of {@code trials.jsonl} (schema
 * {@value #SCHEMA}), appended as each trial ends, and the entries of {@code results.json}'s
 * {@code trials} and {@code measurements}, read back with every field checked and a trial or a
 * measurement given twice refused.
 */
public final class TrialJson {
    /** The schema of each line of {@code trials.jsonl}. */
    public static final String SCHEMA = "perfab/trial/v1";

    private static final ObjectMapper COMPACT = new ObjectMapper();

    private TrialJson() {}

    /** Returns one line of {@code trials.jsonl} for {@code trial}, without a newline. */
    public static String line(RunResults.TrialRecord trial) {
        ObjectNode node = node(trial, true);
        return serialise(COMPACT, node);
    }

    /**
     * Returns the trial a line of {@code trials.jsonl} holds; {@code shown} names the line in
     * messages.
     *
     * @throws BadInputException when the line is not one (a line torn by a kill, say)
     */
    public static RunResults.TrialRecord read(String line, String shown) {
        StrictJson.Obj n = StrictJson.parse(line, SCHEMA, shown);
        RunResults.TrialRecord r = trial(n, List.of());
        List<Measurement> ms = n.objects(
                "measurements", x -> new Measurement(cell(x), r.side(), r.build(), r.trial(), x.number("value")));
        n.done();
        return r.withMeasurements(ms);
    }

    /** Returns the JSON of {@code t}: with its schema and measurements as a line of {@code trials.jsonl}, else as results.json lists it. */
    static ObjectNode node(RunResults.TrialRecord t, boolean withMeasurements) {
        ObjectNode node = COMPACT.createObjectNode();
        if (withMeasurements) {
            node.put("schema", SCHEMA);
        }
        node.put("seq", t.seq())
                .put("side", t.side().id())
                .put("build", t.build())
                .put("trial", t.trial())
                .put("warmup", t.warmup())
                .put("status", t.status().id())
                .put("reason", t.reason())
                .put("wallSeconds", t.wallSeconds())
                .put("stderrTail", t.stderrTail());
        if (!t.leftovers().isEmpty()) {
            ArrayNode leftovers = node.putArray("leftovers");
            t.leftovers().forEach(leftovers::add);
        }
        if (t.logBytesCut() > 0) {
            node.put("logBytesCut", t.logBytesCut());
        }
        if (t.load().isPresent()) {
            Load l = t.load().get();
            node.putObject("load")
                    .put("wallSeconds", l.wallSeconds())
                    .put("cpuSeconds", l.cpuSeconds())
                    .put("othersCores", l.othersCores())
                    .put("stealShare", l.stealShare())
                    .put("runQueueMean", l.runQueueMean())
                    .put("runQueueMax", l.runQueueMax());
            if (l.cpuClock() != Load.CpuClock.UNTOLD) {
                ((ObjectNode) node.get("load")).put("cpuClock", l.cpuClock().id());
            }
        } else {
            node.putNull("load");
        }
        if (!t.seconds().isEmpty()) {
            ObjectNode seconds = node.putObject("seconds");
            new TreeMap<>(t.seconds()).forEach(seconds::put);
        }
        if (!t.cached().isEmpty()) {
            ArrayNode cached = node.putArray("cached");
            t.cached().forEach(cached::add);
        }
        if (withMeasurements) {
            ArrayNode ms = node.putArray("measurements");
            for (Measurement m : t.measurements()) {
                ms.addObject()
                        .put("cell", m.cell().name())
                        .put("metric", m.cell().metric())
                        .put("unit", m.cell().unit())
                        .put("direction", m.cell().direction().id())
                        .put("value", m.value());
            }
        }
        return node;
    }

    /** Returns the JSON of {@code m} as results.json lists it, its side, build and trial with it. */
    static ObjectNode measurement(Measurement m) {
        ObjectNode node = COMPACT.createObjectNode();
        node.put("cell", m.cell().name())
                .put("metric", m.cell().metric())
                .put("unit", m.cell().unit())
                .put("direction", m.cell().direction().id())
                .put("side", m.side().id())
                .put("build", m.build())
                .put("trial", m.trial())
                .put("value", m.value());
        return node;
    }

    static String serialise(ObjectMapper mapper, JsonNode node) {
        try {
            return mapper.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree failed to serialise", e);
        }
    }

    /** Reads the fields every trial has, in results.json and in trials.jsonl alike. */
    static RunResults.TrialRecord trial(StrictJson.Obj t, List<Measurement> measurements) {
        return new RunResults.TrialRecord(
                t.integer("seq", 0, Integer.MAX_VALUE),
                side(t, "side"),
                t.integer("build", 0, 1 << 20),
                t.integer("trial", 0, 1 << 30),
                t.bool("warmup"),
                status(t),
                t.text("reason"),
                t.number("wallSeconds"),
                t.text("stderrTail"),
                measurements,
                t.has("leftovers") ? t.texts("leftovers") : List.of(),
                t.has("logBytesCut") ? t.integer("logBytesCut", 0L, Long.MAX_VALUE) : 0,
                load(t),
                seconds(t),
                t.has("cached") ? t.texts("cached") : List.of());
    }

    /**
     * Returns the trial's {@code seconds}, each benchmark's own time: empty when absent (the harness's
     * output did not say, or a file written before perfab recorded it).
     */
    private static Map<String, Double> seconds(StrictJson.Obj t) {
        if (!t.has("seconds")) {
            return Map.of();
        }
        StrictJson.Obj s = t.object("seconds");
        Map<String, Double> out = new TreeMap<>();
        for (String name : s.names()) {
            double v = s.number(name);
            if (!(v >= 0) || name.isEmpty()) {
                throw s.error(name, "a benchmark's time is a number of seconds, 0 or more, not " + v);
            }
            out.put(name, v);
        }
        s.done();
        return out;
    }

    /**
     * Returns the trial's {@code load}: empty when it is null (not known) or absent (a file written
     * before perfab recorded it).
     */
    private static Optional<Load> load(StrictJson.Obj t) {
        if (!t.has("load") || t.isNull("load")) {
            return Optional.empty();
        }
        StrictJson.Obj l = t.object("load");
        double wall = l.number("wallSeconds");
        double cpu = l.number("cpuSeconds");
        double others = l.number("othersCores");
        double steal = l.number("stealShare");
        double queue = l.number("runQueueMean");
        int queueMax = l.integer("runQueueMax", 0, Integer.MAX_VALUE);
        Load.CpuClock clock = l.has("cpuClock")
                ? l.check("cpuClock", () -> Load.CpuClock.of(l.text("cpuClock")))
                : Load.CpuClock.UNTOLD;
        l.done();
        return Optional.of(t.check("load", () -> new Load(wall, cpu, others, steal, queue, queueMax, clock)));
    }

    static Cell cell(StrictJson.Obj x) {
        String name = x.text("cell");
        String metric = x.text("metric");
        String unit = x.text("unit");
        Direction direction = x.check("direction", () -> Direction.fromId(x.text("direction")));
        return x.check("cell", () -> new Cell(name, metric, unit, direction));
    }

    private static Side side(StrictJson.Obj x, String field) {
        String id = x.text(field);
        for (Side s : Side.values()) {
            if (s.id().equals(id)) {
                return s;
            }
        }
        throw x.error(field, "'" + id + "' is not base or head");
    }

    private static RunResults.Status status(StrictJson.Obj x) {
        String id = x.text("status");
        for (RunResults.Status s : RunResults.Status.values()) {
            if (s.id().equals(id)) {
                return s;
            }
        }
        throw x.error("status", "'" + id + "' is not ok, failed or timeout");
    }

    /**
     * Puts the trials and measurements of {@code results} into {@code root}: shard after shard where
     * shards were merged, each trial and measurement saying its shard, since merged shards repeat
     * trial numbers.
     */
    static void write(ObjectNode root, RunResults results) {
        boolean merged = results.sharding().map(Sharding::merged).orElse(false);
        List<List<RunResults.TrialRecord>> byShard = Shards.trialsByShard(results);
        ArrayNode trials = root.putArray("trials");
        ArrayNode measurements = root.putArray("measurements");
        for (int k = 0; k < byShard.size(); k++) {
            for (RunResults.TrialRecord trial : byShard.get(k)) {
                ObjectNode node = node(trial, false);
                if (merged) {
                    node.put("shard", results.sharding().get().parts().get(k).index());
                }
                trials.add(node);
            }
        }
        for (int k = 0; k < byShard.size(); k++) {
            for (Measurement x : RunResults.counted(byShard.get(k))) {
                ObjectNode node = measurement(x);
                if (merged) {
                    node.put("shard", results.sharding().get().parts().get(k).index());
                }
                measurements.add(node);
            }
        }
    }

    /** A cell measured, and the shard that measured it: 0 in a file of one run. */
    record Measured(CellId cell, int shard) {}

    /**
     * The measurements of a {@code results.json}: by trial (its shard, side, build and number), and
     * each cell measured, with its shard.
     */
    record Measurements(Map<List<Integer>, List<Measurement>> byTrial, List<Measured> measured) {}

    /**
     * Returns the {@code measurements} of the results file {@code n}, each with its {@code shard} where
     * the file holds {@code merged} shards.
     *
     * @throws BadInputException naming {@code shown} when a cell is measured twice in one trial
     */
    static Measurements measurements(StrictJson.Obj n, boolean merged, String shown) {
        Map<List<Integer>, List<Measurement>> byTrial = new HashMap<>();
        Map<List<Object>, Integer> seen = new HashMap<>();
        List<Measured> measured = new ArrayList<>();
        n.objects("measurements", x -> {
            Measurement v = new Measurement(
                    cell(x),
                    side(x, "side"),
                    x.integer("build", 0, 1 << 20),
                    x.integer("trial", 0, 1 << 30),
                    x.number("value"));
            int shard = merged ? x.integer("shard", 1, Sharding.MAX_SHARDS) : 0;
            Integer first = seen.putIfAbsent(List.of(shard, v.cell().id(), v.side(), v.trial()), measured.size());
            if (first != null) {
                throw new BadInputException(shown + ": field 'measurements[" + measured.size() + "]': cell "
                        + v.cell().id() + " of " + RunResults.TrialRecord.named(v.side(), false, v.trial())
                        + " is measurements[" + first + "] too, and a trial has one value per cell: it would count"
                        + " twice");
            }
            measured.add(new Measured(v.cell().id(), shard));
            byTrial.computeIfAbsent(List.of(shard, v.side().ordinal(), v.build(), v.trial()), k -> new ArrayList<>())
                    .add(v);
            return v;
        });
        return new Measurements(byTrial, measured);
    }

    /** The trials of a {@code results.json}, each with its measurements, and the shard of each. */
    record Trials(List<RunResults.TrialRecord> trials, List<Integer> shards) {}

    /**
     * Returns the {@code trials} of the results file {@code n}, each counted trial with its
     * {@code measurements}, each with its {@code shard} where the file holds {@code merged} shards.
     *
     * @throws BadInputException naming {@code shown} when a trial is listed twice (its side, its
     *     number and whether it is a warm-up)
     */
    static Trials trials(StrictJson.Obj n, boolean merged, Measurements measurements, String shown) {
        Map<List<Object>, Integer> ran = new HashMap<>();
        List<Integer> shards = new ArrayList<>();
        List<RunResults.TrialRecord> trials = n.objects("trials", t -> {
            int shard = merged ? t.integer("shard", 1, Sharding.MAX_SHARDS) : 0;
            RunResults.TrialRecord r = trial(t, List.of());
            Integer first = ran.putIfAbsent(List.of(shard, r.side(), r.warmup(), r.trial()), shards.size());
            if (first != null) {
                throw new BadInputException(shown + ": field 'trials[" + shards.size() + "]': " + r.named()
                        + " is trials[" + first + "] too, and its measurements would count twice");
            }
            shards.add(shard);
            List<Measurement> own = r.warmup() || r.status() != RunResults.Status.OK
                    ? List.of()
                    : measurements
                            .byTrial()
                            .getOrDefault(List.of(shard, r.side().ordinal(), r.build(), r.trial()), List.of());
            return r.withMeasurements(own);
        });
        return new Trials(trials, shards);
    }
}
