package org.perfab.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.perfab.stats.Caveat;
import org.perfab.stats.Comparison;
import org.perfab.stats.Direction;
import org.perfab.stats.Sample;
import org.perfab.stats.Statistic;
import org.perfab.stats.Summary;
import org.perfab.stats.Thresholds;
import org.perfab.stats.Verdict;

/**
 * The guard over every row ({@link CellComparison#inconsistency}): the rows the verdict rules must
 * never make are found, and the rows they make pass.
 */
class RowGuardTest {
    private static final Thresholds T = Thresholds.DEFAULT;
    private static final Cell CELL = new Cell("a", "time", "us", Direction.LOWER_IS_BETTER);

    private static Comparison comparison(double pct, double low, double high, Verdict v, List<Caveat> caveats) {
        Summary s = Summary.of(Sample.of(100, 101, 99));
        return new Comparison(
                s,
                s,
                Direction.LOWER_IS_BETTER,
                pct,
                low,
                high,
                new Statistic(Statistic.Kind.WELCH_T, 1, OptionalDouble.of(4)),
                0.01,
                OptionalDouble.of(2),
                v,
                caveats,
                Double.NaN);
    }

    private static CellComparison row(Comparison c, double detectable, double medianChange) {
        return new CellComparison(
                CELL,
                c,
                Optional.empty(),
                Double.NaN,
                Double.NaN,
                List.of(),
                Optional.empty(),
                Optional.empty(),
                List.of(),
                detectable,
                medianChange);
    }

    @Test
    void aPassWhoseIntervalReachesPastItsClaimIsFound() {
        CellComparison wrong = row(comparison(2, -1, 5, Verdict.UNCHANGED, List.of()), 4.2, 2);
        assertTrue(
                wrong.inconsistency(T).orElseThrow().contains("past the 4.2% it claims to rule out"),
                wrong.inconsistency(T).toString());
        assertEquals(
                Optional.empty(),
                row(comparison(0.5, -1, 2, Verdict.UNCHANGED, List.of()), 4.2, 0.5)
                        .inconsistency(T));
    }

    @Test
    void aSmallChangePastTheBarIsFound() {
        assertTrue(row(comparison(8, 1, 15, Verdict.SMALL, List.of()), 3, 8)
                .inconsistency(T)
                .isPresent());
        assertEquals(
                Optional.empty(),
                row(comparison(2, 1, 3, Verdict.SMALL, List.of()), 3, 2).inconsistency(T));
    }

    @Test
    void aSignAgainstTheMediansOfEveryTrialIsFoundUnlessItNamesTheSplit() {
        Comparison improvement = comparison(-20, -25, -15, Verdict.IMPROVEMENT, List.of());
        assertTrue(row(improvement, 3, 10).inconsistency(T).isPresent(), "a true +10% read as -20%");
        Comparison named = comparison(-20, -25, -15, Verdict.IMPROVEMENT, List.of(Caveat.SPLIT));
        assertEquals(Optional.empty(), row(named, 3, 10).inconsistency(T));
        assertEquals(Optional.empty(), row(improvement, 3, -18).inconsistency(T));
        assertEquals(Optional.empty(), row(improvement, 3, Double.NaN).inconsistency(T), "not known: not judged");
    }

    @Test
    void aTableListsEveryRowItCannotStandBehind() {
        ComparisonTable table = new ComparisonTable(
                "base",
                "head",
                T,
                List.of(
                        row(comparison(2, -1, 5, Verdict.UNCHANGED, List.of()), 4.2, 2),
                        row(comparison(12, 8, 16, Verdict.REGRESSION, List.of()), 3, 12)),
                List.of());
        assertEquals(1, table.inconsistencies().size(), table.inconsistencies().toString());
    }
}
