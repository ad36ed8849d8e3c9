package org.perfab.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.perfab.ab.Engine;
import org.perfab.testing.FakeEngine;

/** Runs the real command line in-process and keeps what it printed. */
record Cli(int exitCode, String out, String err) {
    /**
     * Runs the command line in process, on an engine that starts no process: a command that would
     * run one (a build, a harness) finds no such program. A test that needs the machine says so
     * ({@link #abOnThisMachine}, {@link Engine#REAL}).
     */
    static Cli run(String... args) {
        return run(new FakeEngine().engine(), args);
    }

    /** Runs the command line as {@link #run(String...)} does, as a process whose environment is {@code env} would. */
    static Cli run(Map<String, String> env, String... args) {
        return run(new FakeEngine().engine(), env, args);
    }

    /**
     * Runs {@code perfab ab} as {@link #ab(Engine, Path, Path, String...)} does, on this machine: its
     * builds and trials are real processes.
     */
    static Cli abOnThisMachine(Path repo, Path out, String... more) {
        return ab(Engine.REAL, repo, out, more);
    }

    /**
     * Runs {@code perfab ab} of {@code feature} against {@code main} in {@code repo}, into {@code out},
     * with {@code more} arguments, on {@code engine}.
     */
    static Cli ab(Engine engine, Path repo, Path out, String... more) {
        String[] args = new String[6 + more.length];
        args[0] = "ab";
        args[1] = "--repo=" + repo;
        args[2] = "--base=main";
        args[3] = "--head=feature";
        args[4] = "--out";
        args[5] = out.toString();
        System.arraycopy(more, 0, args, 6, more.length);
        return run(engine, args);
    }

    /** Runs the command line as {@link #run(String...)} does, its A/Bs on {@code engine} (a fake one). */
    static Cli run(Engine engine, String... args) {
        return run(engine, System.getenv(), args);
    }

    /** Runs the command line as a process whose environment is {@code env} would. */
    static Cli run(Engine engine, Map<String, String> env, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = Main.run(engine, env, o, e, args);
        }
        return new Cli(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
