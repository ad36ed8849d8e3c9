package org.perfab.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.perfab.failure.BadInputException;
import org.perfab.model.Series.Reading;

class SeriesFileTest {
    private static Reading reading(String date, String run, String key, double ratio) {
        return new Reading(LocalDate.parse(date), run, "c0ffee", "Xeon", key, ratio);
    }

    private static SeriesFile read(String csv) {
        return SeriesFile.read(csv, "ratios.csv");
    }

    @Test
    void writesWhatItReadsWithHostileTextQuoted() {
        Series series = new Series(List.of(
                new Reading(
                        LocalDate.parse("2026-09-01"), "r1", "abc", "Intel(R) Xeon(R), 2.20GHz", "parse,\"big\"", 1.5),
                new Reading(LocalDate.parse("2026-09-01"), "r1", "abc", "Intel(R) Xeon(R), 2.20GHz", "a\nb", 0.25),
                new Reading(LocalDate.parse("2026-09-02"), "r2", "def", "EPYC", "parse,\"big\"", 1e-7)));
        String csv = SeriesFile.of(series.readings()).write();
        assertTrue(csv.startsWith("date,run,commit,cpu,key,ratio,base,time\n"), csv);
        assertTrue(csv.contains("\"Intel(R) Xeon(R), 2.20GHz\",\"parse,\"\"big\"\"\",1.5,,\n"), csv);
        assertTrue(csv.contains(",0.0000001,,\n"), "no exponent in a ratio: " + csv);
        assertEquals(series, read(csv).series());
        assertEquals(csv, read(csv).write());
    }

    @Test
    void findsColumnsByNameSkipsBlankLinesAndKeepsTheFilesOrderAndColumns() {
        String csv = """
                key,ratio,extra,cpu,commit,run,date
                a,1.0,x,Xeon,c2,late,2026-09-03

                a,2.0,"x, y",Xeon,c1,early,2026-09-01
                b,3.00,x,Xeon,c1,early,2026-09-01
                b,4.0,,EPYC,c3,same-day,2026-09-03
                """;
        SeriesFile file = read(csv);
        assertEquals(List.of("early", "late", "same-day"), file.series().runs(), "the analysis orders runs by date");
        assertEquals(
                List.of(2.0, 1.0),
                file.series().byKey().get("a").stream().map(Reading::ratio).toList());
        assertEquals(csv.replace("\n\n", "\n"), file.write(), "the file is written back as it was read");
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(
            delimiter = '|',
            value = {
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
                "date,run,commit,cpu,key,ratio,time\\n2026-09-01,r,c,x,k,1,2am | ratios.csv:2: column 'time': '2am' is not an ISO-8601 instant",
                "date,run,commit,cpu,key,ratio,time\\n2026-09-01,r,c,x,k,1,2026-09-01T02:00:00Z\\n2026-09-01,r,c,x,j,2,2026-09-01T03:00:00Z | ratios.csv: run 'r' has two times",
                "date,run,commit,cpu,key,ratio,base\\n2026-09-01,r,c,x,k,1,a\tb | ratios.csv:2: a base is one word",
            })
    void namesTheLineAndColumnOfWhatIsWrong(String csv, String message) {
        BadInputException e =
                assertThrows(BadInputException.class, () -> read(csv.strip().replace("\\n", "\n")));
        assertTrue(e.getMessage().startsWith(message), e.getMessage());
    }

    @Test
    void readsTheBaseAndTimeWhenTheFileHasThemAndLeavesThemUnknownWhenNot() {
        Series old =
                read("date,run,commit,cpu,key,ratio\n2026-09-01,r,c,x,k,1\n").series();
        assertEquals("", old.readings().get(0).base(), "an older file: base unknown");
        assertEquals(Optional.empty(), old.readings().get(0).time());
        String csv = """
                time,key,base,ratio,date,run,commit,cpu
                2026-09-01T02:13:07Z,k,v1.4.0,1.25,2026-09-01,r1,c,x
                2026-09-01T04:13:07+02:00,j,,2,2026-09-01,r1,c,x
                ,k,v1.5.0,1.5,2026-09-02,r2,c,x
                """;
        SeriesFile file = read(csv);
        List<Reading> readings = file.series().readings();
        assertEquals(
                List.of("v1.4.0", "", "v1.5.0"),
                readings.stream().map(Reading::base).toList());
        assertEquals(
                List.of(
                        Optional.of(Instant.parse("2026-09-01T02:13:07Z")),
                        Optional.of(Instant.parse("2026-09-01T02:13:07Z")),
                        Optional.empty()),
                readings.stream().map(Reading::time).toList(),
                "an offset is the same instant");
        assertEquals(csv, file.write(), "written back as read");
        Reading r = new Reading(
                LocalDate.parse("2026-09-03"),
                "r3",
                "d",
                "x",
                "k",
                1.0,
                "v1.5.0",
                Optional.of(Instant.parse("2026-09-03T02:00:00Z")));
        assertEquals(
                "date,run,commit,cpu,key,ratio,base,time\n2026-09-03,r3,d,x,k,1,v1.5.0,2026-09-03T02:00:00Z\n",
                SeriesFile.of(List.of(r)).write(),
                "a new file has both columns");
    }

    @Test
    void anUnclosedQuoteIsNotACsvSeries() {
        BadInputException e = assertThrows(
                BadInputException.class, () -> read("date,run,commit,cpu,key,ratio\n2026-09-01,r,c,\"x,k,1\n"));
        assertTrue(e.getMessage().startsWith("ratios.csv"), e.getMessage());
    }

    @Test
    void anEmptyTextIsTheEmptyFile() {
        assertEquals(SeriesFile.empty(), read("  \n"));
        assertEquals(Series.empty(), read("  \n").series());
        assertEquals(
                "date,run,commit,cpu,key,ratio,base,time\n", SeriesFile.empty().write());
    }

    @Test
    void addingIsIdempotentPerRunAndKeyAndKeepsTheFilesOwnReading() {
        SeriesFile file = SeriesFile.of(List.of(reading("2026-09-01", "r1", "a", 1.0)));
        SeriesFile.Merge merge = file.with(SeriesFile.of(List.of(
                reading("2026-09-01", "r1", "a", 1.0),
                reading("2026-09-01", "r1", "b", 2.0),
                reading("2026-09-02", "r2", "a", 1.1))));
        assertEquals(2, merge.added());
        assertEquals(1, merge.already());
        assertEquals(0, merge.conflicting());
        SeriesFile.Merge again = merge.file().with(SeriesFile.of(List.of(reading("2026-09-02", "r2", "a", 9.0))));
        assertEquals(0, again.added());
        assertEquals(List.of(new SeriesFile.Conflict("r2", "a", 1.1, 9.0)), again.conflicts());
        assertEquals(1.1, again.file().series().byKey().get("a").get(1).ratio());
        assertEquals(merge.file(), again.file());
    }

    @Test
    void recordingKeepsTheFilesRowsColumnsAndCellsAndAppendsTheNewRows() {
        String csv = """
                date,run,commit,cpu,key,ratio,note
                2026-09-03,n3,c,cpu,k,1.20,late one
                2026-09-01,n1,a,cpu,k,1.0,"first, by hand"
                2026-09-02,n2,b,cpu,k,1.1,
                """;
        LocalDate tonight = LocalDate.parse("2026-09-04");
        SeriesFile.Merge merge = read(csv)
                .with(SeriesFile.of(List.of(
                        new Reading(tonight, "n4", "d", "cpu", "k", 1.3),
                        new Reading(tonight, "n4", "d", "cpu", "j", 0.5))));
        assertEquals(
                csv.replace("note\n", "note,base,time\n")
                                .replace("late one\n", "late one,,\n")
                                .replace("by hand\"\n", "by hand\",,\n")
                                .replace("1.1,\n", "1.1,,,\n")
                        + "2026-09-04,n4,d,cpu,k,1.3,,,\n2026-09-04,n4,d,cpu,j,0.5,,,\n",
                merge.file().write(),
                "the base and time columns the file lacks at the right");
        assertEquals(List.of("n1", "n2", "n3", "n4"), merge.file().series().runs());
    }

    @Test
    void mergingTakesTheUnionOfTheColumnsTheFilesOwnFirst() {
        String mine = """
                date,run,commit,cpu,key,ratio,note,host,note
                2026-09-02,n2,b,cpu,k,1.1,ok,runner-2,again
                2026-09-01,n1,a,cpu,k,1.0,,runner-1,
                """;
        String wiki = """
                url,key,ratio,date,run,commit,cpu,note
                http://w/1,k,0.9,2026-08-30,w1,z,cpu,from the wiki
                http://w/2,k,1.0,2026-09-01,n1,a,cpu,dup
                http://w/3,j,2.0,2026-08-30,w1,z,cpu,
                """;
        SeriesFile.Merge merge = read(mine).with(read(wiki));
        assertEquals(2, merge.added());
        assertEquals(1, merge.already());
        assertEquals("""
                date,run,commit,cpu,key,ratio,note,host,note,url
                2026-09-02,n2,b,cpu,k,1.1,ok,runner-2,again,
                2026-09-01,n1,a,cpu,k,1.0,,runner-1,,
                2026-08-30,w1,z,cpu,k,0.9,from the wiki,,,http://w/1
                2026-08-30,w1,z,cpu,j,2.0,,,,http://w/3
                """, merge.file().write(), "a name the file has twice takes the first");
        assertEquals(List.of("w1", "n1", "n2"), merge.file().series().runs());
        SeriesFile.Merge back = read(wiki).with(read(mine.replace(",note\n", ",remark\n")));
        assertEquals(
                List.of("url", "key", "ratio", "date", "run", "commit", "cpu", "note", "host", "remark"),
                back.file().columns(),
                "the file merged into keeps its own order; only what it lacks is added");
        IllegalArgumentException twice =
                assertThrows(IllegalArgumentException.class, () -> read(wiki).with(read(mine)));
        assertEquals(
                "column 'note' is in the header twice (fields 7 and 9), and which of the two to read cannot be"
                        + " told",
                twice.getMessage(),
                "which of the file's columns each would fill cannot be told");
    }

    private static final String HEADER = "date,run,commit,cpu,key,ratio,note\n";

    static Stream<Arguments> hostileHistories() {
        return Stream.of(
                Arguments.of(
                        "date,run,commit,cpu,key,ratio,note,note\n2026-09-01,r,c,x,k,1,a,b\n",
                        "wiki.csv:1: column 'note' is in the header twice (fields 7 and 8)"),
                Arguments.of(
                        "date,run,commit,cpu,key,ratio,=1+2\n2026-09-01,r,c,x,k,1,a\n",
                        "wiki.csv:1: field 7 of"
                                + " the header: '=1+2' starts with '=' and is not a number: a spreadsheet would run it as a"
                                + " formula"),
                Arguments.of(
                        HEADER + "2026-09-01,r,c,x,k,1,\"=HYPERLINK(\"\"http://e\"\")\"\n",
                        "wiki.csv:2: field 7 (column 'note'): '=HYPERLINK(\"http://e\")' starts with '='"),
                Arguments.of(
                        HEADER + "2026-09-01,r,c,x,k,1,+cmd|' /C calc'!A0\n",
                        "wiki.csv:2: field 7 (column 'note'): '+cmd|' /C calc'!A0' starts with '+'"),
                Arguments.of(
                        HEADER + "2026-09-01,r,c,x,k,1,ok\n2026-09-02,s,c,x,-2+3,1,ok\n",
                        "wiki.csv:3: field 5 (column 'key'): '-2+3' starts with '-'"),
                Arguments.of(
                        HEADER + "2026-09-01,r,c,x,k,1, @SUM(A1)\n",
                        "wiki.csv:2: field 7 (column 'note'): ' @SUM(A1)' starts with '@'"),
                Arguments.of(
                        HEADER + "2026-09-01,r,c,x,k,1,a\u001b[2Jb\n",
                        "wiki.csv:2: field 7 (column 'note') holds the control character U+001B"),
                Arguments.of(
                        HEADER + "2026-09-01,r,c,x,k\u202egnp.exe,1,a\n",
                        "wiki.csv:2: field 5 (column 'key') holds the control character U+202E"),
                Arguments.of(
                        HEADER + "2026-09-01,r,c,x,k,1,\"two\nlines\"\n",
                        "wiki.csv:2: field 7 (column 'note') holds the control character U+000A"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("hostileHistories")
    void aHistoryFromElsewhereIsRefusedWhatASpreadsheetWouldRunOrHide(String text, String message) {
        BadInputException e = assertThrows(BadInputException.class, () -> SeriesFile.readHistory(text, "wiki.csv"));
        assertTrue(e.getMessage().startsWith(message), e.getMessage());
        assertEquals(
                text.contains("note,note") ? 8 : 7,
                read(text).columns().size(),
                "the series' own file keeps such fields: they are its user's");
    }

    @Test
    void aHistoryFromElsewhereMayHoldNumbersWithASign() {
        String text = HEADER + "2026-09-01,r,c,x,k,1,-1.5\n2026-09-02,s,c,x,k,1,+3.0%\n2026-09-03,t,c,x,k,1,1e-7\n";
        assertEquals(3, SeriesFile.readHistory(text, "wiki.csv").rows().size());
    }

    @Test
    void aHistoryFoldedInMayNotBringRunsFromTheFuture() {
        SeriesFile mine =
                SeriesFile.of(List.of(reading("2026-09-01", "n1", "k", 1.0), reading("2026-09-03", "n3", "k", 1.1)));
        LocalDate last = LocalDate.parse("2026-09-05");
        SeriesFile.Merge folded = mine.fold(
                SeriesFile.of(List.of(
                        reading("2026-08-30", "w0", "k", 0.9),
                        reading("2026-09-03", "n3", "k", 1.1),
                        reading("2026-09-05", "n5", "k", 1.0))),
                last);
        assertEquals(
                List.of("w0", "n1", "n3", "n5"), folded.file().series().runs(), "later nights, up to the last day");
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> mine.fold(
                        SeriesFile.of(List.of(
                                reading("2026-09-02", "w2", "k", 1.0),
                                reading("2099-01-01", "w9", "k", 50.0),
                                reading("2026-09-06", "w6", "k", 1.0))),
                        last));
        assertEquals(
                "run 'w6' is dated 2026-09-06, after 2026-09-05 (1 other run is too): it would be the series'"
                        + " latest run every night till then, the one 'series check' checks and whose base a nightly pins",
                e.getMessage());
        SeriesFile future = SeriesFile.of(List.of(reading("2099-01-01", "w9", "k", 1.0)));
        assertThrows(IllegalArgumentException.class, () -> SeriesFile.empty().fold(future, last));
        assertEquals(
                List.of("w9"), future.fold(future, last).file().series().runs(), "a run the series holds is its own");
    }
}
