package org.perfab.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.perfab.model.Load;
import org.perfab.report.testing.Tool;
import org.perfab.testing.Burn;
import org.perfab.testing.ProcessTable;

/**
 * Real commands: what perfab measures of every command it runs, sampled for its own figures or not,
 * and what it finds and kills of what they leave running.
 */
@Isolated("times real processes")
class ProcessesIT {
    /** A shell loop that keeps one CPU busy for about a quarter of a second on an idle machine. */
    static final String SPIN = "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done";

    @TempDir
    Path tmp;

    /**
     * Lines of shell that start {@code command} in the background, wait until it has become the
     * program whose command line is {@code line} (so that it is named so), and append its pid to
     * the file {@code pids}.
     */
    static String background(String command, String line) {
        return command + " &\n"
                + "until [ \"$(tr '\\0' ' ' < /proc/$!/cmdline)\" = '" + line + " ' ]; do sleep 0.01; done\n"
                + "echo $! >> pids\n";
    }

    /** Lines of shell that start {@code command} as {@link #background} does, out of the command's process tree. */
    static String away(String command, String line) {
        return "(\n" + background(command, line) + ")\n";
    }

    private Processes.Outcome run(boolean sample, String script) throws InterruptedException {
        return run(new ProcessTrees(System.getenv()), script, sample, Duration.ofMinutes(2));
    }

    private Processes.Outcome run(ProcessTrees processes, String script, boolean sample, Duration timeout)
            throws InterruptedException {
        Processes.Command c = new Processes.Command(
                List.of("sh", "-c", script), tmp, Map.of(), timeout, tmp.resolve("out"), tmp.resolve("err"), sample);
        return processes.run(c);
    }

    private List<Long> pids() throws IOException {
        return Files.readAllLines(tmp.resolve("pids")).stream()
                .map(Long::parseLong)
                .toList();
    }

    /** Returns the cgroup the command of this test's last run was in, as it wrote it to the file {@code cgroup}. */
    private Path cgroupOfTheCommand() throws IOException {
        return Cgroup.dir(Files.readString(Path.of("/proc/self/mountinfo")), Files.readString(tmp.resolve("cgroup")))
                .orElseThrow();
    }

    private static boolean linux() {
        return Files.isDirectory(Path.of("/proc/self"));
    }

    @Test
    void measuresTheLoadOfACommandNotSampledForItsOwnFigures() throws InterruptedException {
        assumeTrue(Files.isDirectory(Path.of("/proc/self")), "Linux only");
        Processes.Outcome o = run(false, SPIN);
        assertTrue(o.succeeded(), o.failure());
        assertTrue(o.cpuSeconds().isEmpty(), "its own cell figures stay for commands that ask for them");
        Load load = o.load().orElseThrow();
        assertTrue(load.cpuSeconds() > 0, load.toString());
        // One shell uses at most one CPU: its time can pass its wall time only by the ticks' rounding.
        assertTrue(load.cpuSeconds() <= load.wallSeconds() + 0.05, load.toString());
        assertTrue(load.wallSeconds() == o.wallSeconds(), load.toString());
    }

    @Test
    void countsTheCpuTimeOfTheCommandsChildrenAsItsOwn() throws Exception {
        assumeTrue(linux(), "Linux only");
        Tool.C_COMPILER.need();
        Path burn = Burn.compile(tmp);
        ProcessTrees processes = new ProcessTrees(System.getenv());
        Processes.Outcome o = run(processes, burn + " 13; " + burn + " 17", true, Duration.ofMinutes(2));
        assertTrue(o.succeeded(), o.failure());
        double own = Files.readAllLines(tmp.resolve("out")).stream()
                .mapToDouble(Burn::seconds)
                .sum();
        double cpu = o.cpuSeconds().orElseThrow();
        String figures = "perfab's " + cpu + " s, the children's own " + own + " s";
        if (processes.cgroups()) {
            // What their mains ran misses the shell and each process's start and end: this machine's
            // figure for those, measured alike, bounds the difference.
            double startAndEnd = Double.POSITIVE_INFINITY;
            for (int i = 0; i < 3; i++) {
                Processes.Outcome idle = run(processes, burn + " 0; " + burn + " 0", true, Duration.ofMinutes(2));
                startAndEnd = Math.min(
                        startAndEnd,
                        idle.cpuSeconds().orElseThrow()
                                - Files.readAllLines(tmp.resolve("out")).stream()
                                        .mapToDouble(Burn::seconds)
                                        .sum());
            }
            figures += ", the shell and the starts and ends " + startAndEnd + " s";
            assertTrue(cpu >= own && cpu <= own + Math.max(3 * startAndEnd, 0.01) + 0.003, figures);
        } else {
            assertTrue(Math.abs(cpu - own) < 0.02, figures);
        }
        assertEquals(cpu, o.load().orElseThrow().cpuSeconds(), "the load counts the same figure: " + figures);
        assertEquals(
                processes.cgroups() ? Load.CpuClock.CGROUP : Load.CpuClock.TICKS,
                o.load().orElseThrow().cpuClock(),
                "the load says how its CPU time was counted");
    }

    /** Runs {@code program} as a command perfab times, with {@code args}. */
    private Processes.Outcome timed(ProcessTrees processes, Path program, String... args) throws InterruptedException {
        List<String> argv = new ArrayList<>(List.of(program.toString()));
        argv.addAll(List.of(args));
        return processes.run(new Processes.Command(
                argv, tmp, Map.of(), Duration.ofMinutes(2), tmp.resolve("out"), tmp.resolve("err"), true));
    }

    /** Returns whether {@code seconds} is a whole number of clock ticks (10 ms), to within a nanosecond. */
    private static boolean wholeTicks(double seconds) {
        return Math.abs(seconds * ProcStat.USER_HZ - Math.rint(seconds * ProcStat.USER_HZ)) < 1e-7;
    }

    @Test
    void aTimedCommandsCpuTimeIsWhatTheKernelChargedItsCgroupToTheMicrosecond() throws Exception {
        ProcessTrees processes = new ProcessTrees(System.getenv());
        Tool.CGROUPS.need(processes.cgroups());
        Tool.C_COMPILER.need();
        Path burn = Burn.compile(tmp);
        // This machine's cost of a process's start and end, which the program's own figure misses.
        double startAndEnd = Double.POSITIVE_INFINITY;
        for (int i = 0; i < 3; i++) {
            Processes.Outcome idle = timed(processes, burn, "0");
            startAndEnd = Math.min(
                    startAndEnd, idle.cpuSeconds().orElseThrow() - Burn.seconds(Files.readString(tmp.resolve("out"))));
        }
        List<Double> cpus = new ArrayList<>();
        for (String millis : List.of("23", "31", "47")) {
            Processes.Outcome o = timed(processes, burn, millis);
            assertTrue(o.succeeded(), o.failure());
            double own = Burn.seconds(Files.readString(tmp.resolve("out")));
            double cpu = o.cpuSeconds().orElseThrow();
            String figures = "perfab's " + cpu + " s, the program's own " + own + " s, wall " + o.wallSeconds()
                    + " s, a start and end " + startAndEnd + " s";
            // The program's own figure misses only its start (exec, the loader) and its exit, which
            // cost a few milliseconds of CPU time, more on some virtual machines than others, and
            // more again beside a busy neighbour. A sample of /proc would miss the last slice, and
            // round each process down to a tick.
            assertTrue(cpu >= own, figures);
            assertTrue(cpu <= own + Math.max(3 * startAndEnd, 0.01) + 0.003, figures);
            // One process at a time: its CPU time is within its wall time, but for some of its start,
            // charged before perfab lets the command go and its wall time begins; beside a busy
            // neighbour that start costs more than the quickest idle one measured above.
            assertTrue(cpu <= o.wallSeconds() + Math.max(3 * startAndEnd, 0.003), figures);
            assertEquals(cpu, o.load().orElseThrow().cpuSeconds(), "the load counts the same figure: " + figures);
            cpus.add(cpu);
        }
        assertFalse(cpus.stream().allMatch(ProcessesIT::wholeTicks), "microseconds, not ticks: " + cpus);
    }

    @Test
    void withoutCgroupsATimedCommandsCpuTimeIsTheKernelsInTicks() throws Exception {
        assumeTrue(linux(), "Linux only");
        Tool.C_COMPILER.need();
        Path burn = Burn.compile(tmp);
        ProcessTrees processes = new ProcessTrees(System.getenv(), Optional.empty(), Watchdog::ofThisProcess);
        Processes.Outcome o = timed(processes, burn, "47");
        assertTrue(o.succeeded(), o.failure());
        double own = Burn.seconds(Files.readString(tmp.resolve("out")));
        double cpu = o.cpuSeconds().orElseThrow();
        String figures = "perfab's " + cpu + " s, the program's own " + own + " s";
        assertTrue(wholeTicks(cpu), figures);
        // The kernel's account of perfab's waited-for children, read before and after, each end
        // rounded down to a tick; its start (the spawn, exec, the loader) is in it too, which takes
        // up to a tick of CPU time on some virtual machines.
        assertTrue(cpu > own - 0.01 && cpu < own + 0.03, figures);
        assertEquals(cpu, o.load().orElseThrow().cpuSeconds(), "the load counts the same figure: " + figures);
        assertEquals(Load.CpuClock.TICKS, o.load().orElseThrow().cpuClock(), "counted in ticks, and said so");
    }

    @Test
    void killsAndNamesAChildThatLeftTheSessionAndClearedTheEnvironment() throws Exception {
        ProcessTrees processes = new ProcessTrees(System.getenv());
        Tool.CGROUPS.need(processes.cgroups());
        Processes.Outcome o = run(
                processes,
                "cat /proc/self/cgroup > cgroup\n" + background("setsid env -i sleep 41", "sleep 41"),
                false,
                Duration.ofMinutes(2));
        assertTrue(o.succeeded(), o.failure());
        long sleep = pids().get(0);
        assertEquals(List.of(sleep + " sleep 41"), o.leftovers());
        assertTrue(ProcessTable.ended(sleep), sleep + " was killed");
        Path cgroup = cgroupOfTheCommand();
        assertTrue(cgroup.getFileName().toString().startsWith("perfab-"), cgroup.toString());
        assertFalse(Files.exists(cgroup), cgroup + " is removed");
    }

    @Test
    void aTimedCommandIsInItsCgroupFromItsFirstInstructionAndWhatItLeavesIsFound() throws Exception {
        ProcessTrees processes = new ProcessTrees(System.getenv());
        Tool.CGROUPS.need(processes.cgroups());
        Processes.Outcome o = run(
                processes,
                "cat /proc/self/cgroup > cgroup\nreadlink /proc/self/fd/0 > stdin\n"
                        + background("setsid env -i sleep 42", "sleep 42"),
                true,
                Duration.ofMinutes(2));
        assertTrue(o.succeeded(), o.failure());
        long sleep = pids().get(0);
        assertEquals(List.of(sleep + " sleep 42"), o.leftovers());
        assertTrue(ProcessTable.ended(sleep), sleep + " was killed");
        Path cgroup = cgroupOfTheCommand();
        assertTrue(cgroup.getFileName().toString().startsWith("perfab-"), cgroup.toString());
        assertFalse(Files.exists(cgroup), cgroup + " is removed");
        assertEquals("/dev/null\n", Files.readString(tmp.resolve("stdin")), "the gate's pipe is not its input");
        assertEquals("", Files.readString(tmp.resolve("err")));
    }

    @Test
    void aChildThatMovedItselfIntoAnotherCgroupIsStillFoundKilledAndNamed() throws Exception {
        ProcessTrees processes = new ProcessTrees(System.getenv());
        Tool.CGROUPS.need(processes.cgroups());
        Cgroup elsewhere =
                Cgroup.Home.probe(Path.of("/proc")).flatMap(Cgroup.Home::make).orElseThrow();
        try {
            Processes.Outcome o = run(
                    processes,
                    background(
                            "sh -c 'echo $$ > " + elsewhere.dir().resolve("cgroup.procs") + " && exec sleep 47'",
                            "sleep 47"),
                    false,
                    Duration.ofMinutes(2));
            assertTrue(o.succeeded(), o.failure());
            long sleep = pids().get(0);
            assumeTrue(!elsewhere.members().isEmpty() || ProcessTable.ended(sleep), "a kernel that let it move");
            assertEquals(List.of(sleep + " sleep 47 (it had moved itself out of the command's cgroup)"), o.leftovers());
            assertTrue(ProcessTable.ended(sleep), sleep + " was killed");
        } finally {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            elsewhere.empty(pids -> {}, deadline);
            elsewhere.remove(deadline);
        }
    }

    @Test
    void aCommandThatMovesPerfabIntoItsCgroupDoesNotGetItKilledAndIsNamed() throws Exception {
        ProcessTrees processes = new ProcessTrees(System.getenv());
        Tool.CGROUPS.need(processes.cgroups());
        String own = Files.readString(Path.of("/proc/self/cgroup"));
        long self = ProcessHandle.current().pid();
        Path mount = Cgroup.dir(Files.readString(Path.of("/proc/self/mountinfo")), "0::/\n")
                .orElseThrow();
        Processes.Outcome o = run(
                processes,
                "cat /proc/self/cgroup > cgroup\n"
                        + "echo " + self + " > \"" + mount + "$(sed -n 's/^0:://p' /proc/self/cgroup)/cgroup.procs\"\n"
                        + background("sleep 48", "sleep 48"),
                false,
                Duration.ofMinutes(2));
        assertTrue(o.succeeded(), o.failure() + " " + Files.readString(tmp.resolve("err")));
        assertEquals(own, Files.readString(Path.of("/proc/self/cgroup")), "perfab is back where it was");
        long sleep = pids().get(0);
        assertEquals(
                List.of(
                        self + " perfab itself, which the command moved into its cgroup (perfab moved itself"
                                + " back; a harness must leave perfab where it is)",
                        sleep + " sleep 48"),
                o.leftovers());
        assertTrue(ProcessTable.ended(sleep), sleep + " was killed");
        assertFalse(Files.exists(cgroupOfTheCommand()), "its cgroup is removed");
    }

    @Test
    void withoutCgroupsAChildThatClearedTheEnvironmentIsFoundInTheSession() throws Exception {
        assumeTrue(linux() && Processes.find("setsid", System.getenv()).isPresent(), "Linux with setsid");
        ProcessTrees processes = new ProcessTrees(System.getenv(), Optional.empty(), Watchdog::ofThisProcess);
        assertFalse(processes.cgroups());
        Processes.Outcome o = run(processes, background("env -i sleep 41", "sleep 41"), false, Duration.ofMinutes(2));
        assertTrue(o.succeeded(), o.failure());
        long sleep = pids().get(0);
        assertEquals(List.of(sleep + " sleep 41"), o.leftovers());
        assertTrue(ProcessTable.ended(sleep), sleep + " was killed");
    }

    @ParameterizedTest(name = "timed: {0}")
    @ValueSource(booleans = {false, true})
    void aCommandItsCgroupRefusesRunsAndIsSweptAsWithoutCgroups(boolean timed) throws Exception {
        Tool.CGROUPS.need(new ProcessTrees(System.getenv()).cgroups());
        assumeTrue(Processes.find("setsid", System.getenv()).isPresent(), "setsid");
        Path own = Cgroup.dir(
                        Files.readString(Path.of("/proc/self/mountinfo")),
                        Files.readString(Path.of("/proc/self/cgroup")))
                .orElseThrow();
        // A cgroup made under a threaded one is "domain invalid": no process may join it.
        Path home = own.resolve("perfab-test-" + UUID.randomUUID());
        Path threaded = home.resolve("threaded");
        try {
            Files.createDirectory(home);
            Files.createDirectory(threaded);
            try {
                Files.writeString(threaded.resolve("cgroup.type"), "threaded");
            } catch (IOException e) {
                assumeTrue(false, "a kernel without threaded cgroups: " + e);
            }
            ProcessTrees processes =
                    new ProcessTrees(System.getenv(), Cgroup.Home.at(threaded), Watchdog::ofThisProcess);
            assertTrue(processes.cgroups());
            Processes.Outcome o = run(
                    processes,
                    "cat /proc/self/cgroup > cgroup\n" + background("env -i sleep 41", "sleep 41"),
                    timed,
                    Duration.ofMinutes(2));
            assertTrue(o.succeeded(), o.failure());
            assertEquals(timed, o.cpuSeconds().isPresent(), "a timed command's CPU time comes from /proc: " + o);
            assertEquals("", Files.readString(tmp.resolve("err")), "the refusal is not in the command's output");
            assertEquals(own, cgroupOfTheCommand(), "it ran where perfab runs");
            long sleep = pids().get(0);
            assertEquals(List.of(sleep + " sleep 41"), o.leftovers());
            assertTrue(ProcessTable.ended(sleep), sleep + " was killed");
            try (Stream<Path> left = Files.list(threaded)) {
                assertEquals(List.of(), left.filter(Files::isDirectory).toList(), "its cgroup is removed");
            }
        } finally {
            Files.deleteIfExists(threaded);
            Files.deleteIfExists(home);
        }
    }

    @Test
    void aCommandThatTimesOutIsKilledWithItsTreeAndWhatLeftItIsNamed() throws Exception {
        ProcessTrees processes = new ProcessTrees(System.getenv());
        Tool.CGROUPS.need(processes.cgroups());
        Processes.Outcome o = run(
                processes,
                "cat /proc/self/cgroup > cgroup\n" + background("sleep 42", "sleep 42")
                        + away("setsid env -i sleep 43", "sleep 43") + "exec sleep 44",
                false,
                Duration.ofSeconds(3));
        assertTrue(o.timedOut(), o.toString());
        List<Long> pids = pids();
        assertEquals(
                List.of(pids.get(1) + " sleep 43"), o.leftovers(), "what it started in its tree is not a leftover");
        pids.forEach(pid -> assertTrue(ProcessTable.ended(pid), pid + " was killed"));
        assertFalse(Files.exists(cgroupOfTheCommand()));
    }

    @Test
    void stoppingKillsWhatACommandLeftAndRemovesItsCgroup() throws Exception {
        ProcessTrees processes = new ProcessTrees(System.getenv());
        Tool.CGROUPS.need(processes.cgroups());
        CompletableFuture<Processes.Outcome> running = CompletableFuture.supplyAsync(() -> {
            try {
                return run(
                        processes,
                        "cat /proc/self/cgroup > cgroup\n" + away("setsid env -i sleep 45", "sleep 45")
                                + ": > started\nexec sleep 46",
                        false,
                        Duration.ofMinutes(2));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.exists(tmp.resolve("started"))) {
            assertTrue(System.nanoTime() < deadline, "the command started its child");
            Thread.sleep(10);
        }
        processes.stopAll();
        // The hook that stops perfab returns only once stopAll has: by then nothing is left.
        long sleep = pids().get(0);
        assertTrue(ProcessTable.ended(sleep), sleep + " was killed");
        assertFalse(Files.exists(cgroupOfTheCommand()));
        Processes.Outcome o = running.get(60, TimeUnit.SECONDS);
        assertTrue(o.stopped(), o.toString());
        assertEquals(List.of(sleep + " sleep 45"), o.leftovers());
    }
}
