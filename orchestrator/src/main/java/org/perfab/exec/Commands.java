package org.perfab.exec;

/**
 * What runs the commands of a run (builds, trials, counts): {@link Processes} on the machine; in a
 * test, functions run in process that stand for the commands, so that what the test is about (a
 * verdict, an output, a plan, a resume) is decided without starting a process.
 */
public interface Commands {
    /** Runs {@code c} to its end (or its timeout) and returns how it ended. */
    Processes.Outcome run(Processes.Command c) throws InterruptedException;

    /** Stops every command running now, and refuses to start another: the run is stopping. */
    void stopAll();
}
