package org.perfab.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeMap;
import org.perfab.failure.BadInputException;
import org.perfab.stats.Caveat;
import org.perfab.stats.Comparison;
import org.perfab.stats.Direction;
import org.perfab.stats.Sequential;
import org.perfab.stats.Statistic;
import org.perfab.stats.Summary;
import org.perfab.stats.Pairing;
import org.perfab.stats.Thresholds;
import org.perfab.stats.TrialTest;
import org.perfab.stats.Verdict;

/**
 * The JSON forms of a run: {@code results.json} (schema {@value #SCHEMA}) and the lines of
 * {@code trials.jsonl}, one trial each, appended as trials end.
 *
 * <p>Each comparison names its test's statistic, {@code "statistic": {"name", "value", "df"}}: the
 * name one of {@link Statistic.Kind}'s ({@code welch-t}, {@code mann-whitney-u}, {@code yuen-t}),
 * {@code df} null where the statistic has none or they are undefined; and its minimum detectable
 * effect, {@code mde}, null where the test gives none. Schema {@value #EARLIER_SCHEMA} wrote Welch's
 * {@code t} and {@code df} in their place, and is still read.
 */
public final class ResultsJson {
    /** The schema of {@code results.json}. */
    public static final String SCHEMA = "perfab/results/v3";
    /**
     * The schema of the {@code results.json} that earlier perfab wrote, which is read as well: it
     * differs only in each comparison's statistic, which a reader classifies anew.
     */
    public static final String EARLIER_SCHEMA = "perfab/results/v2";
    /** The schema of each line of {@code trials.jsonl}. */
    public static final String TRIAL_SCHEMA = "perfab/trial/v1";

    private static final ObjectMapper PRETTY = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final ObjectMapper COMPACT = new ObjectMapper();

    private ResultsJson() {
    }

    /** Returns {@code results} as the text of {@code results.json}, ending with a newline. */
    public static String write(RunResults results) {
        ObjectNode root = PRETTY.createObjectNode();
        root.put("schema", SCHEMA);
        root.put("name", results.name());
        RunResults.Provenance p = results.provenance();
        ObjectNode refs = root.putObject("refs");
        refs.put("repository", p.repository());
        refs.putObject("base").put("typed", p.base().typed()).put("commit", p.base().commit());
        refs.putObject("head").put("typed", p.head().typed()).put("commit", p.head().commit());
        refs.put("mergeBase", p.mergeBase());
        refs.put("baseTree", p.baseTree());
        refs.put("headTree", p.headTree());
        refs.put("baseLabel", results.table().baseLabel());
        refs.put("headLabel", results.table().headLabel());
        root.put("aa", p.aa());
        RunResults.Machine m = results.machine();
        root.putObject("machine").put("cpu", m.cpu()).put("cores", m.cores()).put("os", m.os())
                .put("kernel", m.kernel()).put("jvm", m.jvm()).put("runner", m.runner());
        RunResults.Settings s = results.settings();
        ObjectNode settings = root.putObject("settings");
        settings.put("workload", s.workload()).put("trials", s.trials()).put("warmup", s.warmup())
                .put("builds", s.builds()).put("harnessFrom", s.harnessFrom()).put("format", s.format());
        if (s.seed().isPresent()) {
            settings.put("seed", s.seed().get());
        } else {
            settings.putNull("seed");
        }
        ArrayNode profiles = settings.putArray("profiles");
        s.profiles().forEach(profiles::add);
        if (s.padding().isPresent()) {
            settings.put("padding", s.padding().get());
        } else {
            settings.putNull("padding");
        }
        ArrayNode failOn = settings.putArray("failOn");
        s.failOn().forEach(v -> failOn.add(v.id()));
        ArrayNode harnessFiles = settings.putArray("harnessFiles");
        s.harnessFiles().forEach(f -> harnessFiles.addObject().put("path", f.path()).put("state", f.state().id()));
        settings.set("thresholds", thresholds(results.table().thresholds()));
        Pairing pairing = results.table().pairing();
        ObjectNode judged = root.putObject("pairing");
        judged.put("judged", pairing.judged()).put("cells", pairing.cells());
        number(judged, "p", pairing.p());
        number(judged, "moved", pairing.moved());
        number(judged, "narrower", pairing.narrower());
        root.put("startedAt", results.startedAt().toString());
        if (results.finishedAt().isPresent()) {
            root.put("finishedAt", results.finishedAt().get().toString());
        } else {
            root.putNull("finishedAt");
        }
        root.put("interrupted", results.interrupted());
        results.partial().ifPresent(k -> root.putObject("partial").put("look", k.look()).put("looks", k.looks()));
        RunResults.Timing t = results.timing();
        root.putObject("timing").put("totalSeconds", t.total()).put("checkoutSeconds", t.checkout())
                .put("buildSeconds", t.build()).put("trialSeconds", t.trials())
                .put("overheadSeconds", t.overhead());
        ObjectNode counts = root.putObject("counts");
        for (Map.Entry<Verdict, Integer> e : results.table().counts().entrySet()) {
            counts.put(e.getKey().id(), e.getValue());
        }
        ObjectNode benchmarks = root.putObject("benchmarks");
        for (Map.Entry<Verdict, Integer> e : results.table().benchmarks().entrySet()) {
            benchmarks.put(e.getKey().id(), e.getValue());
        }
        root.set("warnings", warnings(results.table().warnings()));
        ArrayNode rows = root.putArray("comparisons");
        for (CellComparison row : results.table().rows()) {
            rows.add(comparison(row, results.table().thresholds()));
        }
        results.sharding().ifPresent(sh -> {
            ObjectNode shards = root.putObject("shards");
            shards.put("count", sh.count());
            ArrayNode parts = shards.putArray("parts");
            for (Sharding.Part each : sh.parts()) {
                ObjectNode part = parts.addObject();
                part.put("index", each.index()).put("state", each.state().id()).put("runner", each.runner())
                        .put("listed", each.listed()).put("suite", each.suite()).put("cut", each.cut())
                        .put("trials", each.trials());
                ArrayNode names = part.putArray("benchmarks");
                each.benchmarks().forEach(names::add);
                if (!each.listing().isEmpty()) {
                    ArrayNode listing = part.putArray("listing");
                    each.listing().forEach(listing::add);
                }
            }
        });
        // Merged shards repeat trial numbers, one shard's after another's: each trial and
        // measurement says its shard.
        boolean merged = results.sharding().map(Sharding::merged).orElse(false);
        List<List<RunResults.TrialRecord>> byShard = Shards.trialsByShard(results);
        ArrayNode trials = root.putArray("trials");
        ArrayNode measurements = root.putArray("measurements");
        for (int k = 0; k < byShard.size(); k++) {
            for (RunResults.TrialRecord trial : byShard.get(k)) {
                ObjectNode node = trialNode(trial, false);
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
        return serialise(PRETTY, root) + "\n";
    }

    /** A noise floor past any change: an A/A run of this size finds none, however large, with 80% power. */
    static final String UNBOUNDED = "unbounded";

    /** Returns the infinite noise floor {@code text} names, or refuses another word. */
    private static double unbounded(String text) {
        if (!text.equals(UNBOUNDED)) {
            throw new IllegalArgumentException("a noise floor is a number, null or '" + UNBOUNDED + "', not '" + text
                    + "'");
        }
        return Double.POSITIVE_INFINITY;
    }

    /**
     * Returns the run the {@code results.json} at {@code file} holds (see {@link #read(String, String)}).
     *
     * @throws BadInputException naming {@code file} when it cannot be read or is not such a file
     */
    public static RunResults read(Path file) {
        String text = BadInputException.read(file);
        try {
            return read(text, file.toString());
        } catch (IllegalArgumentException e) {
            throw new BadInputException(file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Returns the run {@code text} (a {@code results.json} of schema {@value #SCHEMA} or
     * {@value #EARLIER_SCHEMA}) holds, its table classified anew from its measurements under its own
     * thresholds: the figures each comparison wrote, its statistic among them, are not read back, so
     * an earlier file's Welch {@code t} and {@code df} become the statistic of the test that judges
     * the cells now. Every field is checked: this file may come from an artifact a pull request's
     * code wrote. A trial listed twice (its side, its number and
     * whether it is a warm-up), or a cell measured twice in one trial, is an error naming both: it
     * would count twice.
     *
     * @throws BadInputException naming {@code shown} and the field when it is not such a file
     */
    public static RunResults read(String text, String shown) {
        StrictJson.Obj n = StrictJson.parse(text, List.of(SCHEMA, EARLIER_SCHEMA), shown);
        String name = n.text("name");
        StrictJson.Obj refs = n.object("refs");
        StrictJson.Obj base = refs.object("base");
        StrictJson.Obj head = refs.object("head");
        RunResults.Provenance provenance = new RunResults.Provenance(refs.text("repository"),
                new RunResults.Ref(base.text("typed"), base.text("commit")),
                new RunResults.Ref(head.text("typed"), head.text("commit")),
                refs.text("mergeBase"), refs.text("baseTree"), refs.text("headTree"), n.bool("aa"));
        base.done();
        head.done();
        String baseLabel = refs.text("baseLabel");
        String headLabel = refs.text("headLabel");
        refs.done();
        StrictJson.Obj m = n.object("machine");
        RunResults.Machine machine = new RunResults.Machine(m.text("cpu"), m.integer("cores", 0, 1 << 20), m.text("os"),
                m.text("kernel"), m.text("jvm"), m.text("runner"));
        m.done();
        StrictJson.Obj s = n.object("settings");
        List<Verdict> failOn = new ArrayList<>();
        for (String v : s.texts("failOn")) {
            failOn.add(s.check("failOn", () -> Verdict.fromId(v)));
        }
        Optional<Long> seed = s.isNull("seed") ? Optional.empty()
                : Optional.of(s.integer("seed", Long.MIN_VALUE, Long.MAX_VALUE));
        RunResults.Settings settings = new RunResults.Settings(s.text("workload"), s.integer("trials", 0, 1 << 20),
                s.integer("warmup", 0, 1 << 20), s.integer("builds", 1, 1 << 20), s.text("harnessFrom"),
                s.text("format"), seed,
                s.texts("profiles"), s.objects("harnessFiles", f -> new RunResults.HarnessFile(f.text("path"),
                        f.check("state", () -> RunResults.HarnessFile.State.of(f.text("state"))))), failOn,
                s.isNull("padding") ? Optional.empty()
                        : Optional.of(s.integer("padding", Long.MIN_VALUE, Long.MAX_VALUE)));
        Thresholds thresholds = thresholds(s, "thresholds");
        s.done();
        n.has("pairing"); // derived from the trials and the test
        Instant startedAt = n.check("startedAt", () -> instant(n.text("startedAt")));
        Optional<Instant> finishedAt = n.textOrNull("finishedAt").map(t -> n.check("finishedAt", () -> instant(t)));
        boolean interrupted = n.bool("interrupted");
        n.has("partial"); // derived from finishedAt and the settings
        StrictJson.Obj timing = n.object("timing");
        RunResults.Timing time = new RunResults.Timing(timing.number("totalSeconds"), timing.number("checkoutSeconds"),
                timing.number("buildSeconds"), timing.number("trialSeconds"));
        timing.has("overheadSeconds"); // derived from the others
        timing.done();
        n.has("counts"); // derived from the comparisons
        n.has("benchmarks"); // so is this
        List<Warning> warnings = n.objects("warnings", ResultsJson::warning);
        Set<CellId> profileCells = new HashSet<>();
        Map<CellId, List<FunctionChange>> functions = new HashMap<>();
        Map<CellId, Double> floors = new HashMap<>();
        Set<CellId> countedInstead = new HashSet<>();
        n.objects("comparisons", c -> {
            // Classified anew below; only which cells were profiles, the functions whose counts
            // moved, each row's noise floor and the rows counted instead are taken from here: what
            // the run knew beside its measurements.
            c.names().forEach(c::has);
            CellId id = new CellId(c.text("cell"), c.text("metric"));
            if (c.text("verdict").equals(Verdict.PROFILE.id())) {
                profileCells.add(id);
            }
            if (c.has("noiseFloor") && !c.isNull("noiseFloor")) {
                floors.put(id, c.check("noiseFloor", () -> c.isText("noiseFloor") ? unbounded(c.text("noiseFloor"))
                        : c.number("noiseFloor")));
            }
            if (c.has("caveats") && c.texts("caveats").contains(Caveat.COUNTED_INSTEAD.id())) {
                countedInstead.add(id);
            }
            if (c.has("functions")) {
                functions.put(id, c.objects("functions", f -> {
                    String function = f.text("function");
                    if (function.length() > FunctionChange.LONGEST
                            || function.codePoints().anyMatch(Character::isISOControl)) {
                        throw f.error("function", "not a function's name: " + (function.length()
                                > FunctionChange.LONGEST ? function.length() + " characters, past the "
                                + FunctionChange.LONGEST + " a symbol needs" : "it holds a control character"));
                    }
                    FunctionChange change = new FunctionChange(function, f.number("base"), f.number("head"));
                    f.done();
                    return change;
                }));
            }
            return c;
        });
        Optional<Sharding> sharding = n.has("shards") ? Optional.of(sharding(n.object("shards"), n)) : Optional.empty();
        boolean merged = sharding.isPresent() && sharding.get().merged();
        Map<List<Integer>, List<Measurement>> byTrial = new HashMap<>();
        Map<List<Object>, Integer> measured = new HashMap<>();
        int[] at = {0};
        n.objects("measurements", x -> {
            Measurement v = new Measurement(cell(x), side(x, "side"), x.integer("build", 0, 1 << 20),
                    x.integer("trial", 0, 1 << 30), x.number("value"));
            int shard = merged ? x.integer("shard", 1, Sharding.MAX_SHARDS) : 0;
            Integer first = measured.putIfAbsent(List.of(shard, v.cell().id(), v.side(), v.trial()), at[0]);
            if (first != null) {
                throw new BadInputException(shown + ": field 'measurements[" + at[0] + "]': cell " + v.cell().id()
                        + " of " + RunResults.TrialRecord.named(v.side(), false, v.trial()) + " is measurements["
                        + first + "] too, and a trial has one value per cell: it would count twice");
            }
            at[0]++;
            byTrial.computeIfAbsent(List.of(shard, v.side().ordinal(), v.build(), v.trial()), k -> new ArrayList<>())
                    .add(v);
            return v;
        });
        Map<List<Object>, Integer> ran = new HashMap<>();
        int[] index = {0};
        List<Integer> shardOfTrial = new ArrayList<>();
        List<RunResults.TrialRecord> trials = n.objects("trials", t -> {
            int shard = merged ? t.integer("shard", 1, Sharding.MAX_SHARDS) : 0;
            RunResults.TrialRecord r = trial(t, List.of());
            Integer first = ran.putIfAbsent(List.of(shard, r.side(), r.warmup(), r.trial()), index[0]);
            if (first != null) {
                throw new BadInputException(shown + ": field 'trials[" + index[0] + "]': " + r.named() + " is trials["
                        + first + "] too, and its measurements would count twice");
            }
            index[0]++;
            shardOfTrial.add(shard);
            List<Measurement> own = r.warmup() || r.status() != RunResults.Status.OK ? List.of()
                    : byTrial.getOrDefault(List.of(shard, r.side().ordinal(), r.build(), r.trial()), List.of());
            return r.withMeasurements(own);
        });
        n.done();
        ComparisonTable judged;
        List<List<RunResults.TrialRecord>> byShard = new ArrayList<>();
        if (merged) {
            int from = 0;
            for (Sharding.Part p : sharding.get().parts()) {
                int to = from + p.trials();
                boolean own = to <= trials.size();
                for (int j = from; own && j < to; j++) {
                    own = shardOfTrial.get(j) == p.index();
                }
                if (!own) {
                    throw new BadInputException(shown + ": field 'shards': shard " + p.index() + " holds " + p.trials()
                            + " trials, which are not the trials of shard " + p.index() + " in 'trials'");
                }
                byShard.add(trials.subList(from, to));
                from = to;
            }
            if (from != trials.size()) {
                throw new BadInputException(shown + ": field 'shards': the shards hold " + from + " of the "
                        + trials.size() + " trials");
            }
            // Shards measure disjoint cells: one in two would be judged on both shards' trials.
            Map<CellId, Integer> shardOfCell = new HashMap<>();
            for (List<Object> key : measured.keySet()) {
                Integer other = shardOfCell.putIfAbsent((CellId) key.get(1), (Integer) key.get(0));
                if (other != null && !other.equals(key.get(0))) {
                    throw new BadInputException(shown + ": field 'measurements': cell " + key.get(1) + " is measured"
                            + " by shards " + other + " and " + key.get(0) + ", which measure disjoint cells");
                }
            }
            judged = n.check("measurements", () -> Judge.table(baseLabel, headLabel, byShard, thresholds,
                    cell -> profileCells.contains(cell.id())));
        } else {
            judged = n.check("measurements", () -> Judge.table(baseLabel, headLabel, List.of(trials), thresholds,
                    cell -> profileCells.contains(cell.id())));
        }
        ComparisonTable table = judged.withWarnings(warnings)
                .withFunctions(r -> functions.getOrDefault(r.cell().id(), List.of()))
                .withNoiseFloors(r -> floors.getOrDefault(r.cell().id(), Double.NaN))
                .countedInstead(r -> countedInstead.contains(r.cell().id()));
        if (merged) {
            table = Shards.withUnmeasured(table, sharding.get(), byShard);
        }
        return new RunResults(name, provenance, machine, settings, startedAt, finishedAt, interrupted, time, trials, table,
                sharding);
    }

    /** How far into a results file that does not read {@link #unreadable} looks for the shard it says it is, in bytes. */
    static final long SALVAGED = 64L << 20;

    /**
     * Returns what a shard's results file that does not read says of itself before its fault: the
     * shard it is ({@code shards.count} and {@code shards.parts[0].index}) and the commits it
     * measured ({@code refs.mergeBase}, {@code refs.head.commit}), as {@link Shards.Unreadable}
     * keeps them; {@code reason} is why it does not read. The file is read as a stream, at most its
     * first {@value #SALVAGED} bytes, and nothing in it is trusted beyond naming the shard it says it is.
     */
    public static Shards.Unreadable unreadable(Path file, String reason) {
        Map<String, String> said = new HashMap<>();
        List<String> wanted = List.of("/refs/mergeBase", "/refs/head/commit", "/shards/count", "/shards/parts/0/index");
        try (com.fasterxml.jackson.core.JsonParser p = COMPACT.getFactory().createParser(file.toFile())) {
            for (var t = p.nextToken(); t != null && said.size() < wanted.size()
                    && p.currentLocation().getByteOffset() < SALVAGED; t = p.nextToken()) {
                if (t.isScalarValue()) {
                    String at = p.getParsingContext().pathAsPointer().toString();
                    if (wanted.contains(at)) {
                        said.putIfAbsent(at, p.getValueAsString(""));
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // Read as far as it reads: what came before the fault stands.
        }
        Optional<Sharding.Shard> shard;
        try {
            shard = Optional.of(new Sharding.Shard(Integer.parseInt(said.getOrDefault("/shards/parts/0/index", "")),
                    Integer.parseInt(said.getOrDefault("/shards/count", ""))));
        } catch (IllegalArgumentException e) {
            shard = Optional.empty();
        }
        String mergeBase = said.getOrDefault("/refs/mergeBase", "");
        String head = said.getOrDefault("/refs/head/commit", "");
        return new Shards.Unreadable(file.toString(), reason, shard,
                mergeBase.isEmpty() || head.isEmpty() ? "" : mergeBase + ".." + head);
    }

    private static Sharding sharding(StrictJson.Obj node, StrictJson.Obj root) {
        int count = node.integer("count", 1, Sharding.MAX_SHARDS);
        List<Sharding.Part> parts = node.objects("parts", p -> {
            Sharding.Part part = p.check("index", () -> new Sharding.Part(p.integer("index", 1, count),
                    p.check("state", () -> Sharding.State.of(p.text("state"))), p.text("runner"),
                    p.integer("listed", 0, Integer.MAX_VALUE), p.text("suite"),
                    p.has("cut") ? p.text("cut") : Sharding.BY_COUNT, p.texts("benchmarks"),
                    p.integer("trials", 0, Integer.MAX_VALUE), p.has("listing") ? p.texts("listing") : List.of()));
            p.done();
            return part;
        });
        node.done();
        return root.check("shards", () -> new Sharding(count, parts));
    }

    private static Instant instant(String text) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("'" + text + "' is not a time such as 2026-11-01T10:00:00Z");
        }
    }

    private static Cell cell(StrictJson.Obj x) {
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

    /** Reads the fields every trial has, in results.json and in trials.jsonl alike. */
    private static RunResults.TrialRecord trial(StrictJson.Obj t, List<Measurement> measurements) {
        return new RunResults.TrialRecord(t.integer("seq", 0, Integer.MAX_VALUE), side(t, "side"),
                t.integer("build", 0, 1 << 20), t.integer("trial", 0, 1 << 30), t.bool("warmup"), status(t),
                t.text("reason"), t.number("wallSeconds"), t.text("stderrTail"), measurements,
                t.has("leftovers") ? t.texts("leftovers") : List.of(),
                t.has("logBytesCut") ? t.integer("logBytesCut", 0L, Long.MAX_VALUE) : 0, load(t), seconds(t),
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
        Load.CpuClock clock = l.has("cpuClock") ? l.check("cpuClock", () -> Load.CpuClock.of(l.text("cpuClock")))
                : Load.CpuClock.UNTOLD;
        l.done();
        return Optional.of(t.check("load", () -> new Load(wall, cpu, others, steal, queue, queueMax, clock)));
    }

    private static Warning warning(StrictJson.Obj w) {
        Warning.Kind kind = w.check("kind", () -> Warning.Kind.of(w.text("kind")));
        int count = w.integer("count", 0, Integer.MAX_VALUE);
        List<String> subjects = w.texts("subjects");
        StrictJson.Obj f = w.object("figures");
        Map<String, Long> figures = new TreeMap<>();
        for (String name : f.names()) {
            figures.put(name, f.integer(name, Long.MIN_VALUE, Long.MAX_VALUE));
        }
        f.done();
        return w.check("subjects", () -> new Warning(kind, count, subjects, figures));
    }

    private static String abbreviate(String id) {
        return Ids.shortId(id);
    }

    /** Returns one line of {@code trials.jsonl} for {@code trial}, without a newline. */
    public static String trialLine(RunResults.TrialRecord trial) {
        ObjectNode node = trialNode(trial, true);
        return serialise(COMPACT, node);
    }

    /**
     * Returns the trial a line of {@code trials.jsonl} holds; {@code shown} names the line in
     * messages.
     *
     * @throws BadInputException when the line is not one (a line torn by a kill, say)
     */
    public static RunResults.TrialRecord readTrialLine(String line, String shown) {
        StrictJson.Obj n = StrictJson.parse(line, TRIAL_SCHEMA, shown);
        RunResults.TrialRecord r = trial(n, List.of());
        List<Measurement> ms = n.objects("measurements", x -> new Measurement(cell(x), r.side(), r.build(), r.trial(),
                x.number("value")));
        n.done();
        return r.withMeasurements(ms);
    }

    private static ObjectNode trialNode(RunResults.TrialRecord t, boolean withMeasurements) {
        ObjectNode node = COMPACT.createObjectNode();
        if (withMeasurements) {
            node.put("schema", TRIAL_SCHEMA);
        }
        node.put("seq", t.seq()).put("side", t.side().id()).put("build", t.build()).put("trial", t.trial())
                .put("warmup", t.warmup()).put("status", t.status().id()).put("reason", t.reason())
                .put("wallSeconds", t.wallSeconds()).put("stderrTail", t.stderrTail());
        if (!t.leftovers().isEmpty()) {
            ArrayNode leftovers = node.putArray("leftovers");
            t.leftovers().forEach(leftovers::add);
        }
        if (t.logBytesCut() > 0) {
            node.put("logBytesCut", t.logBytesCut());
        }
        if (t.load().isPresent()) {
            Load l = t.load().get();
            node.putObject("load").put("wallSeconds", l.wallSeconds()).put("cpuSeconds", l.cpuSeconds())
                    .put("othersCores", l.othersCores()).put("stealShare", l.stealShare())
                    .put("runQueueMean", l.runQueueMean()).put("runQueueMax", l.runQueueMax());
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
                ms.addObject().put("cell", m.cell().name()).put("metric", m.cell().metric())
                        .put("unit", m.cell().unit()).put("direction", m.cell().direction().id())
                        .put("value", m.value());
            }
        }
        return node;
    }

    private static ObjectNode measurement(Measurement m) {
        ObjectNode node = COMPACT.createObjectNode();
        node.put("cell", m.cell().name()).put("metric", m.cell().metric()).put("unit", m.cell().unit())
                .put("direction", m.cell().direction().id()).put("side", m.side().id())
                .put("build", m.build()).put("trial", m.trial()).put("value", m.value());
        return node;
    }

    private static String serialise(ObjectMapper mapper, JsonNode node) {
        try {
            return mapper.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree failed to serialise", e);
        }
    }

    /** Returns the JSON of verdict settings. */
    public static ObjectNode thresholds(Thresholds t) {
        ObjectNode node = COMPACT.createObjectNode();
        node.put("alpha", t.alpha());
        node.put("minEffect", t.minEffect());
        node.put("inconclusive", t.inconclusive());
        number(node, "fdr", t.fdr());
        // Left out when they follow the minimum effect (the default), as files before them were.
        if (!Double.isNaN(t.outlierFloor())) {
            node.put("outlierFloor", t.outlierFloor());
        }
        if (!Double.isNaN(t.noisyAbove())) {
            node.put("noisyAbove", t.noisyAbove());
        }
        if (t.adaptive().isPresent()) {
            node.putObject("adaptive").put("first", t.adaptive().get().first()).put("max", t.adaptive().get().max());
        } else {
            node.putNull("adaptive");
        }
        node.put("test", t.test().id());
        return node;
    }

    /**
     * Returns the verdict settings in the object {@code name} of {@code parent}, as
     * {@link #thresholds(Thresholds)} writes them.
     *
     * @throws BadInputException naming the field when they are not valid
     */
    public static Thresholds thresholds(StrictJson.Obj parent, String name) {
        StrictJson.Obj th = parent.object(name);
        Optional<Sequential> adaptive = Optional.empty();
        if (th.has("adaptive") && !th.isNull("adaptive")) {
            StrictJson.Obj a = th.object("adaptive");
            int first = a.integer("first", 2, 1 << 20);
            int max = a.integer("max", first, 1 << 20);
            a.done();
            adaptive = Optional.of(new Sequential(first, max));
        }
        Optional<Sequential> looks = adaptive;
        // Files from before the outlier floor and the underpowered cut were settings of their own lack
        // them: both were the minimum effect. Files from before the test was a setting were judged
        // by Welch's test alone.
        TrialTest test = th.has("test") ? th.check("test", () -> TrialTest.fromId(th.text("test"))) : TrialTest.WELCH;
        Thresholds thresholds = parent.check(name, () -> new Thresholds(th.number("alpha"), th.number("minEffect"),
                th.number("inconclusive"), th.has("fdr") ? th.numberOrNaN("fdr") : Double.NaN,
                th.has("outlierFloor") ? th.numberOrNaN("outlierFloor") : Double.NaN,
                th.has("noisyAbove") ? th.numberOrNaN("noisyAbove") : Double.NaN, looks).withTest(test));
        th.done();
        return thresholds;
    }

    /**
     * Returns the JSON of one classified row, as results.json and the comparison JSON hold it;
     * {@code thresholds} are the table's, which the row's detectable change depends on.
     */
    public static ObjectNode comparison(CellComparison row, Thresholds thresholds) {
        Cell cell = row.cell();
        ObjectNode node = COMPACT.createObjectNode();
        node.put("cell", cell.name());
        node.put("metric", cell.metric());
        node.put("unit", cell.unit());
        node.put("direction", cell.direction().id());
        statistics(node, row.comparison(), thresholds);
        node.put("decidedBy", row.byBuilds() ? "build-medians" : "trials");
        if (row.sameAs().isPresent()) {
            node.putObject("sameAs").put("cell", row.sameAs().get().name()).put("metric", row.sameAs().get().metric());
        } else {
            node.putNull("sameAs");
        }
        number(node, "buildSpread", row.buildSpread());
        if (row.noiseFloor() == Double.POSITIVE_INFINITY) {
            node.put("noiseFloor", UNBOUNDED); // no change, however large, found with 80% power
        } else {
            number(node, "noiseFloor", row.noiseFloor());
        }
        if (!row.functions().isEmpty()) {
            ArrayNode functions = node.putArray("functions");
            for (FunctionChange f : row.functions()) {
                functions.addObject().put("function", f.function()).put("base", f.base()).put("head", f.head());
            }
        }
        if (row.look().isPresent()) {
            Look l = row.look().get();
            node.putObject("look").put("look", l.look()).put("looks", l.looks()).put("trials", l.trials())
                    .put("alpha", l.alpha());
        } else {
            node.putNull("look");
        }
        ArrayNode outliers = node.putArray("outliers");
        for (Outlier o : row.outliers()) {
            ObjectNode x = outliers.addObject().put("side", o.side().id()).put("build", o.build()).put("trial", o.trial())
                    .put("value", o.value());
            number(x, "deviation", o.deviation());
        }
        if (row.trialLevel().isPresent()) {
            node.set("trialLevel", statistics(COMPACT.createObjectNode(), row.trialLevel().get(), thresholds));
        } else {
            node.putNull("trialLevel");
        }
        // Welch's test beside the pairs that judged: written only then, derived again when read.
        row.welch().ifPresent(w -> node.set("welch", statistics(COMPACT.createObjectNode(), w, thresholds)));
        return node;
    }

    private static ObjectNode statistics(ObjectNode node, Comparison c, Thresholds thresholds) {
        node.put("verdict", c.verdict().id());
        number(node, "pctChange", c.pctChange());
        if (Double.isNaN(c.ciLow()) || Double.isNaN(c.ciHigh())) {
            node.putNull("ci95");
        } else {
            node.putArray("ci95").add(c.ciLow()).add(c.ciHigh());
        }
        number(node, "pValue", c.pValue());
        number(node, "qValue", c.qValue());
        node.set("statistic", statistic(c.statistic()));
        number(node, "mde", c.mde());
        number(node, "detectable", c.detectable(thresholds));
        node.set("base", summary(c.base()));
        node.set("head", summary(c.head()));
        ArrayNode caveats = node.putArray("caveats");
        for (Caveat caveat : c.caveats()) {
            caveats.add(caveat.id());
        }
        return node;
    }

    private static ObjectNode statistic(Statistic s) {
        ObjectNode node = COMPACT.createObjectNode();
        node.put("name", s.kind().id());
        number(node, "value", s.value());
        number(node, "df", s.df());
        return node;
    }

    private static ObjectNode summary(Summary s) {
        ObjectNode node = COMPACT.createObjectNode();
        node.put("n", s.n());
        number(node, "mean", s.mean());
        number(node, "median", s.median());
        number(node, "stddev", s.stddev());
        number(node, "cv", s.cv());
        number(node, "min", s.min());
        number(node, "max", s.max());
        return node;
    }

    /** Puts {@code value} into {@code node} as {@code name}, null when it is not finite (an undefined figure). */
    public static void number(ObjectNode node, String name, double value) {
        if (Double.isFinite(value)) {
            node.put(name, value);
        } else {
            node.putNull(name);
        }
    }

    /** Puts {@code value} into {@code node} as {@code name}, null when it is absent or not finite. */
    private static void number(ObjectNode node, String name, OptionalDouble value) {
        number(node, name, value.orElse(Double.NaN));
    }

    /** Returns the JSON of {@code warnings}: each its kind, count, subjects and figures. */
    public static ArrayNode warnings(List<Warning> warnings) {
        ArrayNode array = COMPACT.createArrayNode();
        for (Warning w : warnings) {
            ObjectNode node = array.addObject();
            node.put("kind", w.kind().id()).put("count", w.count());
            ArrayNode subjects = node.putArray("subjects");
            w.subjects().forEach(subjects::add);
            ObjectNode figures = node.putObject("figures");
            w.figures().forEach(figures::put);
        }
        return array;
    }
}
