package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.ab.Engine;
import org.perfab.exec.Enclosure;
import org.perfab.testing.Comparisons;
import org.perfab.testing.GitFixture;
import org.perfab.testing.ProcessTable;
import org.perfab.testing.Subjects;

/** A real perfab process, killed mid-run, loses no finished trial and resumes where it stopped. */
class InterruptIT {
    private static final int TRIALS = 6;

    @TempDir
    Path tmp;

    /** Where the perfab of a test runs: what a killed one leaves is cleared when the test ends. */
    private final Enclosure enclosure = Enclosure.make();

    @AfterEach
    void clearTheEnclosure() {
        enclosure.close();
    }

    private GitFixture slowProject() throws IOException {
        return slowProject("");
    }

    /** Returns the project whose trials each take 0.4 s more, after the lines of shell {@code first}. */
    private GitFixture slowProject(String first) throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, TRIALS, "");
        g.git("checkout", "-q", "feature");
        g.script(
                "bench.sh",
                "#!/bin/sh\n" + first + "sleep 0.4\n" + Subjects.HARNESS.substring(Subjects.HARNESS.indexOf('\n') + 1));
        g.commit("a slower harness");
        g.git("checkout", "-q", "main");
        return g;
    }

    private Process start(GitFixture g, Path out) throws IOException {
        List<String> argv = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                "ab",
                "--repo=" + g.dir(),
                "--base=main",
                "--head=feature",
                "--out",
                out.toString());
        return new ProcessBuilder(enclosure.around(argv))
                .redirectOutput(tmp.resolve("stdout").toFile())
                .redirectError(tmp.resolve("stderr").toFile())
                .start();
    }

    private static long lines(Path file) throws IOException {
        return Files.exists(file) ? Files.readAllLines(file).size() : 0;
    }

    private static void waitForTrials(Path log, int count) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (lines(log) < count) {
            assertTrue(System.nanoTime() < deadline, "perfab ran " + count + " trials within a minute");
            Thread.sleep(50);
        }
    }

    @Test
    void aTerminatedRunWritesItsResultsAndResumes() throws Exception {
        GitFixture g = slowProject();
        Path out = tmp.resolve("out");
        Process perfab = start(g, out);
        waitForTrials(out.resolve("trials.jsonl"), 4);
        perfab.destroy(); // SIGTERM
        assertTrue(perfab.waitFor(30, TimeUnit.SECONDS));
        assertEquals(List.of(), enclosure.cgroupsInside(), "the cgroup of the trial it stopped is removed");
        long kept = lines(out.resolve("trials.jsonl"));
        JsonNode partial =
                new ObjectMapper().readTree(out.resolve("results.json").toFile());
        assertTrue(partial.get("interrupted").asBoolean(), partial.toString());
        assertEquals(kept, partial.get("trials").size(), "results.json holds every trial that finished");
        assertTrue(Files.readString(tmp.resolve("stderr")).contains("continue with --resume"));

        Cli resumed = Cli.run(Engine.REAL, "ab", "--resume", "--out", out.toString());
        assertEquals(0, resumed.exitCode(), resumed.err());
        assertCompleteRun(out);
    }

    @Test
    void aKilledRunResumesFromItsTrialLog() throws Exception {
        // From the fourth trial on, each waits until the test lets it go: a trial runs as perfab dies.
        Path count = tmp.resolve("runs");
        Path go = tmp.resolve("go");
        GitFixture g = slowProject("n=$(cat '" + count + "' 2>/dev/null | wc -l)\necho x >> '" + count + "'\n"
                + "if [ \"$n\" -ge 3 ]; then while [ ! -e '" + go + "' ]; do sleep 0.1; done; fi\n");
        Path out = tmp.resolve("out");
        Process perfab = start(g, out);
        waitForTrials(out.resolve("trials.jsonl"), 3);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (lines(count) < 4) {
            assertTrue(System.nanoTime() < deadline, "the fourth trial began within a minute");
            Thread.sleep(20);
        }
        // A process killed outright runs no code of its own: its watchdog kills the trial it was
        // running, and what the trial started, so that none of the killed run goes on, or writes into
        // the run's folder while the resumed one works there. They are found before the kill (a dead
        // process has no descendants).
        List<ProcessHandle> commands = perfab.descendants().toList();
        perfab.destroyForcibly(); // SIGKILL: no chance to write anything more
        assertTrue(perfab.waitFor(30, TimeUnit.SECONDS));
        awaitEnded(commands, "the killed perfab's commands ended with it");
        assertTrue(lines(out.resolve("trials.jsonl")) >= 3);
        Files.createFile(go);

        Cli resumed = Cli.run(Engine.REAL, "ab", "--resume", "--out", out.toString());
        assertEquals(0, resumed.exitCode(), resumed.err());
        assertTrue(resumed.err().contains("resuming the run in " + out), resumed.err());
        assertCompleteRun(out);
    }

    private static void assertCompleteRun(Path out) throws IOException {
        JsonNode r = new ObjectMapper().readTree(out.resolve("results.json").toFile());
        assertEquals(false, r.get("interrupted").asBoolean());
        int expected = 2 * (TRIALS + 1);
        Set<Integer> seqs = new HashSet<>();
        for (String line : Files.readAllLines(out.resolve("trials.jsonl"))) {
            JsonNode t = new ObjectMapper().readTree(line);
            assertTrue(seqs.add(t.get("seq").asInt()), "no trial run twice: " + line);
        }
        assertEquals(expected, seqs.size(), "every trial of the plan ran once");
        JsonNode speed = Comparisons.of(r).get("speed/run:time");
        assertEquals("regression", speed.get("verdict").asText());
        // Each side's trials are numbered alike, so the same spread: the head's 110 against 100, exactly.
        assertEquals(TRIALS, speed.at("/base/n").asInt(), speed.toString());
        assertEquals(TRIALS, speed.at("/head/n").asInt(), speed.toString());
        assertEquals(10.0, speed.get("pctChange").asDouble(), 1e-9, speed.toString());
    }

    @Test
    void resumeNeedsARunToContinue() {
        Cli run = Cli.run(
                Engine.REAL, "ab", "--resume", "--out", tmp.resolve("nothing").toString());
        assertEquals(2, run.exitCode());
        assertTrue(run.err().contains("holds no run to resume"), run.err());
        // A setting given again is held to the run's, and there is no run to hold it to.
        Cli given = Cli.run(Engine.REAL, "ab", "--resume", "--base", "main", "--out", tmp.toString());
        assertEquals(2, given.exitCode());
        assertTrue(given.err().contains("holds no run to resume"), given.err());
    }

    @Test
    void anInterruptedBisectKeepsItsFinishedStepsExits130AndResumes() throws Exception {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        Subjects.write(g, 100, 3, "");
        // Two steps of 4 runs per side go quickly; from the third step on, each run waits until the
        // test lets it go, so that the signal lands inside a step however busy the machine is.
        Path count = tmp.resolve("runs");
        Path go = tmp.resolve("go");
        g.script(
                "bench.sh",
                "#!/bin/sh\nn=$(cat '" + count + "' 2>/dev/null | wc -l)\necho x >> '" + count + "'\n"
                        + "if [ \"$n\" -ge 16 ]; then while [ ! -e '" + go + "' ]; do sleep 0.1; done; fi\n"
                        + Subjects.HARNESS.substring(Subjects.HARNESS.indexOf('\n') + 1));
        String good = g.commit("initial");
        String culprit = null;
        for (int i = 1; i <= 8; i++) {
            g.write("notes/" + i + ".txt", "note " + i + "\n");
            if (i == 5) {
                g.write("level.txt", "110\n");
            }
            String id = g.commit("commit " + i);
            culprit = i == 5 ? id : culprit;
        }
        Path out = tmp.resolve("bisect");
        List<String> argv = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                "bisect",
                "--repo=" + g.dir(),
                "--good",
                good,
                "--bad",
                "main",
                "--cell",
                "speed/run",
                "--out",
                out.toString());
        Process perfab = new ProcessBuilder(enclosure.around(argv))
                .redirectOutput(tmp.resolve("stdout").toFile())
                .redirectError(tmp.resolve("stderr").toFile())
                .start();
        Path file = out.resolve("bisect.json");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (!Files.exists(file)
                || new ObjectMapper().readTree(file.toFile()).get("steps").size() < 1
                || lines(count) <= 16) {
            assertTrue(System.nanoTime() < deadline, "the bisect finished a step and reached the gate within 90 s");
            Thread.sleep(50);
        }
        // A process started in the background of a shell without job control (as a script that
        // runs Maven behind a load does) inherits SIGINT ignored, and so does perfab: then the
        // signal is SIGTERM, which writes the same and exits 143.
        boolean intIgnored = sigintIgnored();
        List<ProcessHandle> commands = perfab.descendants().toList();
        assertFalse(commands.isEmpty(), "a run waits at the gate");
        Process kill = new ProcessBuilder("kill", intIgnored ? "-TERM" : "-INT", Long.toString(perfab.pid())).start();
        assertEquals(0, kill.waitFor());
        assertTrue(perfab.waitFor(60, TimeUnit.SECONDS));
        awaitEnded(commands, "perfab stopped every command it had started");
        String err = Files.readString(tmp.resolve("stderr"));
        assertEquals(intIgnored ? 143 : 130, perfab.exitValue(), err);
        assertTrue(!err.contains("Exception") && !err.contains("\tat "), "no stack trace: " + err);
        JsonNode partial = new ObjectMapper().readTree(file.toFile());
        assertEquals("interrupted", partial.get("verdict").asText(), partial.toString());
        assertEquals(2, partial.get("steps").size(), "the two steps before the gate: " + partial);

        Files.createFile(go);
        Cli resumed = Cli.run(
                Engine.REAL,
                "bisect",
                "--repo=" + g.dir(),
                "--good",
                good,
                "--bad",
                "main",
                "--cell",
                "speed/run",
                "--out",
                out.toString(),
                "--resume",
                "--format",
                "json");
        assertEquals(0, resumed.exitCode(), resumed.err());
        JsonNode b = new ObjectMapper().readTree(resumed.out());
        assertEquals("found", b.get("verdict").asText(), b.toString());
        assertEquals(culprit, b.get("firstBad").asText());
        assertTrue(resumed.err().contains("reused from the earlier run"), resumed.err());
    }

    @Test
    void aSignalDuringABuildSaysSoAndTheRunResumes() throws Exception {
        Path go = tmp.resolve("go");
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 2, "");
        for (String branch : List.of("main", "feature")) {
            g.git("checkout", "-q", branch);
            g.script(
                    "build.sh",
                    "#!/bin/sh\nset -e\nwhile [ ! -e '" + go + "' ]; do sleep 0.1; done\n"
                            + "cp level.txt \"$PERFAB_BUILD_DIR/level\"\n");
            g.commit("a build that waits");
        }
        Path out = tmp.resolve("out");
        Process perfab = start(g, out);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        // perfab says "building" as it starts a build; the build's processes follow.
        while (!Files.readString(tmp.resolve("stderr")).contains("building")
                || perfab.descendants().findAny().isEmpty()) {
            assertTrue(System.nanoTime() < deadline, "perfab began a build within a minute");
            Thread.sleep(50);
        }
        boolean intIgnored = sigintIgnored();
        List<ProcessHandle> commands = perfab.descendants().toList();
        assertEquals(
                0,
                new ProcessBuilder("kill", intIgnored ? "-TERM" : "-INT", Long.toString(perfab.pid()))
                        .start()
                        .waitFor());
        assertTrue(perfab.waitFor(60, TimeUnit.SECONDS));
        awaitEnded(commands, "perfab stopped every command it had started");
        assertEquals(List.of(), enclosure.cgroupsInside(), "the cgroup of the build it stopped is removed");
        String err = Files.readString(tmp.resolve("stderr"));
        assertEquals(intIgnored ? 143 : 130, perfab.exitValue(), err);
        assertTrue(err.contains("interrupted while the sides were prepared"), err);
        assertFalse(err.contains("build failed") || err.contains("\tat "), err);
        Files.createFile(go);
        Cli resumed = Cli.run(Engine.REAL, "ab", "--resume", "--out", out.toString());
        assertEquals(0, resumed.exitCode(), resumed.err());
    }

    /**
     * Waits for every one of {@code commands} to end, failing with {@code what} should one still run
     * after 10 seconds (a process signalled to die is gone in milliseconds, even on a busy machine).
     */
    private static void awaitEnded(List<ProcessHandle> commands, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (ProcessHandle c : commands) {
            while (!ProcessTable.ended(c.pid())) {
                assertTrue(System.nanoTime() < deadline, what + ": process " + c.pid() + " " + c.info());
                Thread.sleep(20);
            }
        }
    }

    /** Returns whether this process ignores SIGINT (which a child inherits), from /proc; false where it cannot tell. */
    private static boolean sigintIgnored() throws IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.isReadable(status)) {
            return false;
        }
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("SigIgn:")) {
                return (Long.parseUnsignedLong(line.substring(7).trim(), 16) & (1L << 1)) != 0; // SIGINT is 2
            }
        }
        return false;
    }
}
