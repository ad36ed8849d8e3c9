package org.perfab.ab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.perfab.model.Cell;
import org.perfab.model.Measurement;
import org.perfab.model.RunResults;
import org.perfab.model.Side;
import org.perfab.stats.Direction;

/** What the rounds of a run cost, and what is left of it, from the trials run so far. */
class RoundsTest {
    private static final List<Integer> LOOKS = List.of(5, 10, 15, 20);

    /** A trial that worked, took {@code wall} seconds and measured the cells {@code names}; {@code seconds} by benchmark. */
    private static RunResults.TrialRecord trial(
            int seq, Side side, int trial, boolean warmup, double wall, Map<String, Double> seconds, String... names) {
        List<Measurement> ms = new ArrayList<>();
        for (String name : names) {
            ms.add(new Measurement(new Cell(name, "time", "s", Direction.LOWER_IS_BETTER), side, 0, trial, 1.0));
        }
        return new RunResults.TrialRecord(
                        seq, side, 0, trial, warmup, RunResults.Status.OK, "", wall, "", warmup ? List.of() : ms)
                .withSeconds(seconds);
    }

    private static List<RunResults.TrialRecord> warmups(double base, double head) {
        return List.of(trial(0, Side.BASE, 0, true, base, Map.of()), trial(1, Side.HEAD, 0, true, head, Map.of()));
    }

    @Test
    void beforeTheFirstTrialEachSidesTrialCostsWhatItsWarmUpsTook() {
        Events.Estimate e = Rounds.estimate(LOOKS, 5, 1, List.of(), warmups(4.0, 5.0), Optional.empty());
        assertEquals(List.of(1, 4, 5, 20), List.of(e.look(), e.looks(), e.trials(), e.most()));
        assertEquals(9.0, e.pairSeconds(), 1e-12);
        assertEquals(45.0, e.lookSeconds(), 1e-12, "five pairs");
        assertEquals(180.0, e.mostSeconds(), 1e-12, "twenty pairs, every cell open to the end");
        assertEquals(Optional.empty(), e.counting());
    }

    @Test
    void aRoundsOwnTrialsPriceItOnceTheyRunAndTheWarmUpsLeftCountToo() {
        List<RunResults.TrialRecord> done = new ArrayList<>(List.of(trial(0, Side.BASE, 0, true, 6.0, Map.of())));
        Events.Estimate warming = Rounds.estimate(LOOKS, 5, 1, List.of(), done, Optional.empty());
        assertEquals(12.0, warming.pairSeconds(), 1e-12, "the head costs what the base does until it ran");
        assertEquals(6.0 + 5 * 12.0, warming.lookSeconds(), 1e-12, "the head's warm-up, then five pairs");
        done.add(trial(1, Side.HEAD, 0, true, 6.0, Map.of()));
        done.add(trial(2, Side.BASE, 0, false, 3.0, Map.of(), "a"));
        done.add(trial(3, Side.HEAD, 0, false, 4.0, Map.of(), "a"));
        done.add(trial(4, Side.HEAD, 1, false, 5.0, Map.of(), "a"));
        Events.Estimate e = Rounds.estimate(LOOKS, 5, 1, List.of(), done, Optional.empty());
        assertEquals(3.0 + 4.5, e.pairSeconds(), 1e-12, "the trials so far, not the warm-ups");
        assertEquals(7 * 7.5 / 2, e.lookSeconds(), 1e-12, "seven trials left");
    }

    @Test
    void aCountedTrialCostsTheWarmUpsCountOfOneBenchmarkTimesTheBenchmarksOverTheWorkers() {
        // A warm-up readies its side (a long build) and counts one benchmark: 3 s and 5 s.
        List<RunResults.TrialRecord> done = List.of(
                trial(0, Side.BASE, 0, true, 60.0, Map.of("A", 3.0)),
                trial(1, Side.HEAD, 0, true, 50.0, Map.of("B", 5.0)));
        Events.Estimate e =
                Rounds.estimate(LOOKS, 5, 1, List.of(), done, Optional.of(new Rounds.Counted(30, 2, false)));
        assertEquals(Optional.of(new Events.Counting(30, 2, 4.0)), e.counting());
        assertEquals(2 * 4.0 * 30 / 2, e.pairSeconds(), 1e-12);
        // Fewer benchmarks than workers: one each.
        Events.Estimate few =
                Rounds.estimate(LOOKS, 5, 1, List.of(), done, Optional.of(new Rounds.Counted(1, 4, false)));
        assertEquals(8.0, few.pairSeconds(), 1e-12);
        // Counted beside the tool's own timings: those too.
        Events.Estimate timed =
                Rounds.estimate(LOOKS, 5, 1, List.of(), done, Optional.of(new Rounds.Counted(30, 2, true)));
        assertEquals(120.0 + 110.0, timed.pairSeconds(), 1e-12);
    }

    @Test
    void aLaterRoundCostsTheOpenCellsShareOfTheLastRoundsTrials() {
        // The first look's trials measured four benchmarks, each a quarter of the trial's time.
        List<RunResults.TrialRecord> done = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            done.add(trial(
                    i,
                    i % 2 == 0 ? Side.BASE : Side.HEAD,
                    i / 2,
                    false,
                    8.0,
                    Map.of("a", 1.0, "b", 1.0, "c", 1.0, "d", 1.0),
                    "a",
                    "b",
                    "c",
                    "d"));
        }
        Events.Estimate e = Rounds.estimate(LOOKS, 10, 1, List.of("a"), done, Optional.empty());
        assertEquals(List.of(2, 10), List.of(e.look(), e.trials()));
        assertEquals(4.0, e.pairSeconds(), 1e-12);
        assertEquals(20.0, e.lookSeconds(), 1e-12, "five pairs of the open benchmark");
        assertEquals(20.0 + 10 * 4.0, e.mostSeconds(), 1e-12);
        assertEquals(20.0, Rounds.next(done, LOOKS, 5, 10, List.of("a"), 1), 1e-12);
        assertEquals(80.0, Rounds.next(done, LOOKS, 5, 10, List.of(), 1), 1e-12, "a harness run whole: every cell");
    }

    @Test
    void aLaterRoundOfFewerCountedBenchmarksThanWorkersCountsThemOnFewerWorkers() {
        // Four benchmarks counted two at a time took 8 s a trial: one alone takes a worker 4 s.
        List<RunResults.TrialRecord> done = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            done.add(trial(i, i % 2 == 0 ? Side.BASE : Side.HEAD, i / 2, false, 8.0, Map.of(), "a", "b", "c", "d"));
        }
        assertEquals(4.0 * 10, Rounds.next(done, LOOKS, 5, 10, List.of("a"), 2), 1e-12);
        assertEquals(4.0 * 10, Rounds.next(done, LOOKS, 5, 10, List.of("a", "b"), 2), 1e-12, "one each");
        assertEquals(6.0 * 10, Rounds.next(done, LOOKS, 5, 10, List.of("a", "b", "c"), 2), 1e-12);
        Events.Estimate e =
                Rounds.estimate(LOOKS, 10, 1, List.of("a"), done, Optional.of(new Rounds.Counted(1, 2, false)));
        assertEquals(8.0, e.pairSeconds(), 1e-12);
    }

    @Test
    void aRunOfAFixedSizeHasOneLookAndNothingPricesItBeforeATrial() {
        Events.Estimate none = Rounds.estimate(List.of(5), 5, 0, List.of(), List.of(), Optional.empty());
        assertFalse(none.priced());
        assertTrue(Double.isNaN(none.lookSeconds()));
        Events.Estimate one = Rounds.estimate(
                List.of(5),
                5,
                0,
                List.of(),
                List.of(trial(0, Side.BASE, 0, false, 2.0, Map.of(), "a")),
                Optional.empty());
        assertEquals(List.of(1, 1), List.of(one.look(), one.looks()));
        assertEquals(9 * 2.0, one.lookSeconds(), 1e-12);
        assertEquals(one.lookSeconds(), one.mostSeconds(), 1e-12);
    }

    @ParameterizedTest
    @CsvSource({"355, PT7M", "3.2, PT4S", "100, PT1M50S", "109, PT2M", "0, PT1S"})
    void enoughIsATenthMoreInWholeMinutesFromTwoElseInSeconds(double seconds, String budget) {
        assertEquals(Duration.parse(budget), Rounds.enough(seconds));
    }
}
