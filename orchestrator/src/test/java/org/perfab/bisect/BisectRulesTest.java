package org.perfab.bisect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.perfab.model.Bisection;
import org.perfab.model.Bisection.Call;
import org.perfab.model.BisectionJson;
import org.perfab.stats.Caveat;
import org.perfab.stats.Comparison;
import org.perfab.stats.Direction;
import org.perfab.stats.Sample;
import org.perfab.stats.Statistic;
import org.perfab.stats.Summary;
import org.perfab.stats.Verdict;

/** The rules a bisect judges its steps by, and its file. */
class BisectRulesTest {
    private static Comparison comparison(
            Direction d, double pct, double low, double high, Verdict v, Caveat... caveats) {
        Summary s = Summary.of(Sample.of(1, 2, 3));
        return new Comparison(
                s,
                s,
                d,
                pct,
                low,
                high,
                new Statistic(Statistic.Kind.WELCH_T, 0, OptionalDouble.of(4)),
                0.5,
                OptionalDouble.of(5),
                v,
                List.of(caveats),
                Double.NaN);
    }

    @Test
    void aStepIsGoodOnlyWhenItsIntervalRulesOutHalfTheChange() {
        Direction lower = Direction.LOWER_IS_BETTER;
        assertEquals(Call.BAD, Bisect.call(comparison(lower, 8, 4, 12, Verdict.REGRESSION), 4));
        assertEquals(Call.GOOD, Bisect.call(comparison(lower, 0.5, -2, 3.9, Verdict.UNCHANGED), 4));
        // The same point estimate with a wider interval could be the change: undecided, never good.
        assertEquals(Call.UNDECIDED, Bisect.call(comparison(lower, 0.5, -6, 7, Verdict.UNCHANGED), 4));
        assertEquals(Call.UNDECIDED, Bisect.call(comparison(lower, 0.5, -6, 7, Verdict.NOISY), 4));
        assertEquals(
                Call.GOOD,
                Bisect.call(comparison(lower, 0.5, -2, 3, Verdict.NOISY), 4),
                "too noisy for the bar, but clear of half the change hunted");
        assertEquals(Call.UNDECIDED, Bisect.call(comparison(lower, 12, -1, 25, Verdict.INCONCLUSIVE), 40));
        assertEquals(
                Call.UNDECIDED,
                Bisect.call(comparison(lower, 0, -1, 1, Verdict.NOISY, Caveat.ONE_SIDED), 4),
                "far trials on one side: the trials disagree");
        assertEquals(Call.UNDECIDED, Bisect.call(comparison(lower, 0, -1, 1, Verdict.NOISY, Caveat.SPLIT), 4));
        assertEquals(
                Call.UNDECIDED, Bisect.call(comparison(lower, Double.NaN, Double.NaN, Double.NaN, Verdict.NO_DATA), 4));
        assertEquals(
                Call.UNDECIDED,
                Bisect.call(comparison(lower, 1, Double.NaN, Double.NaN, Verdict.UNCHANGED), 4),
                "an interval without bounds rules nothing out");
        // Higher is better: the worse end is the low one.
        assertEquals(Call.GOOD, Bisect.call(comparison(Direction.HIGHER_IS_BETTER, -1, -3, 1, Verdict.UNCHANGED), 4));
        assertEquals(
                Call.UNDECIDED, Bisect.call(comparison(Direction.HIGHER_IS_BETTER, -1, -5, 1, Verdict.UNCHANGED), 4));
        assertEquals(
                Call.GOOD,
                Bisect.call(comparison(lower, 1.5, 0.5, 2.5, Verdict.SMALL), 4),
                "significant, but under the bisect's effect and clear of the change hunted");
    }

    @Test
    void aSearchStepIsBadOnlyWhenItShowsARealShareOfTheChangeHunted() {
        Direction lower = Direction.LOWER_IS_BETTER;
        double hunt = Bisect.half(10.9); // +5.3%: the search hunts a +10.9% change
        assertEquals(
                Call.GOOD,
                Bisect.call(comparison(lower, 1, 0.6, 1.4, Verdict.REGRESSION), hunt),
                "a +1% layout step with a tight interval: a regression under the 1% bar, and none of +10.9%");
        assertEquals(Call.BAD, Bisect.call(comparison(lower, 10, 8, 12, Verdict.REGRESSION), hunt));
        assertEquals(
                Call.UNDECIDED,
                Bisect.call(comparison(lower, 4, 2.5, 5.5, Verdict.REGRESSION), hunt),
                "+4%, significant: neither a real share of the change nor clear of it");
        assertEquals(
                Call.UNDECIDED,
                Bisect.call(comparison(lower, 6, 1, 11, Verdict.REGRESSION), hunt),
                "past half by its point estimate, but its interval reaches down to a move of 1%");
        assertEquals(
                Call.UNDECIDED,
                Bisect.call(comparison(lower, 9, 6, 12, Verdict.NOISY), hunt),
                "not a regression: more trials decide it");
        assertEquals(
                Call.UNDECIDED,
                Bisect.call(comparison(lower, 9, Double.NaN, Double.NaN, Verdict.REGRESSION), hunt),
                "an interval without bounds shows no share");
        // The interval's better end must reach half the change: the exact boundary is bad, just under it is not.
        assertEquals(Call.BAD, Bisect.call(comparison(lower, 8, hunt, 11, Verdict.REGRESSION), hunt));
        assertEquals(
                Call.UNDECIDED, Bisect.call(comparison(lower, 8, Math.nextDown(hunt), 11, Verdict.REGRESSION), hunt));
        // Higher is better: the better end is the high one, a throughput down 10% is bad, down 1% good.
        Direction higher = Direction.HIGHER_IS_BETTER;
        assertEquals(Call.BAD, Bisect.call(comparison(higher, -10, -12, -8, Verdict.REGRESSION), hunt));
        assertEquals(Call.UNDECIDED, Bisect.call(comparison(higher, -6, -11, -1, Verdict.REGRESSION), hunt));
        assertEquals(Call.GOOD, Bisect.call(comparison(higher, -1, -1.4, -0.6, Verdict.REGRESSION), hunt));
        assertEquals(
                Call.GOOD,
                Bisect.call(comparison(higher, 10, 8, 12, Verdict.IMPROVEMENT), hunt),
                "an improvement rules the slowdown out");
    }

    @Test
    void theCheckCallsAnyRegressionUnderTheEffectBad() {
        Direction lower = Direction.LOWER_IS_BETTER;
        assertEquals(
                Call.BAD,
                Bisect.check(comparison(lower, 1.2, 0.8, 1.6, Verdict.REGRESSION), 1),
                "the check finds the change the search hunts: it has no share to take");
        assertEquals(Call.BAD, Bisect.check(comparison(lower, 2, Double.NaN, Double.NaN, Verdict.REGRESSION), 1));
        assertEquals(Call.GOOD, Bisect.check(comparison(lower, 0.2, -0.5, 0.9, Verdict.UNCHANGED), 1));
        assertEquals(Call.UNDECIDED, Bisect.check(comparison(lower, 0.5, -0.5, 1.5, Verdict.UNCHANGED), 1));
        assertEquals(Call.UNDECIDED, Bisect.check(comparison(lower, 4.7, -1.5, 11.6, Verdict.INCONCLUSIVE), 1));
        assertEquals(Call.UNDECIDED, Bisect.check(comparison(lower, 0, -0.2, 0.2, Verdict.NOISY, Caveat.SPLIT), 1));
    }

    @Test
    void codeLayoutCouldDecideACallWhoseChangeLiesWithinItsReachOfTheBar() {
        assertEquals(
                2 * Math.sqrt(2) * 0.8, Bisect.reach(0.8), 1e-12, "one layout against another, twice their spread");
        double hunt = Bisect.half(9.45); // +4.6%
        double reach = Bisect.reach(0.8); // 2.26%
        assertFalse(Bisect.near(1.2, hunt, 0.8), "a +1.2% step is good whatever the layouts");
        assertFalse(Bisect.near(10.6, hunt, 0.8), "a +10.6% step is bad whatever the layouts");
        assertTrue(Bisect.near(3, hunt, 0.8));
        assertTrue(Bisect.near(6, hunt, 0.8));
        assertTrue(Bisect.near(-3, hunt, 0.8), "either sign: a cell whose higher values are better");
        assertTrue(Bisect.near(hunt + reach - 0.01, hunt, 0.8));
        assertFalse(Bisect.near(hunt + reach + 0.01, hunt, 0.8));
        assertTrue(Bisect.near(hunt - reach + 0.01, hunt, 0.8));
        assertFalse(Bisect.near(3, hunt, Double.NaN), "no layout measured: nothing to say it could");
        assertFalse(Bisect.near(Double.NaN, hunt, 0.8), "a skipped step has no change");
    }

    private static Bisection.Step step(String purpose, int builds, double pct, double spread, boolean differ) {
        return new Bisection.Step(
                "b".repeat(40),
                "a commit",
                "a".repeat(40),
                purpose,
                builds,
                9,
                "speed/run time",
                "regression",
                pct,
                pct - 1,
                pct + 1,
                0.01,
                spread,
                differ,
                Call.BAD,
                "",
                1);
    }

    @Test
    void codeLayoutExplainsOnlyAMoveSeenWithOneBuildThatDifferingBuildsSpreadAsFarAs() {
        Bisection.Step confirm = step("confirm", 3, 0.5, 1, true);
        assertTrue(Bisect.layout(confirm, step("search", 1, 2.5, Double.NaN, false)), "2.5% within 2.83%");
        assertFalse(Bisect.layout(confirm, step("search", 1, 3, Double.NaN, false)), "3% past the reach of ±1%");
        assertFalse(
                Bisect.layout(confirm, step("search", 3, 2.5, 1, true)),
                "a move seen over shifted layouts already is not layout's");
        assertFalse(
                Bisect.layout(step("confirm", 3, 0.5, 1, false), step("search", 1, 2.5, Double.NaN, false)),
                "builds that did not differ did not shift layout");
        assertFalse(
                Bisect.layout(step("confirm", 1, 0.5, Double.NaN, false), step("search", 1, 2.5, Double.NaN, false)),
                "one build per side shifts no layout");
    }

    @Test
    void halfAChangeIsTakenInRatio() {
        assertEquals(50, Bisect.half(125), 1e-9); // 1.5 * 1.5 = 2.25
        assertEquals(50, Bisect.half(-100.0 / 2.25 * 1.25), 1e-9); // a throughput down to 1 / 2.25
        assertEquals(2.47, Bisect.half(5), 0.01);
    }

    @Test
    void theNextCandidateIsTheMiddleOfThoseThatCanBeMeasured() {
        assertEquals(Optional.of(7), Bisect.middle(-1, 15, Set.of()));
        assertEquals(Optional.of(6), Bisect.middle(-1, 15, Set.of(7)));
        assertEquals(Optional.of(8), Bisect.middle(-1, 15, Set.of(6, 7)));
        assertEquals(Optional.empty(), Bisect.middle(3, 6, Set.of(4, 5)));
        assertEquals(Optional.empty(), Bisect.middle(3, 4, Set.of()));
    }

    @Test
    void theFileReadsBackAsWritten() {
        Bisection.Step measured = new Bisection.Step(
                "b".repeat(40),
                "a commit",
                "a".repeat(40),
                "search",
                1,
                9,
                "speed/run time",
                "regression",
                5.1,
                2.5,
                7.75,
                0.004,
                Double.NaN,
                false,
                Call.BAD,
                "",
                12.5);
        Bisection.Step skipped = new Bisection.Step(
                "c".repeat(40),
                "does not build",
                "a".repeat(40),
                "search",
                1,
                0,
                "",
                "skipped",
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                false,
                Call.SKIPPED,
                "build failed: exit 1",
                0.5);
        Bisection b = new Bisection(
                "speed/*",
                1,
                "a".repeat(40),
                "d".repeat(40),
                new Bisection.WorkloadFile("perfab.yaml", "e".repeat(64)),
                Optional.empty(),
                Bisection.Outcome.INCONCLUSIVE,
                List.of(measured, skipped),
                List.of("why"),
                List.of("c".repeat(40), "b".repeat(40)),
                Optional.of("rerun with --trials 20 --resume"));
        String json = BisectionJson.write(b);
        Bisection back = BisectionJson.read(json, "bisect.json");
        assertEquals(json, BisectionJson.write(back));
        assertEquals(b.steps().get(1).reason(), back.steps().get(1).reason());
    }
}
