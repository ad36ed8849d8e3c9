package org.perfab.ab;

import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.perfab.model.RunResults;

/**
 * Runs the trials of a run's order that have not run yet, one at a time, and appends each to the
 * trial log and the ledger the moment it ends. A stop signal ends the loop: the trial running then
 * was killed by perfab, is {@link RunResults.Status#INTERRUPTED}, and is not a result of the code
 * under test, so it is not kept.
 */
final class TrialLoop {
    /** How the loop ended. */
    enum End {
        /** Every trial of the order has run. */
        DONE,
        /** The stop signal ended it; the trials that finished are kept. */
        INTERRUPTED
    }

    /** Runs one trial; a failure of the code under test is a record, never an exception. */
    interface Runner {
        RunResults.TrialRecord run(TrialOrder.Slot slot, SideDir side) throws IOException, InterruptedException;
    }

    private final Plan plan;
    private final RunDir dir;
    private final Runner runner;
    private final Ledger ledger;
    private final Events events;
    private final AtomicBoolean stop;

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
        for (TrialOrder.Slot slot : order) {
            if (done.contains(slot.seq())) {
                continue;
            }
            if (stop.get()) {
                return End.INTERRUPTED;
            }
            int ofSide = slot.warmup() ? plan.warmup() : plan.trials();
            events.starting(slot.side(), slot.warmup(), slot.trial(), ofSide);
            long t0 = System.nanoTime();
            RunResults.TrialRecord record = runner.run(slot, dir.side(slot.side(), slot.build()));
            synchronized (ledger) {
                // The shutdown hook writes the results under the ledger's lock, after setting the
                // signal: once it has, nothing more is kept.
                if (stop.get() || record.status() == RunResults.Status.INTERRUPTED) {
                    return End.INTERRUPTED;
                }
                log.append(record);
                ledger.trial(record, (System.nanoTime() - t0) / 1e9);
            }
            events.finished(slot.side(), slot.warmup(), slot.trial(), ofSide, record.wallSeconds(),
                    record.status() == RunResults.Status.OK ? "ok" : record.status().id() + ": " + record.reason());
        }
        return End.DONE;
    }
}
