package org.perfab.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.perfab.model.Series.Reading;

class SeriesTest {
    private static Reading reading(String date, String run, String key, double ratio) {
        return new Reading(LocalDate.parse(date), run, "c0ffee", "Xeon", key, ratio);
    }

    private static Reading timed(String date, String run, String time, double ratio) {
        return new Reading(
                LocalDate.parse(date),
                run,
                "c0ffee",
                "Xeon",
                "k",
                ratio,
                "",
                Optional.of(Instant.parse(date + "T" + time + "Z")));
    }

    @Test
    void aKeyNeverHoldsAControlCharacterOfAHostileName() {
        assertEquals("x%0Ay:m%1B[31m", Series.key(':', List.of("x\ny", "m\u001b[31m")));
        assertEquals("bidi%u202E:time", Series.key(':', List.of("bidi\u202e", "time")));
        assertEquals("x:y%3Az", Series.key(':', List.of("x", "y:z")), "the separator, as before");
        assertEquals("plain/name:time", Series.key(':', List.of("plain/name", "time")));
    }

    @Test
    void ordersRunsByDateThenByRunIdNeverByPlaceInTheFile() {
        Series series = new Series(List.of(
                reading("2026-09-03", "same-day", "a", 1.0),
                reading("2026-09-01", "early", "a", 2.0),
                reading("2026-09-01", "early", "b", 3.0),
                reading("2026-09-03", "late", "b", 4.0)));
        assertEquals(List.of("early", "late", "same-day"), series.runs(), "a date's runs by id, as text");
        assertEquals(
                List.of(2.0, 1.0),
                series.byKey().get("a").stream().map(Reading::ratio).toList());
        assertEquals(
                List.of(3.0, 4.0),
                series.byKey().get("b").stream().map(Reading::ratio).toList());
    }

    @Test
    void ordersASameDaysRunsByTimeWhenEachHasOneElseByNumericIdThenText() {
        assertEquals(
                List.of("b", "a"),
                new Series(List.of(timed("2026-09-01", "a", "23:00:00", 1), timed("2026-09-01", "b", "01:00:00", 2)))
                        .runs(),
                "by time");
        assertEquals(
                List.of("9", "10", "010x", "nightly"),
                new Series(List.of(
                                reading("2026-09-01", "nightly", "k", 1),
                                reading("2026-09-01", "10", "k", 1),
                                reading("2026-09-01", "010x", "k", 1),
                                reading("2026-09-01", "9", "k", 1)))
                        .runs(),
                "GitHub's run ids by value, then other ids as text");
        assertEquals(
                List.of("9", "12"),
                new Series(List.of(timed("2026-09-01", "12", "01:00:00", 1), reading("2026-09-01", "9", "k", 1)))
                        .runs(),
                "one run without a time: all of the date by id");
        assertEquals(
                List.of("d2", "d1"),
                new Series(List.of(reading("2026-09-02", "d1", "k", 1), reading("2026-09-01", "d2", "k", 1))).runs(),
                "the date first");
    }

    @Test
    void theSameRowsInAnyFileOrderAreTheSameSeries() {
        List<Reading> rows = new ArrayList<>();
        for (int run = 1; run <= 12; run++) {
            String date = "2026-09-0" + (1 + run / 4);
            rows.add(reading(date, Integer.toString(run * 7 % 13 + 100), "a", run));
            rows.add(reading(date, Integer.toString(run * 7 % 13 + 100), "b", 20 - run));
        }
        Series asWritten = new Series(rows);
        for (long seed = 1; seed <= 5; seed++) {
            List<Reading> shuffled = new ArrayList<>(rows);
            Collections.shuffle(shuffled, new java.util.Random(seed));
            Series other = new Series(shuffled);
            assertEquals(asWritten.runs(), other.runs());
            assertEquals(asWritten.byKey(), other.byKey(), "seed " + seed);
        }
    }

    @Test
    void aRunHasOneDateOneTimeAndOneReadingPerKey() {
        assertThrows(
                IllegalArgumentException.class,
                () -> new Series(List.of(reading("2026-09-01", "r", "k", 1), reading("2026-09-01", "r", "k", 2))));
        assertThrows(
                IllegalArgumentException.class,
                () -> new Series(List.of(reading("2026-09-01", "r", "k", 1), reading("2026-09-02", "r", "j", 2))));
        Reading at2 = timed("2026-09-01", "r", "02:00:00", 1);
        Reading at3 =
                new Reading(at2.date(), "r", "c", "x", "j", 1, "", Optional.of(Instant.parse("2026-09-01T03:00:00Z")));
        assertEquals(
                "run 'r' has two times, 2026-09-01T02:00:00Z and 2026-09-01T03:00:00Z",
                assertThrows(IllegalArgumentException.class, () -> new Series(List.of(at2, at3)))
                        .getMessage());
        Reading untimed = new Reading(at2.date(), "r", "c", "x", "j", 1);
        assertEquals(List.of("r"), new Series(List.of(at2, untimed)).runs(), "a row without the time is of the run");
    }
}
