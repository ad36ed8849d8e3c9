package org.perfab.exec;

import static org.perfab.exec.Processes.MAX_OUTPUT_BYTES;
import static org.perfab.exec.Processes.SH;
import static org.perfab.exec.Processes.size;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.perfab.exec.Processes.Command;
import org.perfab.exec.Processes.Outcome;
import org.perfab.model.Load;

/**
 * Runs commands and keeps track of the ones running, so that an interrupted perfab can stop them
 * all. One instance per run; it holds no global state.
 *
 * <p>Every command runs in a session of its own where {@code setsid} exists, so a signal meant for
 * perfab (Ctrl-C at a terminal, a cancelled CI job) reaches perfab alone, and perfab stops the
 * command. When it ends, whatever it left running (a background child, a daemon that left the
 * process tree) is killed and reported, so nothing of one trial runs into the next. What it left is
 * found in one of two ways:
 *
 * <ul>
 *   <li>Where perfab may make cgroups (Linux with cgroup v2, as root or in a delegated cgroup),
 *       every command runs in a cgroup of its own, which it joins before its first instruction
 *       (a shell puts itself there and becomes the command, keeping its pid). Everything it starts
 *       is in that cgroup, whatever session or environment it gives itself, and is killed with it;
 *       a process that moves itself into another cgroup leaves it (see {@link Cgroup}), and is
 *       still found by the tag or the session below, and named as having moved. A command that
 *       moves perfab itself into its cgroup does not get perfab killed with it: perfab moves
 *       itself back first, and names that among what the command left. The cgroup is removed
 *       when the command ends, times out or is stopped. A command perfab times
 *       itself ({@link Command#sample}) is moved there from outside by perfab, while a shell waits
 *       to become it, and its time starts once it is there: neither the shell nor the migration
 *       is timed with it.
 *   <li>Elsewhere, or when the command could not join its cgroup, every command carries a tag in
 *       its environment, which its children inherit, and what carries the tag or is in the
 *       command's session is what it left. A child that both clears its environment and starts a
 *       session of its own ({@code setsid env -i ...}) escapes this: that is the limit of what a
 *       process cannot shed without a cgroup.
 * </ul>
 *
 * <p>Should perfab die without running any code of its own (SIGKILL, the machine's out-of-memory
 * killer), its {@link Watchdog} kills the process group and the cgroup of each command running.
 *
 * <p>A command's CPU time is its process tree's, as the kernel accounts it: what it charged to the
 * command's cgroup, to the microsecond, where the command ran in one; elsewhere on Linux the
 * kernel's figures in {@code /proc}, which come in clock ticks of 10 ms.
 *
 * <p>Where {@code /proc} exists (Linux), every command also gets its {@link Load}: its own CPU
 * time beside what the rest of the machine did while it ran, so that a trial a busy neighbour
 * disturbed can be told from one that measured the code.
 */
public final class ProcessTrees implements Commands {
    /** How often a command that asks for it is sampled for its CPU time and peak RSS, in milliseconds. */
    private static final long SAMPLE_MILLIS = 10;
    /** How often any other command is checked (its end, its output, its CPU time), in milliseconds. */
    private static final long WATCH_MILLIS = 100;
    /** The variable that tags a command's processes. */
    static final String TAG = "PERFAB_PROCESS_TAG";
    /**
     * The script that moves its shell into the cgroup {@code $1} and then becomes the command
     * {@code $2...} (exec keeps the pid); when the cgroup refuses it, the command runs all the same.
     */
    static final String JOIN = "{ echo $$ > \"$1/cgroup.procs\"; } 2>/dev/null; shift; exec \"$@\"";
    /**
     * The script that waits for a line on its standard input, which perfab writes once it has moved
     * the shell into its cgroup from outside, and then becomes the command {@code $1...} (exec keeps
     * the pid) with its standard input from {@code /dev/null}; when the input ends without a line
     * (perfab is gone), it exits.
     */
    static final String GATE = "read -r gate && exec \"$@\" < /dev/null";
    /** How long the processes a command left may take to die, and its cgroup to go, in seconds. */
    private static final long END_SECONDS = 5;

    private final Set<Running> running = ConcurrentHashMap.newKeySet();
    /**
     * Held while a command starts, and by {@link #stopAll} as it sets {@link #stopping}: so a command
     * has either started and is among those running when stopAll looks, or does not start.
     */
    private final Object launch = new Object();
    /** The environment every command inherits, whose PATH finds the programs run by name. */
    private final Map<String, String> environment;

    private final boolean setsid;
    private final ProcStat procfs = new ProcStat(Path.of("/proc"));
    private final boolean proc = procfs.available();
    /** Where each command gets a cgroup; empty where this machine gives perfab none. */
    private final Optional<Cgroup.Home> cgroups;
    /**
     * What kills the commands running should perfab die (empty where there is none), asked for as
     * the first command starts: a run that starts none starts no watchdog either.
     */
    private final Supplier<Optional<Watchdog>> watchdog;
    /** How many commands have started, and how many are running: whether one ran alone. */
    private final AtomicLong starts = new AtomicLong();

    private final AtomicInteger active = new AtomicInteger();
    private volatile boolean stopping;

    /**
     * Returns a new instance whose commands inherit {@code environment} (perfab's own, as the
     * session holds it), which runs each command in a cgroup of its own where the machine allows,
     * watched by this process's {@link Watchdog}.
     */
    public ProcessTrees(Map<String, String> environment) {
        this(environment, Cgroup.Home.probe(Path.of("/proc")), Watchdog::ofThisProcess);
    }

    /**
     * Returns a new instance whose commands inherit {@code environment}, that makes their cgroups in
     * {@code cgroups} (none when empty), and tells the watchdog {@code watchdog} gives of each command
     * as it starts and ends.
     */
    ProcessTrees(
            Map<String, String> environment, Optional<Cgroup.Home> cgroups, Supplier<Optional<Watchdog>> watchdog) {
        this.environment = Map.copyOf(environment);
        this.setsid = has("setsid");
        this.cgroups = cgroups.filter(home -> Files.isExecutable(Path.of(SH)));
        this.watchdog = watchdog;
    }

    @Override
    public Map<String, String> environment() {
        return environment;
    }

    /**
     * Returns whether commands run in cgroups of their own: then the CPU time of a command perfab
     * times is the kernel's account of its cgroup, to the microsecond, rather than clock ticks.
     */
    public boolean cgroups() {
        return cgroups.isPresent();
    }

    /** Runs {@code c} to its end (or its timeout) and returns how it ended. */
    @Override
    public Outcome run(Command c) throws InterruptedException {
        long order = starts.incrementAndGet();
        boolean alone = active.incrementAndGet() == 1;
        try {
            return start(c, order, alone);
        } finally {
            active.decrementAndGet();
        }
    }

    private ProcessBuilder builder(Command c, String tag, Optional<Cgroup> cgroup) {
        List<String> argv = new ArrayList<>();
        if (setsid) {
            argv.add("setsid");
        }
        boolean gated = gated(c, cgroup);
        if (gated) {
            argv.addAll(List.of(SH, "-c", GATE, "sh"));
        } else {
            cgroup.ifPresent(
                    g -> argv.addAll(List.of(SH, "-c", JOIN, "sh", g.dir().toString())));
        }
        argv.addAll(c.argv());
        ProcessBuilder pb = new ProcessBuilder(argv).directory(c.dir().toFile());
        pb.environment().clear();
        pb.environment().putAll(environment);
        pb.environment().putAll(c.env());
        pb.environment().put(TAG, tag);
        pb.redirectInput(gated ? ProcessBuilder.Redirect.PIPE : ProcessBuilder.Redirect.from(nullDevice()));
        pb.redirectOutput(c.stdout().toFile());
        if (c.stderr().equals(c.stdout())) {
            pb.redirectErrorStream(true);
        } else {
            pb.redirectError(c.stderr().toFile());
        }
        return pb;
    }

    /**
     * Returns whether {@code c} waits at {@link #GATE} until perfab has moved it into its cgroup: a
     * command perfab times, which has a cgroup. Its time starts when the gate opens, so that neither
     * the shell nor the migration into the cgroup (milliseconds: the kernel waits for a grace period
     * of its own) is timed with it, and everything it runs, from its first instruction, is in the
     * cgroup and in the CPU time the kernel counts there.
     */
    // Note: such a command first joined its cgroup from outside as it ran, with no shell. The
    // migration took 2 to 27 ms beside other work, while the command ran outside its cgroup: a
    // shell's first child could run there whole, and a 20 ms command's CPU time was not in its
    // cgroup's account, nor in /proc's samples, which began after the migration (it read 6.5 ms
    // on average, CV 92%; gated, 21.2 ms, CV 1.6%).
    private static boolean gated(Command c, Optional<Cgroup> cgroup) {
        return c.sample() && cgroup.isPresent();
    }

    /**
     * Starts {@code c} and watches it to its end. {@code order} is its place among the commands
     * started, and {@code alone} tells whether none other was running when it started.
     */
    private Outcome start(Command c, long order, boolean alone) throws InterruptedException {
        String tag = UUID.randomUUID().toString();
        LoadMeter meter;
        long start;
        Running r;
        synchronized (launch) {
            if (stopping) {
                return Outcome.stoppedByPerfab();
            }
            Optional<Cgroup> cgroup = cgroups.flatMap(Cgroup.Home::make);
            ProcessBuilder pb = builder(c, tag, cgroup);
            boolean gated = gated(c, cgroup);
            // Started before the command's clock, so that its shell is never in the first command's time.
            Optional<Watchdog> dog = watchdog.get();
            meter = LoadMeter.start(procfs, System.nanoTime());
            start = System.nanoTime();
            try {
                Process started = pb.start();
                dog.ifPresent(w -> w.watch(started.pid(), cgroup.map(Cgroup::dir)));
                r = new Running(started, tag, cgroup);
                if (gated) {
                    cgroup.get().admit(started.pid()); // when refused, it runs all the same
                    // Its time starts now, as it is let go.
                    meter = LoadMeter.start(procfs, System.nanoTime());
                    start = System.nanoTime();
                    open(started);
                }
            } catch (IOException e) {
                cgroup.ifPresent(g -> g.remove(endBy()));
                return Outcome.notStarted(String.valueOf(e.getMessage()));
            } catch (RuntimeException e) {
                cgroup.ifPresent(g -> g.remove(endBy()));
                throw e;
            }
            running.add(r);
        }
        Process p = r.process;
        try {
            return watch(c, r, meter, start, () -> alone && starts.get() == order);
        } catch (InterruptedException e) {
            r.kill();
            throw e;
        } finally {
            r.end();
            running.remove(r);
            watchdog.get().ifPresent(w -> w.release(p.pid()));
        }
    }

    /**
     * Watches {@code r}, the process of {@code c}, to its end, its timeout or an overflow of its
     * output, and returns how it ended; kills it when it did not end by itself.
     *
     * @param meter the load of the machine, from when its time started
     * @param start when its time started, in {@link System#nanoTime} nanoseconds
     * @param alone tells, once it ended, whether it ran alone: none other was running when it
     *     started, and none started after it
     */
    private Outcome watch(Command c, Running r, LoadMeter meter, long start, BooleanSupplier alone)
            throws InterruptedException {
        Process p = r.process;
        Sampler sampler = new Sampler(procfs, p.toHandle(), c.sample(), gated(c, r.cgroup));
        long deadline = start + c.timeout().toNanos();
        long step = TimeUnit.MILLISECONDS.toNanos(c.sample() ? SAMPLE_MILLIS : WATCH_MILLIS);
        boolean exited = false;
        String overflow = "";
        while (!exited) {
            sampler.sample();
            meter.sample(System.nanoTime());
            overflow = overflow(c);
            long left = deadline - System.nanoTime();
            if (left <= 0 || !overflow.isEmpty()) {
                break;
            }
            exited = p.waitFor(Math.min(left, step), TimeUnit.NANOSECONDS);
        }
        double wall = (System.nanoTime() - start) / 1e9;
        if (!exited) {
            r.kill();
        }
        // Read before what the command left runs on, and before its cgroup goes.
        OptionalDouble counted = r.cgroupSeconds();
        meter.end(System.nanoTime());
        OptionalDouble cpu = cpuSeconds(counted, sampler, meter, alone.getAsBoolean());
        Optional<Load> load = cpu.isEmpty()
                ? Optional.empty()
                : meter.load(wall, cpu.getAsDouble(), counted.isPresent() ? Load.CpuClock.CGROUP : Load.CpuClock.TICKS);
        if (!exited) {
            return new Outcome(
                    -1,
                    overflow.isEmpty(),
                    "",
                    wall,
                    OptionalDouble.empty(),
                    OptionalLong.empty(),
                    overflow,
                    r.end(),
                    stopping,
                    load);
        }
        // Killed by stopAll while it ran: whatever it exited with, perfab ended it.
        return new Outcome(
                p.exitValue(),
                false,
                "",
                wall,
                c.sample() ? cpu : OptionalDouble.empty(),
                c.sample() ? sampler.peakRssKiB() : OptionalLong.empty(),
                overflow(c),
                r.end(),
                stopping,
                load);
    }

    /**
     * Returns the CPU time of a command's process tree, in seconds: what the kernel charged to its
     * cgroup ({@code counted}, to the microsecond) when it ran in one; else what {@code /proc} tells,
     * in clock ticks of 10 ms: the largest the sampler saw its tree use, or, when it ran {@code
     * alone}, the time the kernel added to perfab's account of waited-for children as it exited
     * (its whole tree's to the end, the slice after the last sample included) when that is larger.
     * Empty when neither could tell.
     */
    // Note: without a cgroup no figure finer than a tick covers a tree whose processes have ended.
    // /proc gives the time of waited-for children in ticks only (cutime, cstime); schedstat gives
    // nanoseconds of a thread that is still there; getrusage is out of Java's reach. Wrapping the
    // command in a shell's `time` (bash's TIMEFORMAT gives microseconds) was rejected: it puts a
    // shell between perfab and the command, in its wall time, its exit status and its signals,
    // and bash is not on every machine.
    private static OptionalDouble cpuSeconds(OptionalDouble counted, Sampler sampler, LoadMeter meter, boolean alone) {
        if (counted.isPresent()) {
            return counted;
        }
        OptionalDouble sampled = sampler.cpuSeconds();
        OptionalDouble reaped = alone ? meter.reapedSeconds() : OptionalDouble.empty();
        if (sampled.isEmpty() && reaped.isEmpty()) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(Math.max(sampled.orElse(0), reaped.orElse(0)));
    }

    /** Opens the {@link #GATE} of the command {@code p}: it goes on, unless it has ended meanwhile. */
    private static void open(Process p) {
        try (var in = p.getOutputStream()) {
            in.write('\n');
        } catch (IOException e) {
            // it ended before it read its line: its exit tells
        }
    }

    /** Returns the stream of {@code c} that has passed {@link #MAX_OUTPUT_BYTES}; empty when none has. */
    private static String overflow(Command c) {
        if (size(c.stdout()) > MAX_OUTPUT_BYTES) {
            return "standard output";
        }
        return size(c.stderr()) > MAX_OUTPUT_BYTES ? "standard error" : "";
    }

    /** Returns when the ending of a command that starts now must be done by, as a {@link System#nanoTime} value. */
    private static long endBy() {
        return System.nanoTime() + TimeUnit.SECONDS.toNanos(END_SECONDS);
    }

    /**
     * A command that started, and what finds the processes it started: its cgroup, or its tag and
     * session.
     */
    private final class Running {
        private final Process process;
        private final String tag;
        private final Optional<Cgroup> cgroup;
        /** The command's process and those under it when perfab killed them (timeout, stop): not leftovers. */
        private final Set<Long> killed = ConcurrentHashMap.newKeySet();

        private List<String> leftovers;

        Running(Process process, String tag, Optional<Cgroup> cgroup) {
            this.process = process;
            this.tag = tag;
            this.cgroup = cgroup;
        }

        /**
         * Returns the CPU time of the command's process tree as the kernel charged it to its
         * cgroup, in seconds to the microsecond: every process that was in it, those that ended
         * included, from the moment the command joined it. Empty without a cgroup, or when the
         * command could not join it. To be called once the command has ended, before {@link #end}
         * removes the cgroup.
         */
        OptionalDouble cgroupSeconds() {
            long usage = cgroup.isEmpty() ? 0 : cgroup.get().usageMicros().orElse(0);
            return usage > 0 ? OptionalDouble.of(usage / 1e6) : OptionalDouble.empty();
        }

        /** Kills the command's process and every process under it, and waits for the command. */
        void kill() {
            List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
            killed.add(process.pid());
            tree.forEach(h -> killed.add(h.pid()));
            process.destroyForcibly();
            tree.forEach(ProcessHandle::destroyForcibly);
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /**
         * Kills whatever the command left running, removes its cgroup, and returns what it left,
         * each as {@code PID COMMAND LINE}; the first call does it, later ones (from
         * {@link #stopAll} and the command's own thread) return what the first found.
         */
        synchronized List<String> end() {
            if (leftovers == null) {
                leftovers = List.copyOf(sweep());
            }
            return leftovers;
        }

        private List<String> sweep() {
            if (cgroup.isEmpty()) {
                return scan(Set.of());
            }
            long deadline = endBy();
            Cgroup g = cgroup.get();
            Map<Long, String> left = new LinkedHashMap<>();
            Cgroup.Self self = g.rescueSelf();
            boolean[] any = {self != Cgroup.Self.OUTSIDE};
            g.empty(
                    pids -> {
                        any[0] = true;
                        for (long pid : pids) {
                            if (pid != process.pid() && !killed.contains(pid)) {
                                left.computeIfAbsent(pid, ProcessTrees::commandLine);
                            }
                        }
                    },
                    deadline);
            boolean joined = any[0] || g.ran();
            g.remove(deadline);
            if (!joined) {
                return scan(Set.of()); // it could not join its cgroup
            }
            // A process leaves its cgroup a moment before it has ended: wait for that moment.
            for (long pid : left.keySet()) {
                while (procfs.running(Long.toString(pid)) && System.nanoTime() - deadline < 0) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                }
            }
            List<String> named = new ArrayList<>();
            switch (self) {
                case MOVED_BACK ->
                    named.add(ProcessHandle.current().pid() + " perfab itself, which the command moved"
                            + " into its cgroup (perfab moved itself back; a harness must leave perfab where it is)");
                case STUCK ->
                    named.add(ProcessHandle.current().pid() + " perfab itself, which the command moved into"
                            + " its cgroup, and which could not move back: its time is counted with the command's");
                case OUTSIDE -> {}
            }
            left.forEach((pid, line) -> named.add(pid + " " + line));
            // A process that moved itself out of the cgroup is not in it: its tag or session finds it.
            Set<Long> known = new HashSet<>(left.keySet());
            for (String escaped : scan(known)) {
                named.add(escaped + " (it had moved itself out of the command's cgroup)");
            }
            return named;
        }

        /**
         * Kills every process that carries the command's tag in its environment or is in its session,
         * but those in {@code known} (found already, and killed), and returns them. On a system
         * without {@code /proc} there is nothing to read either from, and nothing is swept.
         */
        private List<String> scan(Set<Long> known) {
            if (!proc) {
                return List.of();
            }
            byte[] needle = (TAG + "=" + tag).getBytes(StandardCharsets.UTF_8);
            // setsid made the command a session leader: its session id is its pid.
            long session = setsid ? process.pid() : -1;
            long self = ProcessHandle.current().pid();
            List<String> swept = new ArrayList<>();
            // A process can fork while it is being killed: sweep until a pass finds none.
            for (int pass = 0; pass < 5; pass++) {
                List<ProcessHandle> found = new ArrayList<>();
                ProcessHandle.allProcesses().forEach(h -> {
                    long pid = h.pid();
                    if (pid != self
                            && pid != process.pid()
                            && !killed.contains(pid)
                            && !known.contains(pid)
                            && (inSession(pid, session) || carries(pid, needle))
                            && procfs.running(Long.toString(pid))) { // a zombie has ended: nothing to kill
                        found.add(h);
                    }
                });
                if (found.isEmpty()) {
                    break;
                }
                for (ProcessHandle h : found) {
                    String line = commandLine(h.pid());
                    h.destroyForcibly();
                    swept.add(h.pid() + " " + line);
                }
                for (ProcessHandle h : found) {
                    try {
                        h.onExit().get(2, TimeUnit.SECONDS);
                    } catch (ExecutionException | TimeoutException e) {
                        // still going after SIGKILL: it is stuck in the kernel, and gone soon
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return swept;
                    }
                }
            }
            return swept;
        }

        private boolean inSession(long pid, long session) {
            return session > 0 && procfs.session(Long.toString(pid)).orElse(-1) == session;
        }
    }

    private static boolean carries(long pid, byte[] needle) {
        byte[] env;
        try {
            env = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "environ"));
        } catch (IOException | SecurityException e) {
            return false; // gone, or not ours to read (and so not ours to kill)
        }
        outer:
        for (int i = 0; i + needle.length <= env.length; i++) {
            if (i > 0 && env[i - 1] != 0) {
                continue;
            }
            for (int j = 0; j < needle.length; j++) {
                if (env[i + j] != needle[j]) {
                    continue outer;
                }
            }
            if (i + needle.length == env.length || env[i + needle.length] == 0) {
                return true;
            }
        }
        return false;
    }

    private static String commandLine(long pid) {
        try {
            byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
            String line =
                    new String(raw, StandardCharsets.UTF_8).replace('\0', ' ').strip();
            return line.length() > 200 ? line.substring(0, 200) + "..." : line;
        } catch (IOException e) {
            return "?";
        }
    }

    /**
     * Kills every command still running, process trees and what else they started included, removes
     * their cgroups, and refuses new ones; a command that is starting meanwhile is waited for, and
     * stopped with the rest. It returns once all that is done, so a shutdown hook that calls it
     * leaves nothing behind.
     */
    @Override
    public void stopAll() {
        synchronized (launch) {
            stopping = true;
        }
        List<Running> now = List.copyOf(running);
        now.forEach(Running::kill);
        now.forEach(Running::end);
    }

    private static File nullDevice() {
        // The machine's own: this class is the real engine's, and runs nowhere else.
        return new File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
    }

    /**
     * Samples {@code /proc} for a process tree. Each sample adds up, over every process alive in
     * the tree, its own CPU time and that of the children it has waited for; a child that has
     * ended and been waited for is in its parent's figure, one still running is counted itself, so
     * nothing is counted twice. The largest sum seen is the tree's CPU time, in clock ticks, where
     * no cgroup counted it. With {@code rss}, it also keeps the largest peak resident set of any
     * process in the tree.
     */
    private static final class Sampler {
        private final ProcStat proc;
        private final ProcessHandle root;
        private final boolean rss;
        private final boolean available;
        private long cpu = -1;
        private long peakRss = -1;
        /** Whether the root may still be the shell at the {@link #GATE}, whose memory is not the command's. */
        private boolean atGate;

        /**
         * A sampler of {@code root}'s tree, of its peak memory too when {@code rss}; a {@code gated}
         * root is the gate's shell until it becomes the command, and is not sampled till then.
         */
        Sampler(ProcStat proc, ProcessHandle root, boolean rss, boolean gated) {
            this.proc = proc;
            this.root = root;
            this.rss = rss;
            this.available = proc.available();
            this.atGate = gated;
        }

        void sample() {
            if (!available) {
                return;
            }
            long rootTicks = read(root.pid());
            if (rootTicks < 0) {
                return; // it ended between listing and reading: its last sample stands
            }
            long[] total = {rootTicks};
            root.descendants().forEach(h -> total[0] += Math.max(0, read(h.pid())));
            cpu = Math.max(cpu, total[0]);
        }

        /** Returns the CPU ticks of {@code pid} and its waited-for children, or -1 when it is gone. */
        private long read(long pid) {
            String id = Long.toString(pid);
            Optional<ProcStat.CpuTicks> ticks = proc.process(id);
            if (ticks.isEmpty()) {
                return -1;
            }
            if (rss && pid == root.pid() && atGate) {
                atGate = commandLine(pid).contains(GATE);
            }
            if (rss && !(pid == root.pid() && atGate)) {
                proc.peakRssKiB(id).ifPresent(kib -> peakRss = Math.max(peakRss, kib));
            }
            return ticks.get().total();
        }

        OptionalDouble cpuSeconds() {
            return cpu < 0 ? OptionalDouble.empty() : OptionalDouble.of(cpu / ProcStat.USER_HZ);
        }

        OptionalLong peakRssKiB() {
            return peakRss < 0 ? OptionalLong.empty() : OptionalLong.of(peakRss);
        }
    }
}
