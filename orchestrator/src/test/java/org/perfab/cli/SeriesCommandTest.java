package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.model.CellId;
import org.perfab.model.ResultsJson;
import org.perfab.model.RunResults;
import org.perfab.model.Series;
import org.perfab.model.SeriesFile;
import org.perfab.series.SeriesSources;
import org.perfab.series.SyntheticSeries;
import org.perfab.testing.GitFixture;
import org.perfab.testing.Subjects;

/**
 * {@code perfab series} from the command line, on a synthetic series built to the three cases of
 * the decision it implements (see {@link SyntheticSeries}): every check is of the run a case
 * appears on, the night before, and the nights after.
 */
class SeriesCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    /** Writes the synthetic series up to and including {@code last}, and returns its file. */
    private Path series(LocalDate last) throws IOException {
        Series all = SyntheticSeries.make(1);
        Series upTo = new Series(
                all.readings().stream().filter(r -> !r.date().isAfter(last)).toList());
        Path file = tmp.resolve("ratios-" + last + ".csv");
        Files.writeString(file, SeriesFile.of(upTo.readings()).write(), StandardCharsets.UTF_8);
        return file;
    }

    private static JsonNode check(Path series, String... more) throws IOException {
        List<String> args =
                new ArrayList<>(List.of("series", "check", "--series", series.toString(), "--format", "json"));
        args.addAll(List.of(more));
        Cli run = Cli.run(args.toArray(String[]::new));
        assertEquals(0, run.exitCode(), run.err());
        return JSON.readTree(run.out());
    }

    private static Map<String, JsonNode> byKey(JsonNode check) {
        Map<String, JsonNode> m = new HashMap<>();
        check.get("movements").forEach(n -> m.put(n.get("key").asText(), n));
        return m;
    }

    @Test
    void aStepIsCaughtTheNightItAppearsAndThenPersists() throws IOException {
        JsonNode before = check(series(LocalDate.of(2026, 8, 31)));
        assertFalse(byKey(before).containsKey(SyntheticSeries.STEP), before.toString());
        JsonNode night = check(series(LocalDate.of(2026, 9, 1)));
        JsonNode step = byKey(night).get(SyntheticSeries.STEP);
        assertEquals("step", step.get("rule").asText(), night.toString());
        assertTrue(step.get("new").asBoolean());
        assertEquals(0.97, step.get("reference").asDouble(), 0.02);
        assertEquals(1.72, step.get("ratio").asDouble(), 0.03);
        assertEquals(77, step.get("change").asDouble(), 4);
        assertEquals("nightly-2026-09-01", night.get("run").asText());
        JsonNode after = byKey(check(series(LocalDate.of(2026, 9, 2)))).get(SyntheticSeries.STEP);
        assertFalse(after.get("new").asBoolean(), "the median lags; the same movement is not headlined again");
    }

    @Test
    void aBigStepIsCaughtOnItsNight() throws IOException {
        assertFalse(byKey(check(series(LocalDate.of(2026, 8, 25)))).containsKey(SyntheticSeries.BIG_STEP));
        JsonNode big = byKey(check(series(LocalDate.of(2026, 8, 26)))).get(SyntheticSeries.BIG_STEP);
        assertEquals("step", big.get("rule").asText());
        assertEquals(2.18, big.get("reference").asDouble(), 0.05);
        assertEquals(4.82, big.get("ratio").asDouble(), 0.1);
    }

    @Test
    void aDriftNoNightShowsIsCaughtByTheDriftRule() throws IOException {
        for (LocalDate d = LocalDate.of(2026, 8, 24); d.isBefore(LocalDate.of(2026, 8, 31)); d = d.plusDays(1)) {
            if (SyntheticSeries.dates().contains(d)) {
                assertFalse(byKey(check(series(d))).containsKey(SyntheticSeries.DRIFT), "nothing on " + d);
            }
        }
        Path night = series(LocalDate.of(2026, 8, 31));
        JsonNode drift = byKey(check(night)).get(SyntheticSeries.DRIFT);
        assertEquals("drift", drift.get("rule").asText(), drift.toString());
        assertTrue(drift.get("new").asBoolean());
        assertTrue(drift.get("change").asDouble() > 20 && drift.get("change").asDouble() < 23, drift.toString());
        assertFalse(
                byKey(check(night, "--rules", "drift=off")).containsKey(SyntheticSeries.DRIFT),
                "the step rule alone never sees it");
    }

    @Test
    void aNewProcessorsMoveIsReportedWithItsProcessor() throws IOException {
        Path last = series(LocalDate.of(2026, 9, 13));
        JsonNode check = check(last);
        for (String key : SyntheticSeries.SHORT) {
            JsonNode m = byKey(check).get(key);
            assertEquals(SyntheticSeries.NEW_CPU, m.get("cpu").asText(), m.toString());
            assertTrue(m.get("newCpu").asBoolean(), m.toString());
        }
        Cli markdown = Cli.run("series", "check", "--series", last.toString(), "--format", "markdown");
        assertTrue(
                markdown.out().contains("| " + SyntheticSeries.SHORT.get(0).replace(".", ".") + " | step |"),
                markdown.out());
        assertTrue(
                markdown.out().contains("**Intel(R) Xeon(R) Platinum 8573C** (new: the reference ran on "),
                markdown.out());
        assertTrue(
                markdown.out().contains("not whether its baseline or the benchmark compared with it did"),
                markdown.out());
        assertTrue(markdown.out().startsWith("### Nightly ratios: "), markdown.out());
    }

    @Test
    void flatThresholdsRaiseNoiseBeforeAnyRegressionExists() throws IOException {
        Path early = series(LocalDate.of(2026, 8, 24));
        assertTrue(
                byKey(check(early, "--rules", "step=15,noise=0,drift=off")).containsKey(SyntheticSeries.STEP),
                "a flat 15% calls one noisy night of BPE a movement, a week before its regression");
        assertFalse(byKey(check(early)).containsKey(SyntheticSeries.STEP), "the decided rules do not");
        Path drift = series(LocalDate.of(2026, 8, 22));
        assertTrue(byKey(check(drift, "--rules", "step=30,noise=0")).containsKey(SyntheticSeries.DRIFT));
        assertFalse(
                byKey(check(drift)).containsKey(SyntheticSeries.DRIFT),
                "the key's own noise is 4 x 14%: its 32% night is noise");
    }

    @Test
    void replayReproducesTheShapeOfTheDecisionsTable() throws IOException {
        Path all = series(LocalDate.of(2026, 9, 13));
        Cli run = Cli.run(
                "series",
                "replay",
                "--series",
                all.toString(),
                "--format",
                "json",
                "--key",
                SyntheticSeries.STEP + "=2026-09-01",
                "--key",
                SyntheticSeries.DRIFT + "=2026-08-24",
                "--key",
                SyntheticSeries.BIG_STEP + "=2026-08-26");
        assertEquals(0, run.exitCode(), run.err());
        JsonNode r = JSON.readTree(run.out());
        assertEquals(23, r.get("runs").asInt());
        assertEquals(18, r.get("fullRuns").asInt());
        JsonNode rows = r.get("options");
        int flat15 = rows.get(0).get("newTotal").asInt();
        int flat30 = rows.get(1).get("newTotal").asInt();
        int stepOnly = rows.get(2).get("newTotal").asInt();
        int decided = rows.get(3).get("newTotal").asInt();
        assertTrue(flat15 > flat30 && flat30 > stepOnly, flat15 + " > " + flat30 + " > " + stepOnly);
        assertTrue(decided > stepOnly && decided < flat15, "the drift rule adds some: " + decided);
        // Flat thresholds catch BPE and the drifting key from noise, before either regression.
        assertTrue(rows.get(0)
                .at("/caught/" + pointer(SyntheticSeries.STEP) + "/noise")
                .asBoolean());
        assertTrue(rows.get(1)
                .at("/caught/" + pointer(SyntheticSeries.DRIFT) + "/noise")
                .asBoolean());
        // The step rule alone misses the drift; the decided rules catch all three, each on its night.
        assertTrue(rows.get(2).at("/caught/" + pointer(SyntheticSeries.DRIFT)).isNull());
        JsonNode caught = rows.get(3).get("caught");
        assertEquals(
                "2026-09-01",
                caught.at("/" + pointer(SyntheticSeries.STEP) + "/date").asText());
        assertEquals(
                "2026-08-31",
                caught.at("/" + pointer(SyntheticSeries.DRIFT) + "/date").asText());
        assertEquals(
                "drift",
                caught.at("/" + pointer(SyntheticSeries.DRIFT) + "/rule").asText());
        assertEquals(
                "2026-08-26",
                caught.at("/" + pointer(SyntheticSeries.BIG_STEP) + "/date").asText());
        Cli text = Cli.run("series", "replay", "--series", all.toString(), "--key", SyntheticSeries.DRIFT);
        assertTrue(
                text.out().contains("step past max(30%, 4 \u00d7 noise), or drift past 20% over 10 days"), text.out());
        assertTrue(text.out().contains("08-31, drift"), text.out());
        assertTrue(text.out().contains("missed"), text.out());
    }

    @Test
    void theDemoWritesTheSyntheticSeriesAndPrintsItsReplay() throws IOException {
        Path file = tmp.resolve("demo/ratios.csv");
        Cli demo = Cli.run("series", "demo", "--series", file.toString(), "--format", "markdown");
        assertEquals(0, demo.exitCode(), demo.err());
        assertEquals(SeriesFile.of(SyntheticSeries.make(1).readings()).write(), Files.readString(file));
        assertTrue(
                demo.out()
                        .contains("| step past max(30%, 4 \u00d7 noise), or drift past 20% over 10 days | 80 | 4 / 11"
                                + " | 09-01 | 08-31, drift | 08-26 |"),
                demo.out());
        assertTrue(demo.err().contains("try 'perfab series check --series " + file), demo.err());
        Cli check = Cli.run("series", "check", "--series", file.toString(), "--run", "nightly-2026-09-01");
        assertEquals(0, check.exitCode(), check.err());
        assertTrue(
                check.out().matches("(?s).*\nnew +" + SyntheticSeries.STEP.replace(".", "\\.") + " +step .*"),
                check.out());
    }

    private static String pointer(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }

    /** Runs a real A/B of a small project (head 10% slower) and returns its results.json. */
    private Path abResults(String workloadExtra) throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 3, workloadExtra);
        Cli ab = Cli.ab(Subjects.fake().engine(), g.dir(), tmp.resolve("out"));
        assertEquals(0, ab.exitCode(), ab.err());
        return tmp.resolve("out/results.json");
    }

    @Test
    void recordsAnAbsRatiosOnMainOnlyAndOnlyOnce() throws IOException {
        Path results = abResults("");
        Path file = tmp.resolve("bench/nightly/ratios.csv");
        Cli first = Cli.run(
                "series",
                "record",
                "--series",
                file.toString(),
                "--from",
                results.toString(),
                "--date",
                "2026-09-01",
                "--run",
                "n1",
                "--branch",
                "main");
        assertEquals(0, first.exitCode(), first.err());
        assertTrue(first.err().contains("recorded 2 ratios of run n1"), first.err());
        Series s = SeriesFile.read(Files.readString(file), file.toString()).series();
        Map<String, Double> ratios = new HashMap<>();
        s.readings().forEach(r -> ratios.put(r.key(), r.ratio()));
        assertEquals(1.10, ratios.get("speed/run:time"), 1e-9, "the head's mean over the base's");
        assertEquals(1.00, ratios.get("steady/run:time"), 1e-9);
        assertEquals("2026-09-01", s.readings().get(0).date().toString());
        RunResults ab = ResultsJson.read(results);
        assertEquals(
                List.of(ab.provenance().mergeBase(), ab.provenance().mergeBase()),
                s.readings().stream().map(Series.Reading::base).toList(),
                "a head/base ratio is against the commit the A/B measured as base");
        assertEquals(40, ab.provenance().mergeBase().length());
        assertEquals(Optional.of(ab.startedAt()), s.readings().get(0).time(), "the run's time is when the A/B started");
        Cli base = Cli.run("series", "base", "--series", file.toString());
        assertEquals(ab.provenance().mergeBase() + "\n", base.out(), base.err());
        assertTrue(first.out().startsWith("perfab series: 0 new movements"), first.out());
        String written = Files.readString(file);
        Cli again = Cli.run(
                "series",
                "record",
                "--series",
                file.toString(),
                "--from",
                results.toString(),
                "--date",
                "2026-09-01",
                "--run",
                "n1",
                "--branch",
                "main");
        assertEquals(0, again.exitCode(), again.err());
        assertTrue(
                again.err().contains("recorded 0 ratios of run n1")
                        && again.err().contains("2 were there already"),
                again.err());
        assertEquals(written, Files.readString(file), "recording is idempotent per run and key");
        Cli branch = Cli.run(
                "series",
                "record",
                "--series",
                file.toString(),
                "--from",
                results.toString(),
                "--date",
                "2026-09-02",
                "--run",
                "n2",
                "--branch",
                "feature/x");
        assertEquals(0, branch.exitCode(), branch.err());
        assertTrue(
                branch.err().contains("on branch feature/x, not main")
                        && branch.err().contains("nothing is recorded"),
                branch.err());
        assertEquals(written, Files.readString(file), "a branch compares and adds nothing");
        assertTrue(branch.out().contains("in run n2 (2026-09-02)"), branch.out());
    }

    @Test
    void recordsEachCellAgainstTheBaselineItsWorkloadNames() throws IOException {
        String extra = "cells:\n  - match: speed/run\n    ratio_to: steady/run\n";
        Path results = abResults(extra);
        Path workload = tmp.resolve("perfab.yaml");
        Files.writeString(workload, Subjects.workload(3, extra));
        Path file = tmp.resolve("ratios.csv");
        Cli run = Cli.run(
                "series",
                "record",
                "--series",
                file.toString(),
                "--from",
                results.toString(),
                "--workload",
                workload.toString(),
                "--date",
                "2026-09-01",
                "--run",
                "n1",
                "--branch",
                "main");
        assertEquals(0, run.exitCode(), run.err());
        List<Series.Reading> readings = SeriesFile.read(Files.readString(file), file.toString())
                .series()
                .readings();
        assertEquals(1, readings.size(), readings.toString());
        assertEquals("speed/run:time", readings.get(0).key());
        assertEquals(11.0, readings.get(0).ratio(), 1e-9, "the head's speed/run over its steady/run");
        assertEquals(
                "",
                readings.get(0).base(),
                "both terms measure one commit: no base commit, so a release re-bases nothing");
        Cli noBase = Cli.run("series", "base", "--series", file.toString());
        assertEquals(0, noBase.exitCode(), noBase.err());
        assertEquals("", noBase.out());
        Path none = tmp.resolve("none.yaml");
        Files.writeString(none, Subjects.workload(3, ""));
        Cli noBaseline = Cli.run(
                "series",
                "record",
                "--series",
                file.toString(),
                "--from",
                results.toString(),
                "--workload",
                none.toString());
        assertEquals(2, noBaseline.exitCode());
        assertTrue(noBaseline.err().contains("the workload gives no cell a 'ratio_to'"), noBaseline.err());
        Files.writeString(none, Subjects.workload(3, "cells:\n  - match: run*\n    ratio_to: steady/run\n"));
        Cli matchesNothing = Cli.run(
                "series",
                "record",
                "--series",
                file.toString(),
                "--from",
                results.toString(),
                "--workload",
                none.toString());
        assertEquals(2, matchesNothing.exitCode());
        assertTrue(
                matchesNothing
                        .err()
                        .contains("the workload's 'ratio_to' cells (match 'run*') match no cell the run"
                                + " measured (2: speed/run:time, steady/run:time)"),
                matchesNothing.err());
    }

    @Test
    void recordsAnotherToolsRatiosAndSaysWhatItLeftOut() throws IOException {
        Path csv = tmp.resolve("bdn.csv");
        Files.writeString(
                csv, "Method;Length;Mean;Ratio\nUnigram;512;1.2 us;baseline\nBpe;512;2.1 us;1.72\nIndel;512;3 us;?\n");
        Path file = tmp.resolve("ratios.csv");
        Cli run = Cli.run(
                "series",
                "record",
                "--series",
                file.toString(),
                "--ratios",
                csv.toString(),
                "--key-columns",
                "Method,Length",
                "--date",
                "2026-09-01",
                "--run",
                "n1",
                "--cpu",
                "AMD EPYC 7763",
                "--commit",
                "abc",
                "--base",
                "v1.4.0",
                "--branch",
                "main");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(
                run.err()
                        .contains("left out " + csv + ":2: 'Unigram/512', ratio 'baseline' is not a positive"
                                + " number"),
                run.err());
        assertTrue(run.err().contains(":4: 'Indel/512', ratio '?'"), run.err());
        assertEquals(
                "date,run,commit,cpu,key,ratio,base,time\n2026-09-01,n1,abc,AMD EPYC 7763,Bpe/512,1.72,v1.4.0,\n",
                Files.readString(file),
                "the base given; recorded on another day than its run's, no time");
        Cli twoWords = Cli.run(
                "series", "record", "--series", file.toString(), "--ratios", csv.toString(), "--base", "v1 ::error::x");
        assertEquals(2, twoWords.exitCode());
        assertTrue(twoWords.err().startsWith("perfab: --base: a base is one word"), twoWords.err());
        Cli bad = Cli.run(
                "series",
                "record",
                "--series",
                file.toString(),
                "--ratios",
                csv.toString(),
                "--ratio-column",
                "Speedup");
        assertEquals(2, bad.exitCode());
        assertTrue(bad.err().contains(csv + ":1: no column 'Speedup'"), bad.err());
    }

    @Test
    void aNewBaseIsReportedAsARebasingAndSeriesBaseTellsTheLatest() throws IOException {
        Path file = tmp.resolve("ratios.csv");
        StringBuilder csv = new StringBuilder("date,run,commit,cpu,key,ratio,base\n");
        for (int night = 1; night <= 6; night++) {
            String base = night < 6 ? "v1.4.0" : "v1.5.0";
            csv.append("2026-09-0")
                    .append(night)
                    .append(",n")
                    .append(night)
                    .append(",c")
                    .append(night)
                    .append(",cpu,Parse/big,")
                    .append(night < 6 ? "1.00" : "1.80")
                    .append(',')
                    .append(base)
                    .append('\n');
            csv.append("2026-09-0")
                    .append(night)
                    .append(",n")
                    .append(night)
                    .append(",c")
                    .append(night)
                    .append(",cpu,Parse/small,")
                    .append(night < 6 ? "1.00" : "1.30")
                    .append(",v1.4.0\n");
        }
        Files.writeString(file, csv.toString());
        Cli text = Cli.run("series", "check", "--series", file.toString());
        assertEquals(0, text.exitCode(), text.err());
        assertTrue(
                text.out()
                        .startsWith("perfab series: 0 new movements, 0 persisting, in run n6 (2026-09-06) of 1"
                                + " ratio compared; 1 re-based\n"),
                "+80% on a new base is no step; +30% is not past 30%: " + text.out());
        assertTrue(text.out().contains("\n1 key re-based from v1.4.0 to v1.5.0 (not compared across it;"), text.out());
        JsonNode json = check(file);
        assertEquals("Parse/big", json.at("/rebasings/0/key").asText());
        assertEquals("v1.4.0", json.at("/rebasings/0/from").asText());
        assertEquals("v1.5.0", json.at("/rebasings/0/to").asText());
        Cli base = Cli.run("series", "base", "--series", file.toString());
        assertEquals("v1.5.0\n", base.out(), "two bases, a reading each: the first the run names");
        Files.writeString(file, "date,run,commit,cpu,key,ratio\n");
        assertEquals("", Cli.run("series", "base", "--series", file.toString()).out(), "an empty series");
        Cli missing =
                Cli.run("series", "base", "--series", tmp.resolve("nope.csv").toString());
        assertEquals(0, missing.exitCode(), missing.err());
        assertEquals("", missing.out(), "no series yet: nothing to pin");
    }

    @Test
    void refusesTwoRowsOfOneKeyNamingBothLines() throws IOException {
        Path csv = tmp.resolve("bdn.csv");
        Files.writeString(
                csv,
                "Method;Job;Mean;Ratio\nUnigram;.NET 8;1.2 us;baseline\nBpe;.NET 8;2.1 us;1.72\n"
                        + "Bpe;.NET 9;1.9 us;1.55\n");
        Path file = tmp.resolve("ratios.csv");
        Cli run = Cli.run(
                "series",
                "record",
                "--series",
                file.toString(),
                "--ratios",
                csv.toString(),
                "--date",
                "2026-09-01",
                "--run",
                "n1",
                "--branch",
                "main");
        assertEquals(2, run.exitCode(), run.err());
        assertEquals(
                "perfab: " + csv + ":4: key 'Bpe' is the key of line 3 too: its columns (Method) do not tell the"
                        + " two rows apart; name more with --key-columns\n",
                run.err());
        assertFalse(Files.exists(file), "nothing recorded");
        Cli apart = Cli.run(
                "series",
                "record",
                "--series",
                file.toString(),
                "--ratios",
                csv.toString(),
                "--key-columns",
                "Method,Job",
                "--date",
                "2026-09-01",
                "--run",
                "n1",
                "--branch",
                "main");
        assertEquals(0, apart.exitCode(), apart.err());
        assertTrue(apart.err().contains("recorded 2 ratios of run n1"), apart.err());
    }

    @Test
    void refusesAColumnItReadsThatAHeaderNamesTwiceAndLeavesOutAByteOrderMark() throws IOException {
        Path csv = tmp.resolve("bdn.csv");
        Files.writeString(csv, "\uFEFFMethod,Ratio,Ratio\nBpe,1.72,1.10\n");
        Path file = tmp.resolve("ratios.csv");
        Cli ratios = Cli.run(
                "series",
                "record",
                "--series",
                file.toString(),
                "--ratios",
                csv.toString(),
                "--date",
                "2026-09-01",
                "--run",
                "n1",
                "--branch",
                "main");
        assertEquals(2, ratios.exitCode(), ratios.err());
        assertEquals(
                "perfab: " + csv + ":1: column 'Ratio' is in the header twice (fields 2 and 3), and which of the"
                        + " two to read cannot be told\n",
                ratios.err(),
                "'Method' was found past the byte order mark");
        Files.writeString(file, "\uFEFFdate,run,commit,cpu,key,ratio,note,ratio\n2026-09-01,n1,c,cpu,k,1.0,x,2.0\n");
        Cli series = Cli.run("series", "check", "--series", file.toString());
        assertEquals(2, series.exitCode(), series.err());
        assertEquals(
                "perfab: " + file + ":1: column 'ratio' is in the header twice (fields 6 and 8), and which of the"
                        + " two to read cannot be told\n",
                series.err());
        Files.writeString(file, "\uFEFFdate,run,commit,cpu,key,ratio,note,note\n2026-09-01,n1,c,cpu,k,1.0,x,y\n");
        Cli notes = Cli.run("series", "check", "--series", file.toString());
        assertEquals(0, notes.exitCode(), "a column perfab does not read may repeat: " + notes.err());
    }

    @Test
    void keysOfDifferentCellsNeverCollide() throws IOException {
        Path csv = tmp.resolve("bdn.csv");
        Files.writeString(csv, "Method,Length,Ratio\nx/y,z,1.10\nx,y/z,1.20\nx,y%2Fz,1.30\n");
        Path file = tmp.resolve("ratios.csv");
        Cli run = Cli.run(
                "series",
                "record",
                "--series",
                file.toString(),
                "--ratios",
                csv.toString(),
                "--key-columns",
                "Method,Length",
                "--date",
                "2026-09-01",
                "--run",
                "n1",
                "--cpu",
                "c",
                "--commit",
                "abc",
                "--branch",
                "main");
        assertEquals(0, run.exitCode(), run.err());
        List<String> keys = SeriesFile.read(Files.readString(file), file.toString()).series().readings().stream()
                .map(Series.Reading::key)
                .toList();
        assertEquals(List.of("x/y/z", "x/y%2Fz", "x/y%252Fz"), keys, "three cells, three keys");
        assertEquals("x:y:z", SeriesSources.key(new CellId("x:y", "z")));
        assertEquals("x:y%3Az", SeriesSources.key(new CellId("x", "y:z")));
        assertEquals("speed/run:time", SeriesSources.key(new CellId("speed/run", "time")), "a plain key as it was");
    }

    @Test
    void importFoldsAnotherHistoryInWithoutDuplicates() throws IOException {
        Path mine = tmp.resolve("ratios.csv");
        Path wiki = tmp.resolve("wiki.csv");
        Files.writeString(
                mine, "date,run,commit,cpu,key,ratio\n2026-09-02,n2,b,cpu,k,1.1\n2026-09-03,n3,c,cpu,k,1.2\n");
        Files.writeString(
                wiki,
                "key,ratio,date,run,commit,cpu\nk,1.0,2026-09-01,w1,a,cpu\nk,9.9,2026-09-02,n2,b,cpu\n"
                        + "k,1.2,2026-09-03,n3,c,cpu\n");
        Cli run = Cli.run("series", "import", "--series", mine.toString(), "--from", wiki.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(
                run.out()
                        .contains("1 reading added, 1 already there, 1 whose ratio differs from the series' own"
                                + " (kept); 3 runs in all"),
                run.out());
        assertEquals(
                "date,run,commit,cpu,key,ratio\n2026-09-02,n2,b,cpu,k,1.1\n2026-09-03,n3,c,cpu,k,1.2\n"
                        + "2026-09-01,w1,a,cpu,k,1.0\n",
                Files.readString(mine),
                "the series' own rows and ratio kept, the new one at the end");
        assertTrue(
                run.out().contains("\n  run n2, k: the series holds 1.1 (kept), the other 9.9 (+800.0%)\n"), run.out());
        // Again, as a job step: nothing left to add; the reading that differs is still said.
        Path summary = tmp.resolve("summary.md");
        Path outputs = tmp.resolve("outputs");
        Cli step = Cli.run(
                Map.of("GITHUB_STEP_SUMMARY", summary.toString(), "GITHUB_OUTPUT", outputs.toString()),
                "series",
                "import",
                "--series",
                mine.toString(),
                "--from",
                wiki.toString(),
                "--format",
                "github");
        assertEquals(0, step.exitCode(), step.err());
        assertTrue(
                step.out()
                        .contains("::warning title=perfab series import%3A ratio differs::run n2, k: the series"
                                + " holds 1.1 (kept), the other 9.9"),
                step.out());
        assertEquals(
                List.of("added=0", "already=2", "conflicting=1", "dropped=0"),
                Files.readAllLines(outputs).stream()
                        .filter(l -> l.matches("[a-z]+=\\d+"))
                        .toList());
        assertTrue(
                Files.readString(summary).startsWith("### perfab series import: 0 readings added\n"),
                Files.readString(summary));
        Cli json =
                Cli.run("series", "import", "--series", mine.toString(), "--from", wiki.toString(), "--format", "json");
        assertEquals(0, json.exitCode(), json.err());
        JsonNode merged = JSON.readTree(json.out());
        assertEquals("perfab/series-merge/v1", merged.get("schema").asText());
        assertEquals(9.9, merged.at("/conflicts/0/other").asDouble(), json.out());
        assertEquals(3, merged.get("runs").asInt(), json.out());
        Cli former =
                Cli.run("series", "merge", "--series", mine.toString(), "--from", wiki.toString(), "--format", "json");
        assertEquals(json.out(), former.out(), "perfab series merge, the former name, runs it still");
    }

    @Test
    void importRefusesAHistoryASpreadsheetWouldRunOrWithARunFromTheFuture() throws IOException {
        Path mine = tmp.resolve("ratios.csv");
        String own = "date,run,commit,cpu,key,ratio\n2026-09-01,n1,a,cpu,k,1.0\n2026-09-02,n2,b,cpu,k,1.0\n";
        Files.writeString(mine, own);
        Path wiki = tmp.resolve("wiki.csv");
        Map<String, String> refused = Map.of(
                "date,run,commit,cpu,key,ratio,note\n2026-08-31,w1,z,cpu,k,1.0,ok\n"
                        + "2026-08-30,w0,z,cpu,k,1.0,\"=HYPERLINK(\"\"http://e/\"\",\"\"see\"\")\"\n",
                wiki + ":3: field 7 (column 'note'): '=HYPERLINK(\"http://e/\",\"see\")' starts with '=' and is"
                        + " not a number: a spreadsheet would run it as a formula",
                "date,run,commit,cpu,key,ratio\n2026-08-31,w1,z,cpu,k\u001b]8;;http://e/\u0007,1.0\n",
                wiki + ":2: field 5 (column 'key') holds the control character U+001B",
                "date,run,commit,cpu,key,ratio,note,note\n2026-08-31,w1,z,cpu,k,1.0,a,b\n",
                wiki + ":1: column 'note' is in the header twice (fields 7 and 8)",
                "date,run,commit,cpu,key,ratio\n2026-08-31,w1,z,cpu,k,1.0\n2099-01-01,w9,z,cpu,k,9.0\n",
                wiki + ": run 'w9' is dated 2099-01-01, after "
                        + LocalDate.now(ZoneOffset.UTC).plusDays(1) + ": it"
                        + " would be the series' latest run every night till then");
        for (Map.Entry<String, String> e : refused.entrySet()) {
            Files.writeString(wiki, e.getKey());
            Cli imported = Cli.run("series", "import", "--series", mine.toString(), "--from", wiki.toString());
            assertEquals(2, imported.exitCode(), e.getValue() + ": " + imported.err());
            assertTrue(imported.err().startsWith("perfab: " + e.getValue()), imported.err());
            assertEquals(own, Files.readString(mine), "nothing written: " + e.getValue());
        }
        assertEquals("n2", check(mine).get("run").asText(), "the series' own latest run is the one checked");
        Files.writeString(wiki, "date,run,commit,cpu,key,ratio,note\n2026-08-31,w1,z,cpu,k,1.0,-1.5\n");
        Cli imported = Cli.run("series", "import", "--series", mine.toString(), "--from", wiki.toString());
        assertEquals(0, imported.exitCode(), imported.err());
        assertEquals("n2", check(mine).get("run").asText());
    }

    @Test
    void recordAndMergeKeepTheFilesColumnsAndOrder() throws IOException {
        Path file = tmp.resolve("ratios.csv");
        String mine = "date,run,commit,cpu,key,ratio,note\n2026-09-03,n3,c,cpu,k,1.20,late one\n"
                + "2026-09-01,n1,a,cpu,k,1.0,\"first, by hand\"\n2026-09-02,n2,b,cpu,k,1.1,\n";
        Files.writeString(file, mine);
        Path csv = tmp.resolve("bdn.csv");
        Files.writeString(csv, "Method,Ratio\nk,1.3\nj,0.5\n");
        Cli record = Cli.run(
                "series",
                "record",
                "--series",
                file.toString(),
                "--ratios",
                csv.toString(),
                "--date",
                "2026-09-04",
                "--run",
                "n4",
                "--cpu",
                "cpu",
                "--commit",
                "d",
                "--branch",
                "main");
        assertEquals(0, record.exitCode(), record.err());
        String recorded = mine.replace("note\n", "note,base,time\n")
                        .replace("late one\n", "late one,,\n")
                        .replace("by hand\"\n", "by hand\",,\n")
                        .replace("1.1,\n", "1.1,,,\n")
                + "2026-09-04,n4,d,cpu,k,1.3,,,\n2026-09-04,n4,d,cpu,j,0.5,,,\n";
        assertEquals(
                recorded,
                Files.readString(file),
                "every row and cell as it was, tonight's at the end, the base and time columns at the right");
        assertEquals("n4", check(file).get("run").asText(), "the latest run is the latest by date");
        Path wiki = tmp.resolve("wiki.csv");
        Files.writeString(
                wiki,
                "date,run,commit,cpu,key,ratio,url\n2026-08-30,w1,z,cpu,k,0.9,http://w/1\n"
                        + "2026-09-01,n1,a,cpu,k,1.0,http://w/2\n");
        Cli imported = Cli.run("series", "import", "--series", file.toString(), "--from", wiki.toString());
        assertEquals(0, imported.exitCode(), imported.err());
        assertTrue(imported.out().contains("1 reading added, 1 already there; 5 runs in all"), imported.out());
        assertEquals(
                "date,run,commit,cpu,key,ratio,note,base,time,url\n2026-09-03,n3,c,cpu,k,1.20,late one,,,\n"
                        + "2026-09-01,n1,a,cpu,k,1.0,\"first, by hand\",,,\n2026-09-02,n2,b,cpu,k,1.1,,,,\n"
                        + "2026-09-04,n4,d,cpu,k,1.3,,,,\n2026-09-04,n4,d,cpu,j,0.5,,,,\n"
                        + "2026-08-30,w1,z,cpu,k,0.9,,,,http://w/1\n",
                Files.readString(file),
                "the union of the columns, the new row at the end");
        Files.writeString(wiki, "date,run,commit,cpu,key,ratio\n2026-08-31,w1,z,cpu,j,0.9\n");
        Cli twoDates = Cli.run("series", "import", "--series", file.toString(), "--from", wiki.toString());
        assertEquals(2, twoDates.exitCode(), twoDates.err());
        assertTrue(
                twoDates.err().contains(file + " and " + wiki + ": run 'w1' has two dates, 2026-08-30 and 2026-08-31"),
                twoDates.err());
        Cli replay = Cli.run("series", "replay", "--series", file.toString(), "--format", "json");
        assertEquals(0, replay.exitCode(), replay.err());
        assertEquals(5, JSON.readTree(replay.out()).get("runs").asInt());
    }

    @Test
    void githubFormatWarnsPerNewMovementWritesTheSummaryAndNeverFails() throws IOException {
        Path file = series(LocalDate.of(2026, 9, 1));
        Cli run = Cli.run("series", "check", "--series", file.toString(), "--format", "github");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(
                run.out().contains("::warning title=perfab series%3A step::BpeBenchmarks.Encode/unigram: step, ratio"),
                run.out());
        assertFalse(run.out().contains("IndelBenchmarks.CodePoint/512"), "persisting movements raise no warning");
        // As a job step: the section goes to the summary, the counts to the step's outputs.
        Path summary = tmp.resolve("summary.md");
        Path outputs = tmp.resolve("outputs");
        Files.writeString(summary, "x".repeat(1024 * 1024 - 200));
        Map<String, String> env =
                Map.of("GITHUB_STEP_SUMMARY", summary.toString(), "GITHUB_OUTPUT", outputs.toString());
        String[] step = {"series", "check", "--series", file.toString(), "--format", "github"};
        Cli first = Cli.run(env, step);
        assertEquals(0, first.exitCode(), first.err());
        String newCount = Files.readString(outputs)
                .lines()
                .filter(l -> l.startsWith("new="))
                .findFirst()
                .orElseThrow();
        assertTrue(newCount.matches("new=[1-9]\\d*"), newCount);
        assertTrue(Files.readString(outputs).contains("\npersisting="), Files.readString(outputs));
        String tail = Files.readString(summary).substring(1024 * 1024 - 200);
        assertTrue(tail.startsWith("perfab: the series' movements (") && tail.contains("does not fit"), tail);
        Files.writeString(summary, "");
        assertEquals(
                0,
                Cli.run(
                                "series",
                                "check",
                                "--series",
                                file.toString(),
                                "--format",
                                "markdown",
                                "-o",
                                tmp.resolve("page.md").toString())
                        .exitCode());
        assertEquals(0, Cli.run(env, step).exitCode());
        assertEquals(Files.readString(tmp.resolve("page.md")), Files.readString(summary), "the page's section");
        Cli text = Cli.run("series", "check", "--series", file.toString());
        assertTrue(
                text.out()
                        .lines()
                        .findFirst()
                        .orElseThrow()
                        .matches("perfab series: \\d+ new movements?, \\d+"
                                + " persisting, in run nightly-2026-09-01 \\(2026-09-01\\) of \\d+ ratios compared"),
                text.out());
    }

    @Test
    void keysAndProcessorsFromTheSeriesAreEscapedWhereverTheyGo() throws IOException {
        List<Series.Reading> readings = new ArrayList<>();
        List<String> keys = List.of("a|b</td><script>x</script>", "::error::pwn\nnext", "[l](http://x) **b**");
        for (int night = 1; night <= 7; night++) {
            for (String key : keys) {
                readings.add(new Series.Reading(
                        LocalDate.of(2026, 9, night),
                        "n" + night,
                        "c",
                        "Intel\u001b[31m|Xeon",
                        key,
                        night < 7 ? 1.0 : 2.0));
            }
        }
        Path file = tmp.resolve("ratios.csv");
        Files.writeString(file, SeriesFile.of(readings).write());
        Cli md = Cli.run("series", "check", "--series", file.toString(), "--format", "markdown");
        assertEquals(0, md.exitCode(), md.err());
        assertTrue(
                md.out().contains("| a\\|b&lt;/td&gt;&lt;script&gt;x&lt;/script&gt; | step | 2 | 1 | +100.0% |"),
                md.out());
        assertTrue(md.out().contains("| \\[l\\](http:\u200b//x) \\*\\*b\\*\\* |"), md.out());
        assertFalse(md.out().contains("\u001b") || md.out().contains("pwn\nnext"), md.out());
        assertEquals(3, md.out().lines().filter(l -> l.contains("| step |")).count(), "one table row per key");
        Cli gh = Cli.run("series", "check", "--series", file.toString(), "--format", "github");
        assertEquals(0, gh.exitCode(), gh.err());
        assertEquals(3, gh.out().lines().count(), gh.out());
        assertTrue(gh.out().lines().allMatch(l -> l.startsWith("::warning title=perfab series%3A step::")), gh.out());
        assertFalse(gh.out().lines().anyMatch(l -> l.startsWith("::error")), gh.out());
    }

    @Test
    void badInputNamesTheFileLineAndColumn() throws IOException {
        Path file = tmp.resolve("ratios.csv");
        Files.writeString(
                file, "date,run,commit,cpu,key,ratio\n2026-09-01,n1,a,cpu,k,1.0\n2026-09-02,n2,a,cpu,k,fast\n");
        Cli bad = Cli.run("series", "check", "--series", file.toString());
        assertEquals(2, bad.exitCode());
        assertTrue(bad.err().contains(file + ":3: column 'ratio': 'fast' is not a number"), bad.err());
        Files.writeString(file, "date,run,key,ratio\n2026-09-01,n1,k,1.0\n");
        assertTrue(Cli.run("series", "check", "--series", file.toString())
                .err()
                .contains(file + ":1: the header has no column 'commit'"));
        Files.writeString(file, "date,run,commit,cpu,key,ratio\n09/01/2026,n1,a,cpu,k,1.0\n");
        assertTrue(Cli.run("series", "check", "--series", file.toString())
                .err()
                .contains(file + ":2: column 'date': '09/01/2026' is not an ISO date"));
        Files.writeString(file, "date,run,commit,cpu,key,ratio\n2026-09-01,n1,a,cpu,k,-1\n");
        assertTrue(Cli.run("series", "check", "--series", file.toString())
                .err()
                .contains(file + ":2: a ratio must be finite and above 0, got -1.0"));
        Files.writeString(file, "date,run,commit,cpu,key,ratio\n2026-09-01,n1,a,cpu,k,1\n2026-09-01,n1,a,cpu,k,2\n");
        assertTrue(Cli.run("series", "check", "--series", file.toString())
                .err()
                .contains("run 'n1' has two readings of key 'k'"));
        Files.writeString(file, "date,run,commit,cpu,key,ratio\n2026-09-01,n1,a,cpu,k,1\n");
        Cli noRun = Cli.run("series", "check", "--series", file.toString(), "--run", "n9");
        assertEquals(2, noRun.exitCode());
        assertTrue(noRun.err().contains("no run 'n9' (the latest is 'n1')"), noRun.err());
        Cli rules = Cli.run("series", "check", "--series", file.toString(), "--rules", "stepp=30");
        assertEquals(2, rules.exitCode());
        assertTrue(rules.err().contains("--rules 'stepp=30': 'stepp' is not one of step, noise, drift"), rules.err());
        Cli missing =
                Cli.run("series", "check", "--series", tmp.resolve("nope.csv").toString());
        assertTrue(missing.err().contains("nope.csv: no such file"), missing.err());
    }
}
