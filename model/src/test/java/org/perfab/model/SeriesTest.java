package org.perfab.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.perfab.failure.BadInputException;
import org.perfab.model.Series.Reading;

class SeriesTest {
    private static Reading reading(String date, String run, String key, double ratio) {
        return new Reading(LocalDate.parse(date), run, "c0ffee", "Xeon", key, ratio);
    }

    @Test
    void writesWhatItReadsWithHostileTextQuoted() {
        Series series = new Series(List.of(
                new Reading(LocalDate.parse("2026-09-01"), "r1", "abc", "Intel(R) Xeon(R), 2.20GHz", "parse,\"big\"", 1.5),
                new Reading(LocalDate.parse("2026-09-01"), "r1", "abc", "Intel(R) Xeon(R), 2.20GHz", "a\nb", 0.25),
                new Reading(LocalDate.parse("2026-09-02"), "r2", "def", "EPYC", "parse,\"big\"", 1e-7)));
        String csv = series.write();
        assertTrue(csv.startsWith("date,run,commit,cpu,key,ratio\n"), csv);
        assertTrue(csv.contains("\"Intel(R) Xeon(R), 2.20GHz\",\"parse,\"\"big\"\"\",1.5"), csv);
        assertTrue(csv.contains(",0.0000001\n"), "no exponent in a ratio: " + csv);
        assertEquals(series, Series.read(csv, "ratios.csv"));
    }

    @Test
    void findsColumnsByNameSkipsBlankLinesAndOrdersRunsByDate() {
        String csv = """
                key,ratio,extra,cpu,commit,run,date
                a,1.0,x,Xeon,c2,late,2026-09-03

                a,2.0,x,Xeon,c1,early,2026-09-01
                b,3.0,x,Xeon,c1,early,2026-09-01
                b,4.0,x,EPYC,c3,same-day,2026-09-03
                """;
        Series series = Series.read(csv, "ratios.csv");
        assertEquals(List.of("early", "late", "same-day"), series.runs());
        assertEquals(List.of(2.0, 1.0), series.byKey().get("a").stream().map(Reading::ratio).toList());
        assertEquals(List.of(3.0, 4.0), series.byKey().get("b").stream().map(Reading::ratio).toList());
        assertTrue(series.write().startsWith("date,run,commit,cpu,key,ratio\n2026-09-01,early,c1,Xeon,a,2\n"),
                series.write());
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', value = {
        "date,run,commit,cpu,ratio\\n2026-09-01,r,c,x,1        | ratios.csv:1: the header has no column 'key'",
        "date,run,commit,cpu,key,ratio\\n2026-09-01,r,c,x,k    | ratios.csv:2: the row has 5 fields, the header 6",
        "date,run,commit,cpu,key,ratio\\n2026-9-1,r,c,x,k,1    | ratios.csv:2: column 'date': '2026-9-1' is not an ISO date",
        "date,run,commit,cpu,key,ratio\\n\\n2026-09-01,r,c,x,k,fast | ratios.csv:3: column 'ratio': 'fast' is not a number",
        "date,run,commit,cpu,key,ratio\\n2026-09-01,r,c,x,k,0  | ratios.csv:2: a ratio must be finite and above 0",
        "date,run,commit,cpu,key,ratio\\n2026-09-01,r,c,x,k,NaN | ratios.csv:2: a ratio must be finite and above 0",
        "date,run,commit,cpu,key,ratio\\n2026-09-01,r,c,x,k,1e999 | ratios.csv:2: a ratio must be finite and above 0",
        "date,run,commit,cpu,key,ratio\\n2026-09-01,r,c,x, ,1  | ratios.csv:2: a reading needs a run and a key",
        "date,run,commit,cpu,key,ratio\\n2026-09-01,r,c,x,k,1\\n2026-09-01,r,c,x,k,2 | ratios.csv: run 'r' has two readings of key 'k'",
        "date,run,commit,cpu,key,ratio\\n2026-09-01,r,c,x,k,1\\n2026-09-02,r,c,x,j,2 | ratios.csv: run 'r' has two dates",
    })
    void namesTheLineAndColumnOfWhatIsWrong(String csv, String message) {
        BadInputException e = assertThrows(BadInputException.class,
                () -> Series.read(csv.strip().replace("\\n", "\n"), "ratios.csv"));
        assertTrue(e.getMessage().startsWith(message), e.getMessage());
    }

    @Test
    void anUnclosedQuoteIsNotACsvSeries() {
        BadInputException e = assertThrows(BadInputException.class,
                () -> Series.read("date,run,commit,cpu,key,ratio\n2026-09-01,r,c,\"x,k,1\n", "ratios.csv"));
        assertTrue(e.getMessage().startsWith("ratios.csv"), e.getMessage());
    }

    @Test
    void addingIsIdempotentPerRunAndKeyAndKeepsTheSeriesOwnReading() {
        Series series = new Series(List.of(reading("2026-09-01", "r1", "a", 1.0)));
        Series.Merge merge = series.with(List.of(reading("2026-09-01", "r1", "a", 1.0),
                reading("2026-09-01", "r1", "b", 2.0), reading("2026-09-02", "r2", "a", 1.1)));
        assertEquals(2, merge.added());
        assertEquals(1, merge.already());
        assertEquals(0, merge.conflicting());
        Series.Merge again = merge.series().with(List.of(reading("2026-09-02", "r2", "a", 9.0)));
        assertEquals(0, again.added());
        assertEquals(1, again.conflicting());
        assertEquals(1.1, again.series().byKey().get("a").get(1).ratio());
        assertEquals(merge.series(), again.series());
    }

    @Test
    void anEmptyTextIsTheEmptySeries() {
        assertEquals(Series.empty(), Series.read("  \n", "ratios.csv"));
        assertEquals("date,run,commit,cpu,key,ratio\n", Series.empty().write());
    }
}
