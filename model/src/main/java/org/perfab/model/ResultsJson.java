package org.perfab.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.perfab.stats.Caveat;
import org.perfab.stats.Comparison;
import org.perfab.stats.Direction;
import org.perfab.stats.Summary;
import org.perfab.stats.Thresholds;
import org.perfab.stats.Verdict;

/**
 * The JSON forms of a run: {@code results.json} (schema {@value #SCHEMA}) and the lines of
 * {@code trials.jsonl}, one trial each, appended as trials end.
 */
public final class ResultsJson {
    /** The schema of {@code results.json}. */
    public static final String SCHEMA = "perfab/results/v1";
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
        ArrayNode failOn = settings.putArray("failOn");
        s.failOn().forEach(v -> failOn.add(v.id()));
        ArrayNode harnessFiles = settings.putArray("harnessFiles");
        s.harnessFiles().forEach(f -> harnessFiles.addObject().put("path", f.path()).put("state", f.state().id()));
        settings.set("thresholds", thresholds(results.table().thresholds()));
        root.put("startedAt", results.startedAt().toString());
        if (results.finishedAt().isPresent()) {
            root.put("finishedAt", results.finishedAt().get().toString());
        } else {
            root.putNull("finishedAt");
        }
        root.put("interrupted", results.interrupted());
        RunResults.Timing t = results.timing();
        root.putObject("timing").put("totalSeconds", t.total()).put("checkoutSeconds", t.checkout())
                .put("buildSeconds", t.build()).put("trialSeconds", t.trials())
                .put("overheadSeconds", t.overhead());
        ObjectNode counts = root.putObject("counts");
        for (Map.Entry<Verdict, Integer> e : results.table().counts().entrySet()) {
            counts.put(e.getKey().id(), e.getValue());
        }
        root.set("warnings", warnings(results.table().warnings()));
        ArrayNode rows = root.putArray("comparisons");
        for (CellComparison row : results.table().rows()) {
            rows.add(comparison(row));
        }
        ArrayNode trials = root.putArray("trials");
        for (RunResults.TrialRecord trial : results.trials()) {
            ObjectNode node = trialNode(trial, false);
            trials.add(node);
        }
        ArrayNode measurements = root.putArray("measurements");
        for (Measurement x : results.measurements()) {
            measurements.add(measurement(x));
        }
        return serialise(PRETTY, root) + "\n";
    }

    /**
     * Returns the run {@code text} (a {@code results.json}) holds, its table classified anew from
     * its measurements under its own thresholds.
     *
     * @throws IllegalArgumentException naming what is wrong when it is not such a file
     */
    public static RunResults read(String text) {
        JsonNode n;
        try {
            n = COMPACT.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("malformed JSON at line " + e.getLocation().getLineNr() + ", column "
                    + e.getLocation().getColumnNr() + ": " + e.getOriginalMessage(), e);
        }
        if (n == null || !SCHEMA.equals(n.path("schema").asText())) {
            throw new IllegalArgumentException("not a perfab run: expected \"schema\": \"" + SCHEMA + "\"");
        }
        try {
            return readRun(n);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("a " + SCHEMA + " file with a missing or bad field: " + e.getMessage(), e);
        }
    }

    private static RunResults readRun(JsonNode n) {
        JsonNode refs = n.path("refs");
        RunResults.Provenance provenance = new RunResults.Provenance(refs.path("repository").asText(),
                new RunResults.Ref(refs.at("/base/typed").asText(), refs.at("/base/commit").asText()),
                new RunResults.Ref(refs.at("/head/typed").asText(), refs.at("/head/commit").asText()),
                refs.path("mergeBase").asText(), refs.path("baseTree").asText(), refs.path("headTree").asText(),
                n.path("aa").asBoolean());
        JsonNode m = n.path("machine");
        RunResults.Machine machine = new RunResults.Machine(m.path("cpu").asText(), m.path("cores").asInt(),
                m.path("os").asText(), m.path("kernel").asText(), m.path("jvm").asText(), m.path("runner").asText());
        JsonNode s = n.path("settings");
        List<String> profiles = new ArrayList<>();
        s.path("profiles").forEach(x -> profiles.add(x.asText()));
        List<RunResults.HarnessFile> harnessFiles = new ArrayList<>();
        s.path("harnessFiles").forEach(x -> harnessFiles.add(new RunResults.HarnessFile(x.path("path").asText(),
                RunResults.HarnessFile.State.of(x.path("state").asText()))));
        RunResults.Settings settings = new RunResults.Settings(s.path("workload").asText(), s.path("trials").asInt(),
                s.path("warmup").asInt(), s.path("builds").asInt(), s.path("harnessFrom").asText(),
                s.path("format").asText(),
                s.path("seed").isNull() || s.path("seed").isMissingNode() ? java.util.Optional.empty()
                        : java.util.Optional.of(s.path("seed").asLong()),
                profiles, harnessFiles, failOn(s.path("failOn")));
        JsonNode th = s.path("thresholds");
        org.perfab.stats.Thresholds thresholds = new org.perfab.stats.Thresholds(th.path("alpha").asDouble(),
                th.path("minEffect").asDouble(), th.path("inconclusive").asDouble());
        List<Measurement> measurements = new ArrayList<>();
        for (JsonNode x : n.path("measurements")) {
            measurements.add(new Measurement(cell(x), side(x), x.path("build").asInt(), x.path("trial").asInt(),
                    x.path("value").asDouble()));
        }
        java.util.Map<List<Integer>, List<Measurement>> byTrial = new java.util.HashMap<>();
        for (Measurement x : measurements) {
            byTrial.computeIfAbsent(List.of(x.side().ordinal(), x.build(), x.trial()), k -> new ArrayList<>()).add(x);
        }
        List<RunResults.TrialRecord> trials = new ArrayList<>();
        for (JsonNode t : n.path("trials")) {
            Side side = side(t);
            boolean warmup = t.path("warmup").asBoolean();
            RunResults.Status status = status(t);
            List<Measurement> own = warmup || status != RunResults.Status.OK ? List.of()
                    : byTrial.getOrDefault(List.of(side.ordinal(), t.path("build").asInt(), t.path("trial").asInt()),
                            List.of());
            trials.add(new RunResults.TrialRecord(t.path("seq").asInt(), side, t.path("build").asInt(),
                    t.path("trial").asInt(), warmup, status, t.path("reason").asText(),
                    t.path("wallSeconds").asDouble(), t.path("stderrTail").asText(), own, leftovers(t),
                    t.path("logBytesCut").asLong()));
        }
        java.util.Set<CellId> profileCells = new java.util.HashSet<>();
        for (JsonNode c : n.path("comparisons")) {
            if (c.path("verdict").asText().equals(Verdict.PROFILE.id())) {
                profileCells.add(new CellId(c.path("cell").asText(), c.path("metric").asText()));
            }
        }
        List<Warning> warnings = readWarnings(n.path("warnings"));
        String baseLabel = refs.path("baseLabel").asText("merge-base (" + abbreviate(provenance.mergeBase()) + ")");
        String headLabel = refs.path("headLabel").asText(provenance.head().typed() + " ("
                + abbreviate(provenance.head().commit()) + ")");
        ComparisonTable table = ComparisonTable.of(baseLabel, headLabel,
                measurements, thresholds, cell -> profileCells.contains(cell.id())).withWarnings(warnings);
        JsonNode timing = n.path("timing");
        return new RunResults(n.path("name").asText(), provenance, machine, settings,
                java.time.Instant.parse(n.path("startedAt").asText()),
                n.path("finishedAt").isNull() ? java.util.Optional.empty()
                        : java.util.Optional.of(java.time.Instant.parse(n.path("finishedAt").asText())),
                n.path("interrupted").asBoolean(),
                new RunResults.Timing(timing.path("totalSeconds").asDouble(), timing.path("checkoutSeconds").asDouble(),
                        timing.path("buildSeconds").asDouble(), timing.path("trialSeconds").asDouble()),
                trials, table);
    }

    private static Cell cell(JsonNode x) {
        return new Cell(x.path("cell").asText(), x.path("metric").asText(), x.path("unit").asText(),
                Direction.fromId(x.path("direction").asText()));
    }

    private static Side side(JsonNode x) {
        return x.path("side").asText().equals("base") ? Side.BASE : Side.HEAD;
    }

    private static RunResults.Status status(JsonNode x) {
        return switch (x.path("status").asText()) {
            case "ok" -> RunResults.Status.OK;
            case "timeout" -> RunResults.Status.TIMEOUT;
            default -> RunResults.Status.FAILED;
        };
    }

    private static String abbreviate(String id) {
        return id.length() > 12 ? id.substring(0, 12) : id;
    }

    /** Returns one line of {@code trials.jsonl} for {@code trial}, without a newline. */
    public static String trialLine(RunResults.TrialRecord trial) {
        ObjectNode node = trialNode(trial, true);
        return serialise(COMPACT, node);
    }

    /**
     * Returns the trial a line of {@code trials.jsonl} holds.
     *
     * @throws IllegalArgumentException when the line is not one (a line torn by a kill, say)
     */
    public static RunResults.TrialRecord readTrialLine(String line) {
        JsonNode n;
        try {
            n = COMPACT.readTree(line);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a trial record: " + e.getOriginalMessage(), e);
        }
        if (n == null || !TRIAL_SCHEMA.equals(n.path("schema").asText())) {
            throw new IllegalArgumentException("not a " + TRIAL_SCHEMA + " record");
        }
        Side side = side(n);
        int build = n.path("build").asInt();
        List<Measurement> ms = new ArrayList<>();
        for (JsonNode x : n.path("measurements")) {
            ms.add(new Measurement(cell(x), side, build, n.path("trial").asInt(), x.path("value").asDouble()));
        }
        return new RunResults.TrialRecord(n.path("seq").asInt(), side, build, n.path("trial").asInt(),
                n.path("warmup").asBoolean(), status(n), n.path("reason").asText(), n.path("wallSeconds").asDouble(),
                n.path("stderrTail").asText(), ms, leftovers(n), n.path("logBytesCut").asLong());
    }

    private static List<String> leftovers(JsonNode trial) {
        List<String> leftovers = new ArrayList<>();
        trial.path("leftovers").forEach(x -> leftovers.add(x.asText()));
        return leftovers;
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
        return node;
    }

    /** Returns the JSON of one classified row, as results.json and the comparison JSON hold it. */
    public static ObjectNode comparison(CellComparison row) {
        Cell cell = row.cell();
        Comparison c = row.comparison();
        ObjectNode node = COMPACT.createObjectNode();
        node.put("cell", cell.name());
        node.put("metric", cell.metric());
        node.put("unit", cell.unit());
        node.put("direction", cell.direction().id());
        node.put("verdict", c.verdict().id());
        number(node, "pctChange", c.pctChange());
        if (Double.isNaN(c.ciLow()) || Double.isNaN(c.ciHigh())) {
            node.putNull("ci95");
        } else {
            node.putArray("ci95").add(c.ciLow()).add(c.ciHigh());
        }
        number(node, "pValue", c.pValue());
        number(node, "t", c.t());
        number(node, "df", c.df());
        number(node, "mde", c.mde());
        node.set("base", summary(c.base()));
        node.set("head", summary(c.head()));
        ArrayNode caveats = node.putArray("caveats");
        for (Caveat caveat : c.caveats()) {
            caveats.add(caveat.id());
        }
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

    private static void number(ObjectNode node, String name, double value) {
        if (Double.isFinite(value)) {
            node.put(name, value);
        } else {
            node.putNull(name);
        }
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

    private static List<Warning> readWarnings(JsonNode array) {
        List<Warning> warnings = new ArrayList<>();
        for (JsonNode w : array) {
            List<String> subjects = new ArrayList<>();
            w.path("subjects").forEach(s -> subjects.add(s.asText()));
            java.util.Map<String, Long> figures = new java.util.TreeMap<>();
            w.path("figures").fields().forEachRemaining(f -> figures.put(f.getKey(), f.getValue().asLong()));
            warnings.add(new Warning(Warning.Kind.of(w.path("kind").asText()), w.path("count").asInt(), subjects,
                    figures));
        }
        return warnings;
    }

    private static List<Verdict> failOn(JsonNode array) {
        List<Verdict> verdicts = new ArrayList<>();
        for (JsonNode v : array) {
            verdicts.add(Verdict.fromId(v.asText()));
        }
        return verdicts;
    }
}
