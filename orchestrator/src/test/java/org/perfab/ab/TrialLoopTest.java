package org.perfab.ab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
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
        return new RunResults.TrialRecord(
                slot.seq(),
                slot.side(),
                slot.build(),
                slot.trial(),
                slot.warmup(),
                RunResults.Status.OK,
                "",
                0.1,
                "",
                List.of());
    }

    @Test
    void runsEveryTrialAndKeepsEachAsItEnds() throws IOException, InterruptedException {
        Ledger ledger = new Ledger();
        Recorded events = new Recorded();
        try (RunDir dir = RunDir.create(tmp.resolve("out"), false);
                TrialLog log = TrialLog.open(dir.trials())) {
            List<Integer> seen = new ArrayList<>();
            TrialLoop.Runner runner = (slot, side) -> {
                seen.add(slot.seq());
                // Each trial finds the ones before it already kept, in the log and the ledger.
                assertEquals(slot.seq(), ledger.trials().size());
                assertEquals(slot.seq(), TrialLog.recover(dir.trials()).size());
                return ok(slot);
            };
            TrialLoop.End end =
                    new TrialLoop(Plans.plan(2, 0, 1), dir, runner, ledger, events, new AtomicBoolean()).run(log);
            assertEquals(TrialLoop.End.DONE, end);
            assertEquals(List.of(0, 1, 2, 3), seen);
        }
        assertEquals(
                List.of(
                        "planned 4 0",
                        "start base 0",
                        "end base 0 ok",
                        "start head 0",
                        "end head 0 ok",
                        "start head 1",
                        "end head 1 ok",
                        "start base 1",
                        "end base 1 ok"),
                events.lines);
    }

    @Test
    void aResumedRunRunsOnlyWhatIsLeft() throws IOException, InterruptedException {
        Ledger ledger = new Ledger();
        ledger.trial(ok(new TrialOrder.Slot(0, Side.BASE, 0, 0, false)), 0);
        ledger.trial(ok(new TrialOrder.Slot(2, Side.HEAD, 0, 1, false)), 0);
        List<Integer> seen = new ArrayList<>();
        try (RunDir dir = RunDir.create(tmp.resolve("out"), false);
                TrialLog log = TrialLog.open(dir.trials())) {
            new TrialLoop(
                            Plans.plan(2, 0, 1),
                            dir,
                            (slot, side) -> {
                                seen.add(slot.seq());
                                return ok(slot);
                            },
                            ledger,
                            new Recorded(),
                            new AtomicBoolean())
                    .run(log);
        }
        assertEquals(List.of(1, 3), seen);
    }

    @Test
    void theStopSignalEndsTheLoopAndTheTrialItCutIsNotKept() throws IOException, InterruptedException {
        Ledger ledger = new Ledger();
        AtomicBoolean stop = new AtomicBoolean();
        try (RunDir dir = RunDir.create(tmp.resolve("out"), false);
                TrialLog log = TrialLog.open(dir.trials())) {
            TrialLoop.End end = new TrialLoop(
                            Plans.plan(3, 0, 1),
                            dir,
                            (slot, side) -> {
                                if (slot.seq() == 2) {
                                    stop.set(true); // as the shutdown hook does, while this trial runs
                                    return new RunResults.TrialRecord(
                                            slot.seq(),
                                            slot.side(),
                                            0,
                                            slot.trial(),
                                            false,
                                            RunResults.Status.INTERRUPTED,
                                            "stopped by perfab",
                                            0,
                                            "",
                                            List.of());
                                }
                                return ok(slot);
                            },
                            ledger,
                            new Recorded(),
                            stop)
                    .run(log);
            assertEquals(TrialLoop.End.INTERRUPTED, end);
            assertEquals(2, ledger.trials().size());
            assertEquals(2, TrialLog.recover(dir.trials()).size());
        }
    }

    @Test
    void aTrialStoppedByPerfabIsNeverKeptEvenWithoutTheSignal() throws IOException, InterruptedException {
        Ledger ledger = new Ledger();
        try (RunDir dir = RunDir.create(tmp.resolve("out"), false);
                TrialLog log = TrialLog.open(dir.trials())) {
            TrialLoop.End end = new TrialLoop(
                            Plans.plan(2, 0, 1),
                            dir,
                            (slot, side) -> new RunResults.TrialRecord(
                                    slot.seq(),
                                    slot.side(),
                                    0,
                                    slot.trial(),
                                    false,
                                    RunResults.Status.INTERRUPTED,
                                    "stopped by perfab",
                                    0,
                                    "",
                                    List.of()),
                            ledger,
                            new Recorded(),
                            new AtomicBoolean())
                    .run(log);
            assertEquals(TrialLoop.End.INTERRUPTED, end);
            assertEquals(0, ledger.trials().size());
        }
    }

    private static RunResults.TrialRecord failed(TrialOrder.Slot slot) {
        return new RunResults.TrialRecord(
                slot.seq(),
                slot.side(),
                slot.build(),
                slot.trial(),
                slot.warmup(),
                RunResults.Status.FAILED,
                "the harness exited with code 1",
                0.1,
                "no input",
                List.of());
    }

    /**
     * Returns the trials {@code script} tells, in order: {@code b} or {@code h} for the side, {@code w}
     * for a warm-up, then {@code +} for a trial that worked, {@code -} for one that failed and
     * {@code t} for one that timed out ({@code "bw- hw+ b-"}).
     */
    private static List<RunResults.TrialRecord> trials(String script) {
        List<RunResults.TrialRecord> trials = new ArrayList<>();
        int[] counted = new int[2];
        int[] warm = new int[2];
        for (String t : script.isBlank() ? new String[0] : script.trim().split(" +")) {
            Side side = t.charAt(0) == 'b' ? Side.BASE : Side.HEAD;
            boolean warmup = t.charAt(1) == 'w';
            int[] n = warmup ? warm : counted;
            char status = t.charAt(t.length() - 1);
            trials.add(new RunResults.TrialRecord(
                    trials.size(),
                    side,
                    0,
                    n[side.ordinal()]++,
                    warmup,
                    status == '+'
                            ? RunResults.Status.OK
                            : status == '-' ? RunResults.Status.FAILED : RunResults.Status.TIMEOUT,
                    status == '+' ? "" : "broken",
                    0.1,
                    "",
                    List.of()));
        }
        return trials;
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            nullValues = "go on",
            value = {
                "''                       | go on",
                "bw-                      | go on",
                "bw- hw+                  | go on",
                "bw- hw+ b-               | every trial of base so far failed (2 of 2)",
                "bw- hw- b-               | go on",
                "bw- hw- b- h-            | every trial of base so far failed (2 of 2), and every trial of head (2 of 2)",
                "b-                       | go on",
                "b- h+                    | every trial of base so far failed (1 of 1)",
                "b- h-                    | every trial of base so far failed (1 of 1), and every trial of head (1 of 1)",
                "ht bt                    | every trial of base so far failed (1 of 1), and every trial of head (1 of 1)",
                "h- b+                    | every trial of head so far failed (1 of 1)",
                "bw- hw+ b+ h+            | go on",
                "bw+ hw+ b- h+            | go on",
                "bw+ hw+ b+ h+ h- b-      | go on",
                "bw+ hw- b+ h-            | every trial of head so far failed (2 of 2)",
                "bw- bw- hw+ hw+          | go on",
            })
    void stopsOnceASideHasOnlyFailedAndTheOtherHasShownHowItFares(String script, String stop) {
        assertEquals(
                stop,
                TrialLoop.Failing.of(trials(script))
                        .map(TrialLoop.Failing::what)
                        .orElse(null));
    }

    @Test
    void theFailingSideNamesItsLastFailedTrial() {
        TrialLoop.Failing f = TrialLoop.Failing.of(trials("bw- hw+ b-")).orElseThrow();
        assertEquals(2, f.last().seq());
        TrialLoop.Failing both = TrialLoop.Failing.of(trials("hw- bw- h- b-")).orElseThrow();
        assertEquals(Side.BASE, both.last().side(), "base comes first, whichever side failed last");
        assertEquals(3, both.last().seq());
    }

    @Test
    void aFailingSideEndsTheLoopAndTheTrialsLeftAreNotRun() throws IOException, InterruptedException {
        Ledger ledger = new Ledger();
        Recorded events = new Recorded();
        List<Integer> seen = new ArrayList<>();
        try (RunDir dir = RunDir.create(tmp.resolve("out"), false);
                TrialLog log = TrialLog.open(dir.trials())) {
            TrialLoop loop = new TrialLoop(
                    Plans.plan(5, 1, 1),
                    dir,
                    (slot, side) -> {
                        seen.add(slot.seq());
                        return slot.side() == Side.BASE ? failed(slot) : ok(slot);
                    },
                    ledger,
                    events,
                    new AtomicBoolean());
            assertEquals(TrialLoop.End.FAILING, loop.run(log));
            assertEquals(3, TrialLog.recover(dir.trials()).size(), "every trial that ran is kept");
            assertEquals(2, loop.failing().orElseThrow().last().seq());
        }
        assertEquals(List.of(0, 1, 2), seen, "the base's warm-up and first trial failed; the head's warm-up worked");
        assertEquals(
                "note stopping: every trial of base so far failed (2 of 2); the 9 trials left are not run",
                events.lines.get(events.lines.size() - 1));
    }

    @Test
    void aResumedRunJudgesOnlyTheTrialsItRuns() throws IOException, InterruptedException {
        Ledger ledger = new Ledger();
        for (RunResults.TrialRecord t : trials("b- h-")) {
            ledger.resumed(t);
        }
        try (RunDir dir = RunDir.create(tmp.resolve("out"), false);
                TrialLog log = TrialLog.open(dir.trials())) {
            TrialLoop mended = new TrialLoop(
                    Plans.plan(3, 0, 1), dir, (slot, side) -> ok(slot), ledger, new Recorded(), new AtomicBoolean());
            assertEquals(TrialLoop.End.DONE, mended.run(log), "the machine was mended: the run goes on");
            assertTrue(mended.failing().isEmpty());
        }
        assertEquals(6, ledger.trials().size());
        assertEquals(4, ledger.ranHere().size());
    }
}
