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

/**
 * Loads the HTML report in headless Chromium: the page must load without a script error and draw a
 * plot per cell with a point per trial. Skipped where no Chromium is installed ({@code .ci/run}
 * installs it); a screenshot is left in {@code target/report-screenshot.png}.
 */
class HtmlInBrowserTest {
    @TempDir
    Path tmp;

    @Test
    void drawsAPlotPerCellAndAPointPerTrial() throws Exception {
        Optional<Path> chromium = chromium();
        assumeTrue(chromium.isPresent(), "Chromium is not installed");
        RunResults run = RunFixture.broker();
        Path page = tmp.resolve("report.html");
        Files.writeString(page, Format.HTML.renderer().render(Report.of(run)), StandardCharsets.UTF_8);

        String dom = chromium(chromium.get(), "--dump-dom", page.toUri().toString());
        Matcher body = Pattern.compile("<body[^>]*>").matcher(dom);
        assertTrue(body.find(), "the page has a body");
        assertFalse(body.group().contains("data-error"), "a script error: " + body.group());
        assertEquals(run.table().rows().size(), attribute(dom, "data-plots"));
        assertEquals(run.measurements().size(), attribute(dom, "data-points"));

        Path screenshot = Path.of("target", "report-screenshot.png").toAbsolutePath();
        Files.deleteIfExists(screenshot);
        chromium(chromium.get(), "--screenshot=" + screenshot, "--window-size=1200,2200", page.toUri().toString());
        assertTrue(Files.size(screenshot) > 10_000, "a screenshot with something on it");
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
