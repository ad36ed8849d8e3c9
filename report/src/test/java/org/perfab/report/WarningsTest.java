package org.perfab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.perfab.model.Warning;

class WarningsTest {
    @Test
    void wordsABusyMachineWithItsFigures() {
        Warning w = Warning.of(Warning.Kind.BUSY_MACHINE, List.of(), Map.of("othersMillicores", 1834L, "cores", 2L,
                "runQueueMilli", 3912L, "runQueueMax", 7L, "stealPermille", 0L, "trials", 10L));
        assertEquals("The machine was busy while trials ran: other processes used 1.8 of 2 cores on average (run queue"
                + " 3.9, steal 0.0%); timings carry their noise, see each row's spread.", Warnings.words(w));
        Warning stolen = Warning.of(Warning.Kind.BUSY_MACHINE, List.of(), Map.of("othersMillicores", 120L, "cores", 1L,
                "runQueueMilli", 800L, "runQueueMax", 2L, "stealPermille", 73L, "trials", 3L));
        assertEquals("The machine was busy while trials ran: other processes used 0.1 of 1 core on average (run queue"
                + " 0.8, steal 7.3%); timings carry their noise, see each row's spread.", Warnings.words(stolen));
    }
}
