package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.Resources;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.perfab.report.testing.Golden;
import org.perfab.testing.Comparisons;

@ResourceLock(Resources.LOCALE)
class CompareCommandTest {
    private static final String BASE = "src/test/resources/compare/base.json";
    private static final String HEAD = "src/test/resources/compare/head.json";

    @TempDir
    Path dir;

    static Locale[] locales() {
        return Golden.LOCALES;
    }

    @ParameterizedTest
    @MethodSource("locales")
    void printsTheTextTableAReaderExpects(Locale locale) throws Exception {
        Cli run = Golden.underLocale(locale, () -> Cli.run("compare", BASE, HEAD));
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("", run.err());
        Golden.assertMatches("compare.stdout", run.out());
    }

    @ParameterizedTest
    @MethodSource("locales")
    void printsJsonAndMarkdown(Locale locale) throws Exception {
        Cli json = Golden.underLocale(locale, () -> Cli.run("compare", "--format", "json", BASE, HEAD));
        assertEquals(0, json.exitCode(), json.err());
        Golden.assertMatches("compare-json.stdout", json.out());
        Cli md = Golden.underLocale(
                locale, () -> Cli.run("compare", "--format=markdown", "--profile", "batched/*:p50", BASE, HEAD));
        assertEquals(0, md.exitCode(), md.err());
        Golden.assertMatches("compare-markdown.stdout", md.out());
    }

    @Test
    void givesTheVerdictsAReaderExpects() throws IOException {
        Cli run = Cli.run("compare", "--format", "json", "--profile", "batched/*:p50", BASE, HEAD);
        JsonNode root = new ObjectMapper().readTree(run.out());
        Map<String, String> verdicts = new HashMap<>();
        for (JsonNode c : root.get("comparisons")) {
            verdicts.put(
                    c.get("cell").asText() + ":" + c.get("metric").asText(),
                    c.get("verdict").asText());
        }
        assertEquals("regression", verdicts.get("publish/256B/1sub:throughput"));
        assertEquals(
                "noisy",
                verdicts.get("publish/256B/1sub:p50"),
                "+0.0% [-3.5%, +3.7%]: an interval that reaches the bar rules nothing out");
        assertEquals("inconclusive", verdicts.get("fanout/10sub:p999"));
        assertEquals("improvement", verdicts.get("publish/64KiB/1sub:throughput"));
        assertEquals("profile", verdicts.get("batched/1KiB:p50"));
        assertEquals("no-data", verdicts.get("retired/cell:time"));
        assertEquals("no-data", verdicts.get("new/cell:time"));
        assertEquals(7, verdicts.size(), "no cell dropped");
    }

    @Test
    void manyCellsJudgedTogetherAtFewTrialsSayWhatItCostsAndAOneSignificantAloneHasItsOwnWords() throws IOException {
        // Fifty cells, five trials a side; one is 6% slower, significant alone (p about 0.003) but not
        // among fifty (q about 0.15).
        double[] z = {0.6, -1.2, 0.1, 1.0, -0.5};
        StringBuilder base = new StringBuilder();
        StringBuilder head = new StringBuilder();
        for (int c = 0; c < 50; c++) {
            for (int t = 0; t < 5; t++) {
                double b = 100 * (1 + 0.03 * z[(t + c) % 5]);
                double h = (c == 0 ? 106 : 100) * (1 + 0.03 * z[(t + c + 2) % 5]);
                base.append(String.format(Locale.ROOT, "BenchmarkCell%02d 1 %.3f ns/op%n", c, b));
                head.append(String.format(Locale.ROOT, "BenchmarkCell%02d 1 %.3f ns/op%n", c, h));
            }
        }
        Path b = dir.resolve("base.txt");
        Path h = dir.resolve("head.txt");
        Files.writeString(b, base);
        Files.writeString(h, head);
        Cli run = Cli.run("compare", b.toString(), h.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(
                run.out()
                        .contains("At 5 trials per side this costs power: a cell that changed alone among them must"
                                + " reach a p 50 times smaller than it would need on its own"),
                run.out());
        Cli json = Cli.run("compare", "--format", "json", b.toString(), h.toString());
        JsonNode cell = Comparisons.of(json.out()).get("Cell00:time");
        assertEquals("noisy", cell.get("verdict").asText(), cell.toString());
        assertTrue(cell.get("pValue").asDouble() < 0.05 && cell.get("qValue").asDouble() >= 0.05, cell.toString());
        assertTrue(
                run.out().contains("Significant on its own, not among the run's 50 tested cells, for 1 cell: Cell00"),
                run.out());
        assertTrue(run.out().contains("not among many"), "its row says why, not \"too noisy\": " + run.out());
    }

    @Test
    void anAdvisoryRunExitsZeroWhateverTheVerdicts() {
        assertEquals(0, Cli.run("compare", BASE, HEAD).exitCode());
    }

    @Test
    void failOnTurnsAVerdictIntoExitOne() {
        assertEquals(
                1, Cli.run("compare", "--fail-on", "regression", BASE, HEAD).exitCode());
        assertEquals(
                1, Cli.run("compare", "--fail-on", "inconclusive", BASE, HEAD).exitCode());
        assertEquals(
                0, Cli.run("compare", "--fail-on", "regression", BASE, BASE).exitCode());
        Cli bad = Cli.run("compare", "--fail-on", "improvement", BASE, HEAD);
        assertEquals(2, bad.exitCode());
        assertTrue(bad.err().contains("--fail-on: unknown verdict 'improvement'"), bad.err());
    }

    @Test
    void cellKeepsOnlyTheCellsThatMatchAndFailOnReadsOnlyThose() throws IOException {
        Cli run = Cli.run("compare", "--format", "json", "--cell", "publish/**:throughput", BASE, HEAD);
        assertEquals(0, run.exitCode(), run.err());
        Map<String, JsonNode> rows = Comparisons.of(run.out());
        assertEquals(
                List.of("publish/256B/1sub:throughput", "publish/64KiB/1sub:throughput"),
                rows.keySet().stream().sorted().toList());
        assertEquals(
                "regression",
                rows.get("publish/256B/1sub:throughput").get("verdict").asText());
        assertEquals(
                1,
                Cli.run("compare", "--cell", "publish/256B/*:throughput", "--fail-on", "regression", BASE, HEAD)
                        .exitCode());
        assertEquals(
                0,
                Cli.run(
                                "compare",
                                "--cell",
                                "publish/64KiB/**",
                                "--cell",
                                "publish/256B/1sub:p50",
                                "--fail-on",
                                "regression",
                                BASE,
                                HEAD)
                        .exitCode(),
                "an improvement and an unchanged cell");
        Cli none = Cli.run("compare", "--cell", "nothing/*", BASE, HEAD);
        assertEquals(2, none.exitCode(), "a pattern that matches nothing is a mistake, never a pass");
        assertTrue(none.err().contains("no cell matches 'nothing/*'"), none.err());
    }

    @Test
    void thresholdsChangeTheVerdicts() throws IOException {
        Cli run = Cli.run("compare", "--format", "json", "--min-effect", "5", BASE, HEAD);
        JsonNode c = Comparisons.of(run.out()).get("publish/256B/1sub:throughput");
        assertEquals("small", c.get("verdict").asText(), "a -4.7% change at p < 0.0001 is real, and under a 5% bar");
        Cli strict = Cli.run("compare", "--format", "json", "--min-effect", "5", "--alpha", "1e-9", BASE, HEAD);
        assertEquals(
                "noisy",
                Comparisons.of(strict.out())
                        .get("publish/256B/1sub:throughput")
                        .get("verdict")
                        .asText(),
                "not significant at alpha 1e-9, and blind to a 10% slowdown at that alpha");
    }

    @Test
    void writesToAFileWithOutput() throws IOException {
        Path out = dir.resolve("table.md");
        Cli run = Cli.run("compare", "--format", "markdown", "-o", out.toString(), BASE, HEAD);
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("", run.out());
        assertTrue(Files.readString(out).contains("| publish/256B/1sub |"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = ';',
            value = {
                "--alpha 0; --alpha must be between 0 and 1",
                "--alpha 1.5; --alpha must be between 0 and 1",
                "--min-effect -1; --min-effect must be a percentage >= 0",
                "--inconclusive 2; --inconclusive must be >= --min-effect",
                "--alpha abc; Invalid value for option '--alpha'",
                "--fdr 1; --fdr must be between 0 and 1 (exclusive), or off, got 1.0",
                "--outlier-floor -2; --outlier-floor must be a percentage >= 0, got -2.0",
                "--noisy-above -1; --noisy-above must be a percentage >= 0, got -1.0",
                "--fdr often; --fdr must be between 0 and 1 (exclusive), or off, got 'often'",
                "--format yaml; --format: unknown format 'yaml' (this command writes text, json, markdown, github, html, csv or junit)",
                "--profile a:b:c; --profile: cell pattern 'a:b:c' has more than one ':'",
            })
    void rejectsBadOptionsWithAHelpfulMessage(String options, String message) {
        String[] opts = options.split(" ");
        String[] args = new String[opts.length + 3];
        args[0] = "compare";
        System.arraycopy(opts, 0, args, 1, opts.length);
        args[opts.length + 1] = BASE;
        args[opts.length + 2] = HEAD;
        Cli run = Cli.run(args);
        assertEquals(2, run.exitCode());
        assertEquals("", run.out(), "nothing half-printed");
        assertTrue(run.err().contains(message), run.err());
        assertTrue(run.err().contains("perfab compare --help"), run.err());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = ';',
            quoteCharacter = '`',
            value = {
                "not json; `{\"schema\": \"perfab/measurements/v1\", \"measurements\": [}`; :1:55: malformed JSON: Unexpected close marker '}': expected ']' (for Array starting at [line: 1, column: 54])",
                "truncated; `{\"schema\": \"perfab/measurements/v1\",\n \"measurements\": [`; :2:19: malformed JSON",
                "wrong schema; `{\"schema\": \"other/v2\", \"measurements\": []}`; :1:12: unsupported schema \"other/v2\"",
                "no schema; `{\"measurements\": []}`; :1:2: \"schema\": \"perfab/measurements/v1\" must come before",
                "array root; `[]`; :1:1: expected a JSON object",
                "unknown top key; `{\"schema\": \"perfab/measurements/v1\", \"results\": []}`; :1:38: unknown key \"results\"",
                "NaN; `{\"schema\": \"perfab/measurements/v1\",\n \"measurements\": [\n {\"cell\": \"a/b\", \"metric\": \"time\", \"unit\": \"ns\", \"value\": NaN}]}`; :3:59: measurement #1 (cell 'a/b', metric 'time'): \"value\" is NaN, not a finite number",
                "Infinity; `{\"schema\": \"perfab/measurements/v1\", \"measurements\": [{\"cell\": \"a\", \"metric\": \"t\", \"unit\": \"ns\", \"value\": -Infinity}]}`; (cell 'a', metric 't'): \"value\" is -Infinity",
                "negative time; `{\"schema\": \"perfab/measurements/v1\", \"measurements\": [\n {\"cell\": \"a\", \"metric\": \"t\", \"unit\": \"ms\", \"value\": -0.5}]}`; :2:2: cell 'a' (t): value -0.5 ms is negative, and a time or a cost cannot be",
                "negative cost; `{\"schema\": \"perfab/measurements/v1\", \"measurements\": [{\"cell\": \"a\", \"metric\": \"allocs\", \"unit\": \"allocs/op\", \"value\": -1}]}`; :1:55: cell 'a' (allocs): value -1 allocs/op is negative",
                "missing value; `{\"schema\": \"perfab/measurements/v1\", \"measurements\": [{\"cell\": \"a\", \"metric\": \"t\", \"unit\": \"ns\"}]}`; :1:55: measurement #1 (cell 'a', metric 't'): \"value\" is missing",
                "null value; `{\"schema\": \"perfab/measurements/v1\", \"measurements\": [{\"cell\": \"a\", \"metric\": \"t\", \"unit\": \"ns\", \"value\": null}]}`; \"value\" is null",
                "string value; `{\"schema\": \"perfab/measurements/v1\", \"measurements\": [{\"cell\": \"a\", \"metric\": \"t\", \"unit\": \"ns\", \"value\": \"12\"}]}`; \"value\" must be a number",
                "unknown direction; `{\"schema\": \"perfab/measurements/v1\", \"measurements\": [{\"cell\": \"a\", \"metric\": \"t\", \"unit\": \"ns\", \"direction\": \"up\", \"value\": 1}]}`; unknown direction 'up' (expected 'lower' or 'higher')",
                "no direction; `{\"schema\": \"perfab/measurements/v1\", \"measurements\": [{\"cell\": \"a\", \"metric\": \"score\", \"unit\": \"points\", \"value\": 1}]}`; unit 'points' does not tell which way is better",
                "misspelt key; `{\"schema\": \"perfab/measurements/v1\", \"measurements\": [{\"cell\": \"a\", \"metric\": \"t\", \"unit\": \"ns\", \"dirction\": \"lower\", \"value\": 1}]}`; unknown key \"dirction\"",
                "missing cell; `{\"schema\": \"perfab/measurements/v1\", \"measurements\": [{\"metric\": \"t\", \"unit\": \"ns\", \"value\": 1}]}`; measurement #1: \"cell\" is missing",
                "two units; `{\"schema\": \"perfab/measurements/v1\", \"measurements\": [{\"cell\": \"a\", \"metric\": \"t\", \"unit\": \"ns\", \"value\": 1},\n{\"cell\": \"a\", \"metric\": \"t\", \"unit\": \"KiB\", \"value\": 1}]}`; :2:1: cell 'a' (t) has unit 'KiB' (lower is better) but unit 'ns' (lower is better) at ",
                "bits for bytes; `{\"schema\": \"perfab/measurements/v1\", \"measurements\": [{\"cell\": \"a\", \"metric\": \"t\", \"unit\": \"MB/s\", \"value\": 1},\n{\"cell\": \"a\", \"metric\": \"t\", \"unit\": \"mb/s\", \"value\": 1}]}`; :2:1: cell 'a' (t) has unit 'mb/s' (higher is better) but unit 'MB/s' (higher is better) at ",
                "duplicate key; `{\"schema\": \"perfab/measurements/v1\", \"measurements\": [{\"cell\": \"a\", \"cell\": \"b\"}]}`; malformed JSON: Duplicate field 'cell'",
            })
    void rejectsABadFileNamingWhereAndWhat(String what, String content, String message) throws IOException {
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, content, StandardCharsets.UTF_8);
        Cli run = Cli.run("compare", BASE, bad.toString());
        assertEquals(2, run.exitCode(), run.err());
        assertEquals("", run.out(), "nothing half-printed");
        assertTrue(run.err().startsWith("perfab: " + bad), run.err());
        assertTrue(run.err().contains(message), "expected '" + message + "' in: " + run.err());
    }

    @Test
    void convertsACellWhoseUnitDiffersBetweenTheSides() throws IOException {
        Path head = dir.resolve("head.json");
        Files.writeString(
                head,
                "{\"schema\": \"perfab/measurements/v1\", \"measurements\": [\n"
                        + "{\"cell\": \"publish/256B/1sub\", \"metric\": \"p50\", \"unit\": \"ms\", \"value\": 0.069},\n"
                        + "{\"cell\": \"publish/256B/1sub\", \"metric\": \"p50\", \"unit\": \"ms\", \"value\": 0.070}]}");
        Cli run = Cli.run("compare", "--format", "json", BASE, head.toString());
        assertEquals(0, run.exitCode(), run.err());
        JsonNode c = Comparisons.of(run.out()).get("publish/256B/1sub:p50");
        assertEquals("us", c.get("unit").asText());
        assertEquals(69.5, c.at("/head/mean").asDouble(), 1e-9);
    }

    private Path measurements(String name, String... rows) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(
                file,
                "{\"schema\": \"perfab/measurements/v1\", \"measurements\": [\n" + String.join(",\n", rows) + "]}\n");
        return file;
    }

    private static String row(String cell, String metric, String unit, double value) {
        return String.format(
                Locale.ROOT,
                "{\"cell\": \"%s\", \"metric\": \"%s\", \"unit\": \"%s\", \"value\": %s}",
                cell,
                metric,
                unit,
                value);
    }

    @Test
    void manyCellsSayHowManyPassByChanceAndFdrHoldsThemBack() throws IOException {
        // 30 cells: 28 the same on both sides, one 12% slower beyond doubt, and one 4% slower with
        // p about 0.005, which is significant alone and not once 30 tests are counted.
        double[] values = {100, 102, 98, 101, 99};
        double[] shuffled = {101, 98, 102, 99, 100};
        List<String> b = new ArrayList<>();
        List<String> h = new ArrayList<>();
        for (int c = 0; c < 30; c++) {
            for (int i = 0; i < values.length; i++) {
                b.add(row("cell" + c, "time", "ns", values[i]));
                double factor = c == 0 ? 1.12 : c == 1 ? 1.04 : 1;
                h.add(row("cell" + c, "time", "ns", (c == 0 ? values[i] : shuffled[i]) * factor));
            }
        }
        Path base = measurements("base.json", b.toArray(String[]::new));
        Path head = measurements("head.json", h.toArray(String[]::new));

        // By default 30 tested cells are judged together: the 4% cell is significant alone, not among 30.
        Cli together = Cli.run("compare", "--format", "json", base.toString(), head.toString());
        Map<String, JsonNode> cells = Comparisons.of(together.out());
        assertEquals("regression", cells.get("cell0:time").get("verdict").asText());
        assertEquals(
                "noisy",
                cells.get("cell1:time").get("verdict").asText(),
                cells.get("cell1:time").toString());
        assertTrue(cells.get("cell1:time").get("caveats").toString().contains("not-among-many"));
        assertTrue(new ObjectMapper()
                .readTree(together.out())
                .at("/thresholds/fdr")
                .isNull());
        Cli markdown = Cli.run("compare", "--format", "markdown", base.toString(), head.toString());
        assertTrue(
                markdown.out()
                        .contains("The 30 tested cells judged together: significant only when the"
                                + " Benjamini-Hochberg adjusted p is under 0.05"),
                markdown.out());
        assertTrue(
                markdown.out()
                        .contains("p 0.0044 is under alpha 0.05 on its own, but judged together with the"
                                + " run&#39;s other tested cells its adjusted p (Benjamini-Hochberg q) "),
                markdown.out());

        // --fdr off judges each alone: the 4% cell is then a regression, and the comment says how many pass by chance.
        Cli alone = Cli.run("compare", "--fdr", "off", "--format", "json", base.toString(), head.toString());
        assertEquals(0, alone.exitCode(), alone.err());
        cells = Comparisons.of(alone.out());
        assertEquals(
                "regression",
                cells.get("cell1:time").get("verdict").asText(),
                cells.get("cell1:time").toString());
        Cli aloneMarkdown =
                Cli.run("compare", "--fdr", "off", "--format", "markdown", base.toString(), head.toString());
        assertTrue(
                aloneMarkdown
                        .out()
                        .contains("With 30 cells at alpha 0.05, about 2 look significant by chance before"
                                + " the 3.0% bar"),
                aloneMarkdown.out());
        assertTrue(aloneMarkdown.out().contains("\u2705 no change &ge; "), aloneMarkdown.out());

        Cli fdr = Cli.run("compare", "--fdr", "0.05", "--format", "json", base.toString(), head.toString());
        assertEquals(0, fdr.exitCode(), fdr.err());
        cells = Comparisons.of(fdr.out());
        assertEquals("regression", cells.get("cell0:time").get("verdict").asText());
        JsonNode borderline = cells.get("cell1:time");
        assertEquals("noisy", borderline.get("verdict").asText(), borderline.toString());
        assertEquals(
                Comparisons.of(alone.out()).get("cell1:time").get("pValue").asDouble(),
                borderline.get("pValue").asDouble(),
                0.0,
                "the figures stay; only the verdict is judged anew");
        assertEquals(
                0.05,
                new ObjectMapper().readTree(fdr.out()).at("/thresholds/fdr").asDouble());
        Cli text = Cli.run("compare", "--fdr", "0.05", base.toString(), head.toString());
        assertTrue(
                text.out().contains("significant only when the Benjamini-Hochberg adjusted p is under 0.05"),
                text.out());
        assertFalse(text.out().contains("look significant by chance"), text.out());
    }

    @Test
    void aColonInANameOrMetricNeverMakesTwoCellsOne() throws IOException {
        // Cell "x:y" with metric "z", and cell "x" with metric "y:z": once read as one cell, +398%.
        Path base = measurements("base.json", row("x:y", "z", "us", 100), row("x:y", "z", "us", 101));
        Path head = measurements("head.json", row("x", "y:z", "us", 498), row("x", "y:z", "us", 499));
        Cli run = Cli.run("compare", "--format", "json", base.toString(), head.toString());
        assertEquals(0, run.exitCode(), run.err());
        JsonNode rows = new ObjectMapper().readTree(run.out()).get("comparisons");
        assertEquals(2, rows.size(), rows.toString());
        for (JsonNode r : rows) {
            assertEquals("no-data", r.get("verdict").asText(), r.toString());
        }
    }

    @Test
    void convertsACellsUnitsWithinOneFileAsAcrossFiles() throws IOException {
        Path base = measurements(
                "base.json", row("a", "time", "us", 1.0), row("a", "time", "ns", 1010), row("a", "time", "us", 0.99));
        Path head = measurements(
                "head.json", row("a", "time", "ns", 1000), row("a", "time", "us", 1.01), row("a", "time", "ns", 990));
        Cli run = Cli.run("compare", "--format", "json", base.toString(), head.toString());
        assertEquals(0, run.exitCode(), run.err());
        JsonNode c = Comparisons.of(run.out()).get("a:time");
        assertEquals("us", c.get("unit").asText(), "the unit the cell was first read in");
        assertEquals(1.0, c.at("/base/mean").asDouble(), 1e-12);
        assertEquals(1.0, c.at("/head/mean").asDouble(), 1e-12);
        assertEquals("unchanged", c.get("verdict").asText());
    }

    @Test
    void namesTheValueWhoseConversionOverflows() throws IOException {
        Path base = measurements("base.json", row("a", "time", "ns", 1), row("a", "time", "ns", 2));
        Path head = measurements("head.json", row("a", "time", "s", 1e-9), row("a", "time", "s", 1e300));
        Cli run = Cli.run("compare", base.toString(), head.toString());
        assertEquals(2, run.exitCode());
        assertEquals(
                "perfab: " + head + ":3:1: cell 'a' (time) has unit 's' (lower is better) but unit 'ns' (lower is"
                        + " better) at " + base + ":2:1, and the two do not convert\n",
                run.err());
    }

    @Test
    void countsTrialsAcrossASidesFilesWhateverTheirUnits() throws IOException {
        Path first = measurements("base-1.json", row("a", "time", "us", 1.0), row("b", "time", "us", 5.0));
        Path second = measurements(
                "base-2.json", row("a", "time", "ns", 1020), row("a", "time", "ns", 980), row("b", "time", "us", 5.0));
        Path head = measurements(
                "head.json", row("a", "time", "us", 1.0), row("a", "time", "us", 1.0), row("b", "time", "us", 5.0));
        Cli run = Cli.run(
                "compare",
                "--format",
                "json",
                "--base",
                first.toString(),
                second.toString(),
                "--head",
                head.toString());
        assertEquals(0, run.exitCode(), run.err());
        JsonNode a = Comparisons.of(run.out()).get("a:time");
        assertEquals(3, a.at("/base/n").asInt());
        assertEquals(1.0, a.at("/base/mean").asDouble(), 1e-12);
        assertEquals(0.98, a.at("/base/min").asDouble(), 1e-12);
        assertEquals(2, Comparisons.of(run.out()).get("b:time").at("/base/n").asInt());
    }

    @Test
    void megabitsAreNotMegabytes() throws IOException {
        Path base =
                measurements("base.json", row("net", "throughput", "MB/s", 100), row("net", "throughput", "MB/s", 101));
        Path head =
                measurements("head.json", row("net", "throughput", "Mb/s", 800), row("net", "throughput", "Mb/s", 808));
        Cli run = Cli.run("compare", "--format", "json", base.toString(), head.toString());
        assertEquals(0, run.exitCode(), run.err());
        JsonNode c = Comparisons.of(run.out()).get("net:throughput");
        assertEquals(100.5, c.at("/head/mean").asDouble(), 1e-9, "800 Mb/s is 100 MB/s");
        assertEquals("unchanged", c.get("verdict").asText(), c.toString());
    }

    @Test
    void aShareOfTimeIsACost() throws IOException {
        Path base = measurements("base.json", row("gc", "pause", "ms/s", 10), row("gc", "pause", "ms/s", 10.1));
        Path head = measurements("head.json", row("gc", "pause", "ms/s", 20), row("gc", "pause", "ms/s", 20.2));
        JsonNode c = Comparisons.of(Cli.run("compare", "--format", "json", base.toString(), head.toString())
                        .out())
                .get("gc:pause");
        assertEquals("lower", c.get("direction").asText());
        assertEquals("regression", c.get("verdict").asText(), "twice the time paused each second is worse");
    }

    @Test
    void oneSlowTrialDoesNotHideARealSlowdownAndIsShown() throws IOException {
        // Head truly 5% slower, CV about 0.3%; its 7th trial hit a hiccup, 30% slower still.
        double[] base = {100.0, 100.4, 99.7, 100.2, 99.9, 100.1, 99.6, 100.3, 100.0, 99.8};
        List<String> b = new ArrayList<>();
        List<String> h = new ArrayList<>();
        for (int i = 0; i < base.length; i++) {
            b.add(row("publish", "time", "us", base[i]));
            h.add(row("publish", "time", "us", base[i] * 1.05 * (i == 6 ? 1.3 : 1)));
        }
        Path basePath = measurements("base.json", b.toArray(String[]::new));
        Path headPath = measurements("head.json", h.toArray(String[]::new));
        Cli run = Cli.run("compare", "--format", "json", basePath.toString(), headPath.toString());
        JsonNode c = Comparisons.of(run.out()).get("publish:time");
        assertEquals("regression", c.get("verdict").asText(), c.toString());
        assertEquals(5.0, c.get("pctChange").asDouble(), 0.05);
        assertEquals(9, c.at("/head/n").asInt());
        assertEquals(
                "{\"side\":\"head\",\"build\":0,\"trial\":6,\"value\":135.9,\"deviation\":29.4}",
                c.get("outliers").get(0).toString().replaceAll("(\\d+\\.\\d)\\d*", "$1"));
        Cli text = Cli.run("compare", basePath.toString(), headPath.toString());
        assertTrue(
                text.out()
                        .contains("publish time: 1 far trial set aside (head trial 7 +29.4% from its side's"
                                + " median)"),
                text.out());
    }

    @Test
    void rejectsACellWhoseUnitsCannotConvert() throws IOException {
        Path head = dir.resolve("head.json");
        Files.writeString(
                head,
                "{\"schema\": \"perfab/measurements/v1\", \"measurements\": [\n"
                        + "{\"cell\": \"publish/256B/1sub\", \"metric\": \"p50\", \"unit\": \"KiB\", \"value\": 1}]}");
        Cli run = Cli.run("compare", BASE, head.toString());
        assertEquals(2, run.exitCode());
        assertTrue(
                run.err().contains(head + ":2:")
                        && run.err().contains("unit 'KiB'")
                        && run.err().contains("unit 'us'")
                        && run.err().contains(BASE + ":"),
                run.err());
    }

    @Test
    void namesAMissingFile() {
        Cli run = Cli.run("compare", BASE, "no/such/file.json");
        assertEquals(2, run.exitCode());
        assertEquals("perfab: no/such/file.json: no such file\n", run.err());
    }

    @Test
    void aUnitWithControlCharactersIsShownPlainInEveryRow() throws IOException {
        String cell = "{\"cell\": \"c\", \"metric\": \"time\", \"unit\": \"ns\\u001b[31mRED\\u0007/op\","
                + " \"direction\": \"lower\", \"value\": %s}";
        Path base = dir.resolve("base.json");
        Path head = dir.resolve("head.json");
        Files.writeString(
                base,
                "{\"schema\": \"perfab/measurements/v1\", \"measurements\": ["
                        + String.join(
                                ",",
                                String.format(Locale.ROOT, cell, "1"),
                                String.format(Locale.ROOT, cell, "2"),
                                String.format(Locale.ROOT, cell, "3"))
                        + "]}");
        Files.writeString(
                head,
                "{\"schema\": \"perfab/measurements/v1\", \"measurements\": ["
                        + String.join(
                                ",",
                                String.format(Locale.ROOT, cell, "5"),
                                String.format(Locale.ROOT, cell, "6"),
                                String.format(Locale.ROOT, cell, "7"))
                        + "]}");
        for (String format : List.of("text", "markdown", "html")) {
            Cli run = Cli.run("compare", base.toString(), head.toString(), "--format", format);
            assertEquals(0, run.exitCode(), run.err());
            assertFalse(run.out().contains("\u001b") || run.out().contains("\u0007"), format + ":\n" + run.out());
            assertTrue(run.out().contains("RED"), format);
        }
    }

    @Test
    void reportsABaselineMeanOfZeroWithAWarningNotACrash() throws IOException {
        Path base = dir.resolve("base.json");
        Path head = dir.resolve("head.json");
        String cell = "{\"cell\": \"alloc\", \"metric\": \"allocs\", \"unit\": \"allocs/op\", \"value\": %s}";
        Files.writeString(
                base,
                "{\"schema\": \"perfab/measurements/v1\", \"measurements\": [" + String.format(Locale.ROOT, cell, "0")
                        + "," + String.format(Locale.ROOT, cell, "0") + "]}");
        Files.writeString(
                head,
                "{\"schema\": \"perfab/measurements/v1\", \"measurements\": [" + String.format(Locale.ROOT, cell, "0")
                        + "," + String.format(Locale.ROOT, cell, "0") + "]}");
        Cli zeros = Cli.run("compare", base.toString(), head.toString(), "--format", "text");
        assertEquals(0, zeros.exitCode(), zeros.err());
        assertTrue(
                zeros.out().contains("allocs (allocs/op): 1 cell 0 on both sides in every trial: allocs of alloc"),
                "0 before and after: one line\n" + zeros.out());
        assertFalse(zeros.out().contains("no percent change"), zeros.out());
        Files.writeString(
                head,
                "{\"schema\": \"perfab/measurements/v1\", \"measurements\": [" + String.format(Locale.ROOT, cell, "1")
                        + "," + String.format(Locale.ROOT, cell, "3") + "]}");
        Cli run = Cli.run("compare", base.toString(), head.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("baseline mean is 0: no percent change"), run.out());
    }

    @Test
    void anUnknownCommandIsBadUsage() {
        Cli run = Cli.run("frobnicate");
        assertEquals(2, run.exitCode());
        assertEquals("perfab: 'frobnicate' is not a perfab command.\nTry 'perfab --help' for usage.\n", run.err());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "compar|'compar' is not a perfab command. Did you mean compare?|perfab",
                "series chek|'chek' is not a perfab series command. Did you mean check?|perfab series",
                "baseline sed --snapshots x|'sed' is not a perfab baseline command. Did you mean seed?|perfab baseline",
                "ab --trails 3|unknown option --trails for perfab ab. Did you mean --trials?|perfab ab",
                "compare --alpa=0.1 a b|unknown option --alpa for perfab compare. Did you mean --alpha?|perfab compare",
                "compare --formt x a b|unknown option --formt for perfab compare. Did you mean --format?|perfab compare"
            })
    void aMistypedCommandOrOptionGetsTheNearestNames(String args, String said, String help) {
        Cli run = Cli.run(args.split(" "));
        assertEquals(2, run.exitCode());
        assertEquals("perfab: " + said + "\nTry '" + help + " --help' for usage.\n", run.err());
    }

    @Test
    void cellNamesNeverPrintAWorkflowCommandAfterAnySpace() throws IOException {
        List<String> names =
                List.of("\u00A0::error::owned", "\u2007::add-mask::secret", "  ::warning::x", "\u202F::notice::y");
        StringBuilder base = new StringBuilder("{\"schema\": \"perfab/measurements/v1\", \"measurements\": [");
        StringBuilder head = new StringBuilder(base);
        for (int i = 0; i < names.size(); i++) {
            for (int k = 0; k < 3; k++) {
                String sep = i == 0 && k == 0 ? "" : ",";
                base.append(sep)
                        .append("{\"cell\": \"")
                        .append(names.get(i))
                        .append("\", \"metric\": \"t\", \"unit\": \"ns\", \"value\": ")
                        .append(100 + k)
                        .append('}');
                head.append(sep)
                        .append("{\"cell\": \"")
                        .append(names.get(i))
                        .append("\", \"metric\": \"t\", \"unit\": \"ns\", \"value\": ")
                        .append(150 + k)
                        .append('}');
            }
        }
        Path b = dir.resolve("base.json");
        Path h = dir.resolve("head.json");
        Files.writeString(b, base + "]}");
        Files.writeString(h, head + "]}");
        for (String format : List.of("text", "markdown", "json", "github")) {
            // github writes the comment beside its annotations: into this test's folder.
            Cli run = format.equals("github")
                    ? Cli.run(
                            "compare",
                            "--format",
                            format,
                            "-o",
                            dir.resolve("comment.md").toString(),
                            b.toString(),
                            h.toString())
                    : Cli.run("compare", "--format", format, b.toString(), h.toString());
            assertEquals(0, run.exitCode(), run.err());
            assertTrue(run.out().contains("owned"), run.out());
            for (String line : run.out().split("\n")) {
                // perfab's own annotations (github) are commands; nothing a cell name brings is.
                assertFalse(
                        line.replaceFirst("^[\\s\\p{Z}\\u0085]+", "").startsWith("::")
                                && !line.matches("::(warning|notice|error) title=perfab[^:]*::.*"),
                        format + ": " + line);
            }
        }
        // A message that quotes a file's contents is held to the same rule.
        Path bad = dir.resolve("bad.json");
        Files.writeString(
                bad,
                "{\"schema\": \"perfab/measurements/v1\", \"measurements\": [{\"cell\": 1}],\n"
                        + "\u00A0::error::from-a-file\n");
        Cli err = Cli.run("compare", bad.toString(), h.toString());
        assertEquals(2, err.exitCode(), err.err());
        for (String line : err.err().split("\n")) {
            assertFalse(line.replaceFirst("^[\\s\\p{Z}\\u0085]+", "").startsWith("::"), line);
        }
    }

    @Test
    void cellNamesThatDifferOnlyInTheirSpacesAreShownApartInEveryFormat() throws IOException {
        List<String> names = List.of("a b", "a  b", "a b ", "a\u00A0b");
        StringBuilder base = new StringBuilder("{\"schema\": \"perfab/measurements/v1\", \"measurements\": [");
        StringBuilder head = new StringBuilder(base);
        for (int i = 0; i < names.size(); i++) {
            for (int k = 0; k < 3; k++) {
                String sep = i == 0 && k == 0 ? "" : ",";
                String m =
                        sep + "{\"cell\": \"" + names.get(i) + "\", \"metric\": \"t\", \"unit\": \"ns\", \"value\": ";
                base.append(m).append(100 + k).append('}');
                head.append(m).append(100 + k + i * 10).append('}');
            }
        }
        Path b = dir.resolve("base.json");
        Path h = dir.resolve("head.json");
        Files.writeString(b, base + "]}");
        Files.writeString(h, head + "]}");
        Map<String, String> cells =
                Map.of("text", "\n%s +\\d", "markdown", "\n\\| %s \\| t \\|", "html", "<td class=\"cell\">%s</td>");
        for (Map.Entry<String, String> format : cells.entrySet()) {
            Cli run = Cli.run("compare", "--format", format.getKey(), b.toString(), h.toString());
            assertEquals(0, run.exitCode(), run.err());
            for (String shown : List.of("a b", "a\u2420\u2420b", "a b\u2420", "a\u27E8U+00A0\u27E9b")) {
                String row = String.format(Locale.ROOT, format.getValue(), java.util.regex.Pattern.quote(shown));
                assertEquals(
                        1,
                        java.util.regex.Pattern.compile(row)
                                .matcher(run.out())
                                .results()
                                .count(),
                        format.getKey() + ": one row shows " + shown + " in:\n" + run.out());
            }
        }
    }

    @Test
    void inputsThatCannotBeComparedSaySoPlainly() throws IOException {
        Path one = dir.resolve("one.json");
        Files.writeString(
                one,
                "{\"schema\": \"perfab/measurements/v1\", \"measurements\": [{\"cell\": \"a\","
                        + " \"metric\": \"t\", \"unit\": \"ns\", \"value\": 1}, {\"cell\": \"a\", \"metric\": \"t\","
                        + " \"unit\": \"ns\", \"value\": 2}]}");
        Path empty = dir.resolve("empty.txt");
        Files.writeString(empty, "\n  \n");
        Cli e = Cli.run("compare", empty.toString(), one.toString());
        assertEquals(2, e.exitCode(), e.err());
        assertTrue(e.err().contains(empty + ": the file is empty: it holds no measurements"), e.err());

        Path noBench = dir.resolve("none.json");
        Files.writeString(noBench, "{\"schema\": \"perfab/measurements/v1\", \"measurements\": []}");
        Cli none = Cli.run("compare", noBench.toString(), noBench.toString());
        assertEquals(2, none.exitCode(), none.err());
        assertTrue(none.err().contains("no file holds a measurement"), none.err());

        Cli three = Cli.run("compare", one.toString(), one.toString(), one.toString());
        assertEquals(2, three.exitCode(), three.err());
        assertTrue(three.err().contains("two files expected, BASE and HEAD (or one RESULTS.json), got 3"), three.err());

        Cli twice = Cli.run(
                "compare",
                "--base",
                one.toString(),
                dir.resolve(".").resolve("one.json").toString(),
                "--head",
                one.toString());
        assertEquals(2, twice.exitCode(), twice.err());
        assertTrue(twice.err().contains("--base gives"), twice.err());
        assertTrue(twice.err().contains("twice"), twice.err());

        Cli profile = Cli.run("compare", "--profile", "nothing/*", one.toString(), one.toString());
        assertEquals(0, profile.exitCode(), profile.err());
        assertTrue(profile.err().contains("--profile 'nothing/*' matches no cell"), profile.err());
    }

    @Test
    void filesThatShareNoCellSayNothingWasComparedInEveryFormat() throws IOException {
        Path base = dir.resolve("base.json");
        Path head = dir.resolve("head.json");
        String two = "{\"schema\": \"perfab/measurements/v1\", \"measurements\": [{\"cell\": \"%s\","
                + " \"metric\": \"t\", \"unit\": \"ns\", \"value\": 1}, {\"cell\": \"%1$s\", \"metric\": \"t\","
                + " \"unit\": \"ns\", \"value\": 2}]}";
        Files.writeString(base, String.format(Locale.ROOT, two, "old"));
        Files.writeString(head, String.format(Locale.ROOT, two, "new"));
        String said = "no cell was measured on both sides (1 only on the baseline, 1 only on the candidate), so"
                + " nothing was compared";
        Cli text = Cli.run("compare", base.toString(), head.toString());
        assertEquals(0, text.exitCode(), text.err());
        assertTrue(
                text.err().contains("perfab: warning: base " + base + ", head " + head + ": no comparison: " + said),
                text.err());
        assertTrue(text.out().startsWith("FAILED: no comparison: " + said + "\n"), text.out());
        Cli md = Cli.run("compare", "--format", "markdown", base.toString(), head.toString());
        assertTrue(md.out().contains("### perfab · compare: \u274C no comparison: " + said + "\n"), md.out());
        assertFalse(md.out().contains("\u2705 0 unchanged"), "no count that reads like a pass: " + md.out());
        // github writes the comment beside its annotations: into this test's folder.
        Cli gh = Cli.run(
                "compare",
                "--format",
                "github",
                "-o",
                dir.resolve("comment.md").toString(),
                base.toString(),
                head.toString());
        assertTrue(gh.out().startsWith("::warning title=perfab::no comparison: " + said), gh.out());
        Cli html = Cli.run("compare", "--format", "html", base.toString(), head.toString());
        assertTrue(html.out().contains(">no comparison: " + said + "<"), html.out());

        Path none = dir.resolve("none.json");
        Files.writeString(none, "{\"schema\": \"perfab/measurements/v1\", \"measurements\": []}");
        Cli oneSide = Cli.run("compare", none.toString(), head.toString());
        assertEquals(0, oneSide.exitCode(), oneSide.err());
        assertTrue(
                oneSide.out()
                        .startsWith("FAILED: no comparison: no cell was measured on both sides (0 only on"
                                + " the baseline, 1 only on the candidate)"),
                oneSide.out());
        Cli same = Cli.run("compare", base.toString(), base.toString());
        assertFalse(same.out().contains("no comparison") || same.err().contains("warning"), same.out() + same.err());
    }

    /**
     * --format github writes the comment only where -o says: never into the folder it runs in,
     * where a file of that name may be someone's own.
     */
    @Test
    void githubWritesTheCommentOnlyWhereAsked() throws Exception {
        Path base = dir.resolve("base.json");
        Path head = dir.resolve("head.json");
        Files.writeString(
                base,
                "{\"schema\": \"perfab/measurements/v1\", \"measurements\": [{\"cell\": \"a\", \"metric\": \"t\", \"unit\":"
                        + " \"ns\", \"value\": 100}, {\"cell\": \"a\", \"metric\": \"t\", \"unit\": \"ns\", \"value\": 101}]}");
        Files.writeString(
                head,
                "{\"schema\": \"perfab/measurements/v1\", \"measurements\": [{\"cell\": \"a\", \"metric\": \"t\", \"unit\":"
                        + " \"ns\", \"value\": 150}, {\"cell\": \"a\", \"metric\": \"t\", \"unit\": \"ns\", \"value\": 151}]}");
        // The bug wrote ./comment.md, in the folder perfab runs in: this process's.
        Path unasked = Path.of("comment.md").toAbsolutePath();
        assertFalse(Files.exists(unasked), unasked + " is there before the test");
        Path summary = dir.resolve("summary");
        for (List<String> extra :
                List.of(List.<String>of(), List.of("-o", dir.resolve("asked.md").toString()))) {
            List<String> args = new ArrayList<>(List.of("compare", "--format", "github"));
            args.addAll(extra);
            args.addAll(List.of(base.toString(), head.toString()));
            Cli run = Cli.run(Map.of("GITHUB_STEP_SUMMARY", summary.toString()), args.toArray(String[]::new));
            assertEquals(0, run.exitCode(), run.err());
            assertTrue(run.out().contains("::warning title=perfab regression::a"), run.out());
            assertFalse(Files.exists(unasked), "nothing written where it runs");
        }
        assertTrue(Files.readString(dir.resolve("asked.md")).startsWith("<!-- perfab:"), "the comment where -o says");
        assertTrue(Files.readString(summary).contains("<!-- perfab:"), "and in the job summary both times");
    }
}
