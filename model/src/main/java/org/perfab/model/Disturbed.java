package org.perfab.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.perfab.stats.Direction;
import org.perfab.stats.Disturbances;

/**
 * The trials of a run that a disturbance of the machine spoiled (see {@link Disturbances}), found
 * from the run's counted trials: what they measured and what the machine did meanwhile. One rule
 * for the run that replaces them and for every reader of its results.
 *
 * @param trial the disturbed trial
 * @param moved how many of its cells moved the same way, far beyond their spread
 * @param cells how many cells it measured
 * @param shift the median move of those cells, in percent, positive for the worse
 * @param busier how many more cores other processes kept busy than in the run's median trial of
 *     that side; NaN when not known
 * @param evidence what says it was the machine's
 */
public record Disturbed(
        RunResults.TrialRecord trial,
        int moved,
        int cells,
        double shift,
        double busier,
        Disturbances.Evidence evidence) {

    /** Returns the disturbed trials among {@code trials}: counted trials that succeeded only are judged. */
    public static List<Disturbed> of(List<RunResults.TrialRecord> trials) {
        List<List<RunResults.TrialRecord>> sides = List.of(new ArrayList<>(), new ArrayList<>());
        Map<CellId, Integer> columns = new LinkedHashMap<>();
        List<Boolean> worseUp = new ArrayList<>();
        for (RunResults.TrialRecord t : trials) {
            if (t.warmup() || t.status() != RunResults.Status.OK) {
                continue;
            }
            sides.get(t.side().ordinal()).add(t);
            for (Measurement m : t.measurements()) {
                if (columns.putIfAbsent(m.cell().id(), columns.size()) == null) {
                    worseUp.add(m.cell().direction() == Direction.LOWER_IS_BETTER);
                }
            }
        }
        double[][][] values = new double[2][][];
        double[][] others = new double[2][];
        double[][] steal = new double[2][];
        double[][] wall = new double[2][];
        double[][] cpu = new double[2][];
        for (int s = 0; s < 2; s++) {
            List<RunResults.TrialRecord> side = sides.get(s);
            values[s] = new double[side.size()][columns.size()];
            others[s] = new double[side.size()];
            steal[s] = new double[side.size()];
            wall[s] = new double[side.size()];
            cpu[s] = new double[side.size()];
            for (int i = 0; i < side.size(); i++) {
                Arrays.fill(values[s][i], Double.NaN);
                for (Measurement m : side.get(i).measurements()) {
                    values[s][i][columns.get(m.cell().id())] = m.value();
                }
                others[s][i] = side.get(i).load().map(Load::othersCores).orElse(Double.NaN);
                steal[s][i] = side.get(i).load().map(Load::stealShare).orElse(Double.NaN);
                wall[s][i] = side.get(i).load().map(Load::wallSeconds).orElse(Double.NaN);
                cpu[s][i] = side.get(i).load().map(Load::cpuSeconds).orElse(Double.NaN);
            }
        }
        boolean[] up = new boolean[worseUp.size()];
        for (int i = 0; i < up.length; i++) {
            up[i] = worseUp.get(i);
        }
        List<Disturbed> out = new ArrayList<>();
        for (Disturbances.Found f : Disturbances.of(values, up, others, steal, wall, cpu)) {
            out.add(new Disturbed(
                    sides.get(f.side()).get(f.trial()), f.moved(), f.cells(), f.shift(), f.busier(), f.evidence()));
        }
        return out;
    }

    /**
     * Returns the counted measurements of {@code trials} without those of the disturbed trials
     * (see {@link RunResults#counted}): what a run's table classifies.
     */
    public static List<Measurement> judged(List<RunResults.TrialRecord> trials, List<Disturbed> disturbed) {
        Set<Integer> out = new HashSet<>();
        disturbed.forEach(d -> out.add(d.trial().seq()));
        return RunResults.counted(
                trials.stream().filter(t -> !out.contains(t.seq())).toList());
    }
}
