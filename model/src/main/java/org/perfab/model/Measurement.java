package org.perfab.model;

import java.util.Objects;

/**
 * One value of one cell, from one trial of one build of one side.
 *
 * @param cell what was measured
 * @param side which side it was measured on
 * @param build which build of that side, from 0 (release checks build each side several times)
 * @param trial which trial, from 0: the position of this value among the cell's values on this
 *     side and build
 * @param value the measured value, in the cell's unit; finite
 */
public record Measurement(Cell cell, Side side, int build, int trial, double value) {

    public Measurement {
        Objects.requireNonNull(cell, "cell");
        Objects.requireNonNull(side, "side");
        if (build < 0 || trial < 0) {
            throw new IllegalArgumentException("build and trial count from 0");
        }
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException("cell " + cell.id() + ": value " + value + " is not a finite number");
        }
    }
}
