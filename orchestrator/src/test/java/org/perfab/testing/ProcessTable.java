package org.perfab.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The machine's processes as {@code /proc} shows them, for tests that check what perfab killed. */
public final class ProcessTable {
    private ProcessTable() {}

    /**
     * Returns whether process {@code pid} has ended: it is gone, or it is a zombie that waits for
     * its parent (an init that is slow to reap what is handed to it keeps them a while), which
     * {@link ProcessHandle#isAlive} counts as alive.
     */
    public static boolean ended(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            int close = stat.lastIndexOf(')');
            char state = close >= 0 && close + 2 < stat.length() ? stat.charAt(close + 2) : '?';
            return state == 'Z' || state == 'X' || state == 'x';
        } catch (IOException e) {
            return true;
        }
    }
}
