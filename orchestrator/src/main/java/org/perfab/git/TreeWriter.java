package org.perfab.git;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.perfab.failure.BadInputException;

/**
 * Writes files below one root folder and nowhere else. Every folder on the way to a file is one
 * this writer made itself, or one it has checked is a real folder (not a link) below the root;
 * files are created new, never opened through an existing name, so no link a tree or a build left
 * behind can carry a write outside the root.
 *
 * <p>Small files are written on a few threads while the caller reads the next blobs: creating many
 * small files is bound by system calls, and two cores write about twice as fast as one.
 */
final class TreeWriter implements AutoCloseable {
    static final Set<PosixFilePermission> EXECUTABLE = EnumSet.of(
            PosixFilePermission.OWNER_READ,
            PosixFilePermission.OWNER_WRITE,
            PosixFilePermission.OWNER_EXECUTE,
            PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_EXECUTE,
            PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_EXECUTE);
    private static final int IN_FLIGHT = 512;

    private final Path root;
    private final Set<Path> folders = new HashSet<>();
    private final ExecutorService pool = Executors.newFixedThreadPool(
            Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors())), r -> {
                Thread t = new Thread(r, "perfab-checkout");
                t.setDaemon(true);
                return t;
            });
    private final Semaphore slots = new Semaphore(IN_FLIGHT);
    private final AtomicReference<IOException> failure = new AtomicReference<>();

    /** A writer below {@code root}, which must be an existing folder. */
    TreeWriter(Path root) {
        this.root = root.toAbsolutePath().normalize();
        folders.add(this.root);
    }

    /**
     * Returns the place of {@code relative} (a path with {@code /} separators) below the root.
     *
     * @throws BadInputException when a segment is empty, {@code .} or {@code ..}
     */
    Path resolve(String relative) {
        Path p = root;
        for (String segment : relative.split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..") || segment.indexOf('\0') >= 0) {
                throw new BadInputException("unsafe path '" + relative + "': perfab writes nothing outside " + root);
            }
            p = p.resolve(segment);
        }
        return p;
    }

    /** Makes the folder {@code dir} (below the root) and any missing folders above it. */
    void folder(Path dir) throws IOException {
        if (folders.contains(dir)) {
            return;
        }
        if (!dir.startsWith(root) || dir.equals(root)) {
            throw new BadInputException("unsafe path " + dir + ": perfab writes nothing outside " + root);
        }
        folder(dir.getParent());
        try {
            Files.createDirectory(dir);
        } catch (FileAlreadyExistsException e) {
            if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                throw new BadInputException("refusing to write below " + root.relativize(dir) + ": it is "
                        + (Files.isSymbolicLink(dir) ? "a symbolic link" : "not a folder")
                        + ", and perfab never writes through one");
            }
        }
        folders.add(dir);
    }

    /**
     * Writes a new file at {@code target}; fails if anything, a link included, already has that
     * name.
     */
    void file(Path target, byte[] content, boolean executable) throws IOException {
        folder(target.getParent());
        rethrow();
        slots.acquireUninterruptibly();
        pool.execute(() -> {
            try {
                Files.write(target, content, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                if (executable) {
                    Files.setPosixFilePermissions(target, EXECUTABLE);
                }
            } catch (IOException e) {
                failure.compareAndSet(null, e);
            } finally {
                slots.release();
            }
        });
    }

    /** Opens a new file at {@code target} for a large blob, written by the caller. */
    OutputStream largeFile(Path target) throws IOException {
        folder(target.getParent());
        return Files.newOutputStream(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    }

    /** Makes a symbolic link at {@code target} (its own name only: the link is never followed). */
    void link(Path target, Path pointsTo) throws IOException {
        folder(target.getParent());
        Files.createSymbolicLink(target, pointsTo);
    }

    /**
     * Removes what has the name {@code target} (a file or a link, never followed), so that a new
     * file can take it. A folder there is refused: an overlay replaces files, not folders.
     */
    void clear(Path target) throws IOException {
        folder(target.getParent());
        if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
            throw new BadInputException("cannot put a file at " + root.relativize(target) + ": it is a folder there");
        }
        Files.deleteIfExists(target);
    }

    /** Waits for every write and throws the first failure. */
    void finish() throws IOException {
        slots.acquireUninterruptibly(IN_FLIGHT);
        slots.release(IN_FLIGHT);
        rethrow();
    }

    private void rethrow() throws IOException {
        IOException e = failure.get();
        if (e != null) {
            throw e;
        }
    }

    /**
     * Stops the writers: writes not yet begun are dropped, and those running are waited for, so
     * that nothing lands in the tree after a failed checkout has returned (its caller may be
     * deleting the tree; on a busy machine a write could otherwise land after the deletion).
     */
    @Override
    public void close() {
        pool.shutdownNow();
        try {
            if (!pool.awaitTermination(1, TimeUnit.MINUTES)) {
                throw new IllegalStateException("a checkout's writers did not stop within a minute");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
