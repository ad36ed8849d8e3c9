package org.perfab.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.perfab.failure.BadInputException;

class LoadTest {
    private static final Load QUIET = new Load(3, 2.9, 0.1, 0, 1.2, 2);
    private static final Load BUSY = new Load(1, 0.5, 1.7, 0.08, 4, 6);

    @Test
    void combinesSecondsBySumAndRatesByWallTime() {
        Load both = Load.combine(List.of(QUIET, BUSY)).orElseThrow();
        assertEquals(4, both.wallSeconds(), 1e-12);
        assertEquals(3.4, both.cpuSeconds(), 1e-12);
        assertEquals((3 * 0.1 + 1.7) / 4, both.othersCores(), 1e-12);
        assertEquals(0.08 / 4, both.stealShare(), 1e-12);
        assertEquals((3 * 1.2 + 4) / 4, both.runQueueMean(), 1e-12);
        assertEquals(6, both.runQueueMax());
    }

    @Test
    void combinesInstantCommandsEqually() {
        Load a = new Load(0, 0, 1, 0, 1, 1);
        Load b = new Load(0, 0, 3, 0, 5, 5);
        assertEquals(new Load(0, 0, 2, 0, 3, 5), Load.combine(List.of(a, b)).orElseThrow());
    }

    @Test
    void combinesNothingIntoNothing() {
        assertEquals(Optional.empty(), Load.combine(List.of()));
        assertEquals(Optional.of(QUIET), Load.combine(List.of(QUIET)));
    }

    @ParameterizedTest
    @CsvSource({
        "-1, 0, 0, 0, 0, 0",
        "1, NaN, 0, 0, 0, 0",
        "1, 1, -0.5, 0, 0, 0",
        "1, 1, 0, 1.5, 0, 0",
        "1, 1, 0, 0, Infinity, 0",
        "1, 1, 0, 0, 0, -1"
    })
    void refusesFiguresOutOfTheirRange(double wall, double cpu, double others, double steal, double queue, int max) {
        assertThrows(IllegalArgumentException.class, () -> new Load(wall, cpu, others, steal, queue, max));
    }

    private static RunResults.TrialRecord trial(Optional<Load> load) {
        return new RunResults.TrialRecord(4, Side.HEAD, 0, 2, false, RunResults.Status.OK, "", 3, "", List.of())
                .withLoad(load);
    }

    @Test
    void aTrialLineKeepsItsLoadAndSaysNullWhenItIsUnknown() {
        String line = TrialJson.line(trial(Optional.of(BUSY)));
        assertTrue(
                line.contains("\"load\":{\"wallSeconds\":1.0,\"cpuSeconds\":0.5,\"othersCores\":1.7,"
                        + "\"stealShare\":0.08,\"runQueueMean\":4.0,\"runQueueMax\":6,\"cpuClock\":\"ticks\"}"),
                line);
        assertEquals(trial(Optional.of(BUSY)), TrialJson.read(line, "trials.jsonl:5"));
        // A load counted by cgroups says so; one written before the clock was told reads as untold.
        Load cgroup = new Load(1, 0.5, 1.7, 0.08, 4, 6, Load.CpuClock.CGROUP);
        assertEquals(
                trial(Optional.of(cgroup)),
                TrialJson.read(TrialJson.line(trial(Optional.of(cgroup))), "trials.jsonl:5"));
        assertEquals(
                Load.CpuClock.UNTOLD,
                TrialJson.read(line.replace(",\"cpuClock\":\"ticks\"", ""), "trials.jsonl:5")
                        .load()
                        .orElseThrow()
                        .cpuClock());
        String unknown = TrialJson.line(trial(Optional.empty()));
        assertTrue(unknown.contains("\"load\":null"), unknown);
        assertEquals(trial(Optional.empty()), TrialJson.read(unknown, "trials.jsonl:5"));
    }

    @Test
    void readsATrialLineWrittenBeforeLoadsWereRecorded() {
        String old = TrialJson.line(trial(Optional.empty())).replace(",\"load\":null", "");
        assertTrue(!old.contains("load"), old);
        assertEquals(trial(Optional.empty()), TrialJson.read(old, "trials.jsonl:1"));
    }

    @Test
    void refusesALoadThatIsNotOne() {
        String line = TrialJson.line(trial(Optional.of(BUSY)));
        BadInputException negative = assertThrows(
                BadInputException.class,
                () -> TrialJson.read(line.replace("\"othersCores\":1.7", "\"othersCores\":-1.7"), "t:1"));
        assertEquals("t:1: field 'load': othersCores -1.7 is not a finite number of at least 0", negative.getMessage());
        BadInputException unknown = assertThrows(
                BadInputException.class,
                () -> TrialJson.read(line.replace("\"runQueueMax\":6", "\"runQueueMax\":6,\"x\":1"), "t:1"));
        assertEquals("t:1: field 'load.x': unknown field", unknown.getMessage());
        BadInputException missing = assertThrows(
                BadInputException.class, () -> TrialJson.read(line.replace("\"stealShare\":0.08,", ""), "t:1"));
        assertEquals("t:1: field 'load.stealShare': missing", missing.getMessage());
    }
}
