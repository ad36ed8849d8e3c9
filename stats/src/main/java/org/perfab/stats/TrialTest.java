package org.perfab.stats;

/**
 * Which test judges the trials of a run: what {@code --test} and a workload's {@code test:} ask for.
 * Welch's test judges wherever trials do not pair, whatever is asked.
 */
public enum TrialTest {
    /** Welch's test on each side's trials, as independent samples: the card's test. */
    WELCH("welch"),
    /** The paired test on the interleaved order's pairs ({@link PairedTest}) wherever trials pair. */
    PAIRED("paired"),
    /**
     * The pairs where the run's cells show that the runner moved both trials of a pair alike, Welch's
     * test where they do not (see {@link Pairing#decide}).
     */
    AUTO("auto");

    private final String id;

    TrialTest(String id) {
        this.id = id;
    }

    /** The name on the command line and in files. */
    public String id() {
        return id;
    }

    /**
     * Returns the test named {@code id}.
     *
     * @throws IllegalArgumentException naming the tests there are, for any other name
     */
    public static TrialTest fromId(String id) {
        for (TrialTest t : values()) {
            if (t.id.equals(id)) {
                return t;
            }
        }
        throw new IllegalArgumentException("'" + id + "' is not a test: welch, paired or auto");
    }
}
