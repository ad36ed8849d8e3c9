package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.perfab.ab.Events;
import org.perfab.model.CellId;
import org.perfab.model.Side;
import org.perfab.stats.Verdict;

/** How a run's progress words what the run tells it: the estimate, what is left, each look. */
class ProgressTest {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final Progress progress =
            new Progress(new PrintStream(bytes, true, StandardCharsets.UTF_8), false, Progress.Level.NORMAL);

    private String printed() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void theEstimateSaysTheLookAndTheMostWithEveryLaterLook() {
        progress.estimated(new Events.Estimate(1, 4, 4, 20, 18, 150, 540, Optional.empty()));
        assertEquals(
                "perfab: estimate: 2 min 30 s for look 1 (4 trials a side, 18 s a trial pair), at most 9 min with"
                        + " every later look (to 20 trials a side)\n",
                printed());
    }

    @Test
    void theEstimateOfACountedRunSaysHowItWasPriced() {
        progress.estimated(
                new Events.Estimate(1, 1, 3, 3, 37.8, 113.4, 113.4, Optional.of(new Events.Counting(30, 2, 1.26))));
        assertEquals(
                "perfab: estimate: 1 min 53 s for the 3 trials a side (38 s a trial pair: 30 benchmarks counted"
                        + " 2 at a time, 1.3 s each)\n",
                printed());
    }

    @Test
    void eachTrialSaysWhatIsLeftOfItsLookAndAtMost() {
        progress.planned(10, 0);
        progress.remaining(new Events.Estimate(1, 4, 4, 20, 18, 70, 400, Optional.empty()));
        progress.finished(Side.BASE, false, 0, 4, 9.0, "ok");
        assertEquals(
                "eta 1:10 (look 1), at most 6:40",
                printed().substring(printed().indexOf("eta ")).strip());
        assertEquals(
                "0:20",
                Progress.eta(new Events.Estimate(4, 4, 20, 20, 18, 20, 20, Optional.empty())),
                "the last look has no more");
        assertEquals(
                "?",
                Progress.eta(new Events.Estimate(1, 1, 5, 5, Double.NaN, Double.NaN, Double.NaN, Optional.empty())));
        assertEquals("?", Progress.eta(null));
    }

    private static Events.Look look(int open) {
        List<CellId> cells = List.of(
                new CellId("Sum/8", "time"),
                new CellId("Rank/64", "time"),
                new CellId("a", "time"),
                new CellId("b", "time"),
                new CellId("c", "time"),
                new CellId("d", "time"));
        return new Events.Look(
                1,
                4,
                29,
                Map.of(Verdict.REGRESSION, 1, Verdict.UNCHANGED, 26, Verdict.NOISY, 0),
                cells.subList(0, open),
                open,
                4,
                40);
    }

    @Test
    void aLookSaysWhatItDecidedAndWhatTheNextCosts() {
        progress.looked(look(2));
        assertEquals(
                "perfab: look 1 of at most 4: 27 of 29 cells decided (1 \uD83D\uDD34, 26 \u2705); 2 open (Sum/8"
                        + " time, Rank/64 time), the next look runs 2 benchmarks, 4 more trials a side, about 40 s\n",
                printed());
    }

    @Test
    void aStopByTheBudgetSaysWhatTheNextLookWouldCostAndWhatLetsItRun() {
        progress.overBudget(
                new Events.Look(
                        1,
                        4,
                        29,
                        Map.of(Verdict.UNCHANGED, 23),
                        List.of(
                                new CellId("Sum/8", "time"),
                                new CellId("Rank/64", "time"),
                                new CellId("a", "time"),
                                new CellId("b", "time"),
                                new CellId("c", "time"),
                                new CellId("d", "time")),
                        3,
                        4,
                        95),
                Duration.ofMinutes(5),
                260,
                Duration.ofMinutes(7));
        assertEquals(
                "perfab: look 1 of at most 4: 23 of 29 cells decided (23 \u2705); 6 open (Sum/8 time, Rank/64"
                        + " time, a time, b time, c time and 1 more); the next look (4 trials a side of 3 open benchmarks)"
                        + " would take about 1 min 35 s, past --budget 5m (4 min 20 s spent): stopped; give --budget 7m to let"
                        + " it run\n",
                printed());
    }

    @ParameterizedTest
    @CsvSource({
        "0.04, 0.0 s",
        "9.94, 9.9 s",
        "18, 18 s",
        "150, 2 min 30 s",
        "540, 9 min",
        "3900, 1 h 5 min",
        "7200, 2 h"
    })
    void aSpanOfTimeIsWordedInItsLargestUnits(double seconds, String words) {
        assertEquals(words, Progress.span(seconds));
    }

    @ParameterizedTest
    @CsvSource({"PT7M, 7m", "PT1H, 1h", "PT90S, 90s", "PT0.5S, 500ms"})
    void aBudgetIsWordedAsTheOptionTakesIt(String duration, String option) {
        assertEquals(option, Progress.option(Duration.parse(duration)));
    }
}
