package org.perfab.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Set;

/**
 * What a correct perfab must say of a cell whose cost the head multiplied (three or four times the
 * work), measured by a real tool on a machine that may be busy: a shared runner, or
 * {@code scripts/ci-under-load}. Were both sides running one side's code, the change would be about
 * 0%: a regression then needs the test to err (at most alpha of such runs), and either verdict here
 * needs a change of {@link #AT_LEAST} percent, which a few trials' spread reaches by chance only
 * seldom, even a busy machine's.
 */
public final class Slowdowns {
    /**
     * The least change, in percent, that a multiplied cost is measured at: on a busy machine a
     * tripled cost has measured as little as +60%, since what it costs to start each run grows with
     * the load and is the same on both sides; one side's code measured twice is about 0%.
     */
    public static final double AT_LEAST = 50;

    private Slowdowns() {}

    /**
     * Asserts what a multiplied cost must read at a few trials: a regression, or inconclusive (worse
     * past the inconclusive threshold but not confirmed: on a busy machine one slow trial of three
     * leaves the test short), measured at least {@link #AT_LEAST} percent slower. Never unchanged,
     * small, too noisy to tell or an improvement.
     */
    public static void foundOrUnconfirmed(JsonNode row) {
        assertNotNull(row, "the cell is in the results");
        assertTrue(
                Set.of("regression", "inconclusive")
                        .contains(row.path("verdict").asText()),
                row.toString());
        assertSlower(row);
    }

    /**
     * Asserts what a multiplied cost must read with trials enough for the noise (adaptive rounds,
     * or a measure the neighbours cannot move such as CPU time): a regression, measured at least
     * {@link #AT_LEAST} percent slower.
     */
    public static void found(JsonNode row) {
        assertNotNull(row, "the cell is in the results");
        assertEquals("regression", row.path("verdict").asText(), row.toString());
        assertSlower(row);
    }

    private static void assertSlower(JsonNode row) {
        assertEquals("lower", row.path("direction").asText(), "a cost: " + row);
        assertTrue(row.path("pctChange").asDouble() >= AT_LEAST, "measured at least +" + AT_LEAST + "%: " + row);
    }
}
