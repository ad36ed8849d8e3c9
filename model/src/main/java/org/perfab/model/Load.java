package org.perfab.model;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the machine was doing while a trial ran, as Linux's {@code /proc} tells it: the trial's own
 * CPU time beside how much of the machine other processes kept busy, the hypervisor's steal, and
 * the run queue. It tells a trial that a busy neighbour disturbed from one that measured the code;
 * it is recorded, never part of a verdict.
 *
 * @param wallSeconds the wall time it covers, in seconds; at least 0
 * @param cpuSeconds the CPU time (user plus system) of the trial's own process trees, children
 *     included, in seconds; at least 0
 * @param othersCores how many cores other processes kept busy on average, in cores (core-seconds
 *     per second of wall time): the busy time (user, nice, system, irq, softirq) of the CPUs perfab
 *     may run on, less the trial's own CPU time and perfab's, over the wall time; from 0 to the
 *     number of those CPUs
 * @param stealShare the share of those CPUs' time that the hypervisor gave to other guests (steal
 *     over all ticks), from 0 to 1; 0 on bare metal
 * @param runQueueMean the mean number of tasks runnable on the whole machine while it ran, the
 *     trial's own included and perfab's sampling thread not, sampled about every 100 ms; at least 0
 * @param runQueueMax the largest of those samples; at least 0
 * @param cpuClock how {@code cpuSeconds} was counted: to the microsecond by the trial's cgroups, or
 *     in clock ticks of 10 ms
 */
public record Load(
        double wallSeconds,
        double cpuSeconds,
        double othersCores,
        double stealShare,
        double runQueueMean,
        int runQueueMax,
        CpuClock cpuClock) {

    /**
     * How the kernel counted a trial's CPU time: {@link #CGROUP}, where its commands ran in cgroups
     * of their own, to the microsecond, every process included; {@link #TICKS}, elsewhere, from
     * {@code /proc} in clock ticks of 10 ms; {@link #UNTOLD} in a results file that predates the
     * distinction.
     */
    public enum CpuClock {
        CGROUP("cgroup"),
        TICKS("ticks"),
        UNTOLD("untold");

        private final String id;

        CpuClock(String id) {
            this.id = id;
        }

        /** The name in results.json. */
        public String id() {
            return id;
        }

        /** Returns the clock named {@code id} in results.json. */
        public static CpuClock of(String id) {
            for (CpuClock c : values()) {
                if (c.id.equals(id) && c != UNTOLD) {
                    return c;
                }
            }
            throw new IllegalArgumentException("'" + id + "' is not cgroup or ticks");
        }

        /** Returns the clock of commands counted with {@code a} and {@code b}: theirs when they agree, else ticks (the coarser). */
        CpuClock and(CpuClock b) {
            return this == b ? this : this == UNTOLD || b == UNTOLD ? UNTOLD : TICKS;
        }
    }

    /** Returns a load whose CPU time was counted in clock ticks: where no cgroup counted it. */
    public Load(
            double wallSeconds,
            double cpuSeconds,
            double othersCores,
            double stealShare,
            double runQueueMean,
            int runQueueMax) {
        this(wallSeconds, cpuSeconds, othersCores, stealShare, runQueueMean, runQueueMax, CpuClock.TICKS);
    }

    public Load {
        nonNegative("wallSeconds", wallSeconds);
        nonNegative("cpuSeconds", cpuSeconds);
        nonNegative("othersCores", othersCores);
        nonNegative("stealShare", stealShare);
        if (stealShare > 1) {
            throw new IllegalArgumentException("stealShare " + stealShare + " is not from 0 to 1");
        }
        nonNegative("runQueueMean", runQueueMean);
        if (runQueueMax < 0) {
            throw new IllegalArgumentException("runQueueMax " + runQueueMax + " is negative");
        }
        Objects.requireNonNull(cpuClock, "cpuClock");
    }

    private static void nonNegative(String name, double v) {
        if (!Double.isFinite(v) || v < 0) {
            throw new IllegalArgumentException(name + " " + v + " is not a finite number of at least 0");
        }
    }

    /**
     * Returns the load of {@code loads} taken together (the commands of one trial run one after
     * another, or the trials of a run): seconds summed; cores, steal and the mean run queue
     * weighted by wall time (equally when no time passed); the largest run queue. Empty when
     * {@code loads} is empty.
     */
    public static Optional<Load> combine(List<Load> loads) {
        if (loads.isEmpty()) {
            return Optional.empty();
        }
        double wall = 0;
        double cpu = 0;
        int max = 0;
        CpuClock clock = loads.get(0).cpuClock;
        for (Load l : loads) {
            wall += l.wallSeconds;
            cpu += l.cpuSeconds;
            max = Math.max(max, l.runQueueMax);
            clock = clock.and(l.cpuClock);
        }
        double others = 0;
        double steal = 0;
        double queue = 0;
        for (Load l : loads) {
            double weight = wall > 0 ? l.wallSeconds / wall : 1.0 / loads.size();
            others += weight * l.othersCores;
            steal += weight * l.stealShare;
            queue += weight * l.runQueueMean;
        }
        return Optional.of(new Load(wall, cpu, others, Math.min(1, steal), queue, max, clock));
    }
}
