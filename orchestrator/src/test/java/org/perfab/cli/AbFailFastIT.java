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
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.ab.Engine;
import org.perfab.testing.GitFixture;
import org.perfab.testing.Subjects;

/**
 * {@code perfab ab} stops as soon as the harness plainly does not work on a side, and keeps going
 * when it only fails now and then: real git repositories, real builds and harness processes.
 */
class AbFailFastIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The subject's harness without its first line, to put lines before it. */
    private static final String HARNESS = Subjects.HARNESS.substring(Subjects.HARNESS.indexOf('\n') + 1);

    @TempDir
    Path tmp;

    private Path out() {
        return tmp.resolve("out");
    }

    private Cli ab() {
        return Cli.run(
                Engine.REAL,
                "ab",
                "--repo=" + tmp.resolve("repo"),
                "--base=main",
                "--head=feature",
                "--out",
                out().toString());
    }

    /**
     * Returns a pull request whose harness (one warm-up and {@code trials} trials per side) runs
     * {@code before} first.
     */
    private GitFixture withHarness(int trials, String before) throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, trials, "");
        g.git("checkout", "-q", "feature");
        g.script("bench.sh", "#!/bin/sh\n" + before + HARNESS);
        g.commit("the harness");
        g.git("checkout", "-q", "main");
        return g;
    }

    /** Returns the trials in {@code trials.jsonl}, as the sides, warm-ups and statuses they ran: {@code bw- hw+ b-}. */
    private String trialLog() throws IOException {
        List<String> trials = new ArrayList<>();
        Set<Integer> seqs = new HashSet<>();
        for (String line : Files.readAllLines(out().resolve("trials.jsonl"))) {
            JsonNode t = JSON.readTree(line);
            assertTrue(seqs.add(t.get("seq").asInt()), "no trial ran twice: " + line);
            trials.add(t.get("side").asText().charAt(0)
                    + (t.get("warmup").asBoolean() ? "w" : "")
                    + (t.get("status").asText().equals("ok") ? "+" : "-"));
        }
        return String.join(" ", trials);
    }

    private JsonNode results() throws IOException {
        return JSON.readTree(out().resolve("results.json").toFile());
    }

    @Test
    void aHarnessThatAlwaysFailsStopsAfterTheFirstTrialOfEachSide() throws IOException {
        withHarness(5, "echo 'bench: cannot open /dev/gpu0' >&2\nexit 1\n");
        Cli run = ab();
        assertEquals(3, run.exitCode(), run.err());
        assertEquals("bw- hw- b- h-", trialLog(), "the warm-ups and one counted trial of each side, not 12 trials");
        assertTrue(
                run.err()
                        .contains("perfab: stopping: every trial of base so far failed (2 of 2), and every trial"
                                + " of head (2 of 2); the 8 trials left are not run\n"),
                run.err());
        assertTrue(
                run.err()
                        .contains("every trial of base so far failed (2 of 2), and every trial of head (2 of 2), so"
                                + " the run stopped there; base trial 1: the harness exited with code 1\n"
                                + "    bench: cannot open /dev/gpu0\n"),
                run.err());
        assertTrue(
                run.err()
                        .contains("the results so far are in " + out().resolve("results.json") + ", and the output"
                                + " of base trial 1 in " + out().resolve("logs/trials/0002-base-0") + "*"),
                run.err());
        assertEquals("bench: cannot open /dev/gpu0\n", Files.readString(out().resolve("logs/trials/0002-base-0.err")));
        // What ran is in the results, as in any run: nothing is lost.
        JsonNode r = results();
        assertEquals(4, r.get("trials").size());
        assertFalse(r.get("interrupted").asBoolean());
        assertEquals(
                "bench: cannot open /dev/gpu0", r.at("/trials/2/stderrTail").asText());
        assertTrue(Files.readString(out().resolve("comment.md"))
                .contains("no comparison: no trial of either side succeeded (2 failed)"));
        assertTrue(Files.exists(out().resolve("report.html")));
    }

    @Test
    void aHarnessThatFailsOnlyOnTheBaseStopsAfterTheBasesFirstTrial() throws IOException {
        // The head adds the input its harness reads; the base, which runs the head's harness, lacks it.
        GitFixture g = withHarness(5, "cat fixtures/input.txt > /dev/null || exit 1\n");
        g.git("checkout", "-q", "feature");
        g.write("fixtures/input.txt", "the input\n");
        g.commit("the harness's input");
        g.git("checkout", "-q", "main");
        Cli run = ab();
        assertEquals(3, run.exitCode(), run.err());
        assertEquals("bw- hw+ b-", trialLog());
        assertTrue(
                run.err()
                        .contains("every trial of base so far failed (2 of 2), so the run stopped there; base"
                                + " trial 1: the harness exited with code 1\n    cat: fixtures/input.txt: No such file or"
                                + " directory\n"),
                run.err());
        assertFalse(run.err().contains("every trial of head"), run.err());
        assertEquals(3, results().get("trials").size());
    }

    @Test
    void aHarnessThatFailsOnceAfterWorkingRunsEveryTrialAndWarns() throws IOException {
        Path calls = tmp.resolve("calls");
        withHarness(
                3,
                "n=$(( $(cat '" + calls + "' 2>/dev/null || echo 0) + 1 ))\necho $n > '" + calls + "'\n"
                        + "if [ $n = 4 ]; then echo 'lost the connection' >&2; exit 1; fi\n");
        Cli run = ab();
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("bw+ hw+ b+ h- h+ b+ b+ h+", trialLog(), "the head's first trial failed after its warm-up worked");
        assertFalse(run.err().contains("stopping"), run.err());
        assertTrue(
                results().get("warnings").findValuesAsText("kind").contains("failed-trials"),
                results().get("warnings").toString());
        assertTrue(
                run.out().contains("WARNING: 1 trial failed (head trial 1: the harness exited with code 1)"),
                run.out());
    }

    @Test
    void aFailedWarmUpAloneDoesNotStopTheRun() throws IOException {
        withHarness(2, "if [ \"$PERFAB_WARMUP\" = 1 ]; then echo 'cold cache' >&2; exit 1; fi\n");
        Cli run = ab();
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("bw- hw- b+ h+ h+ b+", trialLog());
    }

    @Test
    void aStoppedRunResumesOnceTheMachineIsMended() throws IOException {
        Path broken = tmp.resolve("broken");
        Files.writeString(broken, "");
        withHarness(4, "if [ -e '" + broken + "' ]; then echo 'no GPU' >&2; exit 1; fi\n");
        assertEquals(3, ab().exitCode());
        assertEquals("bw- hw- b- h-", trialLog());

        // Still broken: it stops again after one more trial of each side, running none twice.
        Cli again = Cli.run(Engine.REAL, "ab", "--resume", "--out", out().toString());
        assertEquals(3, again.exitCode(), again.err());
        assertTrue(
                again.err().contains("every trial of base so far failed (1 of 1), and every trial of head (1 of 1)"),
                again.err());
        assertEquals("bw- hw- b- h- h- b-", trialLog());

        Files.delete(broken);
        Cli mended = Cli.run(Engine.REAL, "ab", "--resume", "--out", out().toString());
        assertEquals(0, mended.exitCode(), mended.err());
        assertEquals("bw- hw- b- h- h- b- b+ h+ h+ b+", trialLog());
        JsonNode r = results();
        assertEquals(10, r.get("trials").size());
        assertTrue(mended.out().contains("WARNING: 6 trials failed"), mended.out());
    }
}
