package org.perfab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.model.RunResults;
import org.perfab.stats.Thresholds;
import org.w3c.dom.Element;

/**
 * Loads the HTML report in headless Chromium: the page must load without a script error, open with
 * a forest plot that has a mark per cell, regressions first, on an axis of round ticks with the
 * minimum effect and inconclusive lines where the run's thresholds put them (see
 * {@link ForestCheck}, which reads it back from the DOM the browser built), and draw a plot per
 * cell with a point per trial, builds and outliers marked.
 * Skipped where no Chromium is installed ({@code .ci/run} installs it); screenshots are left in
 * {@code target/report-screenshot.png} and {@code target/report-screenshot-builds.png}.
 */
class HtmlInBrowserTest {
    @TempDir
    Path tmp;

    @Test
    void drawsAPlotPerCellAndAPointPerTrial() throws Exception {
        RunResults run = RunFixture.broker();
        String dom = load(run, "report-screenshot.png");
        assertEquals(run.table().rows().size(), attribute(dom, "data-plots"));
        assertEquals(run.measurements().size(), attribute(dom, "data-points"));
        ForestCheck.check(dom, run.table());
    }

    @Test
    void drawsTheForestAtTheRunsThresholdsAndMarksBuildsAndOutliers() throws Exception {
        RunResults run = RunFixture.builds();
        assertEquals(new Thresholds(0.05, 5, 15), run.table().thresholds(), "not the defaults, so a constant shows");
        String dom = load(run, "report-screenshot-builds.png");
        assertEquals(run.measurements().size(), attribute(dom, "data-points"));
        int outliers = run.table().rows().stream().mapToInt(r -> r.outliers().size()).sum();
        assertTrue(outliers > 0, "the fixture has an outlier trial");
        assertEquals(outliers, attribute(dom, "data-outliers"));
        assertEquals(outliers, count(dom, "data-outlier=\"true\""), "each outlier's own point is marked");
        for (int build = 0; build < 3; build++) {
            int b = build;
            assertEquals(run.measurements().stream().filter(m -> m.build() == b).count(),
                    count(dom, "data-build=\"" + build + "\""), "the points of build " + build);
        }
        Element svg = ForestCheck.check(dom, run.table());
        List<Element> marks = ForestCheck.elements(svg, "g");
        assertTrue(marks.stream().anyMatch(m -> m.getAttribute("data-clipped").equals("high")),
                "the +5000% change is drawn at the axis's end");
        assertTrue(Double.parseDouble(svg.getAttribute("data-hi")) < 50, "and does not stretch the axis");
    }

    @Test
    void drawsAMarkForEachOfManyCells() throws Exception {
        RunResults run = RunFixture.many(1_200);
        String dom = load(run, null);
        assertEquals(1_200, attribute(dom, "data-marks"));
        ForestCheck.check(dom, run.table());
    }

    /**
     * Renders {@code run}'s report, loads it in Chromium, screenshots it into {@code target/screenshot}
     * unless that is null, and returns the DOM it built.
     */
    private String load(RunResults run, String screenshot) throws Exception {
        Optional<Path> chromium = chromium();
        assumeTrue(chromium.isPresent(), "Chromium is not installed");
        Path page = tmp.resolve("report.html");
        Files.writeString(page, Format.HTML.renderer().render(Report.of(run)), StandardCharsets.UTF_8);

        String dom = chromium(chromium.get(), "--dump-dom", page.toUri().toString());
        Matcher body = Pattern.compile("<body[^>]*>").matcher(dom);
        assertTrue(body.find(), "the page has a body");
        assertFalse(body.group().contains("data-error"), "a script error: " + body.group());
        assertEquals(run.table().rows().size(), attribute(dom, "data-marks"), "a forest mark per cell");

        if (screenshot == null) {
            return dom;
        }
        Path shot = Path.of("target", screenshot).toAbsolutePath();
        Files.deleteIfExists(shot);
        chromium(chromium.get(), "--screenshot=" + shot, "--window-size=1200,2200", page.toUri().toString());
        assertTrue(Files.size(shot) > 10_000, "a screenshot with something on it");
        return dom;
    }

    private static int count(String s, String what) {
        return s.split(Pattern.quote(what), -1).length - 1;
    }

    private String chromium(Path binary, String... args) throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>(List.of(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--user-data-dir=" + tmp.resolve("profile")));
        argv.addAll(List.of(args));
        Process p = new ProcessBuilder(argv).redirectError(tmp.resolve("chromium.err").toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(90, TimeUnit.SECONDS), "Chromium finished");
        assertEquals(0, p.exitValue(), Files.readString(tmp.resolve("chromium.err")));
        return out;
    }

    private static int attribute(String dom, String name) {
        Matcher m = Pattern.compile(name + "=\"(\\d+)\"").matcher(dom);
        assertTrue(m.find(), name + " was set by the page's script");
        return Integer.parseInt(m.group(1));
    }

    private static Optional<Path> chromium() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
                Path p = Path.of(dir, name);
                if (Files.isExecutable(p)) {
                    return Optional.of(p);
                }
            }
        }
        return Optional.empty();
    }
}
