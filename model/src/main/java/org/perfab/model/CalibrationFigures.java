package org.perfab.model;

import java.util.Objects;
import java.util.Optional;

/**
 * What {@code perfab calibrate} measured, rendered once at its end: the simulation, and the real
 * runs on this machine when any were asked for.
 *
 * @param simulation the simulated cases
 * @param real the real A/B runs; empty with {@code --ab-runs 0}
 */
public record CalibrationFigures(Simulation simulation, Optional<RealRuns> real) {
    public CalibrationFigures {
        Objects.requireNonNull(simulation, "simulation");
        Objects.requireNonNull(real, "real");
    }
}
