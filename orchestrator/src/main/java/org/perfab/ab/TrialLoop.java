package org.perfab.ab;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.perfab.model.Disturbed;
import org.perfab.model.RunResults;
import org.perfab.model.Side;
import org.perfab.stats.Sequential;
import org.perfab.workload.Durations;

/**
 * Runs the trials of a run's order that have not run yet, one at a time, and appends each to the
 * trial log and the ledger the moment it ends. A stop signal ends the loop: the trial running then
 * was killed by perfab, is {@link RunResults.Status#INTERRUPTED}, and is not a result of the code
 * under test, so it is not kept. A harness that plainly does not work on a side ends it too (see
 * {@link Failing}): the trials left would only fail the same way. As it goes it says what is left
 * of the run (see {@link Rounds#estimate}): as it starts, once more before the first round's first
 * counted trial, and after every trial.
 */
final class TrialLoop {
    /** How the loop ended. */
    enum End {
        /** Every trial of the order has run. */
        DONE,
        /** The stop signal ended it; the trials that finished are kept. */
        INTERRUPTED,
        /**
         * A side's every trial failed, so the rest were not run (see {@link Failing}); the trials
         * that ran are kept.
         */
        FAILING
    }

    /** Runs one trial; a failure of the code under test is a record, never an exception. */
    interface Runner {
        RunResults.TrialRecord run(TrialOrder.Slot slot, SideDir side) throws IOException, InterruptedException;

        /**
         * Returns the time now, in seconds from an arbitrary origin, by the clock the trials take
         * their time on (see {@link org.perfab.exec.Commands#seconds}).
         */
        default double seconds() {
            return System.nanoTime() / 1e9;
        }

        /**
         * Returns how a trial counts the benchmarks of its harness one at a time, to price one before
         * any ran; empty when it does not count them so, or does not know them yet.
         */
        default Optional<Rounds.Counted> counted() {
            return Optional.empty();
        }
    }

    /**
     * Why a run stops before its last trial: the sides on which the harness plainly does not work.
     * A side fails so when it has run a counted trial and every trial of it, warm-ups included,
     * failed or timed out. The run stops at such a side once the other side has shown how it fares
     * too: a trial of it worked, or it has run a counted trial. So a harness that fails only on the
     * base stops after the base's first counted trial (the head's warm-up worked), and one that
     * fails everywhere after the first counted trial of each side, not after all of them. A failed
     * warm-up alone never stops a run (a cold start may fail), nor does a failure after a trial of
     * that side worked (a flaky harness; the results warn of its failed trials).
     *
     * <p>A resumed run judges the trials it runs itself, not those of the process before it: a
     * run stopped so and resumed once the machine is mended goes on, and one still broken stops
     * again after one trial of each side.
     *
     * @param sides the failing sides, base first, each with how many of its trials ran (all failed)
     * @param last the last trial of the first failing side
     */
    record Failing(Map<Side, Integer> sides, RunResults.TrialRecord last) {
        Failing {
            if (sides.isEmpty() || !sides.containsKey(last.side())) {
                throw new IllegalArgumentException("a failing side, and the last trial of one");
            }
            sides = Collections.unmodifiableMap(new EnumMap<>(sides));
        }

        /**
         * Returns why a run that ran {@code trials} (in the order they ended) stops there; empty
         * to go on.
         */
        static Optional<Failing> of(List<RunResults.TrialRecord> trials) {
            Map<Side, Integer> runs = new EnumMap<>(Side.class);
            Set<Side> counted = new HashSet<>();
            Set<Side> worked = new HashSet<>();
            Map<Side, RunResults.TrialRecord> last = new EnumMap<>(Side.class);
            for (RunResults.TrialRecord t : trials) {
                runs.merge(t.side(), 1, Integer::sum);
                if (!t.warmup()) {
                    counted.add(t.side());
                }
                if (t.status() == RunResults.Status.FAILED || t.status() == RunResults.Status.TIMEOUT) {
                    last.put(t.side(), t);
                } else {
                    worked.add(t.side());
                }
            }
            Map<Side, Integer> failing = new EnumMap<>(Side.class);
            for (Side side : Side.values()) {
                boolean known = counted.contains(side) || worked.contains(side);
                if (!known) {
                    return Optional.empty();
                }
                if (counted.contains(side) && !worked.contains(side)) {
                    failing.put(side, runs.get(side));
                }
            }
            return failing.isEmpty()
                    ? Optional.empty()
                    : Optional.of(new Failing(
                            failing, last.get(failing.keySet().iterator().next())));
        }

        /** Returns what was found: {@code every trial of base so far failed (2 of 2)}. */
        String what() {
            StringBuilder s = new StringBuilder();
            sides.forEach((side, n) -> s.append(
                            s.length() == 0
                                    ? "every trial of " + side.id() + " so far failed"
                                    : ", and every trial of " + side.id())
                    .append(" (")
                    .append(n)
                    .append(" of ")
                    .append(n)
                    .append(')'));
            return s.toString();
        }
    }

    private final Plan plan;
    private final RunDir dir;
    private final Runner runner;
    private final Ledger ledger;
    private final Events events;
    private final AtomicBoolean stop;
    private Failing failing;
    /** Whether the run's first estimate is said. */
    private boolean estimated;
    /** Whether the loop replaces disturbed trials: the run's last look is taken, and no later one is left. */
    private boolean replacing;

    TrialLoop(Plan plan, RunDir dir, Runner runner, Ledger ledger, Events events, AtomicBoolean stop) {
        this.plan = plan;
        this.dir = dir;
        this.runner = runner;
        this.ledger = ledger;
        this.events = events;
        this.stop = stop;
    }

    /** Runs what is left of the order, appending to {@code log}. */
    End run(TrialLog log) throws IOException, InterruptedException {
        TrialOrder order = plan.order();
        Set<Integer> done = new HashSet<>();
        for (RunResults.TrialRecord t : ledger.trials()) {
            done.add(t.seq());
        }
        events.planned(order.size(), done.size());
        events.remaining(estimate());
        for (TrialOrder.Slot slot : order) {
            if (done.contains(slot.seq())) {
                continue;
            }
            if (stop.get()) {
                return End.INTERRUPTED;
            }
            if (!slot.warmup() && !estimated && Rounds.previous(looks(), plan.trials()) == 0) {
                Events.Estimate e = estimate();
                if (e.priced()) {
                    estimated = true;
                    events.estimated(e);
                    tooLong(e);
                }
            }
            int ofSide = slot.warmup() ? plan.warmup() : plan.trials();
            if (!runOne(slot, ofSide, log)) {
                return End.INTERRUPTED;
            }
            Optional<Failing> f = Failing.of(ledger.ranHere());
            if (f.isPresent()) {
                failing = f.get();
                int left = order.size() - ledger.trials().size();
                events.note("stopping: " + failing.what() + "; the " + left + " trial" + (left == 1 ? "" : "s")
                        + " left " + (left == 1 ? "is" : "are") + " not run");
                return End.FAILING;
            }
        }
        return End.DONE;
    }

    /**
     * Runs one trial and keeps its record; returns false when the stop signal came while it ran
     * (the record is then not kept).
     */
    private boolean runOne(TrialOrder.Slot slot, int ofSide, TrialLog log) throws IOException, InterruptedException {
        events.starting(slot.side(), slot.warmup(), slot.trial(), ofSide);
        double t0 = runner.seconds();
        RunResults.TrialRecord record = runner.run(slot, dir.side(slot.side(), slot.build()));
        synchronized (ledger) {
            // The shutdown hook writes the results under the ledger's lock, after setting the
            // signal: once it has, nothing more is kept.
            if (stop.get() || record.status() == RunResults.Status.INTERRUPTED) {
                return false;
            }
            log.append(record);
            ledger.trial(record, runner.seconds() - t0);
        }
        events.remaining(estimate());
        events.finished(
                slot.side(),
                slot.warmup(),
                slot.trial(),
                ofSide,
                record.wallSeconds(),
                record.status() == RunResults.Status.OK ? "ok" : record.status().id() + ": " + record.reason());
        return true;
    }

    /**
     * Runs a replacement for the disturbed trials (see {@link Disturbed}) that have none yet, once
     * the order has run: a trial of the same side and build, after every other. A side gets at most
     * {@code most} replacements in all; a replacement may be disturbed too, and is then replaced
     * within that bound. Each is said as it starts.
     */
    End replace(TrialLog log, int most) throws IOException, InterruptedException {
        replacing = true;
        int first = plan.order().size();
        while (true) {
            List<RunResults.TrialRecord> trials = ledger.trials();
            List<Disturbed> disturbed = Disturbed.of(RunResults.oneUnitPerCell(trials, new ArrayList<>()));
            Optional<TrialOrder.Slot> next = Optional.empty();
            Disturbed which = null;
            for (Side side : Side.values()) {
                List<Disturbed> ofSide =
                        disturbed.stream().filter(d -> d.trial().side() == side).toList();
                long replaced = trials.stream()
                        .filter(t -> t.side() == side && !t.warmup() && t.seq() >= first)
                        .count();
                if (replaced < Math.min(ofSide.size(), most)) {
                    which = ofSide.get((int) replaced);
                    int seq = Math.max(
                            first,
                            trials.stream()
                                            .mapToInt(RunResults.TrialRecord::seq)
                                            .max()
                                            .orElse(0)
                                    + 1);
                    int trial = trials.stream()
                                    .filter(t -> t.side() == side && !t.warmup())
                                    .mapToInt(RunResults.TrialRecord::trial)
                                    .max()
                                    .orElse(-1)
                            + 1;
                    next = Optional.of(
                            new TrialOrder.Slot(seq, side, which.trial().build(), trial, false));
                    break;
                }
            }
            if (next.isEmpty()) {
                return End.DONE;
            }
            if (stop.get()) {
                return End.INTERRUPTED;
            }
            TrialOrder.Slot slot = next.get();
            events.note("replacing " + which.trial().named() + ", which a disturbance of the machine spoiled ("
                    + which.moved() + " of " + which.cells() + " cells moved together), with "
                    + RunResults.TrialRecord.named(slot.side(), false, slot.trial()));
            if (!runOne(slot, slot.trial() + 1, log)) {
                return End.INTERRUPTED;
            }
        }
    }

    /**
     * Returns the looks' trials per side: the plan's one look for a run of a fixed size, or once the
     * run has taken its last.
     */
    private List<Integer> looks() {
        return replacing
                ? List.of(plan.trials())
                : plan.thresholds().adaptive().map(Sequential::looks).orElse(List.of(plan.trials()));
    }

    /**
     * The most a run's trials may take before perfab says that its looks cannot fit a CI job: an
     * hour, the size of the jobs a pull request's check is given.
     */
    static final double CI_JOB_SECONDS = 3600;

    /**
     * Says so, once the first trials price the run, when its looks could take longer than a CI job
     * ({@link #CI_JOB_SECONDS}) and no --budget bounds them: naming the harness's own options that
     * shorten a trial, and --budget.
     */
    private void tooLong(Events.Estimate e) {
        if (!(e.mostSeconds() > CI_JOB_SECONDS)
                || plan.options().flatMap(Plan.Options::budget).isPresent()) {
            return;
        }
        org.perfab.workload.Workload.Harness h = plan.workload().harness();
        Optional<HarnessTool> tool = h.format() instanceof org.perfab.workload.Workload.Read read
                ? HarnessTools.of(read.format())
                : Optional.empty();
        String knobs = tool.map(HarnessTool::knobs)
                .orElse("the harness's own options (fewer benchmarks, shorter runs of each)");
        events.note(
                "a pair of trials takes " + Durations.format(java.time.Duration.ofSeconds(Math.round(e.pairSeconds())))
                        + ", and the run may take up to "
                        + Durations.format(java.time.Duration.ofSeconds(Math.round(e.mostSeconds()))) + " more ("
                        + e.most() + " trials a side): past a CI job's hour; shorten"
                        + " a trial with " + knobs + ", or bound the run with --budget");
        ledger.warning(org.perfab.model.Warning.of(
                org.perfab.model.Warning.Kind.LONG_TRIALS,
                List.of(knobs),
                java.util.Map.of(
                        "pairSeconds",
                        Math.round(e.pairSeconds()),
                        "mostSeconds",
                        Math.round(e.mostSeconds()),
                        "most",
                        (long) e.most())));
    }

    /** Returns what is left of the run, by the trials so far. */
    private Events.Estimate estimate() {
        return Rounds.estimate(looks(), plan.trials(), plan.warmup(), plan.open(), ledger.trials(), runner.counted());
    }

    /** Returns what ended the loop when it ended {@link End#FAILING}; empty otherwise. */
    Optional<Failing> failing() {
        return Optional.ofNullable(failing);
    }
}
