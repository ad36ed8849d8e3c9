package org.perfab.failure;

/**
 * A run stopped by a signal (SIGINT, SIGTERM) before its last trial; what it had done is written.
 * A caller that runs several runs stops there instead of taking it for a failed run.
 */
public final class RunInterruptedException extends RunFailedException {
    private static final long serialVersionUID = 1L;

    public RunInterruptedException(String message) {
        super(message);
    }
}
