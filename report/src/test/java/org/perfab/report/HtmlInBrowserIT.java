package org.perfab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.perfab.model.RunResults;
import org.perfab.report.testing.Chromium;
import org.perfab.report.testing.Tool;
import org.perfab.stats.Thresholds;
import org.w3c.dom.Element;

/**
 * Loads the HTML report in headless Chromium: the page must load without a script error, open with
 * a forest plot that has a mark per cell, regressions first, on a log axis of round changes with the
 * minimum effect and inconclusive lines where the run's thresholds put them (see
 * {@link ForestCheck}, which reads it back from the DOM the browser built), and draw a plot per
 * cell with a point per trial, builds and outliers marked. The forest's layout is measured as the
 * browser drew it ({@code getBBox()} of every text and mark, written back by a script this test
 * adds to the page): each change and note beside a mark is clear of every mark and of every other
 * label of its row, inside the axis and its row, and no text runs out of the picture.
 * Skipped where no Chromium is installed, failed there where CI requires it ({@link Tool#CHROMIUM});
 * screenshots are left in
 * {@code target/report-screenshot.png}, {@code target/report-screenshot-builds.png} and
 * {@code target/report-screenshot-spread.png}. Its tests run side by side, each with its own folder
 * and browser profile.
 */
@Execution(ExecutionMode.CONCURRENT)
class HtmlInBrowserIT {
    /**
     * What this test adds to the page: once it has loaded, each text and mark of the forest is
     * given its box as the browser drew it, {@code data-box="x y width height"} in the SVG's units.
     */
    private static final String MEASURE = """
            <script>
              window.addEventListener("load", function () {
                document.querySelectorAll("svg.forest text, svg.forest circle, svg.forest line, svg.forest path,"
                    + " svg.forest rect").forEach(function (e) {
                  var b = e.getBBox();
                  e.setAttribute("data-box", [b.x, b.y, b.width, b.height].map(function (v) { return v.toFixed(2); })
                      .join(" "));
                });
              });
            </script>
            """;

    @TempDir
    Path tmp;

    @Test
    void drawsAPlotPerCellAndAPointPerTrial() throws Exception {
        RunResults run = RunFixture.broker();
        String dom = load(run, "report-screenshot.png");
        assertEquals(run.table().rows().size(), attribute(dom, "data-plots"));
        assertEquals(run.measurements().size(), attribute(dom, "data-points"));
        assertLaidOut(ForestCheck.check(dom, run.table()));
    }

    @Test
    void drawsTheForestAtTheRunsThresholdsAndMarksBuildsAndOutliers() throws Exception {
        RunResults run = RunFixture.builds();
        assertEquals(new Thresholds(0.05, 5, 15), run.table().thresholds(), "not the defaults, so a constant shows");
        String dom = load(run, "report-screenshot-builds.png");
        assertEquals(run.measurements().size(), attribute(dom, "data-points"));
        int outliers =
                run.table().rows().stream().mapToInt(r -> r.outliers().size()).sum();
        assertTrue(outliers > 0, "the fixture has an outlier trial");
        assertEquals(outliers, attribute(dom, "data-outliers"));
        assertEquals(outliers, count(dom, "data-outlier=\"true\""), "each outlier's own point is marked");
        for (int build = 0; build < 3; build++) {
            int b = build;
            assertEquals(
                    run.measurements().stream().filter(m -> m.build() == b).count(),
                    count(dom, "data-build=\"" + build + "\""),
                    "the points of build " + build);
        }
        Element svg = ForestCheck.check(dom, run.table());
        assertLaidOut(svg);
        List<Element> marks = ForestCheck.elements(svg, "g");
        assertTrue(
                marks.stream().noneMatch(m -> m.hasAttribute("data-clipped")),
                "the +5000% change is drawn on the axis, as every other");
    }

    @Test
    void keepsEveryLabelClearOfTheMarksWhateverTheChange() throws Exception {
        RunResults run = RunFixture.spread();
        String dom = load(run, "report-screenshot-spread.png");
        Element svg = ForestCheck.check(dom, run.table());
        assertLaidOut(svg);
        List<String> changes = ForestCheck.elements(svg, "text").stream()
                .filter(e -> e.getAttribute("class").startsWith("change"))
                .map(Element::getTextContent)
                .toList();
        for (String change : List.of("+5006.1%", "+214.7%", "-80.0%", "-99.0%", "-100.0%", "+1.9%", "-1.1%")) {
            assertTrue(changes.contains(change), change + " beside its mark, measured: " + changes);
        }
    }

    @Test
    void drawsAMarkForEachOfManyCells() throws Exception {
        RunResults run = RunFixture.many(1_200);
        String dom = load(run, null);
        assertEquals(1_200, attribute(dom, "data-marks"));
        assertLaidOut(ForestCheck.check(dom, run.table()));
    }

    /**
     * Renders {@code run}'s report, loads it in Chromium, screenshots it into {@code target/screenshot}
     * unless that is null, and returns the DOM it built.
     */
    private String load(RunResults run, String screenshot) throws Exception {
        Path chromium = Tool.CHROMIUM.need();
        Path page = tmp.resolve("report.html");
        String html = Products.AB.render(Report.of(run), Format.HTML);
        Files.writeString(page, html.replace("</body>", MEASURE + "</body>"), StandardCharsets.UTF_8);

        String dom = Chromium.run(chromium, tmp, "--dump-dom", page.toUri().toString());
        Matcher body = Pattern.compile("<body[^>]*>").matcher(dom);
        assertTrue(body.find(), "the page has a body");
        assertFalse(body.group().contains("data-error"), "a script error: " + body.group());
        assertEquals(run.table().rows().size(), attribute(dom, "data-marks"), "a forest mark per cell");

        if (screenshot == null) {
            return dom;
        }
        Path shot = Path.of("target", screenshot).toAbsolutePath();
        Files.deleteIfExists(shot);
        Chromium.run(
                chromium,
                tmp,
                "--screenshot=" + shot,
                "--window-size=1200,2200",
                page.toUri().toString());
        assertTrue(Files.size(shot) > 10_000, "a screenshot with something on it");
        return dom;
    }

    /**
     * Asserts that the forest {@code svg}, as the browser drew it, keeps every label clear: each
     * text of a row beside its marks (its change, a note; all but its name and figures) inside the
     * axis, so clear of the names and the figures, and inside its row, clear of every mark and every
     * other text of the row; every mark inside the axis and its row; every text inside the picture;
     * and the tick labels clear of each other.
     */
    private static void assertLaidOut(Element svg) {
        String[] view = svg.getAttribute("viewBox").split(" ");
        Box picture = new Box(0, 0, Double.parseDouble(view[2]), Double.parseDouble(view[3]));
        double left = Double.parseDouble(svg.getAttribute("data-x-lo"));
        double right = Double.parseDouble(svg.getAttribute("data-x-hi"));
        int labels = 0;
        for (Element e : ForestCheck.elements(svg, "text")) {
            assertTrue(picture.holds(box(e)), "inside the picture: " + e.getTextContent() + " " + box(e));
        }
        List<Element> ticks = ForestCheck.elements(svg, "text").stream()
                .filter(e -> e.getAttribute("class").equals("tick"))
                .toList();
        for (int i = 0; i < ticks.size(); i++) {
            for (int j = i + 1; j < ticks.size(); j++) {
                assertFalse(
                        box(ticks.get(i)).overlaps(box(ticks.get(j)), 2),
                        "ticks " + ticks.get(i).getTextContent() + " and "
                                + ticks.get(j).getTextContent());
            }
        }
        for (Element mark : ForestCheck.elements(svg, "g")) {
            if (!mark.getAttribute("class").startsWith("mark ")) {
                continue;
            }
            String row = "row " + mark.getAttribute("data-row");
            Box stripe = box(ForestCheck.elements(mark, "rect").get(0));
            List<Box> marks = new ArrayList<>();
            List<Element> texts = ForestCheck.elements(mark, "text");
            for (String tag : List.of("circle", "line", "path")) {
                for (Element e : ForestCheck.elements(mark, tag)) {
                    Box b = box(e);
                    assertTrue(
                            b.x() >= left - 1 && b.right() <= right + 1 && stripe.holds(b),
                            row + ": a mark inside the axis and its row: " + b);
                    marks.add(b.grown(1)); // its stroke
                }
            }
            for (Element text : texts) {
                String kind = text.getAttribute("class");
                if (kind.equals("name") || kind.equals("figure")) {
                    continue; // beside the axis, in columns of their own
                }
                labels++;
                Box b = box(text);
                String what = row + ": " + text.getTextContent() + " " + b;
                assertTrue(b.x() >= left && b.right() <= right, what + " inside the axis " + left + ".." + right);
                assertTrue(stripe.holds(b), what + " inside its row " + stripe);
                for (Box m : marks) {
                    assertFalse(b.overlaps(m, 0), what + " clear of the mark " + m);
                }
                for (Element other : texts) {
                    if (other != text) {
                        assertFalse(b.overlaps(box(other), 0), what + " clear of " + other.getTextContent());
                    }
                }
            }
        }
        assertTrue(labels > 0, "labels to measure");
    }

    /** A rectangle as {@code getBBox()} gives it, in the SVG's own units. */
    private record Box(double x, double y, double width, double height) {
        double right() {
            return x + width;
        }

        double bottom() {
            return y + height;
        }

        boolean holds(Box b) {
            return b.x >= x - 0.5 && b.right() <= right() + 0.5 && b.y >= y - 0.5 && b.bottom() <= bottom() + 0.5;
        }

        boolean overlaps(Box b, double gap) {
            return x < b.right() + gap && b.x < right() + gap && y < b.bottom() + gap && b.y < bottom() + gap;
        }

        Box grown(double by) {
            return new Box(x - by, y - by, width + 2 * by, height + 2 * by);
        }
    }

    /** Returns the box the browser measured for {@code e}. */
    private static Box box(Element e) {
        String[] v = e.getAttribute("data-box").split(" ");
        assertEquals(4, v.length, "measured: " + e.getTagName() + " " + e.getAttribute("class"));
        return new Box(
                Double.parseDouble(v[0]), Double.parseDouble(v[1]), Double.parseDouble(v[2]), Double.parseDouble(v[3]));
    }

    private static int count(String s, String what) {
        return s.split(Pattern.quote(what), -1).length - 1;
    }

    private static int attribute(String dom, String name) {
        Matcher m = Pattern.compile(name + "=\"(\\d+)\"").matcher(dom);
        assertTrue(m.find(), name + " was set by the page's script");
        return Integer.parseInt(m.group(1));
    }
}
