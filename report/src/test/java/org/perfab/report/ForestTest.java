package org.perfab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.Resources;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.perfab.model.Cell;
import org.perfab.model.CellComparison;
import org.perfab.model.ComparisonTable;
import org.perfab.model.RunResults;
import org.perfab.report.testing.Golden;
import org.perfab.stats.Direction;
import org.w3c.dom.Element;

/** The forest plot as rendered, read back without a browser (see {@link ForestCheck}). */
@ResourceLock(Resources.LOCALE)
class ForestTest {
    static Stream<Arguments> reports() {
        Supplier<RunResults> builds = RunFixture::builds;
        return Stream.of(
                Arguments.of("broker", Report.of(RunFixture.broker())),
                Arguments.of("builds", Report.of(builds.get())),
                Arguments.of("compare of files", Report.of(builds.get().table())),
                Arguments.of("many", Report.of(RunFixture.many(1_200))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("reports")
    void drawsEachCellAtItsChangeAgainstTheThresholds(String name, Report report) throws Exception {
        ForestCheck.check(Products.AB.render(report, Format.HTML), report.table());
    }

    @Test
    void ordersRegressionsFirstThenTheLargestChange() {
        List<String> order = RunFixture.builds().table().rows().stream()
                .sorted(Forest.ORDER)
                .map(r -> r.cell().name())
                .toList();
        assertEquals(
                List.of(
                        "render/page",
                        "scan/cold",
                        "parse/json",
                        "alloc/zero",
                        "encode/batch",
                        "lookup/hot",
                        RunFixture.HOSTILE,
                        "once/cell",
                        "gone/cell"),
                order);
    }

    @Test
    void drawsAnAbsurdChangeInsideTheAxisAndKeepsTheSmallOnesApart() throws Exception {
        ComparisonTable table = RunFixture.builds().table();
        Element svg = ForestCheck.check(Products.AB.render(Report.of(table), Format.HTML), table);
        Element mark = mark(svg, table, "render/page");
        assertEquals("", mark.getAttribute("data-clipped"), "+5000% has its place on the axis");
        assertEquals("+5000.0%", change(mark).getTextContent());
        // The thresholds (5% and 15%) keep room enough to tell a change inside them from one past them.
        assertTrue(tick(svg, "+5000%").isPresent() || tick(svg, "+1000%").isPresent(), "ticked out to the change");
        double zero = tick(svg, "0%").orElseThrow();
        assertTrue(
                x(svg, 15) - zero > 15 && zero - x(svg, -15) > 15,
                "±15% at " + x(svg, -15) + ", " + zero + ", " + x(svg, 15));
    }

    @Test
    void drawsEveryChangeAndIntervalInsideTheAxisWithItsChangeBesideIt() throws Exception {
        ComparisonTable table = RunFixture.spread().table();
        Element svg = ForestCheck.check(Products.AB.render(Report.of(table), Format.HTML), table);
        double left = Double.parseDouble(svg.getAttribute("data-x-lo"));
        double right = Double.parseDouble(svg.getAttribute("data-x-hi"));
        for (String name : List.of("huge/rise", "big/rise", "big/fall", "near/gone", "small/rise", "small/fall")) {
            Element mark = mark(svg, table, name);
            assertEquals("", mark.getAttribute("data-clipped"), name);
            Element ci = ForestCheck.elements(mark, "line").stream()
                    .filter(l -> l.getAttribute("class").equals("ci"))
                    .findFirst()
                    .orElseThrow();
            double cx = Double.parseDouble(
                    ForestCheck.elements(mark, "circle").get(0).getAttribute("cx"));
            double start = Math.min(Double.parseDouble(ci.getAttribute("x1")), cx - 4);
            double end = Math.max(Double.parseDouble(ci.getAttribute("x2")), cx + 4);
            assertTrue(start > left && end < right, name + " inside the axis: " + start + ".." + end);
            Element change = change(mark);
            double at = Double.parseDouble(change.getAttribute("x"));
            double width = RatioAxis.width(change.getTextContent());
            assertEquals("change", change.getAttribute("class"), name + "'s change past its mark");
            assertTrue(
                    at >= end + 5.9 && at + width <= right,
                    name + ": " + change.getTextContent() + " at " + at + ", the mark " + start + ".." + end);
        }
        assertTrue(change(mark(svg, table, "big/rise")).getTextContent().startsWith("+21"));
        assertTrue(change(mark(svg, table, "big/fall")).getTextContent().startsWith("-80."));
    }

    @Test
    void placesRatiosOnALogScale() throws Exception {
        List<Cell> cells = List.of(
                new Cell("doubled", "time", "ns/op", Direction.LOWER_IS_BETTER),
                new Cell("halved", "time", "ns/op", Direction.LOWER_IS_BETTER));
        double[] base = {99, 100, 101, 100, 100};
        RunResults run = RunFixture.run(
                "ratios",
                5,
                cells,
                c -> new double[][] {
                    base,
                    Arrays.stream(base)
                            .map(v -> c.name().equals("doubled") ? 2 * v : v / 2)
                            .toArray()
                },
                List.of());
        ComparisonTable table = run.table();
        Element svg = ForestCheck.check(Products.AB.render(Report.of(run), Format.HTML), table);
        double zero = tick(svg, "0%").orElseThrow();
        double doubled = Double.parseDouble(ForestCheck.elements(mark(svg, table, "doubled"), "circle")
                .get(0)
                .getAttribute("cx"));
        double halved = Double.parseDouble(ForestCheck.elements(mark(svg, table, "halved"), "circle")
                .get(0)
                .getAttribute("cx"));
        assertTrue(doubled - zero > 100, "+100% well off 0: " + doubled + " against " + zero);
        assertEquals(doubled - zero, zero - halved, 0.11, "×2 and ×½ as far from no change");
    }

    @Test
    void drawsAChangeOfMinus100AsAnArrowAtTheLowEnd() throws Exception {
        ComparisonTable table = RunFixture.spread().table();
        Element svg = ForestCheck.check(Products.AB.render(Report.of(table), Format.HTML), table);
        Element mark = mark(svg, table, "all/gone");
        assertEquals("low", mark.getAttribute("data-clipped"));
        assertEquals("-100.0%", change(mark).getTextContent());
        assertTrue(mark.getTextContent().contains("-100% or less, where no ratio is"), mark.getTextContent());
    }

    @Test
    void runsAnIntervalThatReachesNoRatioToTheLowEndIntoAChevron() throws Exception {
        ComparisonTable table = RunFixture.spread().table();
        CellComparison row = table.rows().stream()
                .filter(r -> r.cell().name().equals("mostly/gone"))
                .findFirst()
                .orElseThrow();
        assertTrue(
                row.comparison().ciLow() <= -100 && row.comparison().pctChange() > -100,
                "the fixture's interval reaches past -100%: " + row.comparison());
        Element svg = ForestCheck.check(Products.AB.render(Report.of(table), Format.HTML), table);
        Element mark = mark(svg, table, "mostly/gone");
        assertEquals("", mark.getAttribute("data-clipped"), "its change has its place");
        assertEquals("low", mark.getAttribute("data-ci-clipped"));
        Element ci = ForestCheck.elements(mark, "line").get(0);
        assertEquals(svg.getAttribute("data-x-lo"), ci.getAttribute("x1").replace(".0", ""));
        assertTrue(mark.getTextContent().contains("its interval reaches -100% or less"), mark.getTextContent());
    }

    @Test
    void rendersTheSameBytesEachTimeInEveryLocale() throws Exception {
        String once = Products.AB.render(Report.of(RunFixture.spread()), Format.HTML);
        for (Locale locale : Golden.LOCALES) {
            assertEquals(
                    once,
                    Golden.underLocale(locale, () -> Products.AB.render(Report.of(RunFixture.spread()), Format.HTML)));
        }
    }

    @Test
    void keepsAMarkAndSaysWhyForACellWithoutAnInterval() throws Exception {
        ComparisonTable table = RunFixture.builds().table();
        Element svg = ForestCheck.check(Products.AB.render(Report.of(table), Format.HTML), table);
        String text = svg.getTextContent();
        assertTrue(text.contains("not measured on the candidate"), "gone/cell");
        assertTrue(text.contains("no interval: only 1 value on the candidate"), "once/cell");
        assertTrue(text.contains("baseline mean is 0: no percent change"), "alloc/zero");
    }

    @Test
    void escapesCellNamesInThePicture() {
        String html = Products.AB.render(Report.of(RunFixture.broker()), Format.HTML);
        String svg = html.substring(html.indexOf("<svg class=\"forest\""), html.indexOf("</svg>") + 6);
        assertFalse(svg.contains("<script>"));
        assertFalse(svg.contains("\u001b"));
        assertTrue(svg.contains("evil|`code`&lt;script&gt;a"), "the name, escaped and shortened");
    }

    @Test
    void drawsNoPictureOfNoCells() {
        ComparisonTable empty =
                new ComparisonTable("a", "b", RunFixture.builds().table().thresholds(), List.of(), List.of());
        assertFalse(Products.AB.render(Report.of(empty), Format.HTML).contains("class=\"forest\""));
    }

    /** Returns the mark of the cell named {@code name}. */
    private static Element mark(Element svg, ComparisonTable table, String name) {
        return ForestCheck.elements(svg, "g").stream()
                .filter(g -> !g.getAttribute("data-row").isEmpty()
                        && table.rows()
                                .get(Integer.parseInt(g.getAttribute("data-row")))
                                .cell()
                                .name()
                                .equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no mark of " + name));
    }

    /** Returns the change printed beside {@code mark}. */
    private static Element change(Element mark) {
        return ForestCheck.elements(mark, "text").stream()
                .filter(e -> e.getAttribute("class").startsWith("change"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no change beside " + mark.getAttribute("data-row")));
    }

    /** Returns the pixel of the tick labelled {@code label}, if there is one. */
    private static Optional<Double> tick(Element svg, String label) {
        return ForestCheck.elements(svg, "text").stream()
                .filter(e -> e.getAttribute("class").equals("tick")
                        && e.getTextContent().equals(label))
                .map(e -> Double.parseDouble(e.getAttribute("x")))
                .findFirst();
    }

    /** Returns the pixel of a change of {@code pct} percent, by the scale the SVG states. */
    private static double x(Element svg, double pct) {
        double lo = Double.parseDouble(svg.getAttribute("data-ratio-lo"));
        double hi = Double.parseDouble(svg.getAttribute("data-ratio-hi"));
        double xLo = Double.parseDouble(svg.getAttribute("data-x-lo"));
        double xHi = Double.parseDouble(svg.getAttribute("data-x-hi"));
        return xLo + Math.log((1 + pct / 100) / lo) / Math.log(hi / lo) * (xHi - xLo);
    }
}
