package org.perfab.model;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.perfab.stats.Caveat;
import org.perfab.stats.Comparison;
import org.perfab.stats.Thresholds;
import org.perfab.stats.Verdict;

/**
 * One row of a comparison: a cell and how its candidate compares with its baseline.
 *
 * <p>With several builds per side the verdict comes from the median of each build (a sample of
 * one value per build), so that build-to-build variance (code layout) sits inside the test;
 * the test over every trial is kept beside it, for the reader.
 *
 * @param cell the cell
 * @param comparison the statistics and verdict: of the build medians when there are several builds
 *     per side, else of the trials
 * @param trialLevel with several builds, the same test over every trial; empty otherwise
 * @param buildSpread with several builds, the larger of the two sides' coefficients of variation
 *     of their build medians, in percent: how far code layout alone moves the cell; NaN otherwise
 * @param noiseFloor the smallest change a run of this size finds in this cell, by its A/A noise
 *     floor ({@code --noise}), in percent; NaN when no A/A run measured the cell, infinite when such
 *     a run finds no change, however large, with 80% power
 * @param outliers the trials set aside as outliers before the trial-level test, both sides
 * @param look with adaptive trials, the look whose statistics these are; empty for a run of a
 *     fixed size
 * @param sameAs the cell this row measures again in other terms (a throughput computed from the
 *     time of the same benchmark): it takes that cell's verdict and is not counted apart; empty for a
 *     measurement of its own
 * @param functions for a count under Cachegrind, the functions whose counts moved most between the
 *     sides, the most first; empty otherwise
 * @param detectable the comparison's {@link Comparison#detectable} under the thresholds of its table,
 *     in percent: worked out as the cell is judged, where the quantiles it needs were just computed,
 *     not again by each renderer of tens of thousands of rows
 * @param medianChange the change between the medians of every trial each side gave the cell, none
 *     set aside, in percent of the baseline's: what a verdict's sign must agree with unless it says
 *     why not; NaN when not known
 * @param welch where the interleaved order's pairs judged the cell, Welch's test on the same trials
 *     under the same rules, as independent samples: what the card's test says beside them; empty
 *     where Welch's test judged
 */
public record CellComparison(
        Cell cell,
        Comparison comparison,
        Optional<Comparison> trialLevel,
        double buildSpread,
        double noiseFloor,
        List<Outlier> outliers,
        Optional<Look> look,
        Optional<CellId> sameAs,
        List<FunctionChange> functions,
        double detectable,
        double medianChange,
        Optional<Comparison> welch) {
    public CellComparison {
        Objects.requireNonNull(welch, "welch");
        Objects.requireNonNull(cell, "cell");
        Objects.requireNonNull(comparison, "comparison");
        Objects.requireNonNull(trialLevel, "trialLevel");
        outliers = List.copyOf(outliers);
        Objects.requireNonNull(look, "look");
        Objects.requireNonNull(sameAs, "sameAs");
        functions = List.copyOf(functions);
    }

    /** A row Welch's test judged. */
    public CellComparison(
            Cell cell,
            Comparison comparison,
            Optional<Comparison> trialLevel,
            double buildSpread,
            double noiseFloor,
            List<Outlier> outliers,
            Optional<Look> look,
            Optional<CellId> sameAs,
            List<FunctionChange> functions,
            double detectable,
            double medianChange) {
        this(
                cell,
                comparison,
                trialLevel,
                buildSpread,
                noiseFloor,
                outliers,
                look,
                sameAs,
                functions,
                detectable,
                medianChange,
                Optional.empty());
    }

    /** Returns this row with its A/A noise floor, in percent, at the size of its run. */
    public CellComparison withNoiseFloor(double floor) {
        return new CellComparison(
                cell,
                comparison,
                trialLevel,
                buildSpread,
                floor,
                outliers,
                look,
                sameAs,
                functions,
                detectable,
                medianChange,
                welch);
    }

    /** Returns this row with its detectable change under {@code t}: the thresholds of another table than its own. */
    public CellComparison withDetectable(Thresholds t) {
        return new CellComparison(
                cell,
                comparison,
                trialLevel,
                buildSpread,
                noiseFloor,
                outliers,
                look,
                sameAs,
                functions,
                comparison.detectable(t),
                medianChange,
                welch);
    }

    /**
     * Returns this row with {@code c} as its comparison, judged anew from the same statistics (say at
     * a false-discovery rate), its detectable change as it was: where {@code c}'s verdict differs,
     * the caller works it out again ({@link #withDetectable}), since what an unchanged or too noisy
     * row claims depends on its verdict.
     */
    public CellComparison withComparison(Comparison c) {
        return new CellComparison(
                cell,
                c,
                trialLevel,
                buildSpread,
                noiseFloor,
                outliers,
                look,
                sameAs,
                functions,
                detectable,
                medianChange,
                welch);
    }

    /** Returns this row as the statistics of look {@code l} of a run with adaptive trials. */
    public CellComparison withLook(Look l) {
        return new CellComparison(
                cell,
                comparison,
                trialLevel,
                buildSpread,
                noiseFloor,
                outliers,
                Optional.of(l),
                sameAs,
                functions,
                detectable,
                medianChange,
                welch);
    }

    /** Returns this row as the same measurement as {@code primary}, whose verdict {@code v} it takes. */
    public CellComparison sameAs(CellId primary, Comparison withVerdict) {
        return new CellComparison(
                cell,
                withVerdict,
                trialLevel,
                buildSpread,
                noiseFloor,
                outliers,
                look,
                Optional.of(primary),
                functions,
                detectable,
                medianChange,
                welch);
    }

    /** Returns this row with the functions whose counts moved most between the sides. */
    public CellComparison withFunctions(List<FunctionChange> moved) {
        return new CellComparison(
                cell,
                comparison,
                trialLevel,
                buildSpread,
                noiseFloor,
                outliers,
                look,
                sameAs,
                moved,
                detectable,
                medianChange,
                welch);
    }

    /** Returns this row with {@code w}, Welch's comparison beside the pairs'. */
    public CellComparison withWelch(Comparison w) {
        return new CellComparison(
                cell,
                comparison,
                trialLevel,
                buildSpread,
                noiseFloor,
                outliers,
                look,
                sameAs,
                functions,
                detectable,
                medianChange,
                Optional.of(w));
    }

    /**
     * Returns whether every value on both sides is 0 (the allocations of a benchmark that allocates
     * nothing): nothing to compare, and a report folds such rows into one line.
     */
    public boolean allZero() {
        var b = comparison.base();
        var h = comparison.head();
        return b.n() > 0 && h.n() > 0 && b.min() == 0 && b.max() == 0 && h.min() == 0 && h.max() == 0;
    }

    /**
     * Returns whether this row is one of the run's tests: classified (not a profile, with data),
     * not the same measurement as another row, and not both sides the same constant.
     */
    public boolean tested() {
        var v = comparison.verdict();
        if (v == Verdict.PROFILE || v == Verdict.NO_DATA || sameAs.isPresent()) {
            return false;
        }
        return !(comparison.base().isConstant()
                        && comparison.head().isConstant()
                        && comparison.base().mean() == comparison.head().mean())
                && !Double.isNaN(comparison.pValue());
    }

    /**
     * Returns whether this row was too noisy to time and its benchmark was counted instead
     * ({@link Caveat#COUNTED_INSTEAD}): its counts' rows give the benchmark's verdict, and a
     * headline does not count this one.
     */
    public boolean countedInstead() {
        return comparison.caveats().contains(Caveat.COUNTED_INSTEAD);
    }

    /** Returns whether the change measured lies inside the cell's A/A noise floor. */
    public boolean insideNoise() {
        return !Double.isNaN(noiseFloor) && Math.abs(comparison.pctChange()) < noiseFloor;
    }

    /**
     * Returns why this row cannot be shown as it stands, worded for a bug report; empty when it can.
     * A row is consistent when an unchanged row's interval stays within the slowdown it claims to
     * rule out, a small change is under the bar, and a regression, improvement or small change has
     * the sign of the change between the medians of every trial unless it carries the caveat of two
     * groups ({@link Caveat#SPLIT}). A guard over the verdict rules, which must never fire.
     */
    public Optional<String> inconsistency(Thresholds thresholds) {
        Comparison c = comparison;
        Verdict v = c.verdict();
        String where = cell.name() + " " + cell.metric() + " (" + v.id() + ")";
        if (v == Verdict.UNCHANGED && sameAs.isEmpty() && c.worseEnd() > detectable) {
            return Optional.of(where + ": its interval reaches a slowdown of " + c.worseEnd() + "%, past the "
                    + detectable + "% it claims to rule out");
        }
        if (v == Verdict.SMALL && Math.abs(c.pctChange()) >= thresholds.minEffect()) {
            return Optional.of(where + ": a small change of " + c.pctChange() + "%, past the bar");
        }
        if (v.significant()
                && sameAs.isEmpty()
                && !c.caveats().contains(Caveat.SPLIT)
                && medianChange != 0
                && Math.signum(medianChange) * Math.signum(c.pctChange()) < 0) {
            return Optional.of(where + ": a change of " + c.pctChange() + "% where the medians of every trial moved "
                    + medianChange + "%, without the caveat of two groups");
        }
        return Optional.empty();
    }

    /** Returns whether the medians of several builds decided the verdict. */
    public boolean byBuilds() {
        return trialLevel.isPresent();
    }
}
