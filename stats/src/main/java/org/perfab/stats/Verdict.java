package org.perfab.stats;

/** The class a cell's comparison falls in. */
public enum Verdict {
    /** Worse, significant ({@code p < alpha}) and at least the minimum effect. */
    REGRESSION("regression"),
    /**
     * Not a regression, worse, and at least the inconclusive threshold: a big move the test could
     * not confirm. Never to be shown as a pass.
     */
    INCONCLUSIVE("inconclusive"),
    /**
     * Worse and significant, but under the minimum effect: small and real. The bar keeps such a
     * change from crying wolf; it is not a pass either (a 1.5% loss that holds on every runner is
     * worth a bisect before a release).
     */
    SMALL("small"),
    /** Better, significant and at least the minimum effect. */
    IMPROVEMENT("improvement"),
    /**
     * Too noisy to tell: not confirmed either way, and the trials could not have shown a change
     * past the inconclusive threshold, or they disagree in a way that no test settles (far trials on
     * one side only, two modes, significant alone but not among the run's many cells). Never a
     * pass.
     */
    NOISY("noisy"),
    /** Everything else: the trials rule out a change the rules care about. */
    UNCHANGED("unchanged"),
    /** The cell is a profile (its workload says so): shown, never classified. */
    PROFILE("profile"),
    /** A side has fewer than two values: nothing can be said. */
    NO_DATA("no-data");

    private final String id;

    Verdict(String id) {
        this.id = id;
    }

    /**
     * Returns whether the test confirmed this change: a regression, an improvement or a small
     * change. More trials cannot undo it, and judging many cells together may.
     */
    public boolean significant() {
        return this == REGRESSION || this == IMPROVEMENT || this == SMALL;
    }

    /** The name used in files: {@code regression}, ..., {@code no-data}. */
    public String id() {
        return id;
    }

    /**
     * Returns the verdict named {@code id}.
     *
     * @throws IllegalArgumentException when there is none
     */
    public static Verdict fromId(String id) {
        for (Verdict v : values()) {
            if (v.id.equals(id)) {
                return v;
            }
        }
        throw new IllegalArgumentException("unknown verdict '" + id + "'");
    }
}
