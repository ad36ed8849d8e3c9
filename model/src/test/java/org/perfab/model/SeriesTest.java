package org.perfab.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.perfab.model.Series.Reading;

class SeriesTest {
    private static Reading reading(String date, String run, String key, double ratio) {
        return new Reading(LocalDate.parse(date), run, "c0ffee", "Xeon", key, ratio);
    }

    @Test
    void ordersRunsByDateThenByWhereEachFirstAppears() {
        Series series = new Series(List.of(reading("2026-09-03", "late", "a", 1.0),
                reading("2026-09-01", "early", "a", 2.0), reading("2026-09-01", "early", "b", 3.0),
                reading("2026-09-03", "same-day", "b", 4.0)));
        assertEquals(List.of("early", "late", "same-day"), series.runs());
        assertEquals(List.of(2.0, 1.0), series.byKey().get("a").stream().map(Reading::ratio).toList());
        assertEquals(List.of(3.0, 4.0), series.byKey().get("b").stream().map(Reading::ratio).toList());
    }

    @Test
    void aRunHasOneDateAndOneReadingPerKey() {
        assertThrows(IllegalArgumentException.class, () -> new Series(List.of(reading("2026-09-01", "r", "k", 1),
                reading("2026-09-01", "r", "k", 2))));
        assertThrows(IllegalArgumentException.class, () -> new Series(List.of(reading("2026-09-01", "r", "k", 1),
                reading("2026-09-02", "r", "j", 2))));
    }
}
