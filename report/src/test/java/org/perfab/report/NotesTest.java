package org.perfab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.perfab.model.Cell;
import org.perfab.model.CellComparison;
import org.perfab.model.ComparisonTable;
import org.perfab.model.FunctionChange;
import org.perfab.model.Measurement;
import org.perfab.model.Side;
import org.perfab.stats.Caveat;
import org.perfab.stats.Comparison;
import org.perfab.stats.Direction;
import org.perfab.stats.Sequential;
import org.perfab.stats.Thresholds;

class NotesTest {
    /** A row 1% slower, with {@code floor} as its A/A noise floor. */
    private static CellComparison row(double floor) {
        Cell cell = new Cell("speed/run", "time", "ns", Direction.LOWER_IS_BETTER);
        double[][] values = {{100, 102, 98, 101, 99}, {101, 103, 99, 102, 100}};
        List<Measurement> m = new ArrayList<>();
        for (Side side : Side.values()) {
            for (int t = 0; t < values[side.ordinal()].length; t++) {
                m.add(new Measurement(cell, side, 0, t, values[side.ordinal()][t]));
            }
        }
        return ComparisonTable.of("base", "head", m, Thresholds.DEFAULT, c -> false)
                .withNoiseFloors(r -> floor)
                .rows()
                .get(0);
    }

    @Test
    void aChangeInsideTheNoiseFloorSaysWhatARunOfThisSizeFinds() {
        assertTrue(
                notes(row(4.25))
                        .contains("the change lies inside this cell's A/A noise floor: a run of this"
                                + " size finds only changes past 4.3%"),
                notes(row(4.25)).toString());
        assertTrue(
                notes(row(Double.POSITIVE_INFINITY))
                        .contains("the change lies inside this cell's A/A noise"
                                + " floor: a run of this size finds no change, however large, with 80% power"),
                notes(row(Double.POSITIVE_INFINITY)).toString());
    }

    /** A row of {@code metric} with these values on each side. */
    private static CellComparison row(String metric, double[] base, double[] head) {
        Cell cell = new Cell("work", metric, "instructions", Direction.LOWER_IS_BETTER);
        List<Measurement> m = new ArrayList<>();
        double[][] values = {base, head};
        for (Side side : Side.values()) {
            for (int t = 0; t < values[side.ordinal()].length; t++) {
                m.add(new Measurement(cell, side, 0, t, values[side.ordinal()][t]));
            }
        }
        return ComparisonTable.of("base", "head", m, Thresholds.DEFAULT, c -> false)
                .rows()
                .get(0);
    }

    @Test
    void countsThatMoveBetweenTrialsOfOneBuildAreSaidToAndStillCountsAreNot() {
        double[] still = {1_000_000, 1_000_010, 999_990};
        double[] moving = {1_000_000, 1_030_000, 970_000};
        List<String> notes = notes(row("instructions", still, moving));
        assertTrue(
                notes.stream()
                        .anyMatch(n -> n.startsWith("its counts vary by 3.0% between trials")
                                && n.contains("address-space randomization")),
                notes.toString());
        assertTrue(notes(row("instructions", still, still)).stream().noneMatch(n -> n.contains("counts vary")));
        assertTrue(
                notes(row("wall", still, moving)).stream().noneMatch(n -> n.contains("counts vary")),
                "a timing moves, and is not said to");
    }

    @Test
    void aCountThatMovedNamesTheFunctionsThatMovedItAndAStillOneDoesNot() {
        CellComparison moved = row(
                        "instructions", new double[] {100e6, 100e6, 100e6}, new double[] {130e6, 130e6, 130e6})
                .withFunctions(List.of(
                        new FunctionChange("src/lz4.c:LZ4_compress_generic", 60e6, 90e6),
                        new FunctionChange("???:memcpy", 0, 1200)));
        assertTrue(
                notes(moved)
                        .contains("moved most in LZ4_compress_generic (lz4.c) +30.0M (+50.0%), memcpy +1.20k"
                                + " (new) (Cachegrind's counts by function, mean per trial)"),
                notes(moved).toString());
        CellComparison still = row(
                        "instructions", new double[] {100e6, 100e6, 100e6}, new double[] {100e6, 100e6, 100e6})
                .withFunctions(List.of(new FunctionChange("a.c:f", 10, 12)));
        assertTrue(
                notes(still).stream().noneMatch(n -> n.startsWith("moved most")),
                notes(still).toString());
    }

    /**
     * A function name forged into a results file read back, and a metric a harness named, each
     * quoted by a note: in the comment neither mentions, links, shows an image or opens an HTML
     * comment; in a terminal or a log neither writes an escape sequence or a workflow command.
     */
    @Test
    void namesANoteQuotesAreInertInEveryFormat() {
        String metric = "ms @octocat <!--";
        String function = "evil.c:![x](https://evil.example/x.png) [link](http://evil.example) @octocat <!--"
                + " \u001b]0;title\u0007\u001b[2J\n::error::forged";
        Cell time = new Cell("work", metric, "ms", Direction.LOWER_IS_BETTER);
        Cell rate = new Cell("work", "throughput", "ops/s", Direction.HIGHER_IS_BETTER);
        double[][] ms = {{100, 101, 99, 100.5, 99.5}, {120, 121, 119, 120.5, 119.5}};
        List<Measurement> m = new ArrayList<>();
        for (Side side : Side.values()) {
            for (int t = 0; t < 5; t++) {
                m.add(new Measurement(time, side, 0, t, ms[side.ordinal()][t]));
                m.add(new Measurement(rate, side, 0, t, 1000 / ms[side.ordinal()][t]));
            }
        }
        ComparisonTable table = ComparisonTable.of("base", "head", m, Thresholds.DEFAULT, c -> false)
                .withFunctions(r -> List.of(new FunctionChange(function, 100, 200)));
        CellComparison follower = table.rows().stream()
                .filter(r -> r.sameAs().isPresent())
                .findFirst()
                .orElseThrow();
        assertTrue(
                notes(follower).stream().anyMatch(n -> n.startsWith("the same measurement as its ms")),
                notes(follower).toString());
        Report report = Report.of(table);
        String md = Products.AB.render(report, Format.MARKDOWN);
        assertEquals(1, md.split("<!--", -1).length - 1, "only perfab's marker opens an HTML comment: " + md);
        assertFalse(md.contains("@octocat"), "nobody is mentioned: " + md);
        assertFalse(md.contains("!["), "no image: " + md);
        assertFalse(md.contains("]("), "no link: " + md);
        assertFalse(md.contains("https://"), "no autolink: " + md);
        assertTrue(md.contains("Notes") && md.contains("evil.example"), "the note is there, inert: " + md);
        for (Format f : List.of(Format.TEXT, Format.MARKDOWN, Format.GITHUB, Format.HTML, Format.JUNIT)) {
            String out = Products.AB.render(report, f);
            assertTrue(out.chars().noneMatch(c -> c == 0x1b || c == 0x07), f + " writes no escape sequence: " + out);
            assertFalse(
                    out.lines().anyMatch(l -> l.strip().startsWith("::error::forged")),
                    f + " writes no workflow command: " + out);
        }
        String text = Products.AB.render(report, Format.TEXT);
        assertTrue(text.contains("moved most in") && text.contains("evil.example"), text);
    }

    /** Returns the notes of {@code row} of a table judged by the default thresholds. */
    private static List<String> notes(CellComparison row) {
        return Notes.of(row, Thresholds.DEFAULT);
    }

    /** Returns the row of a cell of 5 trials a side, the head's {@code head}, among {@code others} cells unchanged. */
    private static CellComparison among(double[] head, int others, Thresholds t) {
        double[] base = {100, 102, 98, 101, 99};
        List<Measurement> m = new ArrayList<>();
        for (int c = 0; c <= others; c++) {
            Cell cell = new Cell(c == 0 ? "speed/run" : "other/" + c, "time", "ns", Direction.LOWER_IS_BETTER);
            for (int i = 0; i < base.length; i++) {
                m.add(new Measurement(cell, Side.BASE, 0, i, base[(i + c) % 5]));
                m.add(new Measurement(cell, Side.HEAD, 0, i, c == 0 ? head[i] : base[(i + c + 2) % 5]));
            }
        }
        return ComparisonTable.of("base", "head", m, t, c -> false).rows().stream()
                .filter(r -> r.cell().name().equals("speed/run"))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void aCellShortOfItsLookNamesTheLookTheLevelAndTheRowsOwnP() {
        Thresholds adaptive = Thresholds.DEFAULT.withAdaptive(new Sequential(5, 20));
        CellComparison row = among(new double[] {103.5, 105.5, 101.5, 104.5, 102.5}, 0, adaptive);
        assertTrue(row.comparison().caveats().contains(Caveat.NOT_AT_LOOK), row.toString());
        String p = Numbers.pValue(row.comparison().pValue());
        assertEquals(
                "at look 1 (5 trials per side), p " + p + " is under alpha 0.05 but not under that look's level"
                        + " 0.001: adaptive trials spend alpha across their looks, and early looks test at a small level; more"
                        + " trials settle it",
                Notes.caveats(row, adaptive).get(0));
        // Judged together, its adjusted p is said beside, named as what it is.
        CellComparison together = among(new double[] {103.5, 105.5, 101.5, 104.5, 102.5}, 9, adaptive);
        String note = String.join(" ", Notes.caveats(together, adaptive));
        assertTrue(
                note.contains("p " + Numbers.pValue(together.comparison().pValue()) + " is under alpha 0.05 but not"
                        + " under that look's level 0.001; judged together with the cells of that look, its adjusted p"
                        + " (Benjamini-Hochberg q) is "
                        + Numbers.pValue(together.comparison().qValue())),
                note);
        assertFalse(note.contains("significant at alpha"), "no claim its q does not bear out: " + note);
        // Its p passes the look's level; its adjusted p does not pass the look's share of the rate.
        CellComparison rate = among(new double[] {106, 108, 104, 107, 105}, 9, adaptive);
        Comparison c = rate.comparison();
        assertTrue(c.caveats().contains(Caveat.NOT_AT_LOOK) && c.pValue() < 0.001, c.toString());
        assertEquals(
                "at look 1 (5 trials per side), p " + Numbers.pValue(c.pValue()) + " is under that look's level"
                        + " 0.001, but judged together with the cells of that look its adjusted p (Benjamini-Hochberg q) "
                        + Numbers.pValue(c.qValue())
                        + " is not under the look's rate 0.001 (0.05 over all the looks): adaptive"
                        + " trials spend alpha across their looks, and early looks test at a small level; more trials settle"
                        + " it",
                Notes.caveats(rate, adaptive).get(0));
    }

    @Test
    void aCellShortOfTheLastLooksLevelIsNotToldThatMoreOfItsTrialsSettleIt() {
        // Two looks, at 5 and 10 trials, the last a little under alpha 0.05; 3.7% slower at p 0.04996.
        Thresholds two = Thresholds.DEFAULT.withAdaptive(new Sequential(5, 10));
        double level = two.adaptive().orElseThrow().alpha(2, 0.05);
        List<Measurement> m = new ArrayList<>();
        Cell cell = new Cell("speed/run", "time", "ns", Direction.LOWER_IS_BETTER);
        double[] base = {100, 106, 94, 103, 97, 101.5, 98.5, 104.5, 95.5, 100};
        for (int i = 0; i < 10; i++) {
            m.add(new Measurement(cell, Side.BASE, 0, i, base[i]));
            m.add(new Measurement(cell, Side.HEAD, 0, i, base[(i + 3) % 10] * 1.03708));
        }
        CellComparison row =
                ComparisonTable.of("base", "head", m, two, c -> false).rows().get(0);
        Comparison c = row.comparison();
        assertTrue(
                c.caveats().contains(Caveat.NOT_AT_LOOK)
                        && row.look().orElseThrow().look() == 2,
                row.toString());
        assertTrue(c.pValue() >= level && c.pValue() < 0.05, c.toString());
        assertTrue(
                Notes.caveats(row, two)
                        .get(0)
                        .endsWith("the last look's level is what the early ones leave; only a"
                                + " run of more trials settles it"),
                Notes.caveats(row, two).toString());
    }

    @Test
    void aCellSignificantAloneNamesItsPAndItsAdjustedP() {
        CellComparison row = among(new double[] {104, 106, 102, 105, 103}, 30, Thresholds.DEFAULT);
        Comparison c = row.comparison();
        assertTrue(c.caveats().contains(Caveat.NOT_AMONG_MANY), c.toString());
        assertEquals("not among many", Words.label(c));
        assertTrue(
                notes(row)
                        .contains("p " + Numbers.pValue(c.pValue()) + " is under alpha 0.05 on its own, but"
                                + " judged together with the run's other tested cells its adjusted p (Benjamini-Hochberg q) "
                                + Numbers.pValue(c.qValue())
                                + " is not under 0.05: judging together costs power at few trials; more"
                                + " trials, --cell or --fdr off get it back"),
                notes(row).toString());
    }
}
