package org.perfab.exec;

import java.util.Map;

/**
 * What runs the commands of a run (builds, trials, counts): {@link Processes} on the machine; in a
 * test, functions run in process that stand for the commands, so that what the test is about (a
 * verdict, an output, a plan, a resume) is decided without starting a process. What runs the
 * commands also keeps the time they take, and knows which programs it can run.
 */
public interface Commands {
    /** Runs {@code c} to its end (or its timeout) and returns how it ended. */
    Processes.Outcome run(Processes.Command c) throws InterruptedException;

    /** Stops every command running now, and refuses to start another: the run is stopping. */
    void stopAll();

    /**
     * Returns the time now, in seconds from an arbitrary origin, by the clock the commands take their
     * time on: the machine's monotonic clock (a fake's passes only as its commands run). Only the
     * difference of two readings means anything.
     */
    default double seconds() {
        return System.nanoTime() / 1e9;
    }

    /**
     * Returns the environment every command inherits, before the variables of its own: on the
     * machine, the one perfab was given; a fake's own. What a build inherits keys its cache.
     */
    Map<String, String> environment();

    /** Returns whether {@code program} can be run by name: whether a folder of the environment's PATH has it. */
    default boolean has(String program) {
        return Processes.find(program, environment()).isPresent();
    }
}
