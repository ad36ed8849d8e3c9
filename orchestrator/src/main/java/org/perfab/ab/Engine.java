package org.perfab.ab;

import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.perfab.exec.Commands;
import org.perfab.exec.ProcessTrees;
import org.perfab.model.RunResults;

/**
 * What an A/B takes from the machine it runs on: the commands it runs (each side's build, its
 * trials, the programs on PATH, the time they take), the signals that stop it, and the machine's
 * description, each made from the environment perfab was given (the session's, never read here).
 * Everything else of a run
 * (checkouts, harness files, caches, the plan, the verdicts, the files it writes) is the same
 * whichever engine runs it. {@link #REAL} is the machine itself, as the command line runs; a test
 * gives a fake engine whose commands are functions of the side's own tree, run in process.
 *
 * @param commands makes what runs a run's commands, one per run, from the environment they inherit
 * @param signals what tells a run to stop
 * @param machine describes the machine, from the environment
 */
public record Engine(
        Function<Map<String, String>, Commands> commands,
        Signals signals,
        Function<Map<String, String>, RunResults.Machine> machine) {
    /** The machine perfab runs on: real processes, SIGINT and SIGTERM, {@code /proc}. */
    public static final Engine REAL = new Engine(ProcessTrees::new, Signals.SHUTDOWN, MachineProbe::probe);

    public Engine {
        Objects.requireNonNull(commands, "commands");
        Objects.requireNonNull(signals, "signals");
        Objects.requireNonNull(machine, "machine");
    }

    /**
     * What tells a run to stop: SIGINT or SIGTERM on the machine ({@link #SHUTDOWN}, the JVM's
     * shutdown hooks), a test's own trigger in a fake engine.
     */
    public interface Signals {
        /** SIGINT and SIGTERM, as the JVM's shutdown hooks hear them. */
        Signals SHUTDOWN = (name, hook) -> {
            Thread thread = new Thread(hook, name);
            Runtime.getRuntime().addShutdownHook(thread);
            return () -> {
                try {
                    Runtime.getRuntime().removeShutdownHook(thread);
                } catch (IllegalStateException e) {
                    // the JVM is shutting down: the hook is running
                }
            };
        };

        /**
         * Runs {@code hook} (on a thread of its own, named {@code name}) when a signal comes, until
         * the returned registration is closed.
         *
         * @throws IllegalStateException when a signal came already: the JVM is shutting down
         */
        Registration register(String name, Runnable hook);
    }

    /** A hook registered with {@link Signals#register}; closing it removes the hook. */
    public interface Registration extends AutoCloseable {
        @Override
        void close();
    }
}
