package org.perfab.testing;

import org.eclipse.jgit.util.FS;
import org.eclipse.jgit.util.FS_POSIX;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Gives JGit's file system a fixed umask once, as the test JVM's session of tests opens, so that
 * JGit never starts {@code sh -c umask} to read it. JGit reads the umask the first time it makes
 * a file executable (a new repository's probe of {@code core.filemode}, the checkout of a script),
 * from {@link FS#DETECTED}, which every repository opened without a file system of its own shares;
 * a test whose subject is not a process then starts none.
 *
 * <p>Note: handing each repository a file system of its own would leave perfab's code, which opens
 * repositories with JGit's default, reading the umask all the same; and a listener runs before
 * every test class, which {@code GitFixture}'s static initializer would not for the tests that
 * open a repository without it.
 */
public final class FixedUmask implements LauncherSessionListener {
    /** The umask git's own files are made with on most machines: no write for group or others. */
    static final int UMASK = 0022;

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        if (FS.DETECTED instanceof FS_POSIX posix) {
            posix.setUmask(UMASK);
        }
    }
}
