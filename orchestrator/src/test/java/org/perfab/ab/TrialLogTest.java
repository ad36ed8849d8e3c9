package org.perfab.ab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.failure.BadInputException;
import org.perfab.model.Cell;
import org.perfab.model.Measurement;
import org.perfab.model.RunResults;
import org.perfab.model.Side;
import org.perfab.stats.Direction;

class TrialLogTest {
    @TempDir
    Path tmp;

    static RunResults.TrialRecord trial(int seq, Side side, double value) {
        Cell cell = new Cell("a", "time", "ns", Direction.LOWER_IS_BETTER);
        return new RunResults.TrialRecord(
                        seq,
                        side,
                        0,
                        seq / 2,
                        false,
                        RunResults.Status.OK,
                        "",
                        1.5,
                        "",
                        List.of(new Measurement(cell, side, 0, seq / 2, value)))
                .withLeftovers(List.of("42 sleep 9"), 10);
    }

    @Test
    void readsBackWhatItAppended() throws IOException {
        Path file = tmp.resolve("trials.jsonl");
        try (TrialLog log = TrialLog.open(file)) {
            log.append(trial(0, Side.BASE, 10));
            log.append(trial(1, Side.HEAD, 12));
        }
        assertEquals(List.of(trial(0, Side.BASE, 10), trial(1, Side.HEAD, 12)), TrialLog.recover(file));
    }

    @Test
    void cutsALastLineAKillLeftHalfWritten() throws IOException {
        Path file = tmp.resolve("trials.jsonl");
        try (TrialLog log = TrialLog.open(file)) {
            log.append(trial(0, Side.BASE, 10));
        }
        String whole = Files.readString(file);
        Files.writeString(
                file, whole.substring(0, whole.length() / 2), StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        assertEquals(List.of(trial(0, Side.BASE, 10)), TrialLog.recover(file));
        assertEquals(whole, Files.readString(file), "the torn line is gone, so the next append starts clean");
    }

    @Test
    void refusesADamagedLineBeforeTheLast() throws IOException {
        Path file = tmp.resolve("trials.jsonl");
        try (TrialLog log = TrialLog.open(file)) {
            log.append(trial(0, Side.BASE, 10));
            log.append(trial(1, Side.HEAD, 12));
        }
        List<String> lines = Files.readAllLines(file);
        Files.write(file, List.of(lines.get(0).replace("\"side\":\"base\"", "\"side\":\"middle\""), lines.get(1)));
        BadInputException e = assertThrows(BadInputException.class, () -> TrialLog.recover(file));
        assertTrue(
                e.getMessage()
                        .startsWith(file + ":1: a damaged trial record (field 'side': 'middle' is not base or head)"),
                e.getMessage());
    }
}
