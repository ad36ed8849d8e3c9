package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The terminal's conventions: colour on a terminal, never into a pipe unless forced, never with NO_COLOR. */
class OutputTest {
    @Test
    void colourFollowsTheTerminalAndTheConventionalVariables() {
        assertTrue(Output.colour(Map.of(), true));
        assertFalse(Output.colour(Map.of(), false), "a pipe or a file");
        assertFalse(Output.colour(Map.of("NO_COLOR", "1"), true));
        assertTrue(Output.colour(Map.of("NO_COLOR", ""), true), "NO_COLOR counts only when not empty");
        assertFalse(Output.colour(Map.of("TERM", "dumb"), true));
        assertTrue(Output.colour(Map.of("FORCE_COLOR", "1"), false));
        assertTrue(Output.colour(Map.of("CLICOLOR_FORCE", "1"), false));
        assertFalse(Output.colour(Map.of("FORCE_COLOR", "0"), false));
        assertFalse(Output.colour(Map.of("FORCE_COLOR", "1", "NO_COLOR", "1"), true), "NO_COLOR wins");
    }
}
