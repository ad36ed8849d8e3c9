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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.ab.Engine;
import org.perfab.exec.Enclosure;
import org.perfab.testing.Comparisons;
import org.perfab.testing.GitFixture;
import org.perfab.testing.ProcessTable;
import org.perfab.testing.Subjects;

/**
 * What a run may touch, and how it ends when its environment fails it: one run per {@code --out},
 * nothing of the user's deleted, nothing of a trial left running, bounded logs and inputs, and a
 * clear message with the right exit code instead of a stack trace.
 */
class ContainmentIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    private Cli ab(GitFixture g, Path out, String... more) {
        List<String> args = new ArrayList<>(
                List.of("ab", "--repo=" + g.dir(), "--base=main", "--head=feature", "--out", out.toString()));
        args.addAll(List.of(more));
        return Cli.run(Engine.REAL, args.toArray(String[]::new));
    }

    private static String harness(String before) {
        return "#!/bin/sh\n" + before + Subjects.HARNESS.substring(Subjects.HARNESS.indexOf('\n') + 1);
    }

    /** A pull request whose head's harness runs {@code before} first. */
    private GitFixture withHarness(int trials, String before) throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, trials, "");
        g.git("checkout", "-q", "feature");
        g.script("bench.sh", harness(before));
        g.commit("the harness");
        g.git("checkout", "-q", "main");
        return g;
    }

    @Test
    void aSecondRunOnTheSameOutIsRefusedWhileTheFirstRuns() throws Exception {
        GitFixture g = withHarness(5, "sleep 0.4\n");
        Path out = tmp.resolve("out");
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
        // The enclosure clears what the first run has running when it is killed.
        try (Enclosure enclosure = Enclosure.make()) {
            Process first = new ProcessBuilder(enclosure.around(argv))
                    .redirectErrorStream(true)
                    .redirectOutput(tmp.resolve("first.log").toFile())
                    .start();
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!Files.exists(out.resolve("trials.jsonl"))
                        || Files.readAllLines(out.resolve("trials.jsonl")).size() < 2) {
                    assertTrue(System.nanoTime() < deadline, "the first run started its trials");
                    Thread.sleep(50);
                }
                Cli second = Cli.run(Engine.REAL, "ab", "--resume", "--out", out.toString());
                assertEquals(2, second.exitCode(), second.err());
                assertTrue(
                        second.err().contains("is in use by another perfab run (pid " + first.pid() + " on "),
                        second.err());
                Cli third = ab(g, out);
                assertEquals(2, third.exitCode(), third.err());
            } finally {
                first.destroyForcibly();
                first.waitFor(30, TimeUnit.SECONDS);
            }
        }
        // The lock dies with its holder: the run resumes, and counts each trial once.
        Cli resumed = Cli.run(Engine.REAL, "ab", "--resume", "--out", out.toString());
        assertEquals(0, resumed.exitCode(), resumed.err());
        JsonNode speed = Comparisons.of(out.resolve("results.json")).get("speed/run:time");
        assertEquals(5, speed.at("/base/n").asInt());
        assertEquals(5, speed.at("/head/n").asInt());
    }

    @Test
    void refusesAnOutThatHoldsTheUsersFilesAndLeavesItAsItWas() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 2, "");
        Path out = tmp.resolve("home");
        Files.createDirectories(out.resolve("work/base-0"));
        Files.writeString(out.resolve("notes.txt"), "mine\n");
        Files.writeString(out.resolve("work/base-0/thesis.tex"), "mine too\n");
        Cli run = ab(g, out);
        assertEquals(2, run.exitCode(), run.err());
        assertTrue(
                run.err()
                        .contains("holds files perfab did not write (notes.txt, work): choose a new or empty"
                                + " folder, or give --force"),
                run.err());
        try (Stream<Path> all = Files.list(out)) {
            assertEquals(
                    List.of("notes.txt", "work"),
                    all.map(p -> p.getFileName().toString()).sorted().toList(),
                    "perfab wrote nothing there");
        }
        // --force writes beside the user's files, never over them: a 'work' of theirs is refused.
        Cli forced = ab(g, out, "--force");
        assertEquals(2, forced.exitCode(), forced.err());
        assertTrue(forced.err().contains("holds a 'work' that perfab did not write"), forced.err());
        assertEquals("mine too\n", Files.readString(out.resolve("work/base-0/thesis.tex")));
    }

    @Test
    void forceWritesBesideTheUsersFiles() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 2, "");
        Path out = tmp.resolve("home");
        Files.createDirectories(out);
        Files.writeString(out.resolve("notes.txt"), "mine\n");
        Cli run = ab(g, out, "--force");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("mine\n", Files.readString(out.resolve("notes.txt")));
        assertTrue(Files.exists(out.resolve("results.json")));
        assertFalse(Files.readString(out.resolve(".perfab-manifest")).contains("notes.txt"));
    }

    @Test
    void boundsTheTrialsAndBuildsAskedFor() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 2, "");
        Cli trials = ab(g, tmp.resolve("out"), "--trials", "200000000");
        assertEquals(2, trials.exitCode(), trials.err());
        assertTrue(trials.err().contains("--trials must be from 2 to 1000, got 200000000"), trials.err());
        Cli builds = ab(g, tmp.resolve("out2"), "--builds", "500");
        assertEquals(2, builds.exitCode(), builds.err());
        assertTrue(builds.err().contains("--builds must be from 1 to 20, got 500"), builds.err());
    }

    @Test
    void aBadOutOrCacheIsAClearError() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 2, "");
        Path file = tmp.resolve("a-file");
        Files.writeString(file, "x\n");
        Cli isFile = ab(g, file);
        assertEquals(2, isFile.exitCode(), isFile.err());
        assertEquals("perfab: --out " + file + " is a file, not a folder\n", isFile.err());
        Cli below = ab(g, file.resolve("out"));
        assertEquals(2, below.exitCode(), below.err());
        assertTrue(below.err().startsWith("perfab: cannot make --out " + file.resolve("out") + ": "), below.err());
        Cli cache = ab(g, tmp.resolve("out"), "--cache", file.toString());
        assertEquals(2, cache.exitCode(), cache.err());
        assertEquals("perfab: --cache " + file + " is a file, not a folder\n", cache.err());
        for (Cli c : List.of(isFile, below, cache)) {
            assertFalse(c.err().contains("\tat "), "no stack trace: " + c.err());
        }
    }

    @Test
    void aDamagedTrialLogIsNamedByLine() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 2, "");
        Path out = tmp.resolve("out");
        assertEquals(0, ab(g, out).exitCode());
        Path log = out.resolve("trials.jsonl");
        List<String> lines = new ArrayList<>(Files.readAllLines(log));
        lines.set(2, "{\"schema\": \"perfab/trial/v1\", \"seq\": [oops");
        Files.write(log, lines);
        Cli resumed = Cli.run(Engine.REAL, "ab", "--resume", "--out", out.toString());
        assertEquals(2, resumed.exitCode(), resumed.err());
        assertTrue(resumed.err().contains("\nperfab: " + log + ":3: a damaged trial record"), resumed.err());
    }

    @Test
    void aDamagedPlanIsNamedByField() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 2, "");
        Path out = tmp.resolve("out");
        assertEquals(0, ab(g, out).exitCode());
        Path plan = out.resolve("run.json");
        Files.writeString(plan, Files.readString(plan).replace("\"trials\" : 2", "\"trials\" : \"many\""));
        Cli resumed = Cli.run(Engine.REAL, "ab", "--resume", "--out", out.toString());
        assertEquals(2, resumed.exitCode(), resumed.err());
        assertEquals("perfab: " + plan + ": field 'trials': expected a whole number, got \"many\"\n", resumed.err());
        Files.writeString(
                plan,
                Files.readString(plan)
                        .replace("\"many\"", "2")
                        .replace("\"startedAt\" : \"", "\"startedAt\" : \"yesterday"));
        Cli again = Cli.run(Engine.REAL, "ab", "--resume", "--out", out.toString());
        assertEquals(2, again.exitCode(), again.err());
        assertTrue(again.err().contains("field 'startedAt': "), again.err());
    }

    @Test
    void aFullDiskIsAnEnvironmentFailure() throws IOException {
        Path file = tmp.resolve("m.json");
        Files.writeString(
                file,
                "{\"schema\": \"perfab/measurements/v1\", \"measurements\": ["
                        + "{\"cell\": \"a\", \"metric\": \"time\", \"unit\": \"ns\", \"value\": 1},"
                        + " {\"cell\": \"a\", \"metric\": \"time\", \"unit\": \"ns\", \"value\": 2}]}");
        Cli full = Cli.run(Engine.REAL, "compare", "-o", "/dev/full", file.toString(), file.toString());
        assertEquals(3, full.exitCode(), full.err());
        assertTrue(full.err().contains("No space left on device"), full.err());
        assertFalse(full.err().contains("\tat "), full.err());

        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 2, "");
        Path out = tmp.resolve("out");
        assertEquals(0, ab(g, out).exitCode());
        Files.createSymbolicLink(out.resolve("results.json.partial"), Path.of("/dev/full"));
        Cli resumed = Cli.run(Engine.REAL, "ab", "--resume", "--out", out.toString());
        Files.delete(out.resolve("results.json.partial"));
        assertEquals(3, resumed.exitCode(), resumed.err());
        assertTrue(resumed.err().contains("No space left on device"), resumed.err());
    }

    @Test
    void runningOutOfMemoryIsNotTheFailOnCode() throws Exception {
        Path big = tmp.resolve("big.json");
        StringBuilder s = new StringBuilder("{\"schema\": \"perfab/measurements/v1\", \"measurements\": [");
        for (int i = 0; i < 300_000; i++) {
            s.append(i == 0 ? "" : ",\n")
                    .append("{\"cell\": \"cell/")
                    .append(i)
                    .append("\", \"metric\": \"time\", \"unit\": \"ns\", \"value\": ")
                    .append(i)
                    .append('}');
        }
        Files.writeString(big, s.append("]}\n"));
        List<String> argv = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx24m",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                "compare",
                big.toString(),
                big.toString());
        Process p = new ProcessBuilder(argv)
                .redirectErrorStream(true)
                .redirectOutput(tmp.resolve("oom.log").toFile())
                .start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        String log = Files.readString(tmp.resolve("oom.log"));
        assertEquals(3, p.exitValue(), log);
        assertTrue(
                log.contains("perfab: out of memory: " + big + " (")
                        && log.contains(" MiB) and " + big)
                        && log.contains("MiB of heap; give perfab about 1 GiB (JAVA_TOOL_OPTIONS=-Xmx1g)"),
                "names each input with its size, and the heap to give: " + log);
    }

    @Test
    void killsWhatATrialLeftRunningAndSaysSo() throws IOException {
        // A background child, a daemon that left the process tree with setsid (a double fork), and a
        // child that cleared its environment; where the machine gives perfab cgroups, also one that
        // did both. The trial ends once each has become what it runs, however long a busy machine
        // takes to start it.
        GitFixture g = withHarness(2, """
                cat /proc/self/cgroup > "$PERFAB_BUILD_DIR/cgroup"
                sleep 321 &
                echo $! >> "$PERFAB_BUILD_DIR/pids"
                ( setsid sh -c 'echo $$ >> "$PERFAB_BUILD_DIR/pids"; : > "$PERFAB_RESULT.daemon"; exec sleep 322' & )
                while [ ! -e "$PERFAB_RESULT.daemon" ]; do sleep 0.01; done
                env -i sleep 323 &
                until [ "$(tr '\\0' ' ' < /proc/$!/cmdline)" = 'sleep 323 ' ]; do sleep 0.01; done
                echo $! >> "$PERFAB_BUILD_DIR/pids"
                if grep -q '^0::/.*perfab-' "$PERFAB_BUILD_DIR/cgroup"; then
                  setsid env -i sleep 324 &
                  until [ "$(tr '\\0' ' ' < /proc/$!/cmdline)" = 'sleep 324 ' ]; do sleep 0.01; done
                  echo $! >> "$PERFAB_BUILD_DIR/pids"
                fi
                """);
        Path out = tmp.resolve("out");
        Cli run = ab(g, out);
        assertEquals(0, run.exitCode(), run.err());
        List<Long> pids = new ArrayList<>();
        boolean cgroups = true;
        for (String side : List.of("base", "head")) {
            for (String line : Files.readAllLines(out.resolve("work/" + side + "-0/out/pids"))) {
                pids.add(Long.parseLong(line.trim()));
            }
            cgroups &= Files.readString(out.resolve("work/" + side + "-0/out/cgroup"))
                    .contains("perfab-");
        }
        int each = cgroups ? 4 : 3;
        assertEquals(6 * each, pids.size(), each + " per trial, six trials");
        for (long pid : pids) {
            assertTrue(ProcessTable.ended(pid), "process " + pid + " is gone");
        }
        JsonNode first =
                JSON.readTree(Files.readAllLines(out.resolve("trials.jsonl")).get(0));
        assertEquals(each, first.get("leftovers").size(), first.toString());
        for (int i = 0; i < each; i++) {
            assertTrue(
                    first.get("leftovers").toString().contains(pids.get(i) + " sleep 32" + (i + 1)), first.toString());
        }
        assertTrue(
                run.out()
                        .contains("WARNING: 6 trials left processes running after they ended, which perfab killed"
                                + " (base warm-up 1: "),
                run.out());
        assertTrue(JSON.readTree(out.resolve("results.json").toFile())
                .get("warnings")
                .toString()
                .contains("{\"kind\":\"leftover-processes\",\"count\":6,"));
    }

    @Test
    void keepsTheEndsOfALongLogAndStopsAFloodOfOutput() throws IOException {
        GitFixture g = withHarness(2, """
                head -c 1000000 /dev/zero | tr '\\0' x >&2
                if [ "$PERFAB_SIDE" = head ] && [ "$PERFAB_TRIAL" = 1 ] && [ "$PERFAB_WARMUP" = 0 ]; then
                  head -c 70000000 /dev/zero
                  sleep 30
                fi
                """);
        Path out = tmp.resolve("out");
        Cli run = ab(g, out);
        assertEquals(0, run.exitCode(), run.err());
        try (Stream<Path> logs = Files.list(out.resolve("logs/trials"))) {
            for (Path log : logs.toList()) {
                assertTrue(Files.size(log) < 140_000, log + " is bounded: " + Files.size(log));
            }
        }
        String err = Files.readString(out.resolve("logs/trials/0000-base-0.err"), StandardCharsets.UTF_8);
        assertTrue(err.contains("[perfab: 868928 bytes cut here to keep the log bounded]"), err.substring(0, 100));
        JsonNode first =
                JSON.readTree(Files.readAllLines(out.resolve("trials.jsonl")).get(0));
        assertEquals(868928, first.get("logBytesCut").asLong());
        JsonNode flood = null;
        for (JsonNode t : JSON.readTree(out.resolve("results.json").toFile()).get("trials")) {
            if (t.get("status").asText().equals("failed")) {
                flood = t;
            }
        }
        assertEquals(
                "the harness wrote more than 64 MiB to its standard output and was stopped",
                flood.get("reason").asText());
    }

    @Test
    void theProgressLineShowsNoControlCharactersFromTheHarness() throws IOException {
        // A result file whose error message quotes a cell name with an escape sequence and a
        // workflow command after a newline.
        GitFixture g = withHarness(2, """
                if [ "$PERFAB_SIDE" = head ] && [ "$PERFAB_TRIAL" = 0 ] && [ "$PERFAB_WARMUP" = 0 ]; then
                  printf '{"schema": "perfab/measurements/v1", "measurements": [{"cell": "\\\\u001b[31mred\\\\n::error::x", "unit": "us", "value": "NaN"}]}' > "$PERFAB_RESULT"
                  exit 0
                fi
                """);
        Cli run = ab(g, tmp.resolve("out"));
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.err().contains("failed: the harness output does not parse as perfab-json"), run.err());
        assertFalse(run.err().contains("\u001b"), run.err());
        for (String line : run.err().split("\n")) {
            assertFalse(line.stripLeading().startsWith("::"), line);
        }
    }

    @Test
    void aCachedBuildThatWasEditedIsBuiltAgain() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 2, "");
        Path cache = tmp.resolve("cache");
        Path out = tmp.resolve("out");
        assertEquals(0, ab(g, out, "--cache", cache.toString()).exitCode());
        // Edit the base's cached build: its level as the harness reads it.
        try (Stream<Path> entries = Files.walk(cache)) {
            for (Path level : entries.filter(p -> p.endsWith("out/level")).toList()) {
                if (Files.readString(level).trim().equals("100")) {
                    Files.writeString(level, "500\n");
                }
            }
        }
        Files.walk(out)
                .sorted(Comparator.reverseOrder())
                .forEach(p -> p.toFile().delete());
        Cli again = ab(g, out, "--cache", cache.toString());
        assertEquals(0, again.exitCode(), again.err());
        assertTrue(
                again.err()
                        .contains("does not match the digest stored with it (it was damaged or edited), so base"
                                + " was built again"),
                again.err());
        assertTrue(
                again.err().matches("(?s).*perfab: head \\([0-9a-f]+\\): build taken from the cache.*"), again.err());
        JsonNode speed = Comparisons.of(out.resolve("results.json")).get("speed/run:time");
        assertEquals("regression", speed.get("verdict").asText(), speed.toString());
        assertEquals(9950.0, speed.at("/base/mean").asDouble(), 1e-9, "level 100, not the edited 500");
        assertTrue(
                again.out()
                        .contains("did not match the digest stored with it (it was damaged or edited), so base"
                                + " was built again."),
                again.out());
    }
}
