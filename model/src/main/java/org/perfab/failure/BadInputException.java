package org.perfab.failure;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Input perfab cannot use: a malformed measurement or workload file, an unknown ref, a value that is
 * not a number. The message names where (file, line and column, cell) and what is wrong. Exit 2.
 */
public class BadInputException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * The most bytes perfab reads of one input file, 256 MiB: a {@code results.json} of 10,000 cells
     * at 20 trials a side is about 115 MB, and a go test text of 188 MiB (the largest perfab compare
     * is measured on) fits too. A pull request shapes many of these files (its harness's output, its
     * artifacts, the times its last run left): past this, the file is refused, not read until the
     * heap runs out.
     */
    public static final long MAX_BYTES = 256L << 20;

    public BadInputException(String message) {
        super(message);
    }

    public BadInputException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Returns why an I/O operation failed, in a few words. */
    public static String reason(IOException e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof NotDirectoryException) {
            return "a part of the path is a file";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        return String.valueOf(e.getMessage());
    }

    /**
     * Returns the failure to read {@code file}, an input the user or a pull request named: "no such
     * file" when it is missing, else "cannot read" with the reason.
     */
    public static BadInputException unreadable(Path file, IOException e) {
        return e instanceof NoSuchFileException
                ? new BadInputException(file + ": no such file")
                : new BadInputException(file + ": cannot read: " + e.getMessage(), e);
    }

    /**
     * Returns the text of {@code file}, UTF-8, an input the user or a pull request named, without a
     * leading byte order mark (see {@link #withoutByteOrderMark}), read through {@link #open}.
     *
     * @throws BadInputException see {@link #unreadable}: also for a file that is not UTF-8, not a
     *     regular file, or larger than {@link #MAX_BYTES}
     */
    public static String read(Path file) {
        try (InputStream in = open(file)) {
            return withoutByteOrderMark(StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(in.readAllBytes()))
                    .toString());
        } catch (IOException e) {
            throw unreadable(file, e);
        }
    }

    /**
     * Returns a stream of the bytes of {@code file}, an input the user or a pull request named, that
     * fails past {@link #MAX_BYTES}. Only a regular file (or a link to one) is opened: a FIFO would
     * block the open until something writes to it, and a device such as {@code /dev/zero} never ends.
     *
     * @throws IOException when it is not a regular file, or cannot be opened; the stream's reads
     *     throw one naming the file and the bound once it passes it
     */
    public static InputStream open(Path file) throws IOException {
        BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
        if (!a.isRegularFile()) {
            throw new IOException(
                    (a.isDirectory() ? "a directory" : "not a regular file (a FIFO, a device or a socket)")
                            + ": perfab reads only regular files");
        }
        if (a.size() > MAX_BYTES) {
            throw tooLarge();
        }
        return new FilterInputStream(Files.newInputStream(file)) {
            private long left = MAX_BYTES;

            @Override
            public int read() throws IOException {
                int b = super.read();
                count(b < 0 ? -1 : 1);
                return b;
            }

            @Override
            public int read(byte[] buf, int off, int len) throws IOException {
                int n = super.read(buf, off, len);
                count(n);
                return n;
            }

            @Override
            public long skip(long n) throws IOException {
                long skipped = super.skip(n);
                count(skipped);
                return skipped;
            }

            private void count(long n) throws IOException {
                if (n > 0 && (left -= n) < 0) {
                    throw tooLarge();
                }
            }
        };
    }

    private static IOException tooLarge() {
        return new IOException("larger than " + (MAX_BYTES >> 20) + " MiB, the most perfab reads of one input");
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
