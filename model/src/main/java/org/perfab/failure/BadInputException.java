package org.perfab.failure;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

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

    /**
     * Returns the failure to read {@code file}, an input the user or a pull request named: "no such
     * file" when it is missing, else "cannot read" with the reason.
     */
    public static BadInputException unreadable(Path file, IOException e) {
        return e instanceof NoSuchFileException ? new BadInputException(file + ": no such file")
                : new BadInputException(file + ": cannot read: " + e.getMessage(), e);
    }

    /**
     * Returns the text of {@code file}, UTF-8, an input the user or a pull request named, without a
     * leading byte order mark (see {@link #withoutByteOrderMark}); see {@link #unreadable}.
     */
    public static String read(Path file) {
        try {
            return withoutByteOrderMark(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw unreadable(file, e);
        }
    }

    /**
     * Returns {@code text} without the byte order mark (U+FEFF) it starts with, if it does: tools on
     * Windows (Excel's "CSV UTF-8", PowerShell) write one at the start of UTF-8 text, and kept, it
     * would be part of the first column's name or the first line's first word.
     */
    public static String withoutByteOrderMark(String text) {
        return text.startsWith("\uFEFF") ? text.substring(1) : text;
    }
}
