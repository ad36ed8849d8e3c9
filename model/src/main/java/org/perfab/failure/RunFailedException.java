package org.perfab.failure;

/**
 * A build, git or harness step failed and left no comparable data. Measurements already taken are
 * kept before this is thrown. Exit 3.
 */
public class RunFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public RunFailedException(String message) {
        super(message);
    }

    public RunFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
