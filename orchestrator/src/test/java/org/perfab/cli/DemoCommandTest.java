package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.perfab.model.ResultsJson;
import org.perfab.model.RunResults;

/** What the demo tells a new user when the machine hid its planted slowdown. */
class DemoCommandTest {
    private static final RunResults BROKER =
            ResultsJson.read(Path.of("..", "report", "src", "test", "resources", "golden", "ab-run.json"));

    @Test
    void aCaughtSlowdownNeedsNoWord() {
        assertEquals(Optional.empty(), DemoCommand.tooNoisy(BROKER, "publish/256B/1sub"));
    }

    @Test
    void aHiddenSlowdownIsExplainedWithTheFiguresTheTableShows() {
        assertEquals(
                Optional.of("perfab: the feature branch makes fanout/10sub about 8% slower, and this run did not"
                        + " show it: this machine was too noisy: its trials varied by 19.1% (main) and 32.2% (feature), so 5"
                        + " trials per side could miss a change of up to 28.0%. perfab says inconclusive rather than guess. On"
                        + " a quieter machine, with the trials pinned to a quiet CPU, or with --trials 20 --max-trials 60, it"
                        + " shows."),
                DemoCommand.tooNoisy(BROKER, "fanout/10sub"));
    }

    @Test
    void aSlowdownThatCameOutFasterOrWithoutDataIsNotCalledNoise() {
        assertTrue(DemoCommand.tooNoisy(BROKER, "publish/64KiB/1sub")
                .orElseThrow()
                .endsWith("it came out faster, its"
                        + " trials varied by 0.4% (main) and 0.3% (feature). Something else on this machine changed between"
                        + " the sides' trials; run it again."));
        assertTrue(DemoCommand.tooNoisy(BROKER, "removed/cell")
                .orElseThrow()
                .endsWith("did not show it: the cell has"
                        + " too few trials on a side to compare (see the trials' logs)."));
    }
}
