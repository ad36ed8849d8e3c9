package org.perfab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** CSV for a spreadsheet: RFC 4180 quoting, no formula from a name, numbers under no locale. */
class CsvTest {
    @Test
    void quotesWhatNeedsItAndDefusesFormulas() {
        String csv = new Csv("name", "value")
                .line("a,b", "1")
                .line("say \"hi\"", "2")
                .line("=HYPERLINK(\"http://x\")", "-1.5")
                .line("@SUM(A1)", "+3")
                .line("-2+3", "")
                .text();
        assertEquals(
                "name,value\r\n\"a,b\",1\r\n\"say \"\"hi\"\"\",2\r\n\"'=HYPERLINK(\"\"http://x\"\")\",-1.5\r\n"
                        + "'@SUM(A1),+3\r\n'-2+3,\r\n",
                csv);
    }

    @Test
    void controlCharactersNeverReachTheFile() {
        assertEquals(
                "h\r\na?b?[31mc?d\r\n",
                new Csv("h").line("a\nb\u001b[31mc\u200Bd").text());
    }

    @Test
    void numbersAreWrittenInFullUnderNoLocale() {
        assertEquals("12", Csv.number(12.0));
        assertEquals("0.1", Csv.number(0.1));
        assertEquals("-4.699133013182055", Csv.number(-4.699133013182055));
        assertEquals("3.11792758147714E-7", Csv.number(3.11792758147714E-7));
        assertEquals("", Csv.number(Double.NaN));
        assertEquals("", Csv.number(Double.POSITIVE_INFINITY));
    }
}
