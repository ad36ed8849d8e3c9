package org.perfab.bisect;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.perfab.model.Bisection;
import org.perfab.model.Bisection.Call;
import org.perfab.model.BisectionJson;
import org.perfab.stats.Caveat;
import org.perfab.stats.Comparison;
import org.perfab.stats.Direction;
import org.perfab.stats.Sample;
import org.perfab.stats.Summary;
import org.perfab.stats.Verdict;

/** The rules a bisect judges its steps by, and its file. */
class BisectRulesTest {
    private static Comparison comparison(Direction d, double pct, double low, double high, Verdict v,
            Caveat... caveats) {
        Summary s = Summary.of(Sample.of(1, 2, 3));
        return new Comparison(s, s, d, pct, low, high, 0, 4, 0.5, 5, v, List.of(caveats), Double.NaN);
    }

    @Test
    void aStepIsGoodOnlyWhenItsIntervalRulesOutHalfTheChange() {
        Direction lower = Direction.LOWER_IS_BETTER;
        assertEquals(Call.BAD, Bisect.call(comparison(lower, 8, 4, 12, Verdict.REGRESSION), 4));
        assertEquals(Call.GOOD, Bisect.call(comparison(lower, 0.5, -2, 3.9, Verdict.UNCHANGED), 4));
        // The same point estimate with a wider interval could be the change: undecided, never good.
        assertEquals(Call.UNDECIDED, Bisect.call(comparison(lower, 0.5, -6, 7, Verdict.UNCHANGED), 4));
        assertEquals(Call.UNDECIDED, Bisect.call(comparison(lower, 0.5, -6, 7, Verdict.NOISY), 4));
        assertEquals(Call.GOOD, Bisect.call(comparison(lower, 0.5, -2, 3, Verdict.NOISY), 4),
                "too noisy for the bar, but clear of half the change hunted");
        assertEquals(Call.UNDECIDED, Bisect.call(comparison(lower, 12, -1, 25, Verdict.INCONCLUSIVE), 40));
        assertEquals(Call.UNDECIDED, Bisect.call(comparison(lower, 0, -1, 1, Verdict.NOISY, Caveat.ONE_SIDED), 4),
                "far trials on one side: the trials disagree");
        assertEquals(Call.UNDECIDED, Bisect.call(comparison(lower, 0, -1, 1, Verdict.NOISY, Caveat.SPLIT), 4));
        assertEquals(Call.UNDECIDED, Bisect.call(comparison(lower, Double.NaN, Double.NaN, Double.NaN,
                Verdict.NO_DATA), 4));
        assertEquals(Call.UNDECIDED, Bisect.call(comparison(lower, 1, Double.NaN, Double.NaN, Verdict.UNCHANGED), 4),
                "an interval without bounds rules nothing out");
        // Higher is better: the worse end is the low one.
        assertEquals(Call.GOOD, Bisect.call(comparison(Direction.HIGHER_IS_BETTER, -1, -3, 1, Verdict.UNCHANGED), 4));
        assertEquals(Call.UNDECIDED,
                Bisect.call(comparison(Direction.HIGHER_IS_BETTER, -1, -5, 1, Verdict.UNCHANGED), 4));
        assertEquals(Call.GOOD, Bisect.call(comparison(lower, 1.5, 0.5, 2.5, Verdict.SMALL), 4),
                "significant, but under the bisect's effect and clear of the change hunted");
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
        Bisection.Step measured = new Bisection.Step("b".repeat(40), "a commit", "a".repeat(40), "search", 1, 9,
                "speed/run time", "regression", 5.1, 2.5, 7.75, 0.004, Double.NaN, false, Call.BAD, "", 12.5);
        Bisection.Step skipped = new Bisection.Step("c".repeat(40), "does not build", "a".repeat(40), "search", 1, 0,
                "", "skipped", Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, false, Call.SKIPPED,
                "build failed: exit 1", 0.5);
        Bisection b = new Bisection("speed/*", 1, "a".repeat(40), "d".repeat(40), Optional.empty(),
                Bisection.Outcome.INCONCLUSIVE, List.of(measured, skipped), List.of("why"),
                List.of("c".repeat(40), "b".repeat(40)), Optional.of("rerun with --trials 20 --resume"));
        String json = BisectionJson.write(b);
        Bisection back = BisectionJson.read(json, "bisect.json");
        assertEquals(json, BisectionJson.write(back));
        assertEquals(b.steps().get(1).reason(), back.steps().get(1).reason());
    }
}
