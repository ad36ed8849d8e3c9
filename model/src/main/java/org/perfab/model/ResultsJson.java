package org.perfab.model;

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
import java.util.Set;
import org.perfab.failure.BadInputException;
import org.perfab.stats.Caveat;
import org.perfab.stats.Pairing;
import org.perfab.stats.Thresholds;
import org.perfab.stats.Verdict;

/**
 * The file of a run, {@code results.json} (schema {@value #SCHEMA}): written whole, and read back
 * with every field checked and the table judged anew. Its parts have JSON of their own: the rows,
 * verdict settings and warnings ({@link TableJson}), the trials and measurements ({@link TrialJson},
 * whose lines make {@code trials.jsonl}), and the shards ({@link ShardsJson}). Schema
 * {@value #EARLIER_SCHEMA} wrote Welch's {@code t} and {@code df} in place of each comparison's
 * statistic, and is still read.
 */
public final class ResultsJson {
    /** The schema of {@code results.json}. */
    public static final String SCHEMA = "perfab/results/v3";
    /**
     * The schema of the {@code results.json} that earlier perfab wrote, which is read as well: it
     * differs only in each comparison's statistic, which a reader classifies anew.
     */
    public static final String EARLIER_SCHEMA = "perfab/results/v2";

    private static final ObjectMapper PRETTY = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final ObjectMapper COMPACT = new ObjectMapper();

    private ResultsJson() {}

    /** Returns {@code results} as the text of {@code results.json}, ending with a newline. */
    public static String write(RunResults results) {
        ObjectNode root = PRETTY.createObjectNode();
        root.put("schema", SCHEMA);
        root.put("name", results.name());
        writeRefs(root, results);
        root.put("aa", results.provenance().aa());
        RunResults.Machine m = results.machine();
        root.putObject("machine")
                .put("cpu", m.cpu())
                .put("cores", m.cores())
                .put("os", m.os())
                .put("kernel", m.kernel())
                .put("jvm", m.jvm())
                .put("runner", m.runner());
        writeSettings(
                root.putObject("settings"), results.settings(), results.table().thresholds());
        Pairing pairing = results.table().pairing();
        ObjectNode judged = root.putObject("pairing");
        judged.put("judged", pairing.judged()).put("cells", pairing.cells());
        TableJson.number(judged, "p", pairing.p());
        TableJson.number(judged, "moved", pairing.moved());
        TableJson.number(judged, "narrower", pairing.narrower());
        root.put("startedAt", results.startedAt().toString());
        if (results.finishedAt().isPresent()) {
            root.put("finishedAt", results.finishedAt().get().toString());
        } else {
            root.putNull("finishedAt");
        }
        root.put("interrupted", results.interrupted());
        results.partial()
                .ifPresent(k -> root.putObject("partial").put("look", k.look()).put("looks", k.looks()));
        RunResults.Timing t = results.timing();
        root.putObject("timing")
                .put("totalSeconds", t.total())
                .put("checkoutSeconds", t.checkout())
                .put("buildSeconds", t.build())
                .put("trialSeconds", t.trials())
                .put("overheadSeconds", t.overhead());
        TableJson.write(root, results.table());
        results.sharding().ifPresent(sh -> ShardsJson.write(root, sh));
        TrialJson.write(root, results);
        return TrialJson.serialise(PRETTY, root) + "\n";
    }

    private static void writeRefs(ObjectNode root, RunResults results) {
        RunResults.Provenance p = results.provenance();
        ObjectNode refs = root.putObject("refs");
        refs.put("repository", p.repository());
        refs.putObject("base")
                .put("typed", p.base().typed())
                .put("commit", p.base().commit());
        refs.putObject("head")
                .put("typed", p.head().typed())
                .put("commit", p.head().commit());
        refs.put("mergeBase", p.mergeBase());
        refs.put("baseTree", p.baseTree());
        refs.put("headTree", p.headTree());
        refs.put("baseLabel", results.table().baseLabel());
        refs.put("headLabel", results.table().headLabel());
    }

    private static void writeSettings(ObjectNode settings, RunResults.Settings s, Thresholds thresholds) {
        settings.put("workload", s.workload())
                .put("trials", s.trials())
                .put("warmup", s.warmup())
                .put("builds", s.builds())
                .put("harnessFrom", s.harnessFrom())
                .put("format", s.format());
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
        s.harnessFiles()
                .forEach(f -> harnessFiles
                        .addObject()
                        .put("path", f.path())
                        .put("state", f.state().id()));
        settings.set("thresholds", TableJson.thresholds(thresholds));
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
        Refs refs = readRefs(n);
        StrictJson.Obj m = n.object("machine");
        RunResults.Machine machine = new RunResults.Machine(
                m.text("cpu"),
                m.integer("cores", 0, 1 << 20),
                m.text("os"),
                m.text("kernel"),
                m.text("jvm"),
                m.text("runner"));
        m.done();
        StrictJson.Obj s = n.object("settings");
        RunResults.Settings settings = readSettings(s);
        Thresholds thresholds = TableJson.thresholds(s, "thresholds");
        s.done();
        n.has("pairing"); // derived from the trials and the test
        Instant startedAt = n.check("startedAt", () -> instant(n.text("startedAt")));
        Optional<Instant> finishedAt = n.textOrNull("finishedAt").map(t -> n.check("finishedAt", () -> instant(t)));
        boolean interrupted = n.bool("interrupted");
        n.has("partial"); // derived from finishedAt and the settings
        StrictJson.Obj timing = n.object("timing");
        RunResults.Timing time = new RunResults.Timing(
                timing.number("totalSeconds"),
                timing.number("checkoutSeconds"),
                timing.number("buildSeconds"),
                timing.number("trialSeconds"));
        timing.has("overheadSeconds"); // derived from the others
        timing.done();
        n.has("counts"); // derived from the comparisons
        n.has("benchmarks"); // so is this
        List<Warning> warnings = n.objects("warnings", TableJson::warning);
        RowFacts facts = readRows(n);
        Optional<Sharding> sharding =
                n.has("shards") ? Optional.of(ShardsJson.read(n.object("shards"), n)) : Optional.empty();
        boolean merged = sharding.isPresent() && sharding.get().merged();
        TrialJson.Measurements measurements = TrialJson.measurements(n, merged, shown);
        TrialJson.Trials trials = TrialJson.trials(n, merged, measurements, shown);
        n.done();
        List<List<RunResults.TrialRecord>> byShard = merged
                ? ShardsJson.byShard(sharding.get(), trials.trials(), trials.shards(), measurements.measured(), shown)
                : List.of(trials.trials());
        ComparisonTable table = facts.on(n.check(
                        "measurements",
                        () -> Judge.table(refs.baseLabel(), refs.headLabel(), byShard, thresholds, facts::profile))
                .withWarnings(warnings));
        if (merged) {
            table = Shards.withUnmeasured(table, sharding.get(), byShard);
        }
        return new RunResults(
                name,
                refs.provenance(),
                machine,
                settings,
                startedAt,
                finishedAt,
                interrupted,
                time,
                trials.trials(),
                table,
                sharding);
    }

    /** The {@code refs} of a results file: the run's provenance, and the labels of its sides. */
    private record Refs(RunResults.Provenance provenance, String baseLabel, String headLabel) {}

    private static Refs readRefs(StrictJson.Obj n) {
        StrictJson.Obj refs = n.object("refs");
        StrictJson.Obj base = refs.object("base");
        StrictJson.Obj head = refs.object("head");
        RunResults.Provenance provenance = new RunResults.Provenance(
                refs.text("repository"),
                new RunResults.Ref(base.text("typed"), base.text("commit")),
                new RunResults.Ref(head.text("typed"), head.text("commit")),
                refs.text("mergeBase"),
                refs.text("baseTree"),
                refs.text("headTree"),
                n.bool("aa"));
        base.done();
        head.done();
        String baseLabel = refs.text("baseLabel");
        String headLabel = refs.text("headLabel");
        refs.done();
        return new Refs(provenance, baseLabel, headLabel);
    }

    /** Returns the run's settings in {@code s}, but for its thresholds. */
    private static RunResults.Settings readSettings(StrictJson.Obj s) {
        List<Verdict> failOn = new ArrayList<>();
        for (String v : s.texts("failOn")) {
            failOn.add(s.check("failOn", () -> Verdict.fromId(v)));
        }
        Optional<Long> seed =
                s.isNull("seed") ? Optional.empty() : Optional.of(s.integer("seed", Long.MIN_VALUE, Long.MAX_VALUE));
        return new RunResults.Settings(
                s.text("workload"),
                s.integer("trials", 0, 1 << 20),
                s.integer("warmup", 0, 1 << 20),
                s.integer("builds", 1, 1 << 20),
                s.text("harnessFrom"),
                s.text("format"),
                seed,
                s.texts("profiles"),
                s.objects(
                        "harnessFiles",
                        f -> new RunResults.HarnessFile(
                                f.text("path"),
                                f.check("state", () -> RunResults.HarnessFile.State.of(f.text("state"))))),
                failOn,
                s.isNull("padding")
                        ? Optional.empty()
                        : Optional.of(s.integer("padding", Long.MIN_VALUE, Long.MAX_VALUE)));
    }

    /**
     * Returns what the {@code comparisons} of {@code n} knew beside the measurements: which cells were
     * profiles, the functions whose counts moved, each row's noise floor and the rows counted
     * instead. The rows are classified anew; nothing else of them is taken.
     */
    private static RowFacts readRows(StrictJson.Obj n) {
        Set<CellId> profiles = new HashSet<>();
        Map<CellId, List<FunctionChange>> functions = new HashMap<>();
        Map<CellId, Double> floors = new HashMap<>();
        Set<CellId> countedInstead = new HashSet<>();
        n.objects("comparisons", c -> {
            c.names().forEach(c::has);
            CellId id = new CellId(c.text("cell"), c.text("metric"));
            if (c.text("verdict").equals(Verdict.PROFILE.id())) {
                profiles.add(id);
            }
            if (c.has("noiseFloor") && !c.isNull("noiseFloor")) {
                floors.put(
                        id,
                        c.check(
                                "noiseFloor",
                                () -> c.isText("noiseFloor")
                                        ? TableJson.unbounded(c.text("noiseFloor"))
                                        : c.number("noiseFloor")));
            }
            if (c.has("caveats") && c.texts("caveats").contains(Caveat.COUNTED_INSTEAD.id())) {
                countedInstead.add(id);
            }
            if (c.has("functions")) {
                functions.put(id, c.objects("functions", ResultsJson::function));
            }
            return c;
        });
        return new RowFacts(profiles, functions, floors, countedInstead);
    }

    /** Returns the function whose count moved that {@code f} holds, its name checked: a pull request's code named it. */
    private static FunctionChange function(StrictJson.Obj f) {
        String function = f.text("function");
        if (function.length() > FunctionChange.LONGEST || function.codePoints().anyMatch(Character::isISOControl)) {
            throw f.error(
                    "function",
                    "not a function's name: "
                            + (function.length() > FunctionChange.LONGEST
                                    ? function.length() + " characters, past the " + FunctionChange.LONGEST
                                            + " a symbol needs"
                                    : "it holds a control character"));
        }
        FunctionChange change = new FunctionChange(function, f.number("base"), f.number("head"));
        f.done();
        return change;
    }

    private static Instant instant(String text) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("'" + text + "' is not a time such as 2026-11-01T10:00:00Z");
        }
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
            for (var t = p.nextToken();
                    t != null
                            && said.size() < wanted.size()
                            && p.currentLocation().getByteOffset() < SALVAGED;
                    t = p.nextToken()) {
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
            shard = Optional.of(new Sharding.Shard(
                    Integer.parseInt(said.getOrDefault("/shards/parts/0/index", "")),
                    Integer.parseInt(said.getOrDefault("/shards/count", ""))));
        } catch (IllegalArgumentException e) {
            shard = Optional.empty();
        }
        String mergeBase = said.getOrDefault("/refs/mergeBase", "");
        String head = said.getOrDefault("/refs/head/commit", "");
        return new Shards.Unreadable(
                file.toString(), reason, shard, mergeBase.isEmpty() || head.isEmpty() ? "" : mergeBase + ".." + head);
    }
}
