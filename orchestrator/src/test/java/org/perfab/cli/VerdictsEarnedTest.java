package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.StringJoiner;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.perfab.exec.Processes;
import org.perfab.model.Load;
import org.perfab.testing.Comparisons;
import org.perfab.testing.FakeEngine;
import org.perfab.testing.GitFixture;

/**
 * Every verdict earned, end to end through {@code perfab ab} with default settings: the hard cases
 * that once read ✅ on a slowdown, turned a sign around, or set the code's own slow trials aside as
 * the machine's. Each side's trials are values written in its own tree ({@code trials.txt}: a line of
 * cells, then a line per trial), which the head's harness reports trial by trial; so the verdicts
 * are known in advance, and a run in which the wrong side's code ran would read otherwise.
 */
class VerdictsEarnedTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * The harness, run in process: reports line {@code PERFAB_TRIAL mod (lines - 1)} of the side's
     * own {@code trials.txt}, one cell a column. Two columns are not cells but what the trial did:
     * {@code work}, how many steps of arithmetic it did first, the CPU time a slower path of the code
     * costs (5 ns a step), which its wall time grows by too; and {@code waited}, 1 where a busy
     * machine kept it waiting for a CPU, its wall time stretched by half again while its neighbours
     * kept more cores busy. A trial that does more work waits too, as a long trial on a shared runner
     * does: only its own CPU time tells it is the code's.
     */
    private final FakeEngine fake = new FakeEngine().program("bench.sh", c -> {
        List<String> lines = Files.readAllLines(Path.of(c.env().get("PERFAB_SIDE_DIR"), "trials.txt"));
        String[] cells = lines.get(0).strip().split(" ");
        String[] row = lines.get(1 + Integer.parseInt(c.env().get("PERFAB_TRIAL")) % (lines.size() - 1))
                .strip()
                .split(" ");
        double cpu = 0.010;
        boolean waited = false;
        StringJoiner measurements =
                new StringJoiner(",", "{\"schema\": \"perfab/measurements/v1\", \"measurements\": [", "]}\n");
        for (int i = 0; i < cells.length; i++) {
            double value = Double.parseDouble(row[i]);
            if (cells[i].equals("work")) {
                cpu += value * 5e-9;
                waited |= value > 0;
            } else if (cells[i].equals("waited")) {
                waited |= value > 0;
            } else {
                String[] cell = cells[i].split(":");
                measurements.add("{\"cell\": \"" + cell[0] + "\", \"metric\": \"" + cell[1] + "\", \"unit\": \""
                        + cell[2] + "\", \"value\": " + row[i] + "}");
            }
        }
        Files.writeString(Path.of(c.env().get("PERFAB_RESULT")), measurements.toString());
        double wall = (cpu + 0.001) * (waited ? 1.5 : 1);
        Load load = new Load(wall, cpu, waited ? 1.5 : 0.1, 0, waited ? 3 : 1, waited ? 4 : 1, Load.CpuClock.CGROUP);
        return new Processes.Outcome(
                0,
                false,
                "",
                wall,
                OptionalDouble.of(cpu),
                OptionalLong.empty(),
                "",
                List.of(),
                false,
                Optional.of(load));
    });

    /** A fixed spread of twenty draws, mean about 0, standard deviation about 0.8. */
    private static final double[] Z = {
        0.3, -1.1, 0.8, -0.4, 1.2, -0.7, 0.1, 0.9, -1.3, 0.5, -0.2, 1.0, -0.9, 0.4, -0.6, 1.4, -1.0, 0.2, 0.7, -0.5
    };

    @TempDir
    Path tmp;

    /** One cell of a side: its name (NAME:METRIC:UNIT) and its value in each trial, from 0. */
    private record Column(String cell, IntToDoubleFunction value) {}

    /** A cell whose trials spread by {@code cv} percent around {@code level}, the spread's draws shifted by {@code shift}. */
    private static IntToDoubleFunction spread(double level, double cv, int shift) {
        return i -> level * (1 + cv / 100 * Z[(i + shift) % Z.length]);
    }

    private static String trials(int lines, List<Column> columns) {
        StringBuilder s = new StringBuilder();
        columns.forEach(c -> s.append(c.cell()).append(' '));
        s.append('\n');
        for (int i = 0; i < lines; i++) {
            for (Column c : columns) {
                s.append(String.format(Locale.ROOT, "%.4f ", c.value().applyAsDouble(i)));
            }
            s.append('\n');
        }
        return s.toString();
    }

    /**
     * Runs {@code perfab ab} with default settings (5 trials per side, more while a cell is
     * undecided, up to 20) of a base whose trials are {@code base} and a head whose trials are
     * {@code head}, and returns the results' rows by {@code NAME:METRIC}.
     */
    private Map<String, JsonNode> ab(int lines, List<Column> base, List<Column> head) throws IOException {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.script("bench.sh", "#!/bin/sh\nexit 1\n")
                .write("perfab.yaml", "name: earned\nwarmup: 0\nharness:\n  run: [sh, bench.sh]\n")
                .write("trials.txt", trials(lines, base));
        g.commit("the baseline");
        g.git("checkout", "-q", "-b", "feature");
        g.write("trials.txt", trials(lines, head));
        g.commit("the change");
        Cli run = Cli.run(
                fake.engine(),
                "ab",
                "--repo=" + g.dir(),
                "--base=main",
                "--head=feature",
                "--out",
                tmp.resolve("out").toString());
        assertEquals(0, run.exitCode(), run.err());
        err = run.err();
        return Comparisons.of(tmp.resolve("out/results.json"));
    }

    /** What the last run of {@link #ab} wrote to standard error. */
    private String err = "";

    /**
     * Runs {@code perfab ab} of one cell ({@code NAME:METRIC:UNIT}) spread by {@code cv} percent
     * around {@code base} and {@code head}, twenty lines of trials a side, and returns its row.
     */
    private JsonNode oneCell(String cell, double base, double head, double cv) throws IOException {
        var rows =
                ab(20, List.of(new Column(cell, spread(base, cv, 0))), List.of(new Column(cell, spread(head, cv, 7))));
        return rows.get(cell.substring(0, cell.lastIndexOf(':')));
    }

    private JsonNode results() throws IOException {
        return JSON.readTree(tmp.resolve("out/results.json").toFile());
    }

    /** Returns whether the run set some trial aside on the machine's word. */
    private boolean disturbed() throws IOException {
        for (JsonNode w : results().get("warnings")) {
            if (w.get("kind").asText().equals("disturbed-trials")) {
                return true;
            }
        }
        return false;
    }

    private static String verdict(JsonNode row) {
        return row.get("verdict").asText();
    }

    @Test
    void aSignificantDipUnderTheBarIsSmallEvenWhenTheFirstLookDecidesIt() throws IOException {
        JsonNode a = oneCell("a:time:us", 100, 102, 0.5);
        assertEquals("small", verdict(a), a.toString());
        assertEquals(5, a.at("/head/n").asInt(), "decided at the first look");
        assertEquals(2.0, a.get("pctChange").asDouble(), 0.1);
        assertTrue(Files.readString(tmp.resolve("out/comment.md")).contains("\uD83D\uDD38"), "the comment marks it");
    }

    @Test
    void aThroughputFourPercentLowerAtTheMostTrialsIsARegressionAsTheSeedsRuleSays() throws IOException {
        // -4.1% [-8.0%, -0.0%], p 0.048 at 20 trials: undecided at every look before, and at the last
        // the level is 0.0492, nearly the seed's 0.05.
        JsonNode q = oneCell("q:throughput:ops/s", 1000, 959, 7.9);
        assertEquals("regression", verdict(q), q.toString());
        assertEquals(20, q.at("/head/n").asInt());
        assertEquals(-4.1, q.get("pctChange").asDouble(), 0.05);
        assertTrue(q.get("pValue").asDouble() > 0.04 && q.get("pValue").asDouble() < 0.0492, q.toString());
    }

    @Test
    void aCellTooNoisyAtTheMostTrialsIsPointedAtPlanNotAtTheTrialsItAlreadyHad() throws IOException {
        // CV 15% at 20 trials a side, the most the run may take: no look could see the bar.
        JsonNode n = oneCell("n:time:us", 100, 100, 15);
        assertEquals("noisy", verdict(n), n.toString());
        assertEquals(20, n.at("/head/n").asInt());
        String comment = Files.readString(tmp.resolve("out/comment.md"));
        assertFalse(comment.contains("--adaptive 20"), "the run had adaptive 20 already: " + comment);
        assertTrue(
                comment.contains("Not a pass: more trials (past this run&#39;s 20 trials a side: perfab plan on this"
                        + " run&#39;s results.json says how many trials and builds each cell needs) narrow the spread"),
                comment);
        assertTrue(
                err.contains("1 cell is still undecided at the most trials asked (n time); perfab plan "
                        + tmp.resolve("out/results.json") + " says how many trials and builds they need"),
                err);
    }

    @Test
    void aSlowerPathOfTheCandidateInOneTrialOfFourIsTheCodesNotTheMachines() throws IOException {
        // Six cells, all 35% slower in the candidate's trials 3, 7, 11, ...: the slow path costs CPU
        // time, as a slower path of real code does, so nothing is set aside, and no row can say "no
        // change". Those trials waited for a busy machine too: their own CPU time alone tells them
        // from trials the machine slowed.
        List<Column> base = new ArrayList<>(List.of(new Column("work", i -> 0)));
        List<Column> head = new ArrayList<>(List.of(new Column("work", i -> i % 4 == 3 ? 10_000_000 : 0)));
        for (int c = 0; c < 6; c++) {
            int shift = c;
            base.add(new Column("c" + c + ":time:us", spread(100 * (c + 1), 0.5, shift)));
            head.add(new Column(
                    "c" + c + ":time:us",
                    i -> spread(100 * (shift + 1), 0.5, shift + 5).applyAsDouble(i) * (i % 4 == 3 ? 1.35 : 1)));
        }
        var rows = ab(8, base, head);
        // Even where a busy machine kept such a trial waiting too, its CPU time grew with its cells:
        // nothing is set aside.
        assertFalse(disturbed(), results().get("warnings").toString());
        for (int c = 0; c < 6; c++) {
            JsonNode row = rows.get("c" + c + ":time");
            assertTrue(Set.of("regression", "inconclusive").contains(verdict(row)), row.toString());
            assertEquals(8.75, row.get("pctChange").asDouble(), 0.5, "the mean of every trial: " + row);
        }
    }

    @Test
    void twoSpeedsNeverTurnASignAround() throws IOException {
        // Each trial of a side falls at one of two speeds 40% apart, the base mostly fast, the head
        // mostly slow: setting each side's minority aside would compare the base's fast group with
        // the head's slow one, and read a true -10% as a 20%-odd slowdown.
        boolean[] baseSlow = {false, false, true, false, false, false, true, false, true, false};
        boolean[] headSlow = {true, true, false, true, true, false, true, true, false, true};
        List<Column> base = List.of(
                new Column("up:time:us", i -> spread(100, 1, 0).applyAsDouble(i) * (baseSlow[i % 10] ? 1.4 : 1)),
                new Column("down:time:us", i -> spread(100, 1, 3).applyAsDouble(i) * (baseSlow[i % 10] ? 1.4 : 1)));
        List<Column> head = List.of(
                new Column("up:time:us", i -> spread(110, 1, 7).applyAsDouble(i) * (headSlow[i % 10] ? 1.4 : 1)),
                new Column("down:time:us", i -> spread(90, 1, 11).applyAsDouble(i) * (headSlow[i % 10] ? 1.4 : 1)));
        var rows = ab(10, base, head);
        JsonNode up = rows.get("up:time");
        JsonNode down = rows.get("down:time");
        assertTrue(!Set.of("improvement", "unchanged").contains(verdict(up)), "a true +10%: " + up);
        assertTrue(!Set.of("regression", "small", "inconclusive").contains(verdict(down)), "a true -10%: " + down);
        for (JsonNode row : List.of(up, down)) {
            assertTrue(row.get("caveats").toString().contains("split"), "the split is named: " + row);
        }
    }

    @Test
    void oneCandidateTrialInFiveThirtyPercentSlowerIsFlagged() throws IOException {
        // Exactly one trial in five: mean +6%. Five trials cannot confirm it, so the run goes on;
        // by twenty, four slow trials of twenty, Welch's test on every trial confirms it.
        var rows = ab(
                20,
                List.of(
                        new Column("work", i -> 0),
                        new Column("p:time:us", spread(100, 0.5, 0)),
                        new Column("q:time:us", spread(100, 0.5, 4))),
                List.of(
                        new Column("work", i -> i % 5 == 2 ? 10_000_000 : 0),
                        new Column("p:time:us", i -> spread(100, 0.5, 7).applyAsDouble(i) * (i % 5 == 2 ? 1.3 : 1)),
                        new Column("q:time:us", i -> spread(102, 0.5, 9).applyAsDouble(i) * (i % 5 == 2 ? 1.3 : 1))));
        // The mean of every trial: those trials cost CPU time, so none is set aside, though the
        // machine was busy while they ran.
        assertFalse(disturbed(), results().get("warnings").toString());
        JsonNode p = rows.get("p:time");
        assertTrue(Set.of("regression", "inconclusive").contains(verdict(p)), p.toString());
        assertEquals(6.0, p.get("pctChange").asDouble(), 0.5);
        // On top of a uniform 2%, the mean moved 8%: never "small".
        JsonNode q = rows.get("q:time");
        assertTrue(Set.of("regression", "inconclusive").contains(verdict(q)), q.toString());
        assertEquals(8.1, q.get("pctChange").asDouble(), 0.5);
    }

    @ParameterizedTest(name = "the machine kept it waiting: {0}")
    @ValueSource(booleans = {false, true})
    void aSpeedUpStandsOnTheRestWhenOneSlowTrialOfTheCandidateIsAllThatWasSetAside(boolean waited) throws IOException {
        var rows = ab(
                20,
                List.of(new Column("waited", i -> 0), new Column("f:time:us", spread(100, 1, 0))),
                List.of(
                        new Column("waited", i -> i == 3 && waited ? 1 : 0),
                        new Column("f:time:us", i -> spread(90, 1, 7).applyAsDouble(i) * (i == 3 ? 1.3 : 1))));
        JsonNode f = rows.get("f:time");
        assertEquals("improvement", verdict(f), f.toString());
        assertEquals(-10.0, f.get("pctChange").asDouble(), 0.5);
        // The hiccup costs no CPU time: set aside from the cell, or, where a busy machine kept that
        // trial waiting for a CPU, from the run as the machine's. Either way it alone, and the
        // speed-up stands.
        assertEquals(waited, disturbed(), results().get("warnings").toString());
        assertEquals(waited ? 0 : 1, f.get("outliers").size(), f.toString());
    }

    @Test
    void aChangeSignificantAtTheLastLookAmongTwoCellsIsARegression() throws IOException {
        // +9.1% [+1.4%, +17.4%], p 0.021 at 20 trials, beside a cell that did not move: q 0.043 is
        // under the last look's rate, 0.0492, so it is flagged; it once read "too noisy".
        var rows = ab(
                20,
                List.of(new Column("user:time:s", spread(100, 14, 0)), new Column("sys:time:s", spread(100, 1, 5))),
                List.of(new Column("user:time:s", spread(109.1, 14, 7)), new Column("sys:time:s", spread(100, 1, 12))));
        JsonNode user = rows.get("user:time");
        assertEquals("regression", verdict(user), user.toString());
        assertEquals(0.021, user.get("pValue").asDouble(), 0.002);
        assertTrue(user.get("qValue").asDouble() < 0.0492, user.toString());
    }
}
