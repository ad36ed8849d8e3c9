package org.perfab.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;
import java.util.stream.Collectors;
import org.perfab.stats.Caveat;
import org.perfab.stats.Comparison;
import org.perfab.stats.FalseDiscovery;
import org.perfab.stats.KnownTests;
import org.perfab.stats.Pairing;
import org.perfab.stats.Sample;
import org.perfab.stats.Sequential;
import org.perfab.stats.ShiftTest;
import org.perfab.stats.Statistic;
import org.perfab.stats.Thresholds;
import org.perfab.stats.TrialTest;
import org.perfab.stats.Trials;
import org.perfab.stats.Verdict;

/**
 * Every cell of a comparison, classified: the data every renderer draws.
 *
 * @param baseLabel what the baseline is, for a reader (file names, a ref)
 * @param headLabel what the candidate is
 * @param thresholds the verdict rules' settings
 * @param rows one per cell, regressions first, then inconclusive, improvements, unchanged, profiles
 *     and cells without data; within a verdict by cell name and metric
 * @param warnings what a reader must know about the whole comparison (identical builds, failed
 *     trials), in the order found; every renderer shows them
 * @param pairing which test judged the trials, and what the runner did meanwhile (see {@link Pairing})
 */
public record ComparisonTable(
        String baseLabel,
        String headLabel,
        Thresholds thresholds,
        List<CellComparison> rows,
        List<Warning> warnings,
        Pairing pairing) {

    /** The order of rows: by verdict (its declaration order), then by cell. */
    public static final Comparator<CellComparison> ROW_ORDER = (a, b) -> {
        int byVerdict = a.comparison().verdict().compareTo(b.comparison().verdict());
        return byVerdict != 0 ? byVerdict : Cell.ORDER.compare(a.cell(), b.cell());
    };

    public ComparisonTable {
        Objects.requireNonNull(baseLabel, "baseLabel");
        Objects.requireNonNull(headLabel, "headLabel");
        Objects.requireNonNull(thresholds, "thresholds");
        rows = ordered(rows);
        warnings = List.copyOf(warnings);
        Objects.requireNonNull(pairing, "pairing");
    }

    /** A table whose trials Welch's test judged, as it judges trials that do not pair. */
    public ComparisonTable(
            String baseLabel,
            String headLabel,
            Thresholds thresholds,
            List<CellComparison> rows,
            List<Warning> warnings) {
        this(baseLabel, headLabel, thresholds, rows, warnings, Pairing.welch(TrialTest.WELCH));
    }

    /** Returns this table, its rows as they are, saying that {@code how} judged them. */
    public ComparisonTable withPairing(Pairing how) {
        return new ComparisonTable(baseLabel, headLabel, thresholds, rows, warnings, how);
    }

    /**
     * Returns {@code rows} in {@link #ROW_ORDER}: as they are when they already are (a table made
     * from another), else sorted on every core (a comparison of 10,000 benchmarks and three metrics
     * orders 30,000 rows, often of long names that share their first bytes).
     */
    private static List<CellComparison> ordered(List<CellComparison> rows) {
        CellComparison[] sorted = rows.toArray(new CellComparison[0]);
        for (int i = 1; i < sorted.length; i++) {
            if (ROW_ORDER.compare(sorted[i - 1], sorted[i]) > 0) {
                Arrays.parallelSort(sorted, ROW_ORDER);
                break;
            }
        }
        return List.of(sorted);
    }

    /** Returns this table with {@code floor} applied to each row: the noise floor of its cell at this run's size. */
    public ComparisonTable withNoiseFloors(ToDoubleFunction<CellComparison> floor) {
        return new ComparisonTable(
                baseLabel,
                headLabel,
                thresholds,
                rows.stream().map(r -> r.withNoiseFloor(floor.applyAsDouble(r))).toList(),
                warnings,
                pairing);
    }

    /** Returns this table with each row's functions whose counts moved most, as {@code moved} finds them. */
    public ComparisonTable withFunctions(Function<CellComparison, List<FunctionChange>> moved) {
        return new ComparisonTable(
                baseLabel,
                headLabel,
                thresholds,
                rows.stream().map(r -> r.withFunctions(moved.apply(r))).toList(),
                warnings,
                pairing);
    }

    /**
     * Returns this table with the rows {@code which} picks marked as counted instead
     * ({@link Caveat#COUNTED_INSTEAD}), their verdicts and figures as they are: those of them whose
     * timings left them too noisy or inconclusive. A row with a verdict keeps it, unmarked: a count
     * never overrules a timing that decided.
     */
    public ComparisonTable countedInstead(java.util.function.Predicate<CellComparison> which) {
        return new ComparisonTable(
                baseLabel,
                headLabel,
                thresholds,
                rows.stream()
                        .map(r -> which.test(r)
                                        && (r.comparison().verdict() == Verdict.NOISY
                                                || r.comparison().verdict() == Verdict.INCONCLUSIVE)
                                ? r.withComparison(r.comparison().withCaveat(Caveat.COUNTED_INSTEAD))
                                : r)
                        .toList(),
                warnings,
                pairing);
    }

    /** Returns this table with {@code more} warnings after its own. */
    public ComparisonTable withWarnings(List<Warning> more) {
        List<Warning> all = new ArrayList<>(warnings);
        all.addAll(more);
        return new ComparisonTable(baseLabel, headLabel, thresholds, rows, all, pairing);
    }

    /**
     * Returns {@link #of(String, String, List, Thresholds, Predicate, ShiftTest)} with perfab's own
     * test ({@link KnownTests#PERFAB}).
     */
    public static ComparisonTable of(
            String baseLabel,
            String headLabel,
            List<Measurement> measurements,
            Thresholds thresholds,
            Predicate<Cell> isProfile) {
        return of(baseLabel, headLabel, measurements, thresholds, isProfile, KnownTests.PERFAB);
    }

    /**
     * Groups {@code measurements} into one baseline and one candidate sample per cell and compares
     * each pair with {@code test}. A cell measured on one side only is kept, with the verdict
     * {@link Verdict#NO_DATA}. With perfab's test, when both sides of a cell were measured on two
     * builds or more, the verdict comes from the median of each build (see {@link CellComparison}). A cell that
     * measures another again in other terms (a benchmark's throughput beside its time) takes that
     * cell's verdict (see {@link SameMeasurement}). When the run tests many cells (see
     * {@link Thresholds#judgedTogether}), they are judged together, by their Benjamini-Hochberg
     * adjusted p.
     *
     * @param isProfile which cells are shown but never classified
     * @param test the test every cell is judged by
     * @throws IllegalArgumentException when one cell (name and metric) comes with two different
     *     units or directions
     */
    public static ComparisonTable of(
            String baseLabel,
            String headLabel,
            List<Measurement> measurements,
            Thresholds thresholds,
            Predicate<Cell> isProfile,
            ShiftTest test) {
        return of(baseLabel, headLabel, measurements, thresholds, isProfile, test, cell -> Integer.MAX_VALUE);
    }

    /**
     * Returns {@link #of(String, String, List, Thresholds, Predicate, ShiftTest)} of cells whose
     * trials did not all stop at once: with adaptive trials, each cell is judged at the looks its
     * own trials reached (a cell decided early is not measured again), {@code ran} of its cell per
     * side at most (the shards of a suite each stop at their own look). Each look's false-discovery
     * control is over the cells that reached it.
     * A run of a fixed size ignores {@code ran}.
     */
    public static ComparisonTable of(
            String baseLabel,
            String headLabel,
            List<Measurement> measurements,
            Thresholds thresholds,
            Predicate<Cell> isProfile,
            ShiftTest test,
            ToIntFunction<CellId> ran) {
        return of(baseLabel, headLabel, measurements, thresholds, isProfile, test, ran, m -> CellValues.NO_PLACE);
    }

    /**
     * Returns {@link #of(String, String, List, Thresholds, Predicate, ShiftTest, ToIntFunction)} of
     * the measurements of a run, each at {@code place} in the run's order (see {@link RunOrder}), so
     * that a test of pairs finds each trial's partner.
     */
    static ComparisonTable of(
            String baseLabel,
            String headLabel,
            List<Measurement> measurements,
            Thresholds thresholds,
            Predicate<Cell> isProfile,
            ShiftTest test,
            ToIntFunction<CellId> ran,
            ToIntFunction<Measurement> place) {
        if (thresholds.adaptive().isPresent()) {
            return adaptive(baseLabel, headLabel, measurements, thresholds, isProfile, test, ran, place);
        }
        return judged(baseLabel, headLabel, CellValues.grouped(measurements, place), thresholds, isProfile, test);
    }

    /**
     * Compares each cell's two sides with {@code test}, as {@link #of(String, String, List, Thresholds,
     * Predicate, ShiftTest)} does measurements: the way in for values read already grouped by cell, the
     * cells in {@code values} in the order first read.
     *
     * @param values the values of each cell, every cell once (by name and metric)
     * @param thresholds the verdict rules' settings, of a run of a fixed size
     * @throws IllegalArgumentException when one cell (name and metric) is given twice, or the
     *     thresholds are of a run with adaptive trials (its looks need each value's trial)
     */
    public static ComparisonTable of(
            String baseLabel,
            String headLabel,
            Collection<CellValues> values,
            Thresholds thresholds,
            Predicate<Cell> isProfile,
            ShiftTest test) {
        if (thresholds.adaptive().isPresent()) {
            throw new IllegalArgumentException("values grouped by cell are of a run of a fixed size");
        }
        Map<Cell, CellValues> byCell = new LinkedHashMap<>(values.size() * 4 / 3 + 1);
        Map<CellId, Cell> byId = new HashMap<>(values.size() * 4 / 3 + 1);
        for (CellValues v : values) {
            Cell known = byId.putIfAbsent(v.cell().id(), v.cell());
            if (known != null) {
                throw new IllegalArgumentException("cell " + v.cell().id() + " is reported both as " + describe(known)
                        + " and as " + describe(v.cell()));
            }
            byCell.put(v.cell(), v);
        }
        return judged(baseLabel, headLabel, byCell, thresholds, isProfile, test);
    }

    private static ComparisonTable judged(
            String baseLabel,
            String headLabel,
            Map<Cell, CellValues> values,
            Thresholds thresholds,
            Predicate<Cell> isProfile,
            ShiftTest test) {
        // Each cell is judged on its own: on a table of thousands, the cores share them, in order.
        List<CellComparison> rows = values.values().parallelStream()
                .map(v -> row(v, thresholds, isProfile.test(v.cell()), test))
                .collect(Collectors.toCollection(ArrayList::new));
        rows = followersDetectable(SameMeasurement.fold(rows, values), thresholds);
        return new ComparisonTable(baseLabel, headLabel, thresholds, together(rows, thresholds), List.of());
    }

    /**
     * Returns {@code rows} judged together by their Benjamini-Hochberg adjusted p when the thresholds
     * say so for their number of tests (see {@link CellComparison#tested}); as they are otherwise.
     * A row that follows another's verdict follows it again.
     */
    private static List<CellComparison> together(List<CellComparison> rows, Thresholds thresholds) {
        boolean[] tested = new boolean[rows.size()];
        int count = 0;
        for (int i = 0; i < rows.size(); i++) {
            tested[i] = rows.get(i).tested();
            count += tested[i] ? 1 : 0;
        }
        if (!thresholds.judgedTogether(count)) {
            return rows;
        }
        List<Comparison> judged = FalseDiscovery.apply(
                rows.stream().map(CellComparison::comparison).toList(), tested, thresholds);
        List<CellComparison> out = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            // A row whose verdict changed claims another detectable change (see Comparison#detectable).
            CellComparison row = rows.get(i).withComparison(judged.get(i));
            out.add(
                    row.comparison().verdict() == rows.get(i).comparison().verdict()
                            ? row
                            : row.withDetectable(thresholds));
        }
        if (out.stream().noneMatch(r -> r.sameAs().isPresent())) {
            return out;
        }
        Map<CellId, Verdict> verdicts = new HashMap<>();
        out.forEach(r -> verdicts.put(r.cell().id(), r.comparison().verdict()));
        return followersDetectable(SameMeasurement.followAgain(out, verdicts), thresholds);
    }

    /**
     * Returns {@code rows} with the detectable change of each row that follows another's verdict
     * (see {@link CellComparison#sameAs}) worked out again for that verdict under {@code thresholds},
     * so that every renderer shows the one figure; the rows that follow none are as they are.
     */
    private static List<CellComparison> followersDetectable(List<CellComparison> rows, Thresholds thresholds) {
        if (rows.stream().noneMatch(r -> r.sameAs().isPresent())) {
            return rows;
        }
        return rows.stream()
                .map(r -> r.sameAs().isPresent() ? r.withDetectable(thresholds) : r)
                .collect(Collectors.toCollection(ArrayList::new));
    }

    private static CellComparison row(CellValues values, Thresholds thresholds, boolean profile, ShiftTest test) {
        Cell cell = values.cell();
        Comparison.Judged judged =
                test.judge(values.trials(Side.BASE), values.trials(Side.HEAD), cell.direction(), thresholds, profile);
        // Far trials set aside are shown, each with how far it lay from its side's median.
        List<Outlier> outliers = new ArrayList<>();
        setAside(values, Side.BASE, judged.baseSetAside(), outliers);
        setAside(values, Side.HEAD, judged.headSetAside(), outliers);
        Comparison c = judged.comparison();
        double baseMedian = Sample.median(values.values(Side.BASE));
        double medianChange =
                baseMedian > 0 ? (Sample.median(values.values(Side.HEAD)) / baseMedian - 1) * 100 : Double.NaN;
        if (judged.ofTrials().isEmpty()) {
            CellComparison row = new CellComparison(
                    cell,
                    c,
                    Optional.empty(),
                    Double.NaN,
                    Double.NaN,
                    outliers,
                    Optional.empty(),
                    Optional.empty(),
                    List.of(),
                    c.detectable(thresholds),
                    medianChange);
            // Where the pairs judged, Welch's test on the same trials as independent samples, beside them.
            boolean paired = c.statistic().kind() == Statistic.Kind.PAIRED_T
                    || c.statistic().kind() == Statistic.Kind.SIGNED_RANK;
            return !paired
                    ? row
                    : row.withWelch(KnownTests.TRIALS
                            .judge(
                                    Trials.of(values.values(Side.BASE)),
                                    Trials.of(values.values(Side.HEAD)),
                                    cell.direction(),
                                    thresholds,
                                    profile)
                            .comparison());
        }
        // The medians of the builds decided: their spread is how far code layout alone moves the cell.
        double spread = Math.max(nanToZero(c.base().cv()), nanToZero(c.head().cv()));
        return new CellComparison(
                cell,
                c,
                judged.ofTrials(),
                spread,
                Double.NaN,
                outliers,
                Optional.empty(),
                Optional.empty(),
                List.of(),
                c.detectable(thresholds),
                medianChange);
    }

    /**
     * Classifies the cells of a run with adaptive trials: each look (the first {@code n_k} trials
     * of each side) at its level, and for each cell the look that stands (see
     * {@link Sequential#standing}). Trials past the last whole look (a round cut short) wait for
     * it.
     */
    private static ComparisonTable adaptive(
            String baseLabel,
            String headLabel,
            List<Measurement> measurements,
            Thresholds thresholds,
            Predicate<Cell> isProfile,
            ShiftTest test,
            ToIntFunction<CellId> ranOf,
            ToIntFunction<Measurement> place) {
        Sequential design = thresholds.adaptive().orElseThrow();
        int ran = measurements.stream().mapToInt(m -> m.trial() + 1).max().orElse(0);
        List<Integer> sizes = design.looks();
        int looks = looks(sizes, ran);
        // The last trial each cell was measured in: a cell decided at an early look is not measured
        // in the rounds after it, and stands at the look its own trials reached.
        Map<CellId, Integer> reach = new HashMap<>();
        for (Measurement m : measurements) {
            reach.merge(m.cell().id(), m.trial() + 1, Math::max);
        }
        Map<CellId, Integer> cellLooks = new HashMap<>();
        reach.forEach((id, own) ->
                cellLooks.put(id, Math.min(looks(sizes, Math.min(ran, ranOf.applyAsInt(id))), round(sizes, own))));
        List<Map<Cell, CellComparison>> byLook = new ArrayList<>();
        for (int k = 1; k <= looks; k++) {
            int n = sizes.get(k - 1);
            int at = k;
            Thresholds level = thresholds.atLook(k);
            Map<Cell, CellComparison> rows = new LinkedHashMap<>();
            for (CellComparison r : of(
                            baseLabel,
                            headLabel,
                            measurements.stream()
                                    .filter(m -> m.trial() < n
                                            && cellLooks.get(m.cell().id()) >= at)
                                    .toList(),
                            level,
                            isProfile,
                            test,
                            id -> Integer.MAX_VALUE,
                            place)
                    .rows()) {
                int own = cellLooks.get(r.cell().id());
                rows.put(r.cell(), r.withLook(new Look(k, own, n, level.testAlpha())));
            }
            byLook.add(rows);
        }
        Set<Cell> cells = new java.util.LinkedHashSet<>(byLook.get(looks - 1).keySet());
        byLook.forEach(l -> cells.addAll(l.keySet()));
        List<CellComparison> rows = new ArrayList<>();
        for (Cell cell : cells) {
            List<CellComparison> seen = byLook.stream()
                    .map(l -> l.get(cell))
                    .filter(Objects::nonNull)
                    .toList();
            // A look's rows were judged under its own level; the table's thresholds are the run's.
            rows.add(seen.get(Sequential.standing(
                            seen.stream().map(r -> r.comparison().verdict()).toList()))
                    .withDetectable(thresholds));
        }
        Map<CellId, Verdict> verdicts = new HashMap<>();
        rows.forEach(r -> verdicts.put(r.cell().id(), r.comparison().verdict()));
        return new ComparisonTable(
                baseLabel,
                headLabel,
                thresholds,
                followersDetectable(SameMeasurement.followAgain(rows, verdicts), thresholds),
                List.of());
    }

    /**
     * Returns the look whose round holds trial {@code reach - 1} (from 0): the last look a cell
     * measured up to that trial took part in, whether or not its last trials were kept.
     */
    private static int round(List<Integer> sizes, int reach) {
        int k = 0;
        while (k < sizes.size() - 1 && sizes.get(k) < reach) {
            k++;
        }
        return k + 1;
    }

    /** Returns how many of the looks at {@code sizes} trials per side a run of {@code ran} trials per side has taken. */
    private static int looks(List<Integer> sizes, int ran) {
        int looks = 1;
        while (looks < sizes.size() && sizes.get(looks) <= ran) {
            looks++;
        }
        return looks;
    }

    /**
     * Returns whether more trials could change what this table says of some cell (see
     * {@link Comparison#undecided}): always false for a run of a fixed size. Rows that follow
     * another's verdict are not counted.
     */
    public List<CellComparison> undecided() {
        if (thresholds.adaptive().isEmpty()) {
            return List.of();
        }
        return rows.stream()
                .filter(r -> r.sameAs().isEmpty()
                        && !r.countedInstead()
                        && r.comparison().undecided(thresholds))
                .toList();
    }

    /**
     * Returns why some rows cannot be shown as they stand (see {@link CellComparison#inconsistency}),
     * one line a row; empty when every row is consistent, as the verdict rules promise.
     */
    public List<String> inconsistencies() {
        List<String> out = new ArrayList<>();
        for (CellComparison r : rows) {
            r.inconsistency(thresholds).ifPresent(out::add);
        }
        return out;
    }

    /** Adds the values of {@code side} at {@code positions} to {@code outliers}. */
    private static void setAside(CellValues values, Side side, List<Integer> positions, List<Outlier> outliers) {
        if (positions.isEmpty()) {
            return;
        }
        double median = Sample.median(values.values(side));
        for (int i : positions) {
            double v = values.value(side, i);
            outliers.add(new Outlier(side, values.build(side, i), values.trial(side, i), v, (v / median - 1) * 100));
        }
    }

    private static double nanToZero(double v) {
        return Double.isNaN(v) ? 0 : v;
    }

    /**
     * Returns how many rows have each verdict, every verdict present (zero counts included); a row
     * that measures another cell again (see {@link CellComparison#sameAs}) is not counted.
     */
    public Map<Verdict, Integer> counts() {
        int[] counts = new int[Verdict.values().length];
        for (CellComparison r : rows) {
            if (r.sameAs().isEmpty() && !r.countedInstead()) {
                counts[r.comparison().verdict().ordinal()]++;
            }
        }
        return counted(counts);
    }

    /**
     * Returns how many benchmarks (cell names) have each verdict, every verdict present: a benchmark
     * takes the first verdict, in declaration order, of its metrics (a regression of its allocations
     * makes it a regression whatever its time did). What a headline counts: one benchmark measured
     * as time and as throughput is one.
     */
    public Map<Verdict, Integer> benchmarks() {
        // The rows come in verdict order: a benchmark's first row has its first verdict.
        Set<String> seen = new HashSet<>(rows.size() * 2);
        int[] counts = new int[Verdict.values().length];
        for (CellComparison r : rows) {
            if (r.sameAs().isEmpty() && !r.countedInstead() && seen.add(r.cell().name())) {
                counts[r.comparison().verdict().ordinal()]++;
            }
        }
        return counted(counts);
    }

    /**
     * Returns whether the table compares nothing: no cell was measured on both sides (the sides
     * share no cell, as when every benchmark was renamed, or a side has none). True for a table of
     * no rows.
     */
    public boolean comparesNothing() {
        return rows.stream()
                .noneMatch(r ->
                        r.comparison().base().n() > 0 && r.comparison().head().n() > 0);
    }

    /**
     * Returns the rows the run did not measure ({@link Caveat#NOT_MEASURED}: a shard of the suite
     * without results), counted among the inconclusive ones: a gate cannot pass what nobody measured.
     */
    public List<CellComparison> notMeasured() {
        return rows.stream()
                .filter(r -> r.comparison().caveats().contains(Caveat.NOT_MEASURED))
                .toList();
    }

    /** Returns how many rows were judged together or on their own: the run's tests. */
    public int tested() {
        int tested = 0;
        for (CellComparison r : rows) {
            tested += r.tested() ? 1 : 0;
        }
        return tested;
    }

    /**
     * Returns {@code counts}, by verdict ordinal, as a map of every verdict: the rows are counted in an
     * array, not a map, since a report counts tens of thousands of them several times.
     */
    private static Map<Verdict, Integer> counted(int[] counts) {
        Map<Verdict, Integer> map = new EnumMap<>(Verdict.class);
        for (Verdict v : Verdict.values()) {
            map.put(v, counts[v.ordinal()]);
        }
        return map;
    }

    private static String describe(Cell cell) {
        return CellUnits.describe(cell);
    }
}
