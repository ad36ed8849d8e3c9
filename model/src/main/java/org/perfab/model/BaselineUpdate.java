package org.perfab.model;

import java.time.LocalDate;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What ratcheting a baseline's floors down did ({@code perfab baseline update}): each snapshot's
 * step in turn, and the tolerances it was judged by.
 *
 * @param steps each snapshot's, in the order taken
 * @param tolerance the coherence tolerance, in percent: a snapshot whose ratios all moved together
 *     past it took nothing
 * @param dropTolerance a floor lowered by more than this, in percent, is named (it is lowered all
 *     the same)
 */
public record BaselineUpdate(List<Step> steps, double tolerance, double dropTolerance) {
    public BaselineUpdate {
        steps = List.copyOf(steps);
    }

    /**
     * What one snapshot did to the floors.
     *
     * @param snapshot the snapshot's file, as it was named
     * @param check it, checked against the floors as they stood (no budget); a tier the baseline
     *     lacks, or ratios that moved together past the tolerance, take nothing
     * @param lowered each floor it lowered, in the check's order
     * @param seeded the day of the newest snapshot the tier was seeded from, when this snapshot is
     *     older: a floor taken from it goes back in time past the window, which is said, not refused
     */
    public record Step(String snapshot, BaselineCheck check, List<Lowered> lowered, Optional<LocalDate> seeded) {
        public Step {
            Objects.requireNonNull(snapshot, "snapshot");
            Objects.requireNonNull(check, "check");
            lowered = List.copyOf(lowered);
            Objects.requireNonNull(seeded, "seeded");
        }

        /** Returns the floors it lowered by more than {@code tolerance} percent. */
        public List<Lowered> beyond(double tolerance) {
            return lowered.stream().filter(l -> l.drop() > tolerance).toList();
        }
    }

    /**
     * One floor lowered.
     *
     * @param benchmark the benchmark
     * @param from its ratio before
     * @param to its ratio after
     */
    public record Lowered(String benchmark, double from, double to) {
        /** Returns how far it fell, in percent of where it was. */
        public double drop() {
            return (1 - to / from) * 100;
        }
    }

    /** Returns how many floors the snapshots lowered in all. */
    public int lowered() {
        return steps.stream().mapToInt(s -> s.lowered().size()).sum();
    }

    /** Returns the floors lowered past the drop tolerance, over every step. */
    public int fellFar() {
        return steps.stream().mapToInt(s -> s.beyond(dropTolerance).size()).sum();
    }
}
