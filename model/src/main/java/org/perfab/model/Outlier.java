package org.perfab.model;

import java.util.Objects;

/**
 * A trial set aside as far from the other trials of its side (see
 * {@link org.perfab.stats.FarTrials}), as a hiccup of the machine puts it. Shown, never silently
 * dropped.
 *
 * @param side the side it measured
 * @param build its build
 * @param trial its number among the side's counted trials, from 0
 * @param value its value, in the cell's unit
 * @param deviation how far it lay from its side's median, in percent of it
 */
public record Outlier(Side side, int build, int trial, double value, double deviation) {
    public Outlier {
        Objects.requireNonNull(side, "side");
    }
}
