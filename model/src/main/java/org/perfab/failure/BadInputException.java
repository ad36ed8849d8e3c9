package org.perfab.failure;

/**
 * Input perfab cannot use: a malformed measurement or workload file, an unknown ref, a value that is
 * not a number. The message names where (file, line and column, cell) and what is wrong. Exit 2.
 */
public class BadInputException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public BadInputException(String message) {
        super(message);
    }

    public BadInputException(String message, Throwable cause) {
        super(message, cause);
    }
}
