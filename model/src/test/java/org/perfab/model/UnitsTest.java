package org.perfab.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.perfab.stats.Direction;

class UnitsTest {
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "ns, LOWER_IS_BETTER",
        "us, LOWER_IS_BETTER",
        "\u00b5s, LOWER_IS_BETTER",
        "ms, LOWER_IS_BETTER",
        "s, LOWER_IS_BETTER",
        "ns/op, LOWER_IS_BETTER",
        "sec/op, LOWER_IS_BETTER",
        "B/op, LOWER_IS_BETTER",
        "allocs/op, LOWER_IS_BETTER",
        "cycles/op, LOWER_IS_BETTER",
        "ops/s, HIGHER_IS_BETTER",
        "msg/s, HIGHER_IS_BETTER",
        "MB/s, HIGHER_IS_BETTER",
        "B/sec, HIGHER_IS_BETTER",
        "requests/second, HIGHER_IS_BETTER",
        "Hz, HIGHER_IS_BETTER",
        "ops, HIGHER_IS_BETTER",
        "Mb/s, HIGHER_IS_BETTER",
        "KiB, LOWER_IS_BETTER",
        "Bytes, LOWER_IS_BETTER",
        // A time per unit of time is a share of time (GC time each second): a cost, not a rate.
        "ms/s, LOWER_IS_BETTER",
        "ns/s, LOWER_IS_BETTER",
        "us/sec, LOWER_IS_BETTER",
    })
    void infersTheDirectionFromTheUnit(String unit, Direction expected) {
        assertEquals(Optional.of(expected), Units.direction(unit));
    }

    @ParameterizedTest
    @CsvSource({"points", "''", "ratio", "%", "/s"})
    void saysNothingForAUnitThatTellsNothing(String unit) {
        assertEquals(Optional.empty(), Units.direction(unit));
    }

    @ParameterizedTest(name = "{0} {1} = {3} {2}")
    @CsvSource({
        "1500, ns, us, 1.5",
        "2, ms/op, ns/op, 2000000",
        "1, MB/s, Mb/s, 8",
        "8, Mb/s, MB/s, 1",
        "1, KiB, B, 1024",
        "1, kB, B, 1000",
        "3, ms/s, ns/s, 3000000",
        "1, B/sec, B/s, 1",
        "1, GiB, Mib, 8192",
    })
    void convertsWithinAKind(double value, String from, String to, double expected) {
        assertEquals(expected, Units.convert(value, from, to).orElseThrow(), expected * 1e-12);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"ns, B", "ns/op, ns", "MB/s, MB/op", "mb, MB", "ops/s, msg/s", "points, score"})
    void neverTakesUnitsOfAnotherKindAsEqual(String from, String to) {
        assertEquals(Optional.empty(), Units.convert(1, from, to));
    }

    @ParameterizedTest(name = "{0} {1} -> {3}{4} {2}")
    @CsvSource(
            delimiter = '|',
            value = {
                "37423436 | ns/op | ms/op | 37.423436 | ''",
                "999 | ns | ns | 999 | ''",
                "1000 | ns | \u00b5s | 1 | ''",
                "0.0374 | s | ms | 37.4 | ''",
                "68.8 | us | \u00b5s | 68.8 | ''",
                "7200 | s | s | 7200 | ''",
                "3145728 | B/op | MiB/op | 3 | ''",
                "512 | B | B | 512 | ''",
                "12411 | msg/s | msg/s | 12.411 | k",
                "9999 | ops/s | ops/s | 9999 | ''",
                "2.5e9 | allocs | allocs | 2.5 | G",
                "125 | Mb/s | Mb/s | 125 | ''",
                "0.5 | ns/op | ns/op | 0.5 | ''",
                "0 | ns | ns | 0 | ''",
                "512.2 | MB/s | MB/s | 512.2 | ''",
                "2048 | MB | GB | 2.048 | ''",
                "0.5 | KB/s | B/s | 500 | ''",
                "1536 | KiB | MiB | 1.5 | ''",
            })
    void showsValuesInAUnitPeopleRead(double value, String unit, String shown, double expected, String prefix) {
        Units.Display d = Units.display(unit, value);
        assertEquals(shown, d.unit());
        assertEquals(prefix, d.prefix());
        assertEquals(expected, value * d.factor(), Math.abs(expected) * 1e-12);
    }
}
