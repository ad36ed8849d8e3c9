package org.perfab.exec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Linux's {@code /proc} under a root folder, read for what perfab measures of a command and of the
 * machine: a process's CPU time ({@code /proc/PID/stat}) and peak resident set
 * ({@code /proc/PID/status}), the machine's CPU ticks and run queue ({@code /proc/stat}), and the
 * CPUs perfab may run on ({@code /proc/self/status}). Parsing is apart from reading, so that tests
 * feed it fixtures. Nothing here throws: a file that is missing, unreadable or not as expected
 * gives an empty reading, and never fails a command.
 */
final class ProcStat {
    /** Clock ticks per second of the times in {@code /proc}: Linux's USER_HZ, fixed at 100 for user space. */
    static final double USER_HZ = 100.0;

    private final Path root;
    /** The CPUs whose ticks count; empty for the whole machine. */
    private final BitSet cpus;

    /** Returns {@code /proc} as the files under {@code root} tell it (the real one is {@code /proc}). */
    ProcStat(Path root) {
        this.root = root;
        this.cpus = read(root.resolve("self").resolve("status"))
                .flatMap(ProcStat::allowedCpus)
                .orElseGet(BitSet::new);
    }

    /** Returns whether there is a {@code /proc} to read at all (Linux). */
    boolean available() {
        return Files.isDirectory(root.resolve("self"));
    }

    /**
     * The CPU ticks of the machine (of the CPUs perfab may run on) since boot, and its run queue
     * at the moment of reading.
     *
     * @param busy ticks spent running tasks and interrupts: user, nice, system, irq and softirq
     *     (guest time is inside user and nice)
     * @param steal ticks the hypervisor gave to other guests while these CPUs wanted to run
     * @param total all ticks: busy, idle, iowait and steal
     * @param running {@code procs_running}: the tasks runnable on the whole machine, the reader
     *     itself included; -1 when the file does not say
     */
    record Ticks(long busy, long steal, long total, int running) {}

    /**
     * The CPU ticks of one process.
     *
     * @param own user plus system ticks of the process, all its threads
     * @param children user plus system ticks of the children it has waited for, theirs included
     */
    record CpuTicks(long own, long children) {
        /** Returns the ticks of the process and its waited-for children. */
        long total() {
            return own + children;
        }
    }

    /** Returns the machine's ticks now; empty without a readable {@code /proc/stat}. */
    Optional<Ticks> machine() {
        return read(root.resolve("stat")).flatMap(text -> machine(text, cpus));
    }

    /** Returns the ticks of process {@code pid} ({@code self} for perfab); empty when it is gone. */
    Optional<CpuTicks> process(String pid) {
        return read(root.resolve(pid).resolve("stat")).flatMap(ProcStat::cpuTicks);
    }

    /** Returns the session of process {@code pid}; empty when it is gone or has ended (a zombie). */
    OptionalLong session(String pid) {
        Optional<String> stat = read(root.resolve(pid).resolve("stat"));
        return stat.isEmpty() ? OptionalLong.empty() : sessionOf(stat.get());
    }

    /** Returns whether process {@code pid} is still running: there, and not a zombie. */
    boolean running(String pid) {
        return read(root.resolve(pid).resolve("stat")).map(ProcStat::runningOf).orElse(false);
    }

    /** Returns the peak resident set of process {@code pid}, in KiB; empty when it is gone. */
    OptionalLong peakRssKiB(String pid) {
        Optional<String> status = read(root.resolve(pid).resolve("status"));
        return status.isEmpty() ? OptionalLong.empty() : peakRssKiBOf(status.get());
    }

    private static Optional<String> read(Path file) {
        try {
            return Optional.of(Files.readString(file));
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // gone, not Linux, or not ours to read
        }
    }

    /**
     * Returns the ticks that {@code stat}, the text of {@code /proc/stat}, gives for the CPUs in
     * {@code cpus} (their {@code cpuN} lines summed), or for the whole machine (its {@code cpu}
     * line) when {@code cpus} is empty or names none of them; empty when it has no such line.
     */
    static Optional<Ticks> machine(String stat, BitSet cpus) {
        long[] all = null;
        long[] some = null;
        int running = -1;
        for (String line : stat.split("\n")) {
            // Only these lines are split: the intr line holds a number for every interrupt.
            if (line.startsWith("procs_running ")) {
                running = (int) Math.min(
                        Integer.MAX_VALUE,
                        parse(line.substring("procs_running ".length()).trim()));
            }
            if (!line.startsWith("cpu")) {
                continue;
            }
            String[] f = line.trim().split("\\s+");
            long[] ticks = cpuTicks(f);
            if (ticks == null) {
                continue;
            }
            if (f[0].equals("cpu")) {
                all = ticks;
            } else if (!cpus.isEmpty()) {
                long n = parse(f[0].substring(3));
                if (n >= 0 && n < Integer.MAX_VALUE && cpus.get((int) n)) {
                    some = some == null ? ticks : add(some, ticks);
                }
            }
        }
        long[] t = some != null ? some : all;
        if (t == null) {
            return Optional.empty();
        }
        // Columns: user nice system idle iowait irq softirq steal (guest and guest_nice are in user and nice).
        long busy = t[0] + t[1] + t[2] + t[5] + t[6];
        return Optional.of(new Ticks(busy, t[7], busy + t[3] + t[4] + t[7], running));
    }

    /** Returns the first eight tick columns of a {@code cpu} line, zeros for columns an old kernel lacks; null when it is not one. */
    private static long[] cpuTicks(String[] f) {
        if (f.length < 5) {
            return null;
        }
        long[] ticks = new long[8];
        for (int i = 0; i < ticks.length && i + 1 < f.length; i++) {
            ticks[i] = parse(f[i + 1]);
            if (ticks[i] < 0) {
                return null;
            }
        }
        return ticks;
    }

    private static long[] add(long[] a, long[] b) {
        long[] sum = new long[a.length];
        for (int i = 0; i < a.length; i++) {
            sum[i] = a[i] + b[i];
        }
        return sum;
    }

    /**
     * Returns the ticks that {@code stat}, the text of {@code /proc/PID/stat}, gives; empty when it
     * is not such a text. The command name, in parentheses, may hold spaces and parentheses: the
     * fields are counted from the last ')'.
     */
    static Optional<CpuTicks> cpuTicks(String stat) {
        String[] f = afterName(stat);
        if (f.length < 15) {
            return Optional.empty();
        }
        // After the command: state(0) ... utime(11) stime(12) cutime(13) cstime(14).
        long utime = parse(f[11]);
        long stime = parse(f[12]);
        long cutime = parse(f[13]);
        long cstime = parse(f[14]);
        if (utime < 0 || stime < 0 || cutime < 0 || cstime < 0) {
            return Optional.empty();
        }
        return Optional.of(new CpuTicks(utime + stime, cutime + cstime));
    }

    /**
     * Returns the session id that {@code stat}, the text of {@code /proc/PID/stat}, gives for a
     * process still running; empty for one that has ended (see {@link #runningOf}), or a text that
     * is not such a line.
     */
    static OptionalLong sessionOf(String stat) {
        String[] f = afterName(stat);
        // After the command: state(0) ppid(1) pgrp(2) session(3).
        if (f.length < 4 || !runningOf(stat)) {
            return OptionalLong.empty();
        }
        long session = parse(f[3]);
        return session <= 0 ? OptionalLong.empty() : OptionalLong.of(session);
    }

    /**
     * Returns whether {@code stat}, the text of {@code /proc/PID/stat}, is that of a process still
     * running: not one that has ended and waits for its parent (a zombie, which keeps its ids but
     * can do nothing), nor a text that is not such a line.
     */
    static boolean runningOf(String stat) {
        String[] f = afterName(stat);
        return f.length > 0 && !f[0].isEmpty() && !f[0].equals("Z") && !f[0].equals("X") && !f[0].equals("x");
    }

    /**
     * Returns the fields of {@code stat} after the command name, which is in parentheses and may
     * hold spaces and parentheses itself: they are counted from the last ')'. Empty when it is not
     * such a text.
     */
    private static String[] afterName(String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0 || close + 2 > stat.length()) {
            return new String[0];
        }
        return stat.substring(close + 2).trim().split("\\s+");
    }

    /** Returns the {@code VmHWM} of {@code status}, the text of {@code /proc/PID/status}, in KiB; empty when it has none. */
    static OptionalLong peakRssKiBOf(String status) {
        for (String line : status.split("\n")) {
            if (line.startsWith("VmHWM:")) {
                long kib = parse(
                        line.substring("VmHWM:".length()).replace("kB", "").trim());
                return kib < 0 ? OptionalLong.empty() : OptionalLong.of(kib);
            }
        }
        return OptionalLong.empty();
    }

    /**
     * Returns the CPUs that {@code status}, the text of {@code /proc/PID/status}, lets the process
     * run on (its {@code Cpus_allowed_list}, such as {@code 0-3,8}); empty when it does not say.
     */
    static Optional<BitSet> allowedCpus(String status) {
        for (String line : status.split("\n")) {
            if (line.startsWith("Cpus_allowed_list:")) {
                return cpuList(line.substring("Cpus_allowed_list:".length()).trim());
            }
        }
        return Optional.empty();
    }

    /** Returns the CPUs of a Linux CPU list such as {@code 0-3,8}; empty when it is not one. */
    static Optional<BitSet> cpuList(String list) {
        BitSet cpus = new BitSet();
        for (String part : list.split(",")) {
            int dash = part.indexOf('-');
            long from = parse(dash < 0 ? part : part.substring(0, dash));
            long to = dash < 0 ? from : parse(part.substring(dash + 1));
            // A CPU number past 1 << 16 is no list of this world: refuse it rather than allocate for it.
            if (from < 0 || to < from || to > 1 << 16) {
                return Optional.empty();
            }
            cpus.set((int) from, (int) to + 1);
        }
        return cpus.isEmpty() ? Optional.empty() : Optional.of(cpus);
    }

    /** Returns the non-negative whole number {@code s}, or -1 when it is not one. */
    private static long parse(String s) {
        if (s.isEmpty() || s.length() > 18) {
            return -1;
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return -1;
            }
        }
        return Long.parseLong(s);
    }
}
