package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.ab.Engine;
import org.perfab.model.Series;
import org.perfab.model.SeriesFile;
import org.perfab.report.testing.Chromium;
import org.perfab.report.testing.Tool;
import org.perfab.series.SyntheticSeries;

/**
 * The series site in headless Chromium, read back from the DOM the browser built after the page's
 * script ran: {@code perfab series demo} ends by writing a site whose charts mark the three planted
 * regressions on the nights {@code check} caught them; hostile names stay text; and a site of 2,000
 * keys over 60 nights has the shape of the large one ({@code scripts/bench/series-site} times that:
 * nothing here is timed). Skipped where no Chromium is installed, failed there where CI requires it
 * ({@link Tool#CHROMIUM}); screenshots are left in {@code target/series-site-*.png}.
 */
@Order(Integer.MAX_VALUE - 1) // see docs/development.md: the longest classes start first
class SeriesSiteIT {
    @TempDir
    Path tmp;

    @Test
    void theDemoEndsByWritingASiteWhoseChartsMarkEachCatchOnItsNight() throws Exception {
        Path chromium = Tool.CHROMIUM.need();
        Path launcher = Path.of("..", "scripts", "perfab").toAbsolutePath().normalize();
        Process p = new ProcessBuilder(launcher.toString(), "series", "demo")
                .directory(tmp.toFile())
                .redirectOutput(tmp.resolve("out.txt").toFile())
                .redirectError(tmp.resolve("err.txt").toFile())
                .start();
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "the demo finished");
        String err = Files.readString(tmp.resolve("err.txt"));
        assertEquals(0, p.exitValue(), err);
        Path index = tmp.resolve("perfab-series-demo/index.html");
        assertTrue(err.contains("perfab: wrote the site of 120 keys over 23 runs"), err);
        assertTrue(err.contains("open perfab-series-demo/index.html"), "where the site is, for a new user: " + err);

        String dom = load(chromium, index, "", "series-site-index.png");
        assertEquals("index", attribute(dom, "data-view"));
        assertEquals("120", attribute(dom, "data-keys"));
        for (String[] c : new String[][] {
            {SyntheticSeries.STEP, "step", "2026-09-01"},
            {SyntheticSeries.DRIFT, "drift", "2026-08-31"},
            {SyntheticSeries.BIG_STEP, "step", "2026-08-26"}
        }) {
            String page = load(
                    chromium,
                    index,
                    "key=" + encode(c[0]),
                    c[0].equals(SyntheticSeries.STEP) ? "series-site-step.png" : null);
            assertEquals("key", attribute(page, "data-view"), c[0]);
            assertEquals("drawn", attribute(page, "data-chart"), c[0]);
            List<String> marks = marks(page, "new");
            assertFalse(marks.isEmpty(), c[0] + ": a new movement marked");
            assertEquals(
                    c[1] + " " + c[2],
                    marks.get(0),
                    c[0] + ": the first new movement, on the night check caught it: " + marks);
            assertEquals(23, count(page, "<circle class=\"pt"), c[0] + ": a point per reading");
        }
        for (String key : SyntheticSeries.SHORT) {
            String page = load(chromium, index, "key=" + encode(key), null);
            assertTrue(page.contains("<g class=\"cpu\" data-date=\"2026-09-13\">"), key + ": the new processor marked");
        }
    }

    @Test
    void showsHostileNamesAsTextAndRunsNoneOfThem() throws Exception {
        Path chromium = Tool.CHROMIUM.need();
        String pwn = "<img src=x onerror=\"document.body.setAttribute('data-pwned','1')\">";
        List<String> keys = List.of(
                "</script><script>document.body.setAttribute('data-pwned','1')</script>",
                pwn,
                "\"><svg onload=\"document.body.setAttribute('data-pwned','1')\">",
                "plain/key");
        List<Series.Reading> readings = new ArrayList<>();
        for (int n = 0; n < 8; n++) {
            for (String key : keys) {
                readings.add(new Series.Reading(
                        LocalDate.of(2026, 9, 1).plusDays(n),
                        n == 7 ? "</script>" + pwn : String.valueOf(1000 + n),
                        n == 6 ? "javascript:alert(1)" : "abcdef0" + n,
                        n == 7 ? pwn : "cpu",
                        key,
                        n < 6 ? 1.0 : 2.0));
            }
        }
        Path csv = tmp.resolve("hostile.csv");
        Files.writeString(csv, SeriesFile.of(readings).write());
        Cli site = Cli.run(
                Engine.REAL,
                "series",
                "site",
                "--series",
                csv.toString(),
                "--out",
                tmp.resolve("site").toString(),
                "--repo-url",
                "https://github.com/o/r");
        assertEquals(0, site.exitCode(), site.err());
        Path index = tmp.resolve("site/index.html");
        String dom = load(chromium, index, "", null);
        assertEquals("4", attribute(dom, "data-rows"));
        assertTrue(
                dom.contains("&lt;/script&gt;&lt;script&gt;document.body.setAttribute('data-pwned','1')"
                        + "&lt;/script&gt;"),
                "the key shown as text");
        for (String key : keys) {
            String page = load(
                    chromium, index, "key=" + encode(key), key.equals(keys.get(0)) ? "series-site-hostile.png" : null);
            assertEquals("drawn", attribute(page, "data-chart"), key);
            assertEquals(1, marks(page, "new").size(), key + ": its step");
            assertTrue(page.contains("href=\"https://github.com/o/r/commit/abcdef05\""), key + ": a commit linked");
            assertTrue(page.contains("href=\"https://github.com/o/r/actions/runs/1005\""), key + ": a run linked");
            assertFalse(page.contains("href=\"javascript"), key + ": no script address");
        }
        String filtered = load(chromium, index, "filter=" + encode("</script>"), null);
        assertEquals("1", attribute(filtered, "data-rows"), "the filter finds the key by its text");
    }

    @Test
    void showsTheBaselinesFloorsBesideTheSeriesAndMarksAReBasing() throws Exception {
        Path chromium = Tool.CHROMIUM.need();
        Path baseline = Path.of("src", "test", "resources", "golden", "baseline-seed.json")
                .toAbsolutePath();
        List<Series.Reading> readings = new ArrayList<>();
        for (int n = 0; n < 6; n++) {
            for (String key : List.of("Cache/Warm", "Not/In/The/Baseline")) {
                readings.add(new Series.Reading(
                        LocalDate.of(2026, 9, 1).plusDays(n),
                        "r" + n,
                        "abcdef0",
                        "cpu",
                        key,
                        1 + n / 100.0,
                        n < 3 ? "1111111" : "2222222",
                        Optional.empty()));
            }
        }
        Path csv = tmp.resolve("ratios.csv");
        Files.writeString(csv, SeriesFile.of(readings).write());
        Cli site = Cli.run(
                Engine.REAL,
                "series",
                "site",
                "--series",
                csv.toString(),
                "--baseline",
                baseline.toString(),
                "--out",
                tmp.resolve("site").toString());
        assertEquals(0, site.exitCode(), site.err());
        Path index = tmp.resolve("site/index.html");
        String floors = load(chromium, index, "floors", "series-site-floors.png");
        assertEquals("floors", attribute(floors, "data-view"));
        assertEquals(4, count(floors, "<table class=\"floors\">"), "a table per tier");
        assertEquals(368, count(floors, "<tr><td class=\"key\">"), "a row per floor");
        assertEquals(
                4, count(floors, "<a href=\"#key=Cache%2FWarm\">Cache/Warm</a>"), "the key's floor links its page");
        String page = load(chromium, index, "key=" + encode("Cache/Warm"), null);
        assertTrue(page.contains("<b>Baseline floors: </b>"), "the key's floors on its page");
        assertTrue(page.contains("<g class=\"rebase\" data-date=\"2026-09-04\">"), "the re-basing marked");
        String other = load(chromium, index, "key=" + encode("Not/In/The/Baseline"), null);
        assertFalse(other.contains("<b>Baseline floor"), "no floor for a key the baseline lacks");
    }

    @Test
    void aSiteOfTwoThousandKeysOverSixtyNightsHasTheLargeOnesShape() throws Exception {
        Path chromium = Tool.CHROMIUM.need();
        Random random = new Random(17);
        List<Series.Reading> readings = new ArrayList<>();
        double[] levels = random.doubles(2_000, 0.5, 5).toArray();
        for (int n = 0; n < 60; n++) {
            LocalDate d = LocalDate.of(2026, 7, 1).plusDays(n);
            String sha = String.format(Locale.ROOT, "%040x", 7919L * (n + 1));
            for (int k = 0; k < levels.length; k++) {
                double level = levels[k] * (k % 50 == 0 && n >= 58 ? 1.6 : 1);
                readings.add(new Series.Reading(
                        d,
                        String.valueOf(9_000_000 + n),
                        sha,
                        "cpu " + (n / 20),
                        String.format(Locale.ROOT, "Group%02d.Bench/case-%04d", k % 40, k),
                        level * (1 + 0.01 * random.nextGaussian())));
            }
        }
        Path csv = tmp.resolve("large.csv");
        Files.writeString(csv, SeriesFile.of(readings).write());
        Cli site = Cli.run(
                Engine.REAL,
                "series",
                "site",
                "--series",
                csv.toString(),
                "--out",
                tmp.resolve("site").toString());
        assertEquals(0, site.exitCode(), site.err());
        assertTrue(site.err().contains("wrote the site of 2000 keys over 60 runs (21 files"), site.err());
        try (var data = Files.list(tmp.resolve("site/data"))) {
            assertEquals(20, data.count(), "a data file per 100 keys");
        }
        Path index = tmp.resolve("site/index.html");
        String dom = load(chromium, index, "", "series-site-large.png");
        assertEquals("2000", attribute(dom, "data-keys"));
        assertEquals("2000", attribute(dom, "data-rows"));
        assertEquals(200, count(dom, "<td class=\"key\">"), "the first rows drawn, the rest as the reader scrolls");
        assertTrue(Integer.parseInt(attribute(dom, "data-ready-ms")) >= 0, "the time the index took is recorded");
        List<String> rows = keysShown(dom);
        assertTrue(
                rows.subList(0, 40).stream().allMatch(r -> {
                    int k = Integer.parseInt(r.substring(r.length() - 4));
                    return k % 50 == 0;
                }),
                "the keys that moved in the latest run first, the largest change first: " + rows.subList(0, 40));
        assertEquals(40, count(dom, "<tr class=\"persisting\">"), "the step of the night before persists");

        String byRatio = load(chromium, index, "sort=-latest", null);
        List<String> sorted = keysShown(byRatio);
        String highest = readings.stream()
                .filter(r -> r.date().equals(LocalDate.of(2026, 8, 29)))
                .max(Comparator.comparingDouble(Series.Reading::ratio))
                .orElseThrow()
                .key();
        assertEquals(highest, sorted.get(0), "sorted by the latest ratio, highest first");
        String filtered = load(chromium, index, "filter=group07", null);
        assertEquals("50", attribute(filtered, "data-rows"), "the filter is a case-blind text match");

        String key = load(chromium, index, "key=" + encode("Group10.Bench/case-0050"), null);
        assertEquals("drawn", attribute(key, "data-chart"));
        assertEquals(60, count(key, "<circle class=\"pt"), "a point per night");
        assertEquals(List.of("step 2026-08-28"), marks(key, "new"), "the step of night 58");
        assertEquals(List.of("step 2026-08-29"), marks(key, "persisting"), "and on the last night, persisting");
        assertEquals(2, count(key, "<g class=\"cpu\""), "the two processor changes");
    }

    /** Returns the movements the chart marks as {@code new} (or {@code persisting}), each "RULE DATE", in order. */
    private static List<String> marks(String dom, String kind) {
        Matcher m = Pattern.compile("<g class=\"mark (step|drift) " + kind + "\" data-date=\"([0-9-]+)\"")
                .matcher(dom);
        List<String> out = new ArrayList<>();
        while (m.find()) {
            out.add(m.group(1) + " " + m.group(2));
        }
        return out;
    }

    /** Returns the keys of the index's rows as drawn, in order. */
    private static List<String> keysShown(String dom) {
        Matcher m = Pattern.compile("<td class=\"key\"><a href=\"[^\"]*\">([^<]*)</a>")
                .matcher(dom);
        List<String> out = new ArrayList<>();
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /** Returns {@code s} as JavaScript's encodeURIComponent writes it, for an address's fragment. */
    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /**
     * Loads {@code page} at {@code #fragment} in Chromium once its scripts (the data file of a key
     * included) have run, asserts that no script failed and nothing hostile ran, screenshots it into
     * {@code target/} unless {@code screenshot} is null, and returns the DOM.
     */
    private String load(Path chromium, Path page, String fragment, String screenshot) throws Exception {
        String url = page.toUri() + (fragment.isEmpty() ? "" : "#" + fragment);
        String dom = Chromium.run(chromium, tmp, "--virtual-time-budget=10000", "--dump-dom", url);
        Matcher body = Pattern.compile("<body[^>]*>").matcher(dom);
        assertTrue(body.find(), "the page has a body");
        assertFalse(body.group().contains("data-error"), "a script error: " + body.group());
        assertFalse(body.group().contains("data-pwned"), "a hostile name ran: " + body.group());
        if (screenshot != null) {
            Path shot = Path.of("target", screenshot).toAbsolutePath();
            Files.deleteIfExists(shot);
            Chromium.run(
                    chromium,
                    tmp,
                    "--virtual-time-budget=10000",
                    "--screenshot=" + shot,
                    "--window-size=1280,1100",
                    url);
            assertTrue(Files.size(shot) > 10_000, "a screenshot with something on it");
        }
        return dom;
    }

    private static String attribute(String dom, String name) {
        Matcher m = Pattern.compile("<body[^>]*\\s" + name + "=\"([^\"]*)\"").matcher(dom);
        assertTrue(m.find(), name + " was set by the page's script");
        return m.group(1);
    }

    private static int count(String s, String what) {
        return s.split(Pattern.quote(what), -1).length - 1;
    }
}
