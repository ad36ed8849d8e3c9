package org.perfab.exec;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A shell that outlives perfab by a moment: it kills the commands perfab is running when perfab
 * dies, however it dies. A perfab killed with SIGKILL runs no code of its own, and the commands it
 * started in sessions of their own would run on, orphaned; the watchdog reads a pipe whose other
 * end only perfab holds, which the kernel closes as perfab's process ends. At that end of input it
 * kills the process group of each command perfab told it of and did not release, and everything in
 * the command's cgroup where it has one, and removes that cgroup. It runs in a session of its own
 * where {@code setsid} exists, so that a signal to perfab's process group does not end it first.
 *
 * <p>What escapes it: a process a command started that put itself in a process group or session of
 * its own, where the command has no cgroup (the sweep of a command perfab saw end finds such a
 * process by its tag; a watchdog, after perfab's death, has no way to read it); and a command
 * perfab was killed while starting, in the moment between its start and perfab's telling the
 * watchdog of it.
 */
// Note: starting each command under `setpriv --pdeathsig KILL` was rejected. The kernel signals
// the command as the thread that started it ends, not perfab: a command started by a thread that
// then ends is killed while perfab lives (a JDK 17 test: exit 137 half a second after its thread
// ended). Only the command gets the signal, not what it started (a harness's `go test`, a build's
// compilers), and setpriv is Linux's alone. A wrapper shell per command, between perfab and the
// command, was rejected as the timing wrapper was (see ProcessTrees#cpuSeconds): it would be in the
// command's wall time, exit status and signals.
final class Watchdog implements AutoCloseable {
    /**
     * The script: it keeps {@code + PID [CGROUP]} and {@code - PID} lines as the commands running,
     * and at the end of its input kills each one's process group (its own process where it leads
     * none) and its cgroup, and removes the cgroup.
     */
    static final String SCRIPT = """
            ids=
            while read -r op id dir; do
              case $op in
                +) ids="$ids $id"; eval "dir_$id=\\$dir" ;;
                -) left=; for i in $ids; do [ "$i" = "$id" ] || left="$left $i"; done; ids=$left; unset "dir_$id" ;;
              esac
            done
            for i in $ids; do
              kill -KILL -"$i" 2>/dev/null || kill -KILL "$i" 2>/dev/null
              eval "d=\\$dir_$i"
              if [ -n "$d" ]; then
                echo 1 > "$d/cgroup.kill" 2>/dev/null
                while read -r p; do kill -KILL "$p" 2>/dev/null; done < "$d/cgroup.procs" 2>/dev/null
                n=0
                while ! rmdir "$d" 2>/dev/null && [ $n -lt 50 ]; do n=$((n + 1)); sleep 0.1; done
              fi
            done
            """;

    private static final class OfThisProcess {
        static final Optional<Watchdog> WATCHDOG = start();
    }

    private final Process shell;
    private final OutputStream pipe;
    private boolean gone;
    /** The commands it was told of and not yet of their end. */
    private final Set<Long> watched = ConcurrentHashMap.newKeySet();

    private Watchdog(Process shell) {
        this.shell = shell;
        this.pipe = shell.getOutputStream();
    }

    /**
     * Returns the watchdog of this perfab, started the first time it is asked for; empty where
     * there is no POSIX shell, or it could not start.
     */
    // Note: one per process, as what it watches is the process: a watchdog per run would leave a
    // shell waiting for each run of a bisect, or of a test suite, until the process ends.
    static Optional<Watchdog> ofThisProcess() {
        return OfThisProcess.WATCHDOG;
    }

    /** Returns a new watchdog; empty where there is no POSIX shell, or it could not start. */
    static Optional<Watchdog> start() {
        if (!Files.isExecutable(Path.of(Processes.SH))) {
            return Optional.empty();
        }
        List<String> argv = new ArrayList<>();
        // This process's own PATH, not a run's: the watchdog is one per process, whichever run starts it.
        if (Processes.find("setsid", System.getenv()).isPresent()) {
            argv.add("setsid");
        }
        argv.addAll(List.of(Processes.SH, "-c", SCRIPT));
        try {
            return Optional.of(new Watchdog(new ProcessBuilder(argv)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start()));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Tells the watchdog of the command {@code pid}, and of its cgroup when it has one. */
    void watch(long pid, Optional<Path> cgroup) {
        // A cgroup's path is one line with no leading space: perfab made it under its own.
        tell("+ " + pid + cgroup.map(dir -> " " + dir).orElse("") + "\n");
        watched.add(pid);
    }

    /** Tells the watchdog that the command {@code pid} has ended, and what it left was swept. */
    void release(long pid) {
        watched.remove(pid);
        tell("- " + pid + "\n");
    }

    /** Returns whether the watchdog was told of the command {@code pid} and not yet of its end. */
    boolean watches(long pid) {
        return watched.contains(pid);
    }

    /** Writes {@code line} in one write, so that perfab's death never leaves half of it. */
    private synchronized void tell(String line) {
        if (gone) {
            return;
        }
        try {
            pipe.write(line.getBytes(StandardCharsets.UTF_8));
            pipe.flush();
        } catch (IOException e) {
            gone = true; // the watchdog was killed: the commands are watched no more
        }
    }

    /**
     * Ends the watchdog's input, as perfab's death does: it kills the commands it was told of and
     * not released, and exits. Returns once it has.
     */
    @Override
    public synchronized void close() throws InterruptedException {
        gone = true;
        try {
            pipe.close();
        } catch (IOException e) {
            // gone already
        }
        shell.waitFor();
    }
}
