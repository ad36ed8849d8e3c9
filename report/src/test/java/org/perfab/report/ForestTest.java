package org.perfab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.perfab.model.CellComparison;
import org.perfab.model.ComparisonTable;
import org.perfab.model.RunResults;
import org.w3c.dom.Element;

/** The forest plot as rendered, read back without a browser (see {@link ForestCheck}). */
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
        ForestCheck.check(Format.HTML.renderer().render(report), report.table());
    }

    @Test
    void ordersRegressionsFirstThenTheLargestChange() {
        List<String> order = RunFixture.builds().table().rows().stream().sorted(Forest.ORDER)
                .map(r -> r.cell().name()).toList();
        assertEquals(List.of("render/page", "scan/cold", "parse/json", "alloc/zero", "encode/batch", "lookup/hot",
                RunFixture.HOSTILE, "once/cell", "gone/cell"), order);
    }

    @Test
    void clipsAnAbsurdChangeToTheAxisWithoutStretchingIt() throws Exception {
        ComparisonTable table = RunFixture.builds().table();
        Element svg = ForestCheck.check(Format.HTML.renderer().render(Report.of(table)), table);
        Element clipped = ForestCheck.elements(svg, "g").stream()
                .filter(g -> g.getAttribute("data-clipped").equals("high")).findFirst().orElseThrow();
        CellComparison row = table.rows().get(Integer.parseInt(clipped.getAttribute("data-row")));
        assertEquals("render/page", row.cell().name());
        assertTrue(clipped.getTextContent().contains("+5000.0% off the axis"), clipped.getTextContent());
        assertEquals("30", svg.getAttribute("data-hi"), "the axis ends past the largest change within the cap");
    }

    @Test
    void keepsAMarkAndSaysWhyForACellWithoutAnInterval() throws Exception {
        ComparisonTable table = RunFixture.builds().table();
        Element svg = ForestCheck.check(Format.HTML.renderer().render(Report.of(table)), table);
        String text = svg.getTextContent();
        assertTrue(text.contains("not measured on the candidate"), "gone/cell");
        assertTrue(text.contains("no interval: only 1 value on the candidate"), "once/cell");
        assertTrue(text.contains("baseline mean is 0: no percent change"), "alloc/zero");
    }

    @Test
    void escapesCellNamesInThePicture() {
        String html = Format.HTML.renderer().render(Report.of(RunFixture.broker()));
        String svg = html.substring(html.indexOf("<svg class=\"forest\""), html.indexOf("</svg>") + 6);
        assertFalse(svg.contains("<script>"));
        assertFalse(svg.contains("\u001b"));
        assertTrue(svg.contains("evil|`code`&lt;script&gt;a"), "the name, escaped and shortened");
    }

    @Test
    void drawsNoPictureOfNoCells() {
        ComparisonTable empty = new ComparisonTable("a", "b", RunFixture.builds().table().thresholds(), List.of(),
                List.of());
        assertFalse(Format.HTML.renderer().render(Report.of(empty)).contains("class=\"forest\""));
    }
}
