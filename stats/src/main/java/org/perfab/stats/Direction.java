package org.perfab.stats;

/** Which way a cell's value moves when the code gets better. */
public enum Direction {
    /** Times, latencies, allocations: a smaller value is better. */
    LOWER_IS_BETTER("lower"),
    /** Throughputs and rates: a larger value is better. */
    HIGHER_IS_BETTER("higher");

    private final String id;

    Direction(String id) {
        this.id = id;
    }

    /** The name used in files and on the command line: {@code lower} or {@code higher}. */
    public String id() {
        return id;
    }

    /**
     * Returns the direction named {@code id} ({@code lower} or {@code higher}, any case).
     *
     * @throws IllegalArgumentException naming the accepted values when {@code id} is neither
     */
    public static Direction fromId(String id) {
        for (Direction d : values()) {
            if (d.id.equalsIgnoreCase(id)) {
                return d;
            }
        }
        throw new IllegalArgumentException("unknown direction '" + id + "' (expected 'lower' or 'higher')");
    }

    /**
     * Returns whether moving from {@code base} to {@code head} is a change for the worse. Equal
     * values, and any NaN, are not worse.
     */
    public boolean isWorse(double base, double head) {
        return this == LOWER_IS_BETTER ? head > base : head < base;
    }

    /** Returns whether moving from {@code base} to {@code head} is a change for the better. */
    public boolean isBetter(double base, double head) {
        return this == LOWER_IS_BETTER ? head < base : head > base;
    }
}
