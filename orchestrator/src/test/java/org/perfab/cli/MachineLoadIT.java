package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import org.perfab.testing.GitFixture;
import org.perfab.testing.Subjects;

/**
 * What {@code perfab ab} records of the machine while each trial runs, with real processes: the
 * trial's own CPU time, and the CPU time and run queue of processes that are not the trial's. The
 * machine running these tests may be busy itself, so they assert relations that hold at any load,
 * never a figure of time.
 */
@Isolated("measures the machine's load")
class MachineLoadIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** A shell loop that keeps one CPU busy for about a quarter of a second on an idle machine. */
    private static final String SPIN = "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done\n";

    @TempDir
    Path tmp;

    @BeforeEach
    void linuxOnly() {
        assumeTrue(Files.isDirectory(Path.of("/proc/self")), "the load is read from Linux's /proc");
    }

    /** A pull request whose head's harness (which both sides run) does {@code before} first. */
    private GitFixture withHarness(String before) throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 3, "");
        g.git("checkout", "-q", "feature");
        g.script("bench.sh", "#!/bin/sh\n" + before + Subjects.HARNESS.substring(Subjects.HARNESS.indexOf('\n') + 1));
        g.commit("the harness");
        g.git("checkout", "-q", "main");
        return g;
    }

    private JsonNode ab(GitFixture g) throws IOException {
        Path out = tmp.resolve("out");
        Cli run = Cli.abOnThisMachine(g.dir(), out);
        assertEquals(0, run.exitCode(), run.err());
        return JSON.readTree(out.resolve("results.json").toFile());
    }

    @Test
    void everyTrialRecordsTheCpuTimeOfAHarnessThatBurnsIt() throws IOException {
        JsonNode results = ab(withHarness(SPIN));
        assertEquals(8, results.get("trials").size(), "3 trials and a warm-up per side");
        for (JsonNode t : results.get("trials")) {
            JsonNode load = t.get("load");
            assertTrue(load.isObject(), t.toString());
            assertTrue(load.get("cpuSeconds").asDouble() > 0, t.toString());
            // The harness runs one process at a time: its CPU time can pass its wall time only by rounding.
            assertTrue(
                    load.get("cpuSeconds").asDouble() <= load.get("wallSeconds").asDouble() + 0.05, t.toString());
            assertEquals(
                    t.get("wallSeconds").asDouble(), load.get("wallSeconds").asDouble(), 1e-9);
            assertTrue(load.get("runQueueMax").asInt() >= 1, "the harness itself was runnable: " + t);
        }
        List<String> lines = Files.readAllLines(tmp.resolve("out/trials.jsonl"));
        assertEquals(8, lines.size());
        for (String line : lines) {
            assertTrue(JSON.readTree(line).get("load").get("cpuSeconds").asDouble() > 0, line);
        }
    }

    @Test
    void aNeighbourThatSpinsWhileTheHeadsTrialsRunShowsInTheirLoad() throws Exception {
        // The neighbours are the test's processes, not the trial's: they spin while the flag exists,
        // which the harness makes for the head's trials only. The harness itself sleeps.
        Path flag = tmp.resolve("busy");
        int cores = Runtime.getRuntime().availableProcessors();
        // Four: enough that they stand out of the run queue of a machine busy with other work.
        int spinners = 4;
        List<Process> neighbours = new ArrayList<>();
        try {
            for (int i = 0; i < spinners; i++) {
                neighbours.add(new ProcessBuilder(
                                "sh", "-c", "while :; do if [ -e '" + flag + "' ]; then :; else sleep 0.02; fi; done")
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .start());
            }
            JsonNode results = ab(withHarness("if [ \"$PERFAB_SIDE\" = head ]; then touch '" + flag + "'; fi\n"
                    + "sleep 1\nrm -f '" + flag + "'\n"));
            double[] others = new double[2];
            double[] queue = new double[2];
            int[] n = new int[2];
            for (JsonNode t : results.get("trials")) {
                int side = t.get("side").asText().equals("head") ? 1 : 0;
                JsonNode load = t.get("load");
                assertTrue(load.isObject(), t.toString());
                others[side] += load.get("othersCores").asDouble();
                queue[side] += load.get("runQueueMean").asDouble();
                n[side]++;
            }
            for (int s = 0; s < 2; s++) {
                others[s] /= n[s];
                queue[s] /= n[s];
            }
            String figures = "others' cores base " + others[0] + ", head " + others[1] + "; run queue base " + queue[0]
                    + ", head " + queue[1] + " (" + spinners + " neighbours, " + cores + " cores)";
            // Spinning neighbours are runnable whatever else the machine does: the run queue tells at any load.
            assertTrue(queue[1] > queue[0] + spinners / 4.0, figures);
            // Their CPU time shows where there was a core for them to take: with one free on average
            // in the quiet trials, the busy ones take most of it.
            if (others[0] <= cores - 1) {
                assertTrue(others[1] > others[0] + 0.5, figures);
            }
            // The run's warning says what its figures say, whatever they are on this machine.
            boolean busy = busy(results, cores);
            boolean warned = false;
            for (JsonNode w : results.get("warnings")) {
                warned |= w.get("kind").asText().equals("busy-machine");
            }
            assertEquals(busy, warned, figures + "; " + results.get("warnings"));
        } finally {
            for (Process p : neighbours) {
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /** Returns whether the counted trials' loads pass a busy machine's bars, weighted by their wall time. */
    private static boolean busy(JsonNode results, int cores) {
        double wall = 0;
        double others = 0;
        double queue = 0;
        double steal = 0;
        for (JsonNode t : results.get("trials")) {
            if (t.get("warmup").asBoolean() || !t.get("status").asText().equals("ok")) {
                continue;
            }
            JsonNode l = t.get("load");
            double w = l.get("wallSeconds").asDouble();
            wall += w;
            others += w * l.get("othersCores").asDouble();
            queue += w * l.get("runQueueMean").asDouble();
            steal += w * l.get("stealShare").asDouble();
        }
        return others / wall >= 0.5 || queue / wall > cores || steal / wall > 0.05;
    }
}
