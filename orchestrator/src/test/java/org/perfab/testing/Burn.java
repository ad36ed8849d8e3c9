package org.perfab.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A C program that burns a given CPU time and prints what its {@code main} ran, user plus system,
 * in microseconds, as the kernel counts it ({@code CLOCK_PROCESS_CPUTIME_ID}): a command whose CPU
 * time is known to the microsecond however busy the machine is, all but its start (exec, the
 * loader) and its exit, for tests of what perfab measures of it.
 */
public final class Burn {
    private static final String SOURCE = """
            #include <stdio.h>
            #include <stdlib.h>
            #include <time.h>

            static long long cpu(void) {
              struct timespec t;
              clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
              return t.tv_sec * 1000000000LL + t.tv_nsec;
            }

            /* burn MILLIS: spin until main has run MILLIS ms of CPU, then print what it ran, in us. */
            int main(int argc, char **argv) {
              long long from = cpu(), until = from + (argc > 1 ? atoll(argv[1]) : 30) * 1000000LL, now;
              volatile unsigned long sink = 0;
              do {
                for (int i = 0; i < 1000; i++) sink += i;
                now = cpu();
              } while (now < until);
              printf("%lld\\n", (now - from) / 1000);
              return 0;
            }
            """;

    private Burn() {}

    /** Returns its C source. */
    public static String source() {
        return SOURCE;
    }

    /** Compiles the program into {@code dir} and returns its path. */
    public static Path compile(Path dir) throws IOException, InterruptedException {
        Path source = dir.resolve("burn.c");
        Path program = dir.resolve("burn");
        Files.writeString(source, SOURCE);
        Process cc = new ProcessBuilder("cc", "-O1", "-o", program.toString(), source.toString())
                .redirectErrorStream(true)
                .start();
        String out = new String(cc.getInputStream().readAllBytes());
        if (!cc.waitFor(2, TimeUnit.MINUTES) || cc.exitValue() != 0) {
            throw new IOException("cc failed: " + out);
        }
        return program;
    }

    /** Returns the CPU seconds a run's {@code main} ran, from {@code output}, what it printed. */
    public static double seconds(String output) {
        return Long.parseLong(output.strip()) / 1e6;
    }
}
