package org.perfab.series;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.failure.BadInputException;
import org.perfab.model.Series;
import org.perfab.model.SeriesCheck;
import org.perfab.model.SeriesFile;
import org.perfab.model.SeriesHistory;
import org.perfab.report.SiteRenderer;
import org.perfab.stats.SeriesRules;

/**
 * {@link SeriesSite}: every reading's movement exactly as {@code check} finds it, on the nights the
 * demo's regressions were caught; re-basings; the readings on a new processor; the address links
 * go under; and the files a site is.
 */
class SeriesSiteTest {
    @TempDir
    Path tmp;

    @Test
    void marksAReBasingAndComparesNoReadingAcrossIt() {
        List<Series.Reading> readings = new ArrayList<>();
        for (int n = 0; n < 8; n++) {
            readings.add(new Series.Reading(
                    LocalDate.of(2026, 9, 1).plusDays(n),
                    "r" + n,
                    "abc1234",
                    "cpu",
                    "k",
                    n < 4 ? 1.0 : 2.0,
                    n < 4 ? "1111111" : "2222222",
                    Optional.empty()));
        }
        SeriesHistory.Key k = SeriesSite.history(
                        new Series(readings), SeriesRules.Options.DEFAULT, Optional.empty(), Optional.empty())
                .keys()
                .get(0);
        assertEquals(List.of(new SeriesHistory.Rebasing(4, "1111111")), k.rebasings());
        assertEquals(List.of(), k.movements(), "a doubled ratio on a new base is no step");
    }

    @Test
    void marksTheDemosRegressionsOnTheNightsCheckCaughtThem() {
        Series series = SyntheticSeries.make(1);
        SeriesHistory h = SeriesSite.history(series, SeriesRules.Options.DEFAULT, Optional.empty(), Optional.empty());
        assertEquals(series.byKey().size(), h.keys().size());
        assertEquals(series.runs(), h.runs());
        Map<String, SeriesHistory.Key> keys = byName(h);
        assertFirstNew(keys.get(SyntheticSeries.STEP), "2026-09-01", SeriesRules.Rule.STEP);
        assertFirstNew(keys.get(SyntheticSeries.DRIFT), "2026-08-31", SeriesRules.Rule.DRIFT);
        assertFirstNew(keys.get(SyntheticSeries.BIG_STEP), "2026-08-26", SeriesRules.Rule.STEP);
        for (String key : SyntheticSeries.SHORT) {
            SeriesHistory.Key k = keys.get(key);
            assertTrue(k.newCpus().contains(k.readings().size() - 1), key + ": the new processor of 09-13");
        }
        List<String> names = h.keys().stream().map(SeriesHistory.Key::name).toList();
        assertEquals(names.stream().sorted().toList(), names, "keys by name");
    }

    @Test
    void agreesWithCheckOnEveryRunsMovementsNewAndPersisting() {
        Series series = SyntheticSeries.make(2);
        SeriesHistory h = SeriesSite.history(series, SeriesRules.Options.DEFAULT, Optional.empty(), Optional.empty());
        Map<String, SeriesHistory.Key> keys = byName(h);
        for (String run : series.runs()) {
            SeriesCheck check = SeriesCheck.of(series, run, SeriesRules.Options.DEFAULT);
            List<String> expected = check.movements().stream()
                    .map(m -> m.key() + " " + m.isNew() + " " + m.move().rule() + " " + m.newCpu())
                    .sorted()
                    .toList();
            List<String> marked = new ArrayList<>();
            for (SeriesHistory.Key k : keys.values()) {
                for (SeriesHistory.Movement m : k.movements()) {
                    if (k.readings().get(m.reading()).run().equals(run)) {
                        marked.add(k.name() + " " + m.isNew() + " " + m.move().rule() + " "
                                + k.newCpus().contains(m.reading()));
                    }
                }
            }
            assertEquals(expected, marked.stream().sorted().toList(), run);
        }
    }

    @Test
    void linksUnderTheAddressGivenElseGithubsElseNone() {
        Map<String, String> env = Map.of("GITHUB_SERVER_URL", "https://github.com", "GITHUB_REPOSITORY", "o/r");
        assertEquals(Optional.of("https://github.com/o/r"), SeriesSite.repoUrl(Optional.empty(), env));
        assertEquals(
                Optional.of("https://git.example/x/y"),
                SeriesSite.repoUrl(Optional.of("https://git.example/x/y/"), env));
        assertEquals(Optional.empty(), SeriesSite.repoUrl(Optional.empty(), Map.of("GITHUB_REPOSITORY", "o/r")));
        for (String bad :
                List.of("javascript:alert(1)", "file:///etc", "https://x.example/r?a=1", "//x/y", "data:,x")) {
            assertThrows(BadInputException.class, () -> SeriesSite.repoUrl(Optional.of(bad), Map.of()), bad);
        }
    }

    @Test
    void writesTheIndexAndADataFilePerHundredKeysAndDropsAnEarlierSitesExtraFiles() throws IOException {
        List<Series.Reading> readings = new ArrayList<>();
        for (int night = 0; night < 4; night++) {
            for (int k = 0; k < 150; k++) {
                readings.add(new Series.Reading(
                        LocalDate.of(2026, 3, 1).plusDays(night),
                        "r" + night,
                        "abc1234",
                        "cpu",
                        "key/" + k,
                        1 + k / 1000.0));
            }
        }
        Path csv = tmp.resolve("ratios.csv");
        Files.writeString(csv, SeriesFile.of(readings).write());
        Path out = tmp.resolve("site");
        Files.createDirectories(out.resolve("data"));
        Files.writeString(out.resolve("data/keys-00007.js"), "stale");
        SeriesSite.Written w = SeriesSite.write(
                new SeriesSite.Request(csv, Optional.empty(), out, SeriesRules.Options.DEFAULT, Optional.empty()),
                SiteRenderer::files);
        assertEquals(new SeriesSite.Written(out.resolve("index.html"), 150, 4, 3, w.bytes()), w);
        assertTrue(Files.readString(out.resolve("data/keys-00001.js")).startsWith("perfabSite.load(1,"));
        assertFalse(Files.exists(out.resolve("data/keys-00007.js")), "an earlier site's data file is removed");
        Files.writeString(csv, "date,run,commit,cpu,key,ratio\n");
        BadInputException empty = assertThrows(
                BadInputException.class,
                () -> SeriesSite.write(
                        new SeriesSite.Request(
                                csv, Optional.empty(), out, SeriesRules.Options.DEFAULT, Optional.empty()),
                        SiteRenderer::files));
        assertTrue(empty.getMessage().endsWith("the series has no readings"), empty.getMessage());
    }

    private static void assertFirstNew(SeriesHistory.Key key, String date, SeriesRules.Rule rule) {
        SeriesHistory.Movement first = key.movements().stream()
                .filter(SeriesHistory.Movement::isNew)
                .findFirst()
                .orElseThrow();
        assertEquals(date, key.readings().get(first.reading()).date().toString(), key.name());
        assertEquals(rule, first.move().rule(), key.name());
    }

    private static Map<String, SeriesHistory.Key> byName(SeriesHistory h) {
        Map<String, SeriesHistory.Key> m = new LinkedHashMap<>();
        h.keys().forEach(k -> m.put(k.name(), k));
        return m;
    }
}
