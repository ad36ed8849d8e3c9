package org.perfab.exec;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.perfab.model.Load;

/**
 * What a command perfab runs is, and how it ended, beside what every caller of {@link Commands}
 * shares: the programs on PATH, and the bounded logs a command leaves. {@link ProcessTrees} runs
 * the commands.
 */
public final class Processes {
    /** The shell that puts a command in its cgroup: a POSIX shell wherever there are cgroups. */
    static final String SH = "/bin/sh";
    /** The most output a command may write to either stream before it is stopped. */
    public static final long MAX_OUTPUT_BYTES = 64L * 1024 * 1024;
    /** How much of a long log is kept at each end. */
    public static final int KEEP_BYTES = 64 * 1024;

    private Processes() {}

    /**
     * A command to run.
     *
     * @param argv the program and its arguments; never passed through a shell
     * @param dir the working directory
     * @param env variables added to (or replacing) perfab's own environment
     * @param timeout how long it may run before its whole process tree is killed
     * @param stdout file that receives standard output (replaced)
     * @param stderr file that receives standard error (replaced); may equal {@code stdout}
     * @param sample whether perfab times it: gives its {@link Outcome#cpuSeconds} and
     *     {@link Outcome#peakRssKiB}, the latter sampled from {@code /proc} every 10 ms while it runs;
     *     every command is sampled every 100 ms for its {@link Outcome#load} either way
     */
    public record Command(
            List<String> argv,
            Path dir,
            Map<String, String> env,
            Duration timeout,
            Path stdout,
            Path stderr,
            boolean sample) {
        public Command {
            argv = List.copyOf(argv);
            if (argv.isEmpty()) {
                throw new IllegalArgumentException("a command needs a program");
            }
            Objects.requireNonNull(dir, "dir");
            env = Map.copyOf(env);
            Objects.requireNonNull(timeout, "timeout");
            Objects.requireNonNull(stdout, "stdout");
            Objects.requireNonNull(stderr, "stderr");
        }
    }

    /**
     * How a command ended.
     *
     * @param exitCode its exit code; -1 when it could not start or was killed
     * @param timedOut whether it was killed for running past its timeout
     * @param startError why it could not start (e.g. no such program); empty when it started
     * @param wallSeconds wall time from start to exit; a command perfab times in a cgroup starts
     *     when it is let go, in its cgroup, to become the command
     * @param cpuSeconds user plus system CPU time of its process tree: where it ran in a cgroup, the
     *     kernel's account of every process in it, those that ended included, to the microsecond;
     *     elsewhere on Linux the kernel's figures in {@code /proc}, in clock ticks of 10 ms; the
     *     same figure as its {@link #load}'s. Empty when not timed, not Linux, or it did not end by
     *     itself
     * @param peakRssKiB the largest resident set of the process or any descendant, sampled the same
     *     way; empty when not sampled or not Linux
     * @param overflow the stream that passed {@link #MAX_OUTPUT_BYTES}, which stopped the command;
     *     empty when none did
     * @param leftovers what the command left running when it ended, which was killed: each as
     *     {@code PID COMMAND LINE}
     * @param stopped whether perfab stopped it ({@link ProcessTrees#stopAll}), or refused to start it because it
     *     was stopping: its end says nothing of the command
     * @param load what the machine did while it ran, its own CPU time included (see {@link Load}):
     *     sampled every 100 ms at least, with the slice after the last sample included when the
     *     kernel's accounts can tell it; empty when it did not start, or {@code /proc} could not tell
     */
    public record Outcome(
            int exitCode,
            boolean timedOut,
            String startError,
            double wallSeconds,
            OptionalDouble cpuSeconds,
            OptionalLong peakRssKiB,
            String overflow,
            List<String> leftovers,
            boolean stopped,
            Optional<Load> load) {
        public Outcome {
            Objects.requireNonNull(overflow, "overflow");
            leftovers = List.copyOf(leftovers);
            Objects.requireNonNull(load, "load");
        }

        static Outcome notStarted(String why) {
            return new Outcome(
                    -1,
                    false,
                    why,
                    0,
                    OptionalDouble.empty(),
                    OptionalLong.empty(),
                    "",
                    List.of(),
                    false,
                    Optional.empty());
        }

        static Outcome stoppedByPerfab() {
            return new Outcome(
                    -1,
                    false,
                    "perfab is stopping",
                    0,
                    OptionalDouble.empty(),
                    OptionalLong.empty(),
                    "",
                    List.of(),
                    true,
                    Optional.empty());
        }

        /** Returns whether the command started, ran to its end and exited 0. */
        public boolean succeeded() {
            return startError.isEmpty() && !timedOut && overflow.isEmpty() && !stopped && exitCode == 0;
        }

        /** Returns why it did not succeed, for a message; empty when it did. */
        public String failure() {
            if (!startError.isEmpty()) {
                return "could not start: " + startError;
            }
            if (timedOut) {
                return "timed out";
            }
            if (!overflow.isEmpty()) {
                return "wrote more than " + MAX_OUTPUT_BYTES / (1024 * 1024) + " MiB to its " + overflow
                        + " and was stopped";
            }
            return exitCode == 0 ? "" : "exited with code " + exitCode;
        }
    }

    /**
     * Cuts the middle out of {@code file} when it is longer than twice {@link #KEEP_BYTES}, keeping
     * that much at each end with a line saying how much was cut, and returns how many bytes were
     * cut (0 when none).
     */
    public static long bound(Path file) {
        long size = size(file);
        if (size <= 2L * KEEP_BYTES) {
            return 0;
        }
        try (var ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer tail = ByteBuffer.allocate(KEEP_BYTES);
            ch.position(size - KEEP_BYTES);
            while (tail.hasRemaining() && ch.read(tail) > 0) {
                // keep reading
            }
            tail.flip();
            long cut = size - 2L * KEEP_BYTES;
            byte[] note = ("\n[perfab: " + cut + " bytes cut here to keep the log bounded]\n")
                    .getBytes(StandardCharsets.UTF_8);
            ch.position(KEEP_BYTES);
            ch.write(ByteBuffer.wrap(note));
            while (tail.hasRemaining()) {
                ch.write(tail);
            }
            ch.truncate(ch.position());
            return cut;
        } catch (IOException e) {
            return 0;
        }
    }

    /**
     * Returns the first file named {@code program} that this process may run in a folder of the PATH
     * of {@code env}; empty where there is none, or {@code env} has no PATH. The environment is the
     * one perfab was given, as the engine's commands or the session hold it, never read here.
     */
    public static Optional<Path> find(String program, Map<String, String> env) {
        String path = env.get("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
                return Optional.of(Path.of(dir, program));
            }
        }
        return Optional.empty();
    }

    /**
     * Returns the last {@code lines} lines of {@code file} (at most 64 KiB of it), or an empty
     * string when it cannot be read.
     */
    public static String tail(Path file, int lines) {
        try {
            long size = Files.size(file);
            byte[] bytes;
            try (var ch = Files.newByteChannel(file)) {
                long from = Math.max(0, size - 65536);
                ch.position(from);
                ByteBuffer buf = ByteBuffer.allocate((int) (size - from));
                while (buf.hasRemaining() && ch.read(buf) > 0) {
                    // keep reading
                }
                bytes = buf.array();
            }
            String text = new String(bytes, StandardCharsets.UTF_8);
            String[] all = text.split("\n", -1);
            int end = all.length;
            if (end > 0 && all[end - 1].isEmpty()) {
                end--;
            }
            int begin = Math.max(0, end - lines);
            return String.join("\n", Arrays.asList(all).subList(begin, end));
        } catch (IOException e) {
            return "";
        }
    }

    /** Returns the size of {@code file} in bytes; 0 when it cannot be read. */
    static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }
}
