package org.perfab.model;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A file (or folder) written whole: made beside its place under another name, then moved over it,
 * at once where the file system can, so that a reader, or a run killed halfway, sees the old file
 * or the new one, never half of one.
 */
public final class WholeFile {
    private WholeFile() {}

    /** Writes {@code text}, UTF-8, to {@code file} whole, through {@code partial}, a path beside it. */
    public static void write(Path file, Path partial, String text) throws IOException {
        Files.writeString(partial, text, StandardCharsets.UTF_8);
        replace(partial, file);
    }

    /** Moves {@code partial}, written whole, to {@code file}, replacing it: at once where the file system can. */
    public static void replace(Path partial, Path file) throws IOException {
        try {
            Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
