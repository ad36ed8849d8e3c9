package org.perfab.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.perfab.model.Cell;
import org.perfab.stats.Direction;

class CellGlobTest {
    @ParameterizedTest(name = "{0} ~ {1}:{2} = {3}")
    @CsvSource({
        "batched/*:p50, batched/1KiB, p50, true",
        "batched/*:p50, batched/1KiB, throughput, false",
        "batched/*:p50, batched/1KiB/8pub, p50, false",
        "batched/**:p50, batched/1KiB/8pub, p50, true",
        "batched/*, batched/1KiB, throughput, true",
        "publish/?56B/1sub, publish/256B/1sub, p50, true",
        "publish/?56B/1sub, publish/1256B/1sub, p50, false",
        "startup, startup, wall, true",
        "startup, startup2, wall, false",
        "*:p99*, fanout, p999, true",
        "a.b, axb, t, false",
        "'[x]', '[x]', t, true",
    })
    void matchesNameAndMetric(String glob, String name, String metric, boolean expected) {
        assertEquals(expected, CellGlob.of(glob).matches(new Cell(name, metric, "ns", Direction.LOWER_IS_BETTER)));
    }

    @ParameterizedTest
    @CsvSource({"''", "a:b:c"})
    void rejectsMalformedPatterns(String glob) {
        assertThrows(IllegalArgumentException.class, () -> CellGlob.of(glob));
    }
}
