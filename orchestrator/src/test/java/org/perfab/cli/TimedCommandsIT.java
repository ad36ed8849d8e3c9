package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import org.perfab.ab.Engine;
import org.perfab.exec.ProcessTrees;
import org.perfab.report.testing.Tool;
import org.perfab.testing.Burn;
import org.perfab.testing.GitFixture;
import org.perfab.testing.Subjects;

/**
 * {@code perfab ab} timing real commands: the wall, CPU and memory of commands perfab times itself,
 * and a trial killed at its timeout. Their figures are the machine's, so they run alone.
 */
@Isolated("times real processes")
class TimedCommandsIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    private Cli ab(GitFixture g, String... more) {
        return Cli.ab(Engine.REAL, g.dir(), tmp.resolve("out"), more);
    }

    private JsonNode results() throws IOException {
        return JSON.readTree(tmp.resolve("out/results.json").toFile());
    }

    @Test
    void killsAHangingTrialAtItsTimeoutAndGoesOn() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 100, 2, "");
        g.git("checkout", "-q", "feature");
        g.script(
                "bench.sh",
                "#!/bin/sh\nif [ \"$PERFAB_SIDE\" = base ] && [ \"$PERFAB_WARMUP\" = 0 ]"
                        + " && [ \"$PERFAB_TRIAL\" = 0 ]; then sleep 60 & wait; fi\n"
                        + Subjects.HARNESS.substring(Subjects.HARNESS.indexOf('\n') + 1));
        // Three seconds: a trial of this harness takes milliseconds, even on a busy machine.
        g.write("perfab.yaml", Subjects.workload(2, "").replace("timeout: 20s", "timeout: 3s"));
        g.commit("a harness that hangs once");
        g.git("checkout", "-q", "main");
        long start = System.nanoTime();
        Cli run = ab(g);
        assertTrue((System.nanoTime() - start) / 1e9 < 30, "the hanging trial was cut short");
        assertEquals(0, run.exitCode(), run.err());
        long timeouts = 0;
        for (JsonNode t : results().get("trials")) {
            if (t.get("status").asText().equals("timeout")) {
                timeouts++;
                assertEquals("the harness timed out after 3 s", t.get("reason").asText());
            }
        }
        assertEquals(1, timeouts);
    }

    @Test
    void timesNamedCommandsItself() throws IOException {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.write("perfab.yaml", """
                name: timed
                trials: 3
                warmup: 0
                harness:
                  format: time
                  commands:
                    spin: [sh, -c, 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done']
                    nap: [sleep, '0.05']
                """);
        g.commit("initial");
        g.git("checkout", "-q", "-b", "feature");
        g.write("x", "y");
        g.commit("change");
        Cli run = ab(g);
        assertEquals(0, run.exitCode(), run.err());
        List<String> keys = new ArrayList<>();
        for (JsonNode c : results().get("comparisons")) {
            keys.add(c.get("cell").asText() + ":" + c.get("metric").asText());
        }
        assertTrue(keys.containsAll(List.of("spin:wall", "nap:wall", "spin:cpu", "spin:maxrss")), keys.toString());
        for (JsonNode m : results().get("measurements")) {
            if (m.get("cell").asText().equals("nap") && m.get("metric").asText().equals("wall")) {
                assertTrue(m.get("value").asDouble() >= 0.05, m.toString());
            }
        }
    }

    @Test
    void timesTheCpuOfACommandToTheMicrosecondWhereItRunsInACgroup() throws IOException {
        Tool.CGROUPS.need(new ProcessTrees(System.getenv()).cgroups());
        Tool.C_COMPILER.need();
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.write("burn.c", Burn.source());
        g.write("perfab.yaml", """
                name: cpu
                trials: 3
                warmup: 0
                build:
                  run: [cc, -O1, -o, burn, burn.c]
                harness:
                  format: time
                  commands:
                    burn: [./burn, '15']
                    idle: [./burn, '0']
                """);
        g.commit("initial");
        g.git("checkout", "-q", "-b", "feature");
        g.write("x", "y");
        g.commit("change");
        Cli run = ab(g, "--adaptive", "off");
        assertEquals(0, run.exitCode(), run.err());
        Map<String, Double> wall = new HashMap<>();
        Map<String, Double> cpu = new HashMap<>();
        Map<String, Double> idle = new HashMap<>();
        for (JsonNode m : results().get("measurements")) {
            String trial = m.get("side").asText() + " trial " + m.get("trial").asInt();
            String metric = m.get("metric").asText();
            if (m.get("cell").asText().equals("idle")) {
                if (metric.equals("cpu")) {
                    idle.put(trial, m.get("value").asDouble());
                }
            } else if (!metric.equals("maxrss")) {
                (metric.equals("cpu") ? cpu : wall).put(trial, m.get("value").asDouble());
            }
        }
        assertTrue(cpu.size() >= 6, "3 trials a side, and any that replaced a disturbed one: " + cpu);
        // A start and an exit cost a few milliseconds, more when the machine is busy at that moment:
        // the least the idle program cost in this run is what they cost without such a moment.
        double start = idle.values().stream().mapToDouble(d -> d).min().orElseThrow();
        // What a start may cost before the command is let go: the most the idle program cost, at
        // least the 5 ms a busy moment can add to it.
        double before =
                Math.max(0.005, idle.values().stream().mapToDouble(d -> d).max().orElseThrow());
        cpu.forEach((trial, c) -> {
            String figures = trial + ": cpu " + c + " s, wall " + wall.get(trial) + " s";
            // Its main spins for 15 ms of CPU time: the kernel counts that, its start and its exit,
            // which cost a few milliseconds of CPU time, and more on a busy virtual machine.
            assertTrue(c >= 0.015 && c <= 0.015 + 0.05, figures);
            figures += ", the same program idle " + idle.get(trial) + " s (" + start + " s at least)";
            // The same program spinning for nothing costs its start and exit alone.
            assertEquals(0.015, c - Math.min(start, c), 0.008, figures);
            // One process at a time: its CPU time is within its wall time, but for some of its start,
            // which the kernel charges before perfab lets the command go and its wall time begins.
            assertTrue(c <= wall.get(trial) + before, figures);
            assertEquals(Math.rint(c * 1e6), c * 1e6, 1e-6, "whole microseconds: " + figures);
        });
        assertFalse(
                cpu.values().stream().allMatch(c -> Math.abs(c * 100 - Math.rint(c * 100)) < 1e-7),
                "microseconds, not ticks of 10 ms: " + cpu);
    }
}
