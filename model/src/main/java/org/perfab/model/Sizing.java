package org.perfab.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.perfab.stats.Comparison;
import org.perfab.stats.NoiseFloor;
import org.perfab.stats.Sensitivity;

/**
 * The sizing of a run, what {@code perfab plan} says: per cell of an A/A run's noise, the smallest change a run of
 * {@link NoiseFile#DEFAULT_TRIALS} trials finds, and how many builds and trials per side a run needs
 * to find a change of {@code effect} percent with {@link Comparison#POWER} power.
 *
 * @param effect the change to find, in percent; above 0
 * @param alpha the significance level, in (0, 1)
 * @param cells a row per cell, in the noise file's order
 */
public record Sizing(double effect, double alpha, List<Row> cells) {
    public Sizing {
        if (!(effect > 0) || !(alpha > 0 && alpha < 1)) {
            throw new IllegalArgumentException("the effect must be above 0 and alpha between 0 and 1");
        }
        cells = List.copyOf(cells);
    }

    /**
     * One cell's sizing.
     *
     * @param cell the cell
     * @param floor its noise: the spread within a build and between builds (NaN when unknown)
     * @param mdeAtDefault the smallest change a run of one build and {@link NoiseFile#DEFAULT_TRIALS}
     *     trials finds, in percent; infinite when it finds none
     * @param advice the builds and trials a run needs to find the sizing's effect
     */
    public record Row(CellId cell, NoiseFloor floor, double mdeAtDefault, NoiseFloor.Advice advice) {}

    /** Returns the sizing of a run that finds {@code effect} percent at {@code alpha} in the cells of {@code noise}. */
    public static Sizing of(NoiseFile noise, double effect, double alpha) {
        Sensitivity test = new Sensitivity(alpha, Comparison.POWER);
        List<Row> rows = new ArrayList<>();
        for (Map.Entry<CellId, NoiseFloor> e : noise.cells().entrySet()) {
            NoiseFloor floor = e.getValue();
            rows.add(new Row(
                    e.getKey(), floor, floor.mde(1, NoiseFile.DEFAULT_TRIALS, test), floor.advise(effect, test)));
        }
        return new Sizing(effect, alpha, rows);
    }
}
