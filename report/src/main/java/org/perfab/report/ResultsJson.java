package org.perfab.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.perfab.stats.Direction;
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
        settings.set("thresholds", JsonRenderer.thresholds(results.table().thresholds()));
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
        ArrayNode warnings = root.putArray("warnings");
        results.table().warnings().forEach(warnings::add);
        ArrayNode rows = root.putArray("comparisons");
        for (CellComparison row : results.table().rows()) {
            rows.add(JsonRenderer.comparison(row));
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
        Side side = n.path("side").asText().equals("base") ? Side.BASE : Side.HEAD;
        int build = n.path("build").asInt();
        List<Measurement> ms = new ArrayList<>();
        for (JsonNode x : n.path("measurements")) {
            Cell cell = new Cell(x.path("cell").asText(), x.path("metric").asText(), x.path("unit").asText(),
                    Direction.fromId(x.path("direction").asText()));
            ms.add(new Measurement(cell, side, build, n.path("trial").asInt(), x.path("value").asDouble()));
        }
        RunResults.Status status = switch (n.path("status").asText()) {
            case "ok" -> RunResults.Status.OK;
            case "timeout" -> RunResults.Status.TIMEOUT;
            default -> RunResults.Status.FAILED;
        };
        return new RunResults.TrialRecord(n.path("seq").asInt(), side, build, n.path("trial").asInt(),
                n.path("warmup").asBoolean(), status, n.path("reason").asText(), n.path("wallSeconds").asDouble(),
                n.path("stderrTail").asText(), ms);
    }

    private static ObjectNode trialNode(RunResults.TrialRecord t, boolean withMeasurements) {
        ObjectNode node = COMPACT.createObjectNode();
        if (withMeasurements) {
            node.put("schema", TRIAL_SCHEMA);
        }
        node.put("seq", t.seq()).put("side", t.side().id()).put("build", t.build()).put("trial", t.trial())
                .put("warmup", t.warmup()).put("status", t.status().id()).put("reason", t.reason())
                .put("wallSeconds", t.wallSeconds()).put("stderrTail", t.stderrTail());
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
}
