package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import org.perfab.ab.Engine;
import org.perfab.testing.Comparisons;
import org.perfab.testing.GitFixture;
import org.perfab.testing.Subjects;

/**
 * A trial in which every cell moved together, far beyond its spread, measured the machine: {@code
 * perfab ab} sets it aside from every cell, says so, and runs a replacement, within a bound. Real
 * git repositories and harness processes; the disturbance is the harness's own doing on chosen
 * trials, so that the verdicts are known in advance.
 */
@Isolated("sets trials aside on the machine's load")
class DisturbedTrialsIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    /**
     * A harness of four cells read from the side's own build (its level), each with a spread of its
     * own; on the candidate's trials listed in {@code disturbed} (PERFAB_TRIAL, from 0) every cell is
     * 40% slower, as a neighbour's burst would make it. When {@code waits}, such a trial also waits a
     * third of a second, as a trial does that a busy machine keeps from its CPU: its wall time
     * stretches far past its own CPU time, which is the machine's word that perfab records. Without
     * it, the slow trial runs a slower path of the code instead: it costs CPU time, a third of a
     * second of it, which tells the code's slow trial from the machine's however busy the machine is.
     */
    private static String harness(String disturbed, boolean waits) {
        return """
                #!/bin/sh
                set -e
                level=$(cat "$PERFAB_BUILD_DIR/level")
                burst=100
                case " %s " in *" $PERFAB_TRIAL "*) [ "$PERFAB_SIDE" = head ] && burst=140 && %s ;; esac
                printf '{"schema": "perfab/measurements/v1", "measurements": [' > "$PERFAB_RESULT"
                sep=''
                for cell in 1 2 3 4; do
                  jitter=$(( (PERFAB_TRIAL * (cell + 1) + cell) %% 5 - 2 ))
                  value=$(( level * (100 + jitter) * burst / 100 ))
                  printf '%%s{"cell": "work/%%s", "metric": "time", "unit": "us", "value": %%s}' "$sep" "$cell" "$value" >> "$PERFAB_RESULT"
                  sep=','
                done
                printf ']}\\n' >> "$PERFAB_RESULT"
                """.formatted(disturbed, waits ? "sleep 0.3" : "awk 'BEGIN { for (i = 0; i < 20000000; i++) x += i }'");
    }

    private GitFixture pullRequest(int featureLevel, String disturbed) throws IOException {
        return pullRequest(featureLevel, disturbed, true);
    }

    private GitFixture pullRequest(int featureLevel, String disturbed, boolean waits) throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), featureLevel, 5, "");
        g.git("checkout", "-q", "feature");
        g.script("bench.sh", harness(disturbed, waits));
        g.commit("the harness");
        g.git("checkout", "-q", "main");
        return g;
    }

    private Cli ab() {
        return Cli.run(
                Engine.REAL,
                "ab",
                "--repo=" + tmp.resolve("repo"),
                "--base=main",
                "--head=feature",
                "--out",
                tmp.resolve("out").toString());
    }

    private JsonNode results() throws IOException {
        return JSON.readTree(tmp.resolve("out/results.json").toFile());
    }

    @Test
    void aTrialInWhichEveryCellMovedTogetherIsSetAsideAndReplaced() throws IOException {
        pullRequest(100, "2");
        Cli run = ab();
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(
                run.err()
                        .contains("replacing head trial 3, which a disturbance of the machine spoiled (4 of 4 cells"
                                + " moved together), with head trial 6"),
                run.err());
        JsonNode r = results();
        JsonNode w = Comparisons.warning(r, "disturbed-trials");
        assertTrue(w != null, r.get("warnings").toString());
        assertEquals(1, w.get("count").asInt(), w.toString());
        assertTrue(w.at("/subjects/0").asText().startsWith("head trial 3: 4 of 4 cells +3"), w.toString());
        assertEquals(1, w.at("/figures/replaced").asInt());
        List<Integer> headTrials = new ArrayList<>();
        for (JsonNode t : r.get("trials")) {
            if (t.get("side").asText().equals("head") && !t.get("warmup").asBoolean()) {
                headTrials.add(t.get("trial").asInt());
            }
        }
        assertEquals(List.of(0, 1, 2, 3, 4, 5), headTrials, "the replacement is the candidate's sixth trial");
        // The code did not change: every cell unchanged, the disturbed trial in none of them.
        var cells = Comparisons.of(JSON.writeValueAsString(r));
        for (int c = 1; c <= 4; c++) {
            JsonNode cell = cells.get("work/" + c + ":time");
            assertEquals("unchanged", cell.get("verdict").asText(), cell.toString());
            // Judged as independent samples: five undisturbed trials of the candidate. Judged in pairs: the
            // disturbed trial takes its partner out, and the replacement has none on the base's side.
            boolean pairs = cell.at("/statistic/name").asText().equals("paired-t");
            assertEquals(pairs ? 4 : 5, cell.at("/head/n").asInt(), "the undisturbed trials of the candidate: " + cell);
            assertEquals(0, cell.get("outliers").size(), "set aside as a trial, not cell by cell");
        }
        String comment = Files.readString(tmp.resolve("out/comment.md"));
        assertTrue(
                comment.contains("1 trial was disturbed: most of its cells moved far beyond their spread, and the"
                        + " machine says it was the machine, not the code (head trial 3: 4 of 4 cells +3"),
                comment);
        assertTrue(comment.contains("it waited for a CPU"), comment);
        assertTrue(comment.contains("Set aside from every cell; 1 replacement trial ran (at most 1 a side)."), comment);
        // A reader of the results judges them the same way.
        Cli report =
                Cli.run(Engine.REAL, "report", tmp.resolve("out/results.json").toString(), "--format", "json");
        assertEquals(0, report.exitCode(), report.err());
        assertEquals(
                "unchanged",
                Comparisons.of(report.out()).get("work/1:time").get("verdict").asText());
    }

    @Test
    void withoutTheRuleTheDisturbedTrialWouldHaveDecidedEveryCell() throws IOException {
        // The same run read cell by cell: each cell has a far trial on the candidate's side only,
        // and could not say "no change". Judged as a trial, the disturbance decides nothing.
        pullRequest(100, "2");
        assertEquals(0, ab().exitCode());
        JsonNode r = results();
        List<String> perCell = new ArrayList<>();
        for (JsonNode m : r.get("measurements")) {
            if (m.get("side").asText().equals("head") && m.get("trial").asInt() == 2) {
                perCell.add(m.get("cell").asText());
            }
        }
        assertEquals(List.of("work/1", "work/2", "work/3", "work/4"), perCell, "its measurements are kept, shown");
    }

    @Test
    void aSlowerCandidateIsARegressionNotADisturbance() throws IOException {
        // Every trial of the candidate 40% slower: a change of the code, on every trial alike.
        pullRequest(140, "");
        Cli run = ab();
        assertEquals(0, run.exitCode(), run.err());
        JsonNode r = results();
        assertEquals(
                null,
                Comparisons.warning(r, "disturbed-trials"),
                r.get("warnings").toString());
        assertEquals(
                "regression",
                Comparisons.of(JSON.writeValueAsString(r))
                        .get("work/1:time")
                        .get("verdict")
                        .asText());
    }

    @Test
    void aSlowTrialOfTheCandidateAloneThatTheMachineDoesNotExplainIsTheCodes() throws IOException {
        // The candidate's code takes a 40% slower path in one trial of five, every cell alike, and
        // the trial's CPU time grew with it: kept, and no row can say "no change", even on a busy
        // machine on which that trial also waited for a CPU.
        pullRequest(100, "2", false);
        Cli run = ab();
        assertEquals(0, run.exitCode(), run.err());
        JsonNode r = results();
        assertEquals(
                null,
                Comparisons.warning(r, "disturbed-trials"),
                r.get("warnings").toString());
        var cells = Comparisons.of(JSON.writeValueAsString(r));
        for (int c = 1; c <= 4; c++) {
            JsonNode cell = cells.get("work/" + c + ":time");
            // Inconclusive where the one slow trial is far from the rest; too noisy to tell where the
            // cell's own steps are as wide (work/4 is constant but for that trial): never a pass.
            assertTrue(
                    Set.of("inconclusive", "regression", "noisy")
                            .contains(cell.get("verdict").asText()),
                    cell.toString());
            assertEquals(5, cell.at("/head/n").asInt(), "every trial of the candidate judged");
            assertEquals(8.0, cell.get("pctChange").asDouble(), 1.0, "the mean of every trial: " + cell);
        }
    }

    @Test
    void replacementsAreBoundedAndSaid() throws IOException {
        // Two of the candidate's five trials disturbed: a fifth of five is one replacement.
        pullRequest(100, "1 3");
        Cli run = ab();
        assertEquals(0, run.exitCode(), run.err());
        JsonNode w = Comparisons.warning(results(), "disturbed-trials");
        assertTrue(w != null, results().get("warnings").toString());
        assertEquals(2, w.get("count").asInt(), w.toString());
        assertEquals(1, w.at("/figures/replaced").asInt());
        assertEquals(1, w.at("/figures/most").asInt());
    }
}
