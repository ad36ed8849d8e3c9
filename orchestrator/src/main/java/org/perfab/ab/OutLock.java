package org.perfab.ab;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import org.perfab.failure.BadInputException;

/**
 * The exclusive lock a command holds on its {@code --out} for as long as it writes there: an A/B's
 * run folder, a bisect's. A second perfab given the same folder (to run beside the first, or to
 * {@code --resume} it while it runs) is refused, naming the holder, instead of writing over the
 * first's files. The lock is the operating system's, so a run that dies releases it.
 */
public final class OutLock implements AutoCloseable {
    /** The file locked, in the folder; it holds who holds it. */
    static final String FILE = ".perfab-lock";

    private final FileChannel channel;
    private final FileLock lock;

    private OutLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Locks {@code root}, an existing folder, writing into its lock file this process's id, host
     * and start.
     *
     * @param option the option that named the folder, for messages ({@code --out})
     * @throws BadInputException when it cannot be locked, or another process holds it
     */
    public static OutLock take(Path root, String option) {
        Path file = root.resolve(FILE);
        FileChannel channel;
        try {
            channel = FileChannel.open(
                    file,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE,
                    StandardOpenOption.READ,
                    LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            throw new BadInputException(
                    "cannot write into " + option + " " + root + ": " + BadInputException.reason(e), e);
        }
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        } catch (IOException e) {
            close(channel);
            throw new BadInputException("cannot lock " + option + " " + root + ": " + BadInputException.reason(e), e);
        }
        if (lock == null) {
            String holder = holder(file);
            close(channel);
            throw new BadInputException(option + " " + root + " is in use by another perfab run"
                    + (holder.isEmpty() ? "" : " (" + holder + ")")
                    + ": wait for it to end, or choose another " + option);
        }
        try {
            // The machine's own, not the session's: who holds a lock is this process on this host,
            // since a time by the machine's clock, for the operator who finds the lock held.
            byte[] who = ("pid " + ProcessHandle.current().pid() + " on " + host() + ", since " + Instant.now() + "\n")
                    .getBytes(StandardCharsets.UTF_8);
            channel.truncate(0);
            channel.write(ByteBuffer.wrap(who), 0);
            channel.force(false);
        } catch (IOException e) {
            new OutLock(channel, lock).close();
            throw new BadInputException(
                    "cannot write into " + option + " " + root + ": " + BadInputException.reason(e), e);
        }
        return new OutLock(channel, lock);
    }

    private static String holder(Path lockFile) {
        try {
            return Files.readString(lockFile, StandardCharsets.UTF_8).strip().replaceAll("\\p{Cntrl}", "?");
        } catch (IOException e) {
            return "";
        }
    }

    private static String host() {
        String name = ManagementFactory.getRuntimeMXBean().getName();
        int at = name.indexOf('@');
        return at < 0 ? "this host" : name.substring(at + 1);
    }

    /** Releases the lock. */
    @Override
    public void close() {
        try {
            if (lock.isValid()) {
                lock.release();
            }
        } catch (IOException e) {
            // the channel closes below, which releases it too
        }
        close(channel);
    }

    private static void close(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // nothing left to release
        }
    }
}
