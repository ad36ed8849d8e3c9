package org.perfab.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.perfab.failure.BadInputException;
import org.perfab.stats.Comparison;
import org.perfab.stats.Direction;
import org.perfab.stats.KnownTests;
import org.perfab.stats.ShiftTest;
import org.perfab.stats.Statistic;
import org.perfab.stats.Thresholds;
import org.perfab.stats.TrialTest;

/**
 * {@code results.json} names each comparison's statistic by its test, gives degrees of freedom and
 * a detectable effect only where the test has them, and reads back its own files and those of the
 * schema before.
 */
class ResultsJsonTest {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final Cell CELL = new Cell("parse", "time", "ns", Direction.LOWER_IS_BETTER);
    // The fixture's table is judged by the test it names, on trials as independent samples.
    private static final Thresholds FIXED = new Thresholds(0.05, 3, 10, Thresholds.FDR_OFF).withTest(TrialTest.WELCH);
    private static final double[] BASE = {100, 101, 99, 100.5, 99.5, 100.2};
    private static final double[] HEAD = {105, 106, 104, 105.5, 104.5, 105.2};

    /** A run of six trials a side, the head 5% slower, its cell judged by {@code test}. */
    private static RunResults run(ShiftTest test) {
        List<RunResults.TrialRecord> trials = new ArrayList<>();
        List<Measurement> all = new ArrayList<>();
        for (int i = 0; i < BASE.length; i++) {
            for (Side side : Side.values()) {
                Measurement m = new Measurement(CELL, side, 0, i, (side == Side.BASE ? BASE : HEAD)[i]);
                all.add(m);
                trials.add(new RunResults.TrialRecord(
                        trials.size(), side, 0, i, false, RunResults.Status.OK, "", 1, "", List.of(m)));
            }
        }
        // What the run found of its runner is the one judge's, whichever test judged the cell.
        ComparisonTable table = ComparisonTable.of("base", "head", all, FIXED, c -> false, test)
                .withPairing(Judge.table("base", "head", List.of(trials), FIXED, c -> false)
                        .pairing());
        return new RunResults(
                "statistics",
                new RunResults.Provenance(
                        "repo",
                        new RunResults.Ref("main", "1".repeat(40)),
                        new RunResults.Ref("feature", "2".repeat(40)),
                        "1".repeat(40),
                        "a".repeat(40),
                        "b".repeat(40),
                        false),
                new RunResults.Machine("cpu", 2, "Linux amd64", "6.8.0", "OpenJDK 17", "local"),
                new RunResults.Settings(
                        "perfab.yaml",
                        BASE.length,
                        0,
                        1,
                        "head",
                        "perfab-json",
                        Optional.empty(),
                        List.of(),
                        List.of(),
                        List.of(),
                        Optional.empty()),
                Instant.parse("2026-11-01T10:00:00Z"),
                Optional.of(Instant.parse("2026-11-01T10:01:00Z")),
                false,
                new RunResults.Timing(60, 1, 2, 57),
                trials,
                table);
    }

    private static JsonNode row(String text) throws Exception {
        return JSON.readTree(text).get("comparisons").get(0);
    }

    @Test
    void writesWelchsTByNameWithItsDegreesOfFreedomAndTheDetectableEffect() throws Exception {
        RunResults run = run(KnownTests.PERFAB);
        String text = ResultsJson.write(run);
        assertEquals("perfab/results/v3", JSON.readTree(text).get("schema").asText());
        Comparison c = run.table().rows().get(0).comparison();
        JsonNode row = row(text);
        JsonNode statistic = row.get("statistic");
        assertEquals("welch-t", statistic.get("name").asText());
        assertEquals(c.statistic().value(), statistic.get("value").asDouble(), 0.0);
        assertEquals(c.statistic().df().getAsDouble(), statistic.get("df").asDouble(), 0.0);
        assertEquals(c.mde().getAsDouble(), row.get("mde").asDouble(), 0.0);
        assertTrue(row.get("detectable").isNumber(), row.toString());
        assertTrue(!row.has("t") && !row.has("df"), "no figure under Welch's name alone: " + row);

        RunResults back = ResultsJson.read(text, "results.json");
        assertEquals(c, back.table().rows().get(0).comparison());
        assertEquals(text, ResultsJson.write(back));
    }

    @Test
    void writesMannWhitneysUWithNeitherDegreesOfFreedomNorDetectableEffect() throws Exception {
        RunResults run = run(KnownTests.MANN_WHITNEY);
        String text = ResultsJson.write(run);
        JsonNode row = row(text);
        JsonNode statistic = row.get("statistic");
        assertEquals("mann-whitney-u", statistic.get("name").asText());
        assertEquals(36.0, statistic.get("value").asDouble(), 0.0, "every head trial above every base trial: 6 x 6");
        assertTrue(statistic.get("df").isNull(), statistic.toString());
        assertTrue(row.get("mde").isNull() && row.get("detectable").isNull(), row.toString());

        // A reader classifies the cells anew from the measurements, by perfab's own test.
        RunResults back = ResultsJson.read(text, "results.json");
        assertEquals(
                Statistic.Kind.WELCH_T,
                back.table().rows().get(0).comparison().statistic().kind());
        assertEquals(ResultsJson.write(run(KnownTests.PERFAB)), ResultsJson.write(back));
    }

    @Test
    void readsAFileOfTheSchemaBeforeThatWroteWelchsTAndDf() throws Exception {
        String text = ResultsJson.write(run(KnownTests.PERFAB));
        ObjectNode earlier = (ObjectNode) JSON.readTree(text);
        earlier.put("schema", "perfab/results/v2");
        for (JsonNode row : earlier.get("comparisons")) {
            earlier(row);
            if (row.get("trialLevel").isObject()) {
                earlier(row.get("trialLevel"));
            }
        }
        String v2 = JSON.writeValueAsString(earlier) + "\n";
        assertTrue(v2.contains("\"t\" : ") && !v2.contains("\"statistic\""), v2);
        assertEquals(text, ResultsJson.write(ResultsJson.read(v2, "results.json")));
    }

    /** Rewrites {@code row} as schema v2 had it: Welch's {@code t} and {@code df} where the statistic is. */
    private static void earlier(JsonNode row) {
        ObjectNode node = (ObjectNode) row;
        Map<String, JsonNode> fields = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getKey().equals("statistic")) {
                fields.put("t", e.getValue().get("value"));
                fields.put("df", e.getValue().get("df"));
            } else {
                fields.put(e.getKey(), e.getValue());
            }
        }
        node.removeAll();
        node.setAll(fields);
    }

    @Test
    void keepsEachBenchmarksOwnTimeAndRefusesANegativeOne() {
        Measurement m = new Measurement(CELL, Side.HEAD, 0, 0, 100);
        RunResults.TrialRecord t = new RunResults.TrialRecord(
                        0, Side.HEAD, 0, 0, false, RunResults.Status.OK, "", 1, "", List.of(m))
                .withSeconds(java.util.Map.of("parse", 0.5, "parse/big", 2.0));
        String line = TrialJson.line(t);
        assertEquals(t, TrialJson.read(line, "trials.jsonl:1"));
        // A trial whose output gave no time writes none.
        assertTrue(line.contains("\"seconds\":{\"parse\":0.5,\"parse/big\":2.0}"), line);
        assertTrue(!TrialJson.line(new RunResults.TrialRecord(
                        0, Side.HEAD, 0, 0, false, RunResults.Status.OK, "", 1, "", List.of(m)))
                .contains("\"seconds\""));
        org.perfab.failure.BadInputException e = assertThrows(
                org.perfab.failure.BadInputException.class,
                () -> TrialJson.read(line.replace("0.5", "-0.5"), "trials.jsonl:1"));
        assertTrue(e.getMessage().contains("trials.jsonl:1") && e.getMessage().contains("parse"), e.getMessage());
    }

    /**
     * What a run knows beside its measurements reads back as it was written: an A/A run's noise
     * floor of each cell (a number, or none found however large) and the rows counted instead of
     * timed. {@code perfab report} and merged shards re-judge a saved run from this.
     */
    @Test
    void everyFieldReadsBackAsWritten() {
        RunResults r = run(KnownTests.PERFAB);
        Cell other = new Cell("scan", "time", "ns", Direction.LOWER_IS_BETTER);
        List<RunResults.TrialRecord> trials = new ArrayList<>();
        for (RunResults.TrialRecord t : r.trials()) {
            List<Measurement> ms = new ArrayList<>(t.measurements());
            // Too noisy to tell either way: the row a count would have stood in for.
            ms.add(new Measurement(
                    other, t.side(), 0, t.trial(), t.side() == Side.BASE ? 50 + 9 * t.trial() : 95 - 9 * t.trial()));
            trials.add(t.withMeasurements(ms));
        }
        // Judged as a run is, in pairs where its trials show the runner moved both of a pair alike.
        ComparisonTable table = Judge.table("base", "head", List.of(trials), FIXED.withTest(TrialTest.AUTO), c -> false)
                .withNoiseFloors(row -> row.cell().equals(CELL) ? 2.5 : Double.POSITIVE_INFINITY)
                .countedInstead(row -> row.cell().equals(other));
        RunResults saved = new RunResults(
                r.name(),
                r.provenance(),
                r.machine(),
                r.settings(),
                r.startedAt(),
                r.finishedAt(),
                r.interrupted(),
                r.timing(),
                trials,
                table);
        String written = ResultsJson.write(saved);
        RunResults read = ResultsJson.read(written, "results.json");
        assertEquals(written, ResultsJson.write(read));
        assertEquals(table.pairing(), read.table().pairing());
        assertTrue(read.table().pairing().inPairs(), read.table().pairing().toString());
        assertEquals(
                2.5,
                read.table().rows().stream()
                        .filter(x -> x.cell().equals(CELL))
                        .findFirst()
                        .orElseThrow()
                        .noiseFloor());
        CellComparison scan = read.table().rows().stream()
                .filter(x -> x.cell().equals(other))
                .findFirst()
                .orElseThrow();
        assertEquals(Double.POSITIVE_INFINITY, scan.noiseFloor());
        assertTrue(scan.countedInstead(), scan.toString());
        BadInputException e = assertThrows(
                BadInputException.class,
                () -> ResultsJson.read(written.replace("\"unbounded\"", "\"endless\""), "results.json"));
        assertTrue(e.getMessage().contains("noiseFloor") && e.getMessage().contains("endless"), e.getMessage());
    }

    @Test
    void refusesAnotherSchemaNamingTheOnesItReads() {
        String text = ResultsJson.write(run(KnownTests.PERFAB)).replace("perfab/results/v3", "perfab/results/v1");
        BadInputException e = assertThrows(BadInputException.class, () -> ResultsJson.read(text, "r.json"));
        assertEquals(
                "r.json: schema 'perfab/results/v1' is not perfab/results/v3 or perfab/results/v2", e.getMessage());
    }
}
