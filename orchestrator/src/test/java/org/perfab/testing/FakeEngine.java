package org.perfab.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import org.perfab.ab.Engine;
import org.perfab.exec.Commands;
import org.perfab.exec.Processes;
import org.perfab.model.RunResults;

/**
 * An engine whose commands are Java functions run in process: a build or a harness is a
 * {@link Program} of the command as perfab gives it (its folder, the side's own checkout; its
 * environment, {@code $PERFAB_BUILD_DIR}, {@code $PERFAB_RESULT}, {@code $PERFAB_TRIAL}), found by
 * the script a word of its command line names (see {@link #script}) or by the word's file name
 * ({@code bench.sh} in {@code [sh, bench.sh]}). A
 * program reads the side's own files, so a verdict still depends on which side's code ran; it can
 * fail, time out, or {@link #signal} the run at the trial it chooses. Everything else of a run
 * (checkouts, caches, the plan, the verdicts, the files written) is perfab's own.
 *
 * <p>Time in the fake is simulated ({@link #seconds}): a command takes the wall seconds its
 * program's outcome says, on the thread that runs it, and no time passes otherwise. A thread starts
 * at the time of the thread that made it, so commands run on several threads at once (the counts of
 * a trial) overlap; a thread's time catches up with the threads it made once they have ended, when
 * it reads the clock, as perfab does after it joins them.
 */
public final class FakeEngine implements Commands {
    /** What the fake runs in place of a command. */
    @FunctionalInterface
    public interface Program {
        /** Runs {@code c} and returns how it ended; see {@link FakeEngine#ok} and the others. */
        Processes.Outcome run(Processes.Command c) throws IOException, InterruptedException;
    }

    /** The machine every fake run reports. */
    public static final RunResults.Machine MACHINE =
            new RunResults.Machine("Fake CPU @ 1.00GHz", 2, "Linux amd64", "6.1.0", "OpenJDK 64-Bit Server VM 17", "");

    private final Map<String, Program> programs = new LinkedHashMap<>();
    private final Map<String, Program> scripts = new LinkedHashMap<>();
    private final List<Runnable> hooks = new CopyOnWriteArrayList<>();
    private final List<Processes.Command> ran = new CopyOnWriteArrayList<>();
    private volatile boolean stopping;
    private volatile boolean signalled;

    /** A thread's place in simulated time, and the threads it made while it had one. */
    private static final class Lane {
        /** The time its last command ended, or it was made, in seconds. */
        double now;
        /** Its thread; null until the thread uses the clock. */
        Thread thread;

        final List<Lane> made = new ArrayList<>();
    }

    /** Each thread's lane: a thread made by one with a lane starts at its maker's time. */
    private final InheritableThreadLocal<Lane> lanes = new InheritableThreadLocal<>() {
        @Override
        protected Lane initialValue() {
            return new Lane();
        }

        @Override
        protected Lane childValue(Lane maker) {
            synchronized (FakeEngine.this) {
                Lane lane = new Lane();
                lane.now = maker.now;
                maker.made.add(lane);
                return lane;
            }
        }
    };

    /** Runs {@code program} for every command one of whose words has the file name {@code name}. */
    public FakeEngine program(String name, Program program) {
        programs.put(name, program);
        return this;
    }

    /**
     * Runs {@code program} for every command one of whose words names a file, in the command's
     * folder, that holds {@code script}: the program stands for that script, whatever its name, and
     * before any program found by name. A side whose script differs runs another program.
     */
    public FakeEngine script(String script, Program program) {
        scripts.put(script, program);
        return this;
    }

    /** Returns the program found by the file name {@code name}, to run within another. */
    public Program named(String name) {
        Program p = programs.get(name);
        if (p == null) {
            throw new IllegalArgumentException("no program named " + name);
        }
        return p;
    }

    /** Returns the engine a run takes: these programs, these signals, {@link #MACHINE}. */
    public Engine engine() {
        return new Engine(env -> this, this::register, env -> MACHINE);
    }

    /** Returns every command run so far, in order. */
    public List<Processes.Command> ran() {
        return List.copyOf(ran);
    }

    /**
     * Signals the runs, as SIGINT would: their hooks run, on a thread of their own, and this
     * returns once they have; from then on every command is refused as stopping.
     */
    public void signal() throws InterruptedException {
        signalled = true;
        List<Thread> threads = new ArrayList<>();
        for (Runnable hook : hooks) {
            Thread t = new Thread(hook, "fake-signal");
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
    }

    private Engine.Registration register(String name, Runnable hook) {
        if (signalled) {
            throw new IllegalStateException("signalled already");
        }
        hooks.add(hook);
        return () -> {
            if (!signalled) {
                hooks.remove(hook);
            }
        };
    }

    @Override
    public Processes.Outcome run(Processes.Command c) throws InterruptedException {
        if (stopping) {
            return new Processes.Outcome(
                    -1,
                    false,
                    "perfab is stopping",
                    0,
                    OptionalDouble.empty(),
                    OptionalLong.empty(),
                    "",
                    List.of(),
                    true,
                    Optional.empty());
        }
        ran.add(c);
        for (String word : c.argv()) {
            Program p = program(c.dir(), word);
            if (p != null) {
                try {
                    Processes.Outcome o = p.run(c);
                    took(o.wallSeconds());
                    return stopping
                            ? new Processes.Outcome(
                                    -1,
                                    false,
                                    "",
                                    o.wallSeconds(),
                                    OptionalDouble.empty(),
                                    OptionalLong.empty(),
                                    "",
                                    List.of(),
                                    true,
                                    Optional.empty())
                            : o;
                } catch (IOException e) {
                    throw new UncheckedIOException("a fake program failed: " + c.argv(), e);
                }
            }
        }
        return new Processes.Outcome(
                -1,
                false,
                "no such program in the fake engine: " + c.argv(),
                0,
                OptionalDouble.empty(),
                OptionalLong.empty(),
                "",
                List.of(),
                false,
                Optional.empty());
    }

    /**
     * Returns the simulated time of the calling thread, in seconds: within a program, when its
     * command started; after a run, when its last command ended. Only a difference of two readings
     * means anything.
     */
    @Override
    public synchronized double seconds() {
        Lane lane = lane();
        join(lane);
        return lane.now;
    }

    /** Returns no environment: a fake's commands inherit nothing. */
    @Override
    public Map<String, String> environment() {
        return Map.of();
    }

    /** Returns whether a program is found by the file name {@code program} (see {@link #program}). */
    @Override
    public boolean has(String program) {
        return programs.containsKey(program);
    }

    /** Moves the calling thread's time on by the {@code seconds} its command took. */
    private synchronized void took(double seconds) {
        lane().now += seconds;
    }

    /** Returns the calling thread's lane. */
    private Lane lane() {
        Lane lane = lanes.get();
        if (lane.thread == null) {
            lane.thread = Thread.currentThread();
        }
        return lane;
    }

    /** Brings {@code lane} up to the time of each thread it made that has ended (or never used the clock). */
    private static void join(Lane lane) {
        for (java.util.Iterator<Lane> it = lane.made.iterator(); it.hasNext(); ) {
            Lane made = it.next();
            if (made.thread == null || !made.thread.isAlive()) {
                join(made);
                lane.now = Math.max(lane.now, made.now);
                it.remove();
            }
        }
    }

    /** Returns the program {@code word} of a command run in {@code dir} stands for; null when none. */
    private Program program(Path dir, String word) {
        Path file = dir.resolve(word);
        if (!scripts.isEmpty() && Files.isRegularFile(file)) {
            try {
                Program p = scripts.get(new String(Files.readAllBytes(file), StandardCharsets.UTF_8));
                if (p != null) {
                    return p;
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        Path name = Path.of(word).getFileName();
        return name == null ? null : programs.get(name.toString());
    }

    @Override
    public void stopAll() {
        stopping = true;
    }

    /** Returns the end of a command that exited 0 after {@code wallSeconds}. */
    public static Processes.Outcome ok(double wallSeconds) {
        return exited(0, wallSeconds);
    }

    /** Returns the end of a command that exited with {@code code} after {@code wallSeconds}. */
    public static Processes.Outcome exited(int code, double wallSeconds) {
        return new Processes.Outcome(
                code,
                false,
                "",
                wallSeconds,
                OptionalDouble.empty(),
                OptionalLong.empty(),
                "",
                List.of(),
                false,
                Optional.empty());
    }

    /** Returns the end of a command killed at its timeout. */
    public static Processes.Outcome timedOut(Processes.Command c) {
        return new Processes.Outcome(
                -1,
                true,
                "",
                c.timeout().toMillis() / 1000.0,
                OptionalDouble.empty(),
                OptionalLong.empty(),
                "",
                List.of(),
                false,
                Optional.empty());
    }
}
