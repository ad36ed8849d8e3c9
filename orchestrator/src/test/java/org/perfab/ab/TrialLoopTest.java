package org.perfab.ab;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.model.RunResults;
import org.perfab.model.Side;

class TrialLoopTest {
    @TempDir
    Path tmp;

    /** Events as lines, for assertions. */
    static final class Recorded implements Events {
        final List<String> lines = new ArrayList<>();

        @Override
        public void note(String text) {
            lines.add("note " + text);
        }

        @Override
        public void planned(int total, int done) {
            lines.add("planned " + total + " " + done);
        }

        @Override
        public void starting(Side side, boolean warmup, int trial, int ofSide) {
            lines.add("start " + side.id() + " " + trial);
        }

        @Override
        public void finished(Side side, boolean warmup, int trial, int ofSide, double seconds, String status) {
            lines.add("end " + side.id() + " " + trial + " " + status);
        }
    }

    private static RunResults.TrialRecord ok(TrialOrder.Slot slot) {
        return new RunResults.TrialRecord(slot.seq(), slot.side(), slot.build(), slot.trial(), slot.warmup(),
                RunResults.Status.OK, "", 0.1, "", List.of());
    }

    @Test
    void runsEveryTrialAndKeepsEachAsItEnds() throws IOException, InterruptedException {
        Ledger ledger = new Ledger();
        Recorded events = new Recorded();
        try (RunDir dir = RunDir.create(tmp.resolve("out"), false); TrialLog log = TrialLog.open(dir.trials())) {
            List<Integer> seen = new ArrayList<>();
            TrialLoop.Runner runner = (slot, side) -> {
                seen.add(slot.seq());
                // Each trial finds the ones before it already kept, in the log and the ledger.
                assertEquals(slot.seq(), ledger.trials().size());
                assertEquals(slot.seq(), TrialLog.recover(dir.trials()).size());
                return ok(slot);
            };
            TrialLoop.End end = new TrialLoop(Plans.plan(2, 0, 1), dir, runner, ledger, events, new AtomicBoolean())
                    .run(log);
            assertEquals(TrialLoop.End.DONE, end);
            assertEquals(List.of(0, 1, 2, 3), seen);
        }
        assertEquals(List.of("planned 4 0", "start base 0", "end base 0 ok", "start head 0", "end head 0 ok",
                "start head 1", "end head 1 ok", "start base 1", "end base 1 ok"), events.lines);
    }

    @Test
    void aResumedRunRunsOnlyWhatIsLeft() throws IOException, InterruptedException {
        Ledger ledger = new Ledger();
        ledger.trial(ok(new TrialOrder.Slot(0, Side.BASE, 0, 0, false)), 0);
        ledger.trial(ok(new TrialOrder.Slot(2, Side.HEAD, 0, 1, false)), 0);
        List<Integer> seen = new ArrayList<>();
        try (RunDir dir = RunDir.create(tmp.resolve("out"), false); TrialLog log = TrialLog.open(dir.trials())) {
            new TrialLoop(Plans.plan(2, 0, 1), dir, (slot, side) -> {
                seen.add(slot.seq());
                return ok(slot);
            }, ledger, new Recorded(), new AtomicBoolean()).run(log);
        }
        assertEquals(List.of(1, 3), seen);
    }

    @Test
    void theStopSignalEndsTheLoopAndTheTrialItCutIsNotKept() throws IOException, InterruptedException {
        Ledger ledger = new Ledger();
        AtomicBoolean stop = new AtomicBoolean();
        try (RunDir dir = RunDir.create(tmp.resolve("out"), false); TrialLog log = TrialLog.open(dir.trials())) {
            TrialLoop.End end = new TrialLoop(Plans.plan(3, 0, 1), dir, (slot, side) -> {
                if (slot.seq() == 2) {
                    stop.set(true); // as the shutdown hook does, while this trial runs
                    return new RunResults.TrialRecord(slot.seq(), slot.side(), 0, slot.trial(), false,
                            RunResults.Status.INTERRUPTED, "stopped by perfab", 0, "", List.of());
                }
                return ok(slot);
            }, ledger, new Recorded(), stop).run(log);
            assertEquals(TrialLoop.End.INTERRUPTED, end);
            assertEquals(2, ledger.trials().size());
            assertEquals(2, TrialLog.recover(dir.trials()).size());
        }
    }

    @Test
    void aTrialStoppedByPerfabIsNeverKeptEvenWithoutTheSignal() throws IOException, InterruptedException {
        Ledger ledger = new Ledger();
        try (RunDir dir = RunDir.create(tmp.resolve("out"), false); TrialLog log = TrialLog.open(dir.trials())) {
            TrialLoop.End end = new TrialLoop(Plans.plan(2, 0, 1), dir, (slot, side) ->
                    new RunResults.TrialRecord(slot.seq(), slot.side(), 0, slot.trial(), false,
                            RunResults.Status.INTERRUPTED, "stopped by perfab", 0, "", List.of()),
                    ledger, new Recorded(), new AtomicBoolean()).run(log);
            assertEquals(TrialLoop.End.INTERRUPTED, end);
            assertEquals(0, ledger.trials().size());
        }
    }
}
