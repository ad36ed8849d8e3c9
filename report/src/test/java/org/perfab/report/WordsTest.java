package org.perfab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class WordsTest {
    /** A ratio that shows as 1.0x is not "1.0x narrower": the words follow the figure they quote. */
    @Test
    void pairedIntervalsAreNarrowerAsNarrowOrWiderAsTheirFigureShows() {
        assertEquals("2.1x narrower than Welch's", Words.widths(2.1));
        assertEquals("as narrow as Welch's", Words.widths(1.04));
        assertEquals("as narrow as Welch's", Words.widths(Math.nextDown(1.05)));
        assertEquals("1.1x narrower than Welch's", Words.widths(1.05));
        assertEquals("as narrow as Welch's", Words.widths(0.96));
        assertEquals("1.3x wider than Welch's", Words.widths(1 / 1.3));
    }
}
