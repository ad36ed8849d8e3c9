package org.perfab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.perfab.model.Cell;
import org.perfab.model.ComparisonTable;
import org.perfab.model.Measurement;
import org.perfab.model.Side;
import org.perfab.stats.Direction;
import org.perfab.stats.Thresholds;
import org.perfab.stats.Verdict;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The A/B as JUnit XML: well-formed whatever the cell names, and a case per cell as CI systems read it. */
class JunitRendererTest {
    /** Names a pull request could give its cells: markup, a CDATA end, control characters, lone surrogates. */
    private static final List<String> HOSTILE = List.of(
            "]]><x/><![CDATA[",
            "a\u0000b\u0001c\u001b[31md\u007f",
            "</testcase><testcase name=\"forged\">",
            "quote\"apos'amp&lt",
            "lone \uD800 high and \uDC00 low",
            "\uFFFE\uFFFF not characters",
            "emoji \uD83D\uDE00 ok",
            "line\r\nbreak\u2028sep",
            "<!-- -->");

    private static Document parse(String xml) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }

    private static ComparisonTable table(List<String> names, double slower) {
        List<Measurement> m = new ArrayList<>();
        for (String name : names) {
            Cell cell = new Cell(name, "time", "ns/op", Direction.LOWER_IS_BETTER);
            double[] base = {100, 101, 99, 100.5, 99.5};
            for (int i = 0; i < base.length; i++) {
                m.add(new Measurement(cell, Side.BASE, 0, i, base[i]));
                m.add(new Measurement(cell, Side.HEAD, 0, i, base[i] * slower));
            }
        }
        return ComparisonTable.of("base <&>", "head ]]>", m, Thresholds.DEFAULT, c -> false);
    }

    @Test
    void hostileNamesMakeValidXmlWithACasePerCell() throws Exception {
        String xml = Products.AB.render(Report.of(table(HOSTILE, 1.2)), Format.JUNIT);
        Document doc = parse(xml);
        NodeList cases = doc.getElementsByTagName("testcase");
        assertEquals(HOSTILE.size(), cases.getLength(), xml);
        assertEquals(1, doc.getElementsByTagName("testsuite").getLength());
        for (int i = 0; i < cases.getLength(); i++) {
            Element c = (Element) cases.item(i);
            assertEquals("compare", c.getAttribute("classname"));
            assertEquals(
                    1,
                    c.getElementsByTagName("failure").getLength(),
                    "a 20% slowdown fails: " + c.getAttribute("name"));
            assertTrue(c.getAttribute("name").chars().noneMatch(ch -> ch < 0x20), c.getAttribute("name"));
        }
        assertTrue(xml.contains("name=\"]]&gt;&lt;x/&gt;&lt;![CDATA[:time\""), xml);
        assertEquals(0, doc.getElementsByTagName("x").getLength(), "no element from a name");
        Element suite = (Element) doc.getElementsByTagName("testsuite").item(0);
        assertEquals(String.valueOf(HOSTILE.size()), suite.getAttribute("failures"));
    }

    @Test
    void inconclusiveAndNoisyCellsAreSkippedWithTheirReasonNeverPassed() throws Exception {
        Report report = Report.of(RenderersTest.fixture());
        Document doc = parse(Products.AB.render(report, Format.JUNIT));
        NodeList cases = doc.getElementsByTagName("testcase");
        int skipped = 0;
        int failed = 0;
        for (int i = 0; i < cases.getLength(); i++) {
            Element c = (Element) cases.item(i);
            if (c.getElementsByTagName("skipped").getLength() > 0) {
                skipped++;
                assertTrue(!((Element) c.getElementsByTagName("skipped").item(0))
                        .getAttribute("message")
                        .isEmpty());
            }
            failed += c.getElementsByTagName("failure").getLength();
        }
        var counts = report.table().counts();
        assertEquals(counts.get(Verdict.REGRESSION), failed);
        assertTrue(
                skipped
                        >= counts.get(Verdict.INCONCLUSIVE)
                                + counts.get(Verdict.NOISY)
                                + counts.get(Verdict.NO_DATA)
                                + counts.get(Verdict.PROFILE),
                "skipped " + skipped);
        Element suite = (Element) doc.getElementsByTagName("testsuite").item(0);
        assertEquals(String.valueOf(cases.getLength()), suite.getAttribute("tests"));
        assertEquals(String.valueOf(skipped), suite.getAttribute("skipped"));
    }

    @Test
    void aVerdictTheRunFailsOnIsAFailure() throws Exception {
        Report report = Report.of(RenderersTest.fixture()).failingOn(List.of(Verdict.REGRESSION, Verdict.INCONCLUSIVE));
        Document doc = parse(Products.AB.render(report, Format.JUNIT));
        var counts = report.table().counts();
        assertEquals(
                counts.get(Verdict.REGRESSION) + counts.get(Verdict.INCONCLUSIVE),
                doc.getElementsByTagName("failure").getLength());
    }

    @Test
    void aRunThatComparesNothingIsAnError() throws Exception {
        List<Measurement> m = List.of(
                new Measurement(new Cell("only/base", "time", "ns", Direction.LOWER_IS_BETTER), Side.BASE, 0, 0, 1));
        Document doc = parse(Products.AB.render(
                Report.of(ComparisonTable.of("b", "h", m, Thresholds.DEFAULT, c -> false)), Format.JUNIT));
        assertEquals(1, doc.getElementsByTagName("error").getLength());
        assertEquals("1", ((Element) doc.getElementsByTagName("testsuite").item(0)).getAttribute("errors"));
    }
}
