package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.perfab.model.RunResults;

/** What the demo tells a new user when the machine hid its planted slowdown. */
class DemoCommandTest {
    private static final RunResults BROKER = ReportCommand.read(
            Path.of("..", "report", "src", "test", "resources", "golden", "run-results.json"));

    @Test
    void aCaughtSlowdownNeedsNoWord() {
        assertEquals(Optional.empty(), DemoCommand.tooNoisy(BROKER, "publish/256B/1sub"));
    }

    @Test
    void aHiddenSlowdownIsExplainedWithTheTrialsSpreadAndWhatTheyCouldConfirm() {
        String said = DemoCommand.tooNoisy(BROKER, "fanout/10sub").orElseThrow();
        assertTrue(said.startsWith("perfab: this machine was too noisy to show the demo's planted change: the feature"
                + " branch makes fanout/10sub about 8% slower, but its trials varied by 19.1% (main) and 32.2%"
                + " (feature), so 5 trials per side could confirm only a change of about "), said);
        assertTrue(said.endsWith("% or more. perfab says inconclusive rather than guess. On a quieter machine, or with"
                + " --trials 20 --max-trials 60, it shows."), said);
    }
}
