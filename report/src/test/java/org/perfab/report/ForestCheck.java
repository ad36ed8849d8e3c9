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
import java.util.stream.DoubleStream;
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
 * axis's mapping is taken from the SVG (the ratio of head to baseline on a log scale), every tick
 * label must sit where that mapping puts its number, and then the test places the thresholds and
 * each cell's change, its interval and the change printed beside it itself.
 */
final class ForestCheck {
    /** How far, in pixels, a drawn coordinate may lie from where the axis puts it: its rounding to 0.1. */
    private static final double PIXEL = 0.11;

    private ForestCheck() {}

    /**
     * Checks the forest plot in {@code dom} (a page as rendered, or as a browser built it) against
     * {@code table}: the first picture after the headline, before the table; a log scale of the
     * ratio, ticked in round changes that sit where the axis puts them, 0 among them; the band and lines of the thresholds at the axis's ±minimum effect and ±inconclusive;
     * one mark per row, regressions first and the largest change first within a verdict; and each
     * mark's point and interval at its change, inside the axis whatever the change, or an arrow at
     * the axis's low end where no ratio places it, or a note where it has none to draw; and each
     * change printed beside its mark, clear of its point and interval. Returns the plot's SVG.
     */
    static Element check(String dom, ComparisonTable table) throws Exception {
        int at = dom.indexOf("<svg class=\"forest\"");
        assertTrue(at > 0, "a forest plot");
        assertTrue(at < dom.indexOf("<table"), "before the table");
        assertFalse(dom.substring(dom.indexOf("class=\"headline\""), at).contains("<svg"), "the first picture");
        String markup =
                dom.substring(at, dom.indexOf("</svg>", at) + "</svg>".length()).replace("&nbsp;", "&#160;");
        Element svg = DocumentBuilderFactory.newInstance()
                .newDocumentBuilder()
                .parse(new ByteArrayInputStream(markup.getBytes(StandardCharsets.UTF_8)))
                .getDocumentElement();
        assertEquals("log", svg.getAttribute("data-scale"));
        double lo = number(svg, "data-ratio-lo");
        double hi = number(svg, "data-ratio-hi");
        double xLo = number(svg, "data-x-lo");
        double xHi = number(svg, "data-x-hi");
        assertTrue(lo > 0 && lo < 1 && hi > 1, "ratios " + lo + ".." + hi + " around no change");
        Mapping x = pct -> xLo + Math.log((1 + pct / 100) / lo) / Math.log(hi / lo) * (xHi - xLo);

        // The axis: round changes, 0 among them, each label at the place the mapping gives its number.
        Thresholds t = table.thresholds();
        List<BigDecimal> ticks = new ArrayList<>();
        for (Element e : elements(svg, "text")) {
            if (e.getAttribute("class").equals("tick")) {
                String label = e.getTextContent();
                assertTrue(label.matches("[+-]?\\d+(\\.\\d+)?%"), "a tick reads as a percentage: " + label);
                BigDecimal v = new BigDecimal(label.replace("%", "").replace("+", ""));
                assertEquals(label.startsWith("+"), v.signum() > 0, "a rise is signed: " + label);
                assertTrue(
                        round(v) || v.doubleValue() == t.minEffect() || v.doubleValue() == -t.minEffect(),
                        "a round change or the minimum effect: " + label);
                assertClose(x.at(v.doubleValue()), number(e, "x"), "tick " + label);
                assertTrue(number(e, "x") >= xLo && number(e, "x") <= xHi, "tick " + label + " on the axis");
                if (!ticks.contains(v)) {
                    ticks.add(v);
                }
            }
        }
        assertTrue(ticks.contains(BigDecimal.ZERO), "0 is a tick: " + ticks);
        assertTrue(ticks.size() >= 3, "ticks: " + ticks);
        for (int i = 1; i < ticks.size(); i++) {
            assertTrue(ticks.get(i).compareTo(ticks.get(i - 1)) > 0, "ticks in order: " + ticks);
        }

        // The thresholds: where the run's thresholds and the axis put them (where a ratio does), inside the plot.
        for (String kind : List.of("min-effect", "inconclusive")) {
            double pct = kind.equals("min-effect") ? t.minEffect() : t.inconclusive();
            Set<Double> drawn = new HashSet<>();
            for (Element line : elements(svg, "line")) {
                if (line.getAttribute("class").equals("threshold " + kind)) {
                    assertEquals(number(line, "x1"), number(line, "x2"), "a vertical line");
                    drawn.add(number(line, "x1"));
                }
            }
            List<Double> placed =
                    DoubleStream.of(-pct, pct).filter(v -> v > -100).boxed().toList();
            assertEquals(new HashSet<>(placed).size(), drawn.size(), kind + " lines");
            for (double v : placed) {
                assertTrue(x.at(v) > xLo && x.at(v) < xHi, kind + " at " + v + " is on the axis");
                assertTrue(
                        drawn.stream().anyMatch(d -> Math.abs(d - x.at(v)) < PIXEL), kind + " at " + v + ": " + drawn);
            }
        }
        Element bar = elements(svg, "rect").stream()
                .filter(r -> r.getAttribute("class").equals("bar"))
                .findFirst()
                .orElseThrow();
        assertClose(
                t.minEffect() < 100 ? x.at(-t.minEffect()) : xLo, number(bar, "x"), "the band starts at -min effect");
        assertClose(x.at(t.minEffect()), number(bar, "x") + number(bar, "width"), "and ends at +min effect");
        Element zero = elements(svg, "line").stream()
                .filter(l -> l.getAttribute("class").equals("zero"))
                .findFirst()
                .orElseThrow();
        assertClose(x.at(0), number(zero, "x1"), "the line at 0");

        // The marks: one per row, in the plot's order, each point and interval at its change.
        List<Element> marks = elements(svg, "g").stream()
                .filter(g -> g.getAttribute("class").startsWith("mark "))
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
                    assertTrue(
                            Math.abs(previous.comparison().pctChange()) >= Math.abs(c.pctChange()),
                            "the larger change first within " + before + ": " + name);
                }
            }
            previous = row;
            List<Element> points = elements(mark, "circle").stream()
                    .filter(e -> e.getAttribute("class").equals("pt"))
                    .toList();
            List<Element> notes = elements(mark, "text").stream()
                    .filter(e -> e.getAttribute("class").startsWith("note"))
                    .toList();
            List<Element> changes = elements(mark, "text").stream()
                    .filter(e -> e.getAttribute("class").startsWith("change"))
                    .toList();
            List<Element> ci = elements(mark, "line").stream()
                    .filter(e -> e.getAttribute("class").equals("ci"))
                    .toList();
            double pct = c.pctChange();
            double left = xHi;
            double right = xLo;
            if (Double.isNaN(pct)) {
                assertTrue(points.isEmpty(), name + " has no change to place");
                assertEquals(1, notes.size(), name + " says why");
            } else if (pct <= -100) {
                assertEquals("low", mark.getAttribute("data-clipped"), name + ": no ratio places " + pct + "%");
                assertTrue(
                        elements(mark, "path").stream()
                                .anyMatch(p -> p.getAttribute("class").equals("pt clipped")),
                        name + " ends in an arrow");
                right = xLo + 10;
                left = xLo;
            } else {
                assertEquals("", mark.getAttribute("data-clipped"), name + " is on the axis");
                assertEquals(1, points.size(), name + " has a point");
                double cx = number(points.get(0), "cx");
                assertClose(x.at(pct), cx, name + " at " + pct + "%");
                assertTrue(cx - 4 >= xLo && cx + 4 <= xHi, name + "'s point inside the axis: " + cx);
                left = cx - 4;
                right = cx + 4;
            }
            if (Double.isNaN(c.ciLow())) {
                assertTrue(ci.isEmpty(), name + " has no interval");
                if (!Double.isNaN(pct)) {
                    assertEquals(1, notes.size(), name + " says why it has no interval");
                    assertTrue(
                            notes.get(0).getTextContent().startsWith(Numbers.signedPercent(pct)),
                            name + "'s note says its change: " + notes.get(0).getTextContent());
                }
                assertTrue(changes.isEmpty(), name + ": its note says the change");
                continue;
            }
            assertEquals(1, ci.size(), name + " has an interval");
            double x1 = number(ci.get(0), "x1");
            double x2 = number(ci.get(0), "x2");
            boolean reachesNoRatio = c.ciLow() <= -100;
            assertClose(reachesNoRatio ? xLo : x.at(c.ciLow()), x1, name + " from " + c.ciLow());
            assertClose(c.ciHigh() <= -100 ? xLo : x.at(c.ciHigh()), x2, name + " to " + c.ciHigh());
            assertTrue(x1 >= xLo && x2 <= xHi, name + "'s interval inside the axis: " + x1 + ".." + x2);
            if (reachesNoRatio && pct > -100) {
                assertEquals("low", mark.getAttribute("data-ci-clipped"), name + "'s interval reaches no ratio");
                assertTrue(
                        elements(mark, "path").stream()
                                .anyMatch(p -> p.getAttribute("class").equals("ci-arrow")),
                        name + "'s interval ends in a chevron at the axis's end");
            } else {
                assertEquals("", mark.getAttribute("data-ci-clipped"), name + "'s interval is on the axis");
            }
            left = Math.min(left, x1);
            right = Math.max(right, x2);

            // The change beside the mark, past its ends and before the axis's.
            assertEquals(1, changes.size(), name + " has its change beside it");
            Element change = changes.get(0);
            assertEquals(Numbers.signedPercent(pct), change.getTextContent(), name);
            double from = number(change, "x");
            double width = RatioAxis.width(change.getTextContent());
            if (change.getAttribute("class").equals("change low")) {
                assertTrue(from <= left - 6 + PIXEL && from - width >= xLo, name + "'s change before its mark");
            } else {
                assertTrue(
                        from >= right + 6 - PIXEL && from + width <= xHi,
                        name + "'s change past its mark: " + from + " after " + right);
            }
        }
        if (table.counts().get(Verdict.REGRESSION) > 0) {
            assertEquals("regression", marks.get(0).getAttribute("data-verdict"), "a regression first");
        }
        return svg;
    }

    /** Returns whether a tick's change is round: one digit of the change, or past -50% of the ratio. */
    private static boolean round(BigDecimal pct) {
        BigDecimal v = pct.signum() < 0 && pct.compareTo(BigDecimal.valueOf(-50)) <= 0
                ? pct.add(BigDecimal.valueOf(100))
                : pct.abs();
        return v.signum() == 0 || v.stripTrailingZeros().precision() == 1;
    }

    /** The pixel of a percentage on the forest plot's axis. */
    private interface Mapping {
        double at(double pct);
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
