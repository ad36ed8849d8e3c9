package org.perfab.exec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Runs commands and keeps track of the ones running, so that an interrupted perfab can stop them
 * all. One instance per run; it holds no global state.
 */
public final class Processes {
    /** Clock ticks per second of {@code /proc/PID/stat} times: Linux's fixed USER_HZ. */
    private static final double USER_HZ = 100.0;
    private static final long SAMPLE_MILLIS = 10;

    private final Set<Process> running = ConcurrentHashMap.newKeySet();
    private volatile boolean stopping;

    /**
     * A command to run.
     *
     * @param argv the program and its arguments; never passed through a shell
     * @param dir the working directory
     * @param env variables added to (or replacing) perfab's own environment
     * @param timeout how long it may run before its whole process tree is killed
     * @param stdout file that receives standard output (replaced)
     * @param stderr file that receives standard error (replaced); may equal {@code stdout}
     * @param sample whether to sample CPU time and peak RSS from {@code /proc} while it runs
     */
    public record Command(List<String> argv, Path dir, Map<String, String> env, Duration timeout,
            Path stdout, Path stderr, boolean sample) {
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
     * @param wallSeconds wall time from start to exit
     * @param cpuSeconds user plus system CPU time of the process and the children it waited for,
     *     sampled every 10 ms (the last slice may be missed); empty when not sampled or not Linux
     * @param peakRssKiB the largest resident set of the process or any descendant, sampled the same
     *     way; empty when not sampled or not Linux
     */
    public record Outcome(int exitCode, boolean timedOut, String startError, double wallSeconds,
            OptionalDouble cpuSeconds, OptionalLong peakRssKiB) {
        /** Returns whether the command started, ran to its end and exited 0. */
        public boolean succeeded() {
            return startError.isEmpty() && !timedOut && exitCode == 0;
        }

        /** Returns why it did not succeed, for a message; empty when it did. */
        public String failure() {
            if (!startError.isEmpty()) {
                return "could not start: " + startError;
            }
            if (timedOut) {
                return "timed out";
            }
            return exitCode == 0 ? "" : "exited with code " + exitCode;
        }
    }

    /** Runs {@code c} to its end (or its timeout) and returns how it ended. */
    public Outcome run(Command c) throws InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(c.argv()).directory(c.dir().toFile());
        pb.environment().putAll(c.env());
        pb.redirectInput(ProcessBuilder.Redirect.from(nullDevice()));
        pb.redirectOutput(c.stdout().toFile());
        if (c.stderr().equals(c.stdout())) {
            pb.redirectErrorStream(true);
        } else {
            pb.redirectError(c.stderr().toFile());
        }
        if (stopping) {
            return new Outcome(-1, false, "perfab is stopping", 0, OptionalDouble.empty(), OptionalLong.empty());
        }
        long start = System.nanoTime();
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            return new Outcome(-1, false, String.valueOf(e.getMessage()), 0,
                    OptionalDouble.empty(), OptionalLong.empty());
        }
        running.add(p);
        if (stopping) {
            // stopAll ran between the check above and the start: this one must not outlive it.
            kill(p);
            running.remove(p);
            return new Outcome(-1, false, "perfab is stopping", 0, OptionalDouble.empty(), OptionalLong.empty());
        }
        try {
            Sampler sampler = c.sample() ? new Sampler(p.toHandle()) : null;
            long deadline = start + c.timeout().toNanos();
            boolean exited;
            if (sampler == null) {
                exited = p.waitFor(c.timeout().toNanos(), TimeUnit.NANOSECONDS);
            } else {
                exited = false;
                while (!exited) {
                    sampler.sample();
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        break;
                    }
                    exited = p.waitFor(Math.min(left, TimeUnit.MILLISECONDS.toNanos(SAMPLE_MILLIS)),
                            TimeUnit.NANOSECONDS);
                }
            }
            double wall = (System.nanoTime() - start) / 1e9;
            if (!exited) {
                kill(p);
                return new Outcome(-1, true, "", wall, OptionalDouble.empty(), OptionalLong.empty());
            }
            return new Outcome(p.exitValue(), false, "", wall,
                    sampler == null ? OptionalDouble.empty() : sampler.cpuSeconds(),
                    sampler == null ? OptionalLong.empty() : sampler.peakRssKiB());
        } catch (InterruptedException e) {
            kill(p);
            throw e;
        } finally {
            running.remove(p);
        }
    }

    /** Kills every command still running, process trees included, and refuses new ones. */
    public void stopAll() {
        stopping = true;
        for (Process p : List.copyOf(running)) {
            kill(p);
        }
    }

    private static void kill(Process p) {
        List<ProcessHandle> tree = new ArrayList<>(p.descendants().toList());
        p.destroyForcibly();
        tree.forEach(ProcessHandle::destroyForcibly);
        try {
            p.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static java.io.File nullDevice() {
        return new java.io.File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
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
                java.nio.ByteBuffer buf = java.nio.ByteBuffer.allocate((int) (size - from));
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
            return String.join("\n", java.util.Arrays.asList(all).subList(begin, end));
        } catch (IOException e) {
            return "";
        }
    }

    /**
     * Samples {@code /proc} for a process tree. Each sample adds up, over every process alive in
     * the tree, its own CPU time and that of the children it has waited for; a child that has
     * ended and been waited for is in its parent's figure, one still running is counted itself, so
     * nothing is counted twice. The largest sum seen is the tree's CPU time.
     */
    private static final class Sampler {
        private final ProcessHandle root;
        private final boolean available = Files.isDirectory(Path.of("/proc/self"));
        private double cpu = -1;
        private long peakRss = -1;

        Sampler(ProcessHandle root) {
            this.root = root;
        }

        void sample() {
            if (!available) {
                return;
            }
            double[] total = {read(root.pid())};
            if (total[0] < 0) {
                return;
            }
            root.descendants().forEach(h -> total[0] += Math.max(0, read(h.pid())));
            cpu = Math.max(cpu, total[0]);
        }

        /** Returns the CPU seconds of {@code pid} and its waited-for children, or -1. */
        private double read(long pid) {
            try {
                String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                // After the command: state(0) ... utime(11) stime(12) cutime(13) cstime(14).
                long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]) + Long.parseLong(f[13])
                        + Long.parseLong(f[14]);
                for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                    if (line.startsWith("VmHWM:")) {
                        peakRss = Math.max(peakRss, Long.parseLong(line.replaceAll("[^0-9]", "")));
                    }
                }
                return ticks / USER_HZ;
            } catch (IOException | RuntimeException e) {
                return -1; // it ended between listing and reading: its last sample stands
            }
        }

        OptionalDouble cpuSeconds() {
            return cpu < 0 ? OptionalDouble.empty() : OptionalDouble.of(cpu);
        }

        OptionalLong peakRssKiB() {
            return peakRss < 0 ? OptionalLong.empty() : OptionalLong.of(peakRss);
        }
    }
}
