package org.perfab.report.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Headless Chromium as the browser tests drive it: quiet, off the network, with a profile of its own. */
public final class Chromium {
    private Chromium() {}

    /**
     * Runs {@code binary} headless with {@code args} (a page to load, and {@code --dump-dom} or
     * {@code --screenshot=...}), its profile and error log in {@code dir}, and returns what it
     * printed; fails the test when it does not end within 90 s or ends in error.
     */
    public static String run(Path binary, Path dir, String... args) throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>(List.of(
                binary.toString(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--user-data-dir=" + dir.resolve("profile")));
        argv.addAll(List.of(args));
        Path err = dir.resolve("chromium.err");
        Process p = new ProcessBuilder(argv).redirectError(err.toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(90, TimeUnit.SECONDS), "Chromium finished");
        assertEquals(0, p.exitValue(), Files.readString(err));
        return out;
    }
}
