package org.perfab.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.perfab.ab.Engine;

/** Runs the real command line in-process and keeps what it printed. */
record Cli(int exitCode, String out, String err) {
    static Cli run(String... args) {
        return run(Engine.REAL, args);
    }

    /** Runs the command line as {@link #run(String...)} does, its A/Bs on {@code engine} (a fake one). */
    static Cli run(Engine engine, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = Main.run(engine, System.getenv(), o, e, args);
        }
        return new Cli(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
