package org.perfab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.xml.parsers.DocumentBuilderFactory;
import org.perfab.model.CellComparison;
import org.perfab.model.ComparisonTable;
import org.perfab.stats.Comparison;
import org.perfab.stats.Thresholds;
import org.perfab.stats.Verdict;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Reads the forest plot of an HTML report back and checks it against the table it draws: the
 * axis's mapping is taken from the SVG, every tick label must sit where that mapping puts its
 * number, and then the test places the thresholds and each cell's change itself.
 */
final class ForestCheck {
    /** How far, in pixels, a drawn coordinate may lie from where the axis puts it: its rounding to 0.1. */
    private static final double PIXEL = 0.11;

    private ForestCheck() {
    }

    /**
     * Checks the forest plot in {@code dom} (a page as rendered, or as a browser built it) against
     * {@code table}: the first picture after the headline, before the table; ticks that are round
     * and sit where the axis puts them; the band and lines of the thresholds at the axis's ±minimum
     * effect and ±inconclusive; one mark per row, regressions first and the largest change first
     * within a verdict; and each mark's point and interval at its change, or an arrow or a note
     * where it has none to draw. Returns the plot's SVG.
     */
    static Element check(String dom, ComparisonTable table) throws Exception {
        int at = dom.indexOf("<svg class=\"forest\"");
        assertTrue(at > 0, "a forest plot");
        assertTrue(at < dom.indexOf("<table"), "before the table");
        assertFalse(dom.substring(dom.indexOf("class=\"headline\""), at).contains("<svg"), "the first picture");
        String markup = dom.substring(at, dom.indexOf("</svg>", at) + "</svg>".length()).replace("&nbsp;", "&#160;");
        Element svg = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(markup.getBytes(StandardCharsets.UTF_8))).getDocumentElement();
        double lo = number(svg, "data-lo");
        double hi = number(svg, "data-hi");
        double xLo = number(svg, "data-x-lo");
        double xHi = number(svg, "data-x-hi");
        Mapping x = pct -> xLo + (pct - lo) / (hi - lo) * (xHi - xLo);

        // The axis: round ticks from end to end, each label at the place the mapping gives its number.
        List<Double> ticks = new ArrayList<>();
        for (Element t : elements(svg, "text")) {
            if (t.getAttribute("class").equals("tick")) {
                String label = t.getTextContent();
                assertTrue(label.matches("[+-]?\\d+(\\.\\d+)?%"), "a tick reads as a percentage: " + label);
                double v = Double.parseDouble(label.replace("%", "").replace("+", ""));
                assertClose(x.at(v), number(t, "x"), "tick " + label);
                if (!ticks.contains(v)) {
                    ticks.add(v);
                }
            }
        }
        assertTrue(ticks.size() >= 3, "ticks: " + ticks);
        assertEquals(lo, ticks.get(0), 1e-9, "the axis starts on a tick");
        assertEquals(hi, ticks.get(ticks.size() - 1), 1e-9, "and ends on one");
        BigDecimal step = BigDecimal.valueOf(ticks.get(1)).subtract(BigDecimal.valueOf(ticks.get(0)))
                .stripTrailingZeros();
        assertTrue(Set.of(1, 2, 5).contains(step.unscaledValue().intValue()), "a round step: " + step.toPlainString());
        for (int i = 1; i < ticks.size(); i++) {
            assertEquals(step.doubleValue(), ticks.get(i) - ticks.get(i - 1), 1e-9, "evenly spaced: " + ticks);
        }

        // The thresholds: where the run's thresholds and the axis put them, and inside the plot.
        Thresholds t = table.thresholds();
        assertTrue(lo < -t.inconclusive() && hi > t.inconclusive(), "the inconclusive lines are on the axis");
        for (String kind : List.of("min-effect", "inconclusive")) {
            double pct = kind.equals("min-effect") ? t.minEffect() : t.inconclusive();
            Set<Double> drawn = new HashSet<>();
            for (Element line : elements(svg, "line")) {
                if (line.getAttribute("class").equals("threshold " + kind)) {
                    assertEquals(number(line, "x1"), number(line, "x2"), "a vertical line");
                    drawn.add(number(line, "x1"));
                }
            }
            assertEquals(2, drawn.size(), kind + " lines");
            for (double v : new double[] {-pct, pct}) {
                assertTrue(drawn.stream().anyMatch(d -> Math.abs(d - x.at(v)) < PIXEL), kind + " at " + v + ": " + drawn);
            }
        }
        Element bar = elements(svg, "rect").stream().filter(r -> r.getAttribute("class").equals("bar")).findFirst()
                .orElseThrow();
        assertClose(x.at(-t.minEffect()), number(bar, "x"), "the band starts at -min effect");
        assertClose(x.at(t.minEffect()), number(bar, "x") + number(bar, "width"), "and ends at +min effect");
        Element zero = elements(svg, "line").stream().filter(l -> l.getAttribute("class").equals("zero")).findFirst()
                .orElseThrow();
        assertClose(x.at(0), number(zero, "x1"), "the line at 0");

        // The marks: one per row, in the plot's order, each point and interval at its change.
        List<Element> marks = elements(svg, "g").stream().filter(g -> g.getAttribute("class").startsWith("mark "))
                .toList();
        assertEquals(table.rows().size(), marks.size(), "a mark per cell");
        Set<Integer> seen = new HashSet<>();
        CellComparison previous = null;
        for (Element mark : marks) {
            int index = Integer.parseInt(mark.getAttribute("data-row"));
            assertTrue(seen.add(index), "row " + index + " drawn once");
            CellComparison row = table.rows().get(index);
            Comparison c = row.comparison();
            String name = row.cell().id().toString();
            assertEquals(c.verdict().id(), mark.getAttribute("data-verdict"), name);
            if (previous != null) {
                Verdict before = previous.comparison().verdict();
                assertTrue(before.compareTo(c.verdict()) <= 0, "verdicts in order: " + before + " then " + c.verdict());
                if (before == c.verdict() && !Double.isNaN(c.pctChange())) {
                    assertTrue(Math.abs(previous.comparison().pctChange()) >= Math.abs(c.pctChange()),
                            "the larger change first within " + before + ": " + name);
                }
            }
            previous = row;
            List<Element> points = elements(mark, "circle").stream()
                    .filter(e -> e.getAttribute("class").equals("pt")).toList();
            List<Element> notes = elements(mark, "text").stream()
                    .filter(e -> e.getAttribute("class").startsWith("note")).toList();
            double pct = c.pctChange();
            if (Double.isNaN(pct)) {
                assertTrue(points.isEmpty(), name + " has no change to place");
                assertEquals(1, notes.size(), name + " says why");
            } else if (pct > hi || pct < lo) {
                assertEquals(pct > hi ? "high" : "low", mark.getAttribute("data-clipped"), name);
                assertTrue(elements(mark, "path").stream().anyMatch(p -> p.getAttribute("class").equals("pt clipped")),
                        name + " ends in an arrow");
            } else {
                assertEquals(1, points.size(), name + " has a point");
                assertClose(x.at(pct), number(points.get(0), "cx"), name + " at " + pct + "%");
            }
            List<Element> ci = elements(mark, "line").stream().filter(e -> e.getAttribute("class").equals("ci"))
                    .toList();
            if (Double.isNaN(c.ciLow())) {
                assertTrue(ci.isEmpty(), name + " has no interval");
                if (!Double.isNaN(pct)) {
                    assertEquals(1, notes.size(), name + " says why it has no interval");
                }
            } else {
                assertEquals(1, ci.size(), name + " has an interval");
                assertClose(x.at(clamp(c.ciLow(), lo, hi)), number(ci.get(0), "x1"), name + " from " + c.ciLow());
                assertClose(x.at(clamp(c.ciHigh(), lo, hi)), number(ci.get(0), "x2"), name + " to " + c.ciHigh());
            }
        }
        if (table.counts().get(Verdict.REGRESSION) > 0) {
            assertEquals("regression", marks.get(0).getAttribute("data-verdict"), "a regression first");
        }
        return svg;
    }

    /** The pixel of a percentage on the forest plot's axis. */
    private interface Mapping {
        double at(double pct);
    }

    private static double clamp(double v, double lo, double hi) {
        return Math.max(lo, Math.min(hi, v));
    }

    private static void assertClose(double expected, double actual, String what) {
        assertEquals(expected, actual, PIXEL, what);
    }

    private static double number(Element e, String attribute) {
        String v = e.getAttribute(attribute);
        assertFalse(v.isEmpty(), e.getTagName() + " has " + attribute);
        return Double.parseDouble(v);
    }

    static List<Element> elements(Element in, String tag) {
        NodeList nodes = in.getElementsByTagName(tag);
        List<Element> all = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            all.add((Element) nodes.item(i));
        }
        return all;
    }

}
