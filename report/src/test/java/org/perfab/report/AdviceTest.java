package org.perfab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.perfab.model.Cell;
import org.perfab.model.CellComparison;
import org.perfab.model.RunResults;
import org.perfab.model.Side;
import org.perfab.stats.Direction;
import org.perfab.stats.Sequential;
import org.perfab.stats.Thresholds;

class AdviceTest {
    private static final Cell CELL = new Cell("work", "time", "ns/op", Direction.LOWER_IS_BETTER);
    private static final Thresholds ADAPTIVE = Thresholds.DEFAULT.withAdaptive(new Sequential(5, 20));

    /** A run of one cell, {@code trials} per side of {@code builds} builds, each trial {@code spread} percent apart. */
    private static RunResults run(int trials, int builds, Thresholds t, double spread) {
        return RunFixture.run(
                "advice",
                trials,
                builds,
                t,
                List.of(CELL),
                (c, side, build, trial) ->
                        100 * (1 + spread / 100 * ((trial + build + (side == Side.HEAD ? 1 : 0)) % 3 - 1)),
                List.of());
    }

    private static RunResults ended(RunResults r, boolean interrupted) {
        return new RunResults(
                r.name(),
                r.provenance(),
                r.machine(),
                r.settings(),
                r.startedAt(),
                r.finishedAt(),
                interrupted,
                r.timing(),
                r.trials(),
                r.table());
    }

    @Test
    void pointsARunOfAFixedSizeAtAdaptiveTrialsUntilItHasAsMany() {
        assertEquals(Optional.of("--adaptive 20"), Advice.moreTrials(Report.of(run(5, 1, Thresholds.DEFAULT, 1))));
        assertEquals(
                Optional.of("past this run's 20 trials a side: perfab plan on this run's results.json says how"
                        + " many trials and builds each cell needs"),
                Advice.moreTrials(Report.of(run(20, 1, Thresholds.DEFAULT, 1))));
    }

    @Test
    void pointsARunOfSeveralBuildsAtPlanNeverAtAdaptiveTrialsItCannotTake() {
        assertEquals(
                Optional.of("past this run's 4 trials a side: perfab plan on this run's results.json says how"
                        + " many trials and builds each cell needs"),
                Advice.moreTrials(Report.of(run(4, 3, Thresholds.DEFAULT, 1))));
    }

    @Test
    void pointsARunWithAdaptiveTrialsAtWhatStoppedItShortOfItsLastLook() {
        assertEquals(
                Optional.of("the run stopped at 5 of its most 20 trials a side: a larger --budget lets its later"
                        + " looks run"),
                Advice.moreTrials(Report.of(run(5, 1, ADAPTIVE, 1))));
        assertEquals(
                Optional.of("the run goes on, up to 20 trials a side"),
                Advice.moreTrials(Report.of(run(5, 1, ADAPTIVE, 1).goingOn())));
        assertEquals(
                Optional.of("--resume takes the run on, up to 20 trials a side"),
                Advice.moreTrials(Report.of(ended(run(5, 1, ADAPTIVE, 1), true))));
        assertEquals(
                Optional.of("past this run's 20 trials a side: perfab plan on this run's results.json says how"
                        + " many trials and builds each cell needs"),
                Advice.moreTrials(Report.of(run(20, 1, ADAPTIVE, 1))));
    }

    @Test
    void pointsARunItsBudgetStoppedAtTheBudgetThatLetsItsNextLookRun() {
        assertEquals(
                Optional.of("--budget 24m lets the next look run, to 10 trials a side, where --budget 20m"
                        + " stopped the run at 5"),
                Advice.moreTrials(Report.of(RunFixture.bitset())));
    }

    @Test
    void givesAComparisonOfFilesNoOption() {
        assertEquals(Optional.empty(), Advice.moreTrials(Report.of(RenderersTest.fixture())));
        assertEquals("more trials narrow the spread", Advice.narrow(Report.of(RenderersTest.fixture()), List.of()));
    }

    @Test
    void saysWhenEvenTheMostTrialsWouldNotNarrowASpreadUnderTheBar() {
        Report quiet = Report.of(run(5, 1, Thresholds.DEFAULT, 1));
        List<CellComparison> rows = quiet.table().rows();
        assertEquals("more trials (--adaptive 20) narrow the spread", Advice.narrow(quiet, rows));
        Report wide = Report.of(run(5, 1, Thresholds.DEFAULT, 20));
        assertEquals(
                "even --adaptive 20 would not narrow their spread under the 3.0% bar (perfab plan on this run's"
                        + " results.json says how many trials and builds each cell needs)",
                Advice.narrow(wide, wide.table().rows()));
        Report adaptive = Report.of(run(5, 1, ADAPTIVE, 20));
        assertEquals(
                "even 20 trials a side, the most this run may take, would not narrow their spread under the"
                        + " 3.0% bar (perfab plan on this run's results.json says how many trials and builds each cell"
                        + " needs)",
                Advice.narrow(adaptive, adaptive.table().rows()));
    }
}
