package org.perfab.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;
import org.perfab.stats.KnownTests;
import org.perfab.stats.Pairing;
import org.perfab.stats.Thresholds;
import org.perfab.stats.Trials;

/**
 * The one judge of a run's table: whether it comes from the run as it ends, from a saved
 * {@code results.json}, from shards merged or from a re-judgement with other settings, the same
 * trials give the same table here.
 *
 * <p>Trials a disturbance of the machine spoiled are set aside ({@link Disturbed}); each value keeps
 * its trial's place in the run's order, so that the interleaved order's pairs are found; which test
 * judges is decided once for each shard's runner ({@link Pairing#decide}); with adaptive trials each cell is
 * judged at the looks its own shard took, and the false-discovery control is over every cell of the
 * suite, not of a shard.
 */
public final class Judge {
    private Judge() {}

    /**
     * Returns the table of a run's trials, {@code trialsByShard} in the order of its shards (one list
     * for a run of the whole suite), judged with the test {@code thresholds} ask for.
     *
     * @param isProfile which cells are shown but never classified
     * @throws IllegalArgumentException when one cell (name and metric) comes with two different
     *     units or directions
     */
    public static ComparisonTable table(
            String baseLabel,
            String headLabel,
            List<List<RunResults.TrialRecord>> trialsByShard,
            Thresholds thresholds,
            Predicate<Cell> isProfile) {
        List<Measurement> all = new ArrayList<>();
        Map<CellId, Integer> ran = new HashMap<>();
        Map<CellId, Map<List<Integer>, Integer>> placesOfCell = new HashMap<>();
        List<Pairing> byShard = new ArrayList<>();
        for (List<RunResults.TrialRecord> trials : trialsByShard) {
            List<Measurement> judged = Disturbed.judged(trials, Disturbed.of(trials));
            int most = judged.stream().mapToInt(m -> m.trial() + 1).max().orElse(0);
            Map<List<Integer>, Integer> places = places(trials);
            // Each shard ran on a runner of its own: the shard's cells say whether its runner moved
            // both trials of a pair alike. Where it did not, its trials are judged as they do not pair.
            List<Trials[]> cells = new ArrayList<>();
            CellValues.grouped(
                            judged,
                            m -> places.getOrDefault(List.of(m.side().ordinal(), m.trial()), CellValues.NO_PLACE))
                    .values()
                    .forEach(v -> cells.add(new Trials[] {v.trials(Side.BASE), v.trials(Side.HEAD)}));
            Pairing pairing = Pairing.decide(thresholds.test(), cells);
            byShard.add(pairing);
            Map<List<Integer>, Integer> kept = pairing.inPairs() ? places : Map.of();
            judged.forEach(m -> {
                ran.put(m.cell().id(), most);
                placesOfCell.put(m.cell().id(), kept);
            });
            all.addAll(judged);
        }
        ToIntFunction<Measurement> place = m -> placesOfCell
                .get(m.cell().id())
                .getOrDefault(List.of(m.side().ordinal(), m.trial()), CellValues.NO_PLACE);
        return ComparisonTable.of(
                        baseLabel,
                        headLabel,
                        all,
                        thresholds,
                        isProfile,
                        KnownTests.PERFAB_PAIRS,
                        id -> ran.getOrDefault(id, Integer.MAX_VALUE),
                        place)
                .withPairing(Pairing.merged(byShard));
    }

    /**
     * Returns the place in the run's order of each counted trial that succeeded, by its side's
     * ordinal and its trial number.
     */
    private static Map<List<Integer>, Integer> places(List<RunResults.TrialRecord> trials) {
        Map<List<Integer>, Integer> places = new HashMap<>();
        for (RunResults.TrialRecord t : trials) {
            if (!t.warmup() && t.status() == RunResults.Status.OK) {
                places.put(List.of(t.side().ordinal(), t.trial()), t.seq());
            }
        }
        return places;
    }
}
