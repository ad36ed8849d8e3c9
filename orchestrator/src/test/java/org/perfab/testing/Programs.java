package org.perfab.testing;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

/** Which programs this machine has, for tests that run a real tool when it is installed. */
public final class Programs {
    private Programs() {
    }

    /** Returns whether {@code program} is an executable on the PATH. */
    public static boolean onPath(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }
}
