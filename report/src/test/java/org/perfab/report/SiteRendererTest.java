package org.perfab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.perfab.model.Series;
import org.perfab.model.SeriesHistory;
import org.perfab.stats.SeriesRules;

/**
 * The series site's pages as text: every hostile name carried as data that no script element can
 * be closed by, each key's row of the index and its readings in the data file its place names,
 * and links to commits and runs only where they are safe to make.
 */
class SiteRendererTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SHA = "0123456789abcdef0123456789abcdef01234567";
    private static final List<String> HOSTILE = List.of(
            "</script><script>alert(1)</script>",
            "<!--",
            "]]>",
            "a\u2028b\u2029c",
            "x' onmouseover='alert(1)",
            "\"><img src=x onerror=alert(1)>",
            "<\u0000>",
            "\ud800 lone",
            "&lt;ok&gt;");

    @Test
    void carriesEveryHostileNameAsDataNoScriptCanBeClosedBy() throws Exception {
        List<SeriesHistory.Key> keys = new ArrayList<>();
        for (String name : HOSTILE) {
            keys.add(key(name, List.of(reading(0, "</script>", "javascript:alert(1)", "<b>cpu</b>", name, 1.0))));
        }
        SeriesHistory h = new SeriesHistory(
                SeriesRules.Options.DEFAULT,
                List.of("</script>"),
                keys,
                Optional.empty(),
                Optional.of("https://github.com/o/r"));
        Map<String, String> files = SiteRenderer.files(h);
        String index = files.get("index.html");
        assertEquals(2, count(index, "<script"), "the data and the page's own script, no other");
        assertEquals(2, count(index, "</script"), "no name closes a script");
        assertFalse(index.contains("<!--"), "no name opens a comment");
        assertFalse(index.contains("\u2028") || index.contains("\u2029"), "no line separator in a script");
        JsonNode data = data(index);
        for (int i = 0; i < HOSTILE.size(); i++) {
            String name = data.get("keys").get(i).get(0).asText();
            assertTrue(HOSTILE.contains(name) || name.contains("\ufffd"), "a name read back as it was: " + name);
        }
        assertEquals("<b>cpu</b>", data.get("cpus").get(0).asText());
        JsonNode run = data.get("runs").get(0);
        assertEquals("</script>", run.get(1).asText());
        assertTrue(run.get(4).isNull(), "a run id that is not a number is not linked");
        assertTrue(run.get(5).isNull(), "a commit that is not hexadecimal is not linked");
        String chunk = files.get("data/keys-00000.js");
        assertEquals(0, count(chunk, "<"), "the data file holds no markup: " + chunk);
    }

    @Test
    void showsANameWithControlCharactersAndSpacesVisiblyAndKeepsItWholeToFindIt() throws Exception {
        String name = "a  b\u0007";
        SeriesHistory h = new SeriesHistory(
                SeriesRules.Options.DEFAULT,
                List.of("1"),
                List.of(key(name, List.of(reading(0, "1", SHA, "cpu", name, 1.0)))),
                Optional.empty(),
                Optional.empty());
        JsonNode row = data(SiteRenderer.files(h).get("index.html")).get("keys").get(0);
        assertEquals(name, row.get(0).asText());
        assertEquals("a\u2420\u2420b?", row.get(9).asText());
    }

    @Test
    void linksACommitAndARunUnderTheRepositoryOnlyWhenTheirIdsAreSafe() {
        Optional<String> repo = Optional.of("https://github.com/o/r");
        assertEquals(Optional.of("https://github.com/o/r/commit/" + SHA), SiteRenderer.commitLink(repo, SHA));
        assertEquals(Optional.of("https://github.com/o/r/commit/abc1234"), SiteRenderer.commitLink(repo, "abc1234"));
        assertEquals(
                Optional.of("https://github.com/o/r/actions/runs/9876543210"),
                SiteRenderer.runLink(repo, "9876543210"));
        for (String bad : List.of("", "abc", "../../x", "0123456z", SHA + "?x", " " + SHA)) {
            assertEquals(Optional.empty(), SiteRenderer.commitLink(repo, bad), bad);
        }
        for (String bad : List.of("", "nightly-1", "12 34", "-1", "1/../2")) {
            assertEquals(Optional.empty(), SiteRenderer.runLink(repo, bad), bad);
        }
        assertEquals(Optional.empty(), SiteRenderer.commitLink(Optional.empty(), SHA), "no address, no link");
        assertEquals(Optional.empty(), SiteRenderer.runLink(Optional.empty(), "1"), "no address, no link");
    }

    @Test
    void givesEachKeyItsIndexRowAndItsReadingsAndMarksInTheFileOfItsPlace() throws Exception {
        List<String> runs = List.of("101", "102", "103", "104", "105");
        List<SeriesHistory.Key> keys = new ArrayList<>();
        for (int k = 0; k < SiteRenderer.CHUNK + 5; k++) {
            String name = String.format("key/%04d", k);
            List<Series.Reading> rs = new ArrayList<>();
            for (int n = 0; n < runs.size(); n++) {
                String cpu = n == 4 && k == 3 ? "new cpu" : "cpu";
                String sha = n == 2 && k == 3 ? "fedcba9" : SHA;
                rs.add(reading(n, runs.get(n), sha, cpu, name, n < 4 || k != 3 ? 1.0 : 1.5));
            }
            if (k == 3) {
                SeriesRules.Move step =
                        new SeriesRules.Move(SeriesRules.Rule.STEP, 1.5, 1.0, 50, 30, List.of(0, 1, 2, 3));
                keys.add(new SeriesHistory.Key(
                        name,
                        rs,
                        0.02,
                        List.of(new SeriesHistory.Movement(4, step, true)),
                        List.of(4),
                        List.of(new SeriesHistory.Rebasing(2, "0ld"))));
            } else {
                keys.add(key(name, rs));
            }
        }
        SeriesHistory h = new SeriesHistory(
                SeriesRules.Options.DEFAULT, runs, keys, Optional.empty(), Optional.of("https://github.com/o/r"));
        Map<String, String> files = SiteRenderer.files(h);
        assertEquals(List.of("index.html", "data/keys-00000.js", "data/keys-00001.js"), List.copyOf(files.keySet()));
        JsonNode data = data(files.get("index.html"));
        assertEquals(SiteRenderer.CHUNK, data.get("chunk").asInt());
        assertEquals(
                "https://github.com/o/r/actions/runs/105",
                data.get("runs").get(4).get(4).asText());
        assertEquals(
                "https://github.com/o/r/commit/" + SHA,
                data.get("runs").get(4).get(5).asText());
        JsonNode moved = data.get("keys").get(3);
        assertEquals(
                "[\"key/0003\",1.5,2,\"step\",1,50,5,4,1,null]",
                moved.toString(),
                "name, latest ratio, noise %, movement, new, change %, readings, last run, new cpu, shown");
        assertEquals(
                "[\"key/0004\",1,0,null,0,null,5,4,0,null]",
                data.get("keys").get(4).toString());

        String second = files.get("data/keys-00001.js");
        assertTrue(second.startsWith("perfabSite.load(1,[[[0,1,2,3,4],[1,1,1,1,1],[],[],[],[],[]],"), second);
        JsonNode first = chunk(files.get("data/keys-00000.js"));
        assertEquals(SiteRenderer.CHUNK, first.size());
        JsonNode three = first.get(3);
        assertEquals(
                "[[0,1,2,3,4],[1,1,1,1,1.5],[[4,\"step\",1,1.5,1,50,30,0,3]],[4],[[4,\"new cpu\"]],"
                        + "[[2,\"fedcba9\",\"https://github.com/o/r/commit/fedcba9\"]],[[2,\"0ld\",\"\"]]]",
                three.toString(),
                "runs, ratios, movements, new processors, processors and commits not their run's, re-basings");
    }

    private static Series.Reading reading(int night, String run, String commit, String cpu, String key, double ratio) {
        return new Series.Reading(LocalDate.of(2026, 9, 1).plusDays(night), run, commit, cpu, key, ratio);
    }

    private static SeriesHistory.Key key(String name, List<Series.Reading> readings) {
        return new SeriesHistory.Key(name, readings, 0, List.of(), List.of(), List.of());
    }

    private static JsonNode data(String index) throws Exception {
        Matcher m = Pattern.compile("<script type=\"application/json\" id=\"site-data\">(.*?)</script>", Pattern.DOTALL)
                .matcher(index);
        assertTrue(m.find(), "the site's data");
        return JSON.readTree(m.group(1));
    }

    private static JsonNode chunk(String text) throws Exception {
        Matcher m = Pattern.compile("^perfabSite\\.load\\(\\d+,(.*)\\);\\n$", Pattern.DOTALL)
                .matcher(text);
        assertTrue(m.find(), text);
        return JSON.readTree(m.group(1));
    }

    private static int count(String s, String what) {
        return s.split(Pattern.quote(what), -1).length - 1;
    }
}
