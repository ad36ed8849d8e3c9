package org.perfab.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.perfab.stats.Direction;

class UnitsTest {
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "ns, LOWER_IS_BETTER", "us, LOWER_IS_BETTER", "\u00b5s, LOWER_IS_BETTER", "ms, LOWER_IS_BETTER",
        "s, LOWER_IS_BETTER", "ns/op, LOWER_IS_BETTER", "sec/op, LOWER_IS_BETTER",
        "B/op, LOWER_IS_BETTER", "allocs/op, LOWER_IS_BETTER", "cycles/op, LOWER_IS_BETTER",
        "ops/s, HIGHER_IS_BETTER", "msg/s, HIGHER_IS_BETTER", "MB/s, HIGHER_IS_BETTER",
        "B/sec, HIGHER_IS_BETTER", "requests/second, HIGHER_IS_BETTER", "Hz, HIGHER_IS_BETTER",
        "ops, HIGHER_IS_BETTER",
    })
    void infersTheDirectionFromTheUnit(String unit, Direction expected) {
        assertEquals(Optional.of(expected), Units.direction(unit));
    }

    @ParameterizedTest
    @CsvSource({"points", "''", "ratio", "%", "/s"})
    void saysNothingForAUnitThatTellsNothing(String unit) {
        assertEquals(Optional.empty(), Units.direction(unit));
    }
}
