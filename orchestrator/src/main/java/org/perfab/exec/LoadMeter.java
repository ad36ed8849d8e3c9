package org.perfab.exec;

import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import org.perfab.model.Load;

/**
 * Measures what the machine did while one command ran: the machine's CPU ticks and perfab's own CPU
 * time when it started and when it ended, and the run queue sampled in between. Made just before
 * the command starts, sampled by the loop that watches it, ended when it has exited.
 */
final class LoadMeter {
    /**
     * The shortest time between two samples of the run queue, in nanoseconds: {@code /proc/stat}
     * costs more to read the more CPUs and interrupts a machine has, and a command sampled every
     * 10 ms for its own CPU time need not pay that every 10 ms.
     */
    static final long QUEUE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final ProcStat proc;
    private final Optional<ProcStat.Ticks> start;
    private final Optional<ProcStat.CpuTicks> selfStart;
    private final long startNanos;
    private Optional<ProcStat.Ticks> end = Optional.empty();
    private Optional<ProcStat.CpuTicks> selfEnd = Optional.empty();
    private long endNanos;
    private long queueSum;
    private int queueSamples;
    private int queueMax;
    private long lastQueueNanos;

    private LoadMeter(ProcStat proc, long startNanos) {
        this.proc = proc;
        this.selfStart = proc.process("self");
        this.start = proc.machine();
        this.startNanos = startNanos;
    }

    /** Returns a meter whose start is now, {@code nanos} on {@link System#nanoTime}'s scale. */
    static LoadMeter start(ProcStat proc, long nanos) {
        return new LoadMeter(proc, nanos);
    }

    /**
     * Samples the run queue, unless the last sample is less than {@link #QUEUE_NANOS} old at
     * {@code nanos}. {@code procs_running} counts the thread that reads it, perfab's own, which is
     * taken off.
     */
    void sample(long nanos) {
        if (start.isEmpty() || queueSamples > 0 && nanos - lastQueueNanos < QUEUE_NANOS) {
            return;
        }
        lastQueueNanos = nanos;
        proc.machine().filter(t -> t.running() >= 0).ifPresent(t -> {
            int others = Math.max(0, t.running() - 1);
            queueSum += others;
            queueSamples++;
            queueMax = Math.max(queueMax, others);
        });
    }

    /** Ends the measurement at {@code nanos}: to be called once the command has exited, or been killed. */
    void end(long nanos) {
        end = proc.machine();
        selfEnd = proc.process("self");
        endNanos = nanos;
    }

    /**
     * Returns the CPU seconds of the children perfab waited for between start and end: when the
     * command was the only one perfab ran meanwhile, its whole tree as the kernel accounted it when
     * it exited, the slice after the last sample included. Empty when {@code /proc} did not tell.
     */
    OptionalDouble reapedSeconds() {
        if (selfStart.isEmpty() || selfEnd.isEmpty()) {
            return OptionalDouble.empty();
        }
        long ticks = selfEnd.get().children() - selfStart.get().children();
        return ticks < 0 ? OptionalDouble.empty() : OptionalDouble.of(ticks / ProcStat.USER_HZ);
    }

    /**
     * Returns the load of a command that ran for {@code wallSeconds} and used {@code cpuSeconds}
     * of CPU time; empty when {@code /proc} did not tell (not Linux, unreadable, no sample). Others'
     * cores are the busy CPU time of the CPUs perfab may run on less the command's and perfab's own,
     * per second between start and end; a negative figure (ticks are counted in hundredths of a
     * second) is 0.
     */
    Optional<Load> load(double wallSeconds, double cpuSeconds, Load.CpuClock clock) {
        if (start.isEmpty() || end.isEmpty() || queueSamples == 0) {
            return Optional.empty();
        }
        ProcStat.Ticks a = start.get();
        ProcStat.Ticks b = end.get();
        double seconds = (endNanos - startNanos) / 1e9;
        // A counter that went backwards (iowait may, on some kernels) counts as no time.
        double busy = Math.max(0, b.busy() - a.busy()) / ProcStat.USER_HZ;
        double perfab = selfStart.isPresent() && selfEnd.isPresent()
                ? Math.max(0, selfEnd.get().own() - selfStart.get().own()) / ProcStat.USER_HZ
                : 0;
        double others = seconds > 0 ? Math.max(0, busy - cpuSeconds - perfab) / seconds : 0;
        long total = b.total() - a.total();
        long steal = Math.max(0, b.steal() - a.steal());
        double stealShare = total > 0 ? Math.min(1, (double) steal / total) : 0;
        return Optional.of(new Load(
                Math.max(0, wallSeconds),
                Math.max(0, cpuSeconds),
                others,
                stealShare,
                (double) queueSum / queueSamples,
                queueMax,
                clock));
    }
}
