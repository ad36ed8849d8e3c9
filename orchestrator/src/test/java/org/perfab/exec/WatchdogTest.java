package org.perfab.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.testing.ProcessTable;
import org.perfab.testing.StartsProcesses;

/**
 * The watchdog with real processes: the end of its input is what perfab's death is to it, so a
 * test closes it where a perfab would die, and looks for what its command left.
 */
@StartsProcesses
class WatchdogTest {
    @TempDir
    Path tmp;

    /** Starts a command that starts a sleep of its own in the background, and returns both pids once both run. */
    private CompletableFuture<Processes.Outcome> start(ProcessTrees processes, Path pids) throws Exception {
        String script = "sleep 37 &\necho \"$$ $!\" > '" + pids + ".tmp'\nmv '" + pids + ".tmp' '" + pids + "'\nwait\n";
        Processes.Command c = new Processes.Command(
                List.of("sh", "-c", script),
                tmp,
                Map.of(),
                Duration.ofMinutes(1),
                tmp.resolve("out"),
                tmp.resolve("out"),
                false);
        CompletableFuture<Processes.Outcome> outcome = CompletableFuture.supplyAsync(() -> {
            try {
                return processes.run(c);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!Files.exists(pids)) {
            assertTrue(System.nanoTime() < deadline, "the command started within 20 s");
            Thread.sleep(10);
        }
        return outcome;
    }

    @Test
    void whenPerfabDiesItKillsTheCommandsRunningAndWhatTheyStarted() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc")), "/proc to look in");
        Watchdog watchdog = Watchdog.start().orElseThrow();
        ProcessTrees processes = new ProcessTrees(System.getenv(), Optional.empty(), () -> Optional.of(watchdog));
        Path pids = tmp.resolve("pids");
        CompletableFuture<Processes.Outcome> outcome = start(processes, pids);
        long[] both = List.of(Files.readString(pids).trim().split(" ")).stream()
                .mapToLong(Long::parseLong)
                .toArray();
        // The command may write its pids before perfab has told the watchdog of it (a busy machine).
        long told = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!watchdog.watches(both[0])) {
            assertTrue(System.nanoTime() < told, "the watchdog was told of " + both[0] + " within 20 s");
            Thread.sleep(10);
        }
        watchdog.close();
        for (long pid : both) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (!ProcessTable.ended(pid)) {
                assertTrue(System.nanoTime() < deadline, pid + " was killed within 5 s");
                Thread.sleep(10);
            }
        }
        Processes.Outcome o = outcome.get(20, TimeUnit.SECONDS);
        assertEquals(137, o.exitCode(), "the command was killed: " + o);
    }

    @Test
    void leavesAloneACommandItWasToldHasEnded() throws Exception {
        assumeTrue(Processes.find("setsid", System.getenv()).isPresent(), "setsid, for a process group of its own");
        Watchdog watchdog = Watchdog.start().orElseThrow();
        // A process whose pid a command that ended had: the watchdog must not kill it.
        Process other = new ProcessBuilder(List.of("setsid", "sleep", "30")).start();
        try {
            watchdog.watch(other.pid(), Optional.empty());
            watchdog.release(other.pid());
            watchdog.close();
            assertTrue(other.isAlive(), "a command released is left alone");
        } finally {
            other.destroyForcibly();
        }
    }
}
