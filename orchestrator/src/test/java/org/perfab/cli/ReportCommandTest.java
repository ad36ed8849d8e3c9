package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.perfab.failure.BadInputException;
import org.perfab.model.ResultsJson;
import org.perfab.report.Products;
import org.perfab.report.Report;
import org.perfab.testing.GitFixture;
import org.perfab.testing.Subjects;

/**
 * {@code perfab report} on the results of a run (its commands run by a fake engine, in process),
 * and what {@code --format github} writes.
 */
class ReportCommandTest {
    @TempDir
    Path tmp;

    private Path results;

    @BeforeEach
    void run() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 3, "");
        Cli ab = Cli.run(
                Subjects.fake().engine(),
                "ab",
                "--repo=" + g.dir(),
                "--base=main",
                "--head=feature",
                "--out",
                tmp.resolve("out").toString());
        assertEquals(0, ab.exitCode(), ab.err());
        results = tmp.resolve("out/results.json");
    }

    @Test
    void rendersTheSavedRunAsTheCommentItWroteThen() throws IOException {
        Cli md = Cli.run("report", results.toString());
        assertEquals(0, md.exitCode(), md.err());
        assertEquals(Files.readString(tmp.resolve("out/comment.md")), md.out());
        assertTrue(md.out().startsWith("<!-- perfab:subject -->"), md.out());
        Cli html = Cli.run(
                "report",
                results.toString(),
                "--format",
                "html",
                "-o",
                tmp.resolve("r.html").toString());
        assertEquals(0, html.exitCode(), html.err());
        assertEquals(Files.readString(tmp.resolve("out/report.html")), Files.readString(tmp.resolve("r.html")));
        Cli text = Cli.run("report", results.toString(), "--format", "text");
        assertTrue(text.out().contains("speed/run"), text.out());
    }

    @Test
    void rejectsAFileThatIsNotARun() throws IOException {
        Path bad = tmp.resolve("bad.json");
        Files.writeString(bad, "{\"schema\": \"perfab/comparison/v2\"}");
        Cli run = Cli.run("report", bad.toString());
        assertEquals(2, run.exitCode());
        assertTrue(
                run.err()
                        .contains(bad + ": schema 'perfab/comparison/v2' is not perfab/results/v3 or"
                                + " perfab/results/v2"),
                run.err());
        Files.writeString(bad, "{\"schema\": ");
        Cli torn = Cli.run("report", bad.toString());
        assertEquals(2, torn.exitCode());
        assertTrue(torn.err().contains(bad + ":1:12: malformed JSON"), torn.err());
        assertEquals(2, Cli.run("report", tmp.resolve("none.json").toString()).exitCode());
    }

    /**
     * The comment workflow renders a results.json that a pull request's code could have written:
     * nothing in it is filled in by default, and a bad field is named.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "a missing value|/measurements/0|value|-|field 'measurements[0].value': missing",
                "a value as a string|/measurements/0|value|\"12\"|field 'measurements[0].value': expected a finite number, got \"12\"",
                "a side that is neither|/trials/3|side|\"candidate\"|field 'trials[3].side': 'candidate' is not base or head",
                "an unknown status|/trials/2|status|\"great\"|field 'trials[2].status': 'great' is not ok, failed or timeout",
                "an unknown field|/machine|gpu|\"x\"|field 'machine.gpu': unknown field",
                "a missing setting|/settings|trials|-|field 'settings.trials': missing",
                "an unknown warning|/settings|failOn|[\"improvement\", \"nonsense\"]|field 'settings.failOn': unknown verdict 'nonsense'",
                "a negative count|/settings|trials|-3|field 'settings.trials': -3 is not from 0 to",
                "thresholds out of range|/settings/thresholds|alpha|7|field 'settings.thresholds':",
                "a cell without a name|/measurements/1|cell|\"\"|field 'measurements[1].cell': a cell name must not be empty",
                "a function that writes escapes|/comparisons/0|functions|[{\"function\": \"a.c:f\\u001b]0;t\\u0007\", \"base\": 1,"
                        + " \"head\": 2}]|field 'comparisons[0].functions[0].function': not a function's name: it holds a control"
                        + " character",
            })
    void refusesAResultsFileWithABadFieldNamingIt(String what, String at, String field, String value, String message)
            throws IOException {
        ObjectMapper json = new ObjectMapper();
        JsonNode root = json.readTree(results.toFile());
        ObjectNode node = (ObjectNode) root.at(at);
        if (value.equals("-")) {
            node.remove(field);
        } else {
            node.set(field, json.readTree(value));
        }
        Path bad = tmp.resolve("bad.json");
        json.writeValue(bad.toFile(), root);
        Cli run = Cli.run("report", bad.toString());
        assertEquals(2, run.exitCode(), run.err());
        assertTrue(run.err().startsWith("perfab: " + bad + ": " + message), run.err());
        assertEquals("", run.out(), "nothing rendered");
    }

    @Test
    void refusesAFunctionNameLongerThanASymbolNeeds() throws IOException {
        ObjectMapper json = new ObjectMapper();
        JsonNode root = json.readTree(results.toFile());
        ((ObjectNode) root.at("/comparisons/0"))
                .putArray("functions")
                .addObject()
                .put("function", "a.c:" + "x".repeat(5000))
                .put("base", 1)
                .put("head", 2);
        Path bad = tmp.resolve("long.json");
        json.writeValue(bad.toFile(), root);
        Cli run = Cli.run("report", bad.toString());
        assertEquals(2, run.exitCode(), run.err());
        assertTrue(
                run.err()
                        .startsWith("perfab: " + bad + ": field 'comparisons[0].functions[0].function': not a"
                                + " function's name: 5004 characters, past the 4096 a symbol needs"),
                run.err());
        ((ObjectNode) root.at("/comparisons/0/functions/0")).put("function", "a.c:" + "x".repeat(4000));
        json.writeValue(bad.toFile(), root);
        assertEquals(0, Cli.run("report", bad.toString()).exitCode(), "a long symbol reads");
    }

    @Test
    void githubFormatWritesTheSummaryOutputsAndAnnotations() throws IOException {
        Path summary = tmp.resolve("summary.md");
        Path output = tmp.resolve("output.txt");
        Files.writeString(summary, "earlier step\n");
        Report report = Report.of(ResultsJson.read(results));
        Path comment = tmp.resolve("comment.md");
        GithubActions.publish(
                Products.AB,
                report,
                Optional.of(comment),
                Map.of("GITHUB_STEP_SUMMARY", summary.toString(), "GITHUB_OUTPUT", output.toString()));
        assertEquals("earlier step\n" + Files.readString(comment), Files.readString(summary));
        assertEquals(
                "regressions=1\ninconclusive=0\nsmall=0\nimprovements=0\nnoisy=0\ncomment=" + comment.toAbsolutePath()
                        + "\n",
                Files.readString(output));
        Cli annotations = Cli.run("report", results.toString(), "--format", "github", "-o", comment.toString());
        assertEquals(0, annotations.exitCode(), annotations.err());
        assertTrue(
                annotations.out().startsWith("::warning title=perfab regression::speed/run time: +10.0%25"),
                annotations.out());
    }

    @Test
    void aCommentPathWithALineBreakCannotAddAStepOutput() throws IOException {
        Path output = tmp.resolve("output.txt");
        Path comment = tmp.resolve("c.md\nregressions=0");
        BadInputException e = assertThrows(
                BadInputException.class,
                () -> GithubActions.publish(
                        Products.AB,
                        Report.of(ResultsJson.read(results)),
                        Optional.of(comment),
                        Map.of("GITHUB_OUTPUT", output.toString())));
        assertTrue(e.getMessage().contains("holds a line break"), e.getMessage());
        assertFalse(Files.exists(output), "nothing written");
        Cli run = Cli.run("report", results.toString(), "--format", "github", "-o", comment.toString());
        assertEquals(2, run.exitCode(), run.err());
    }

    @Test
    void keepsTheJobSummaryWithinItsLimit() throws IOException {
        Path summary = tmp.resolve("summary.md");
        Files.writeString(summary, "x".repeat((int) GithubActions.SUMMARY_LIMIT - 1000));
        GithubActions.publish(
                Products.AB,
                Report.of(ResultsJson.read(results)),
                Optional.of(tmp.resolve("c.md")),
                Map.of("GITHUB_STEP_SUMMARY", summary.toString()));
        assertTrue(Files.size(summary) <= GithubActions.SUMMARY_LIMIT);
        String tail = Files.readString(summary).substring((int) GithubActions.SUMMARY_LIMIT - 1000);
        assertTrue(tail.startsWith("perfab: the comment (") && tail.contains("does not fit"), tail);
    }

    @Test
    void compareClassifiesASavedRunAgainUnderOtherThresholds() throws IOException {
        Cli same = Cli.run("compare", "--format", "json", results.toString());
        assertEquals(0, same.exitCode(), same.err());
        assertTrue(same.out().contains("\"regression\" : 1"), same.out());
        Cli stricter = Cli.run(
                "compare", "--format", "json", "--min-effect", "15", "--inconclusive", "15", results.toString());
        assertEquals(0, stricter.exitCode(), stricter.err());
        assertTrue(stricter.out().contains("\"regression\" : 0"), stricter.out());
        assertTrue(stricter.out().contains("\"minEffect\" : 15.0"), stricter.out());
    }

    /** A trial, or a cell of one, that a results file lists twice would count twice: every reader of it refuses. */
    @Test
    void refusesAResultsFileThatListsATrialOrAMeasurementTwice() throws IOException {
        ObjectMapper json = new ObjectMapper();
        JsonNode root = json.readTree(results.toFile());
        ArrayNode trials = (ArrayNode) root.get("trials");
        int copied = trials.size() - 1;
        JsonNode trial = trials.get(copied);
        assertFalse(trial.get("warmup").asBoolean(), trial.toString());
        trials.add(trial.deepCopy());
        Path bad = tmp.resolve("bad.json");
        json.writeValue(bad.toFile(), root);
        String said = "perfab: " + bad + ": field 'trials[" + (copied + 1) + "]': "
                + trial.get("side").asText()
                + " trial " + (trial.get("trial").asInt() + 1) + " is trials[" + copied + "] too, and its measurements"
                + " would count twice\n";
        for (String[] args : new String[][] {
            {"report", bad.toString()}, {"compare", bad.toString()}, {"runners", bad.toString(), results.toString()}
        }) {
            Cli run = Cli.run(args);
            assertEquals(2, run.exitCode(), args[0] + ": " + run.err());
            assertEquals(said, run.err(), args[0]);
        }
        root = json.readTree(results.toFile());
        ArrayNode measurements = (ArrayNode) root.get("measurements");
        JsonNode m = measurements.get(0);
        measurements.add(m.deepCopy());
        json.writeValue(bad.toFile(), root);
        Cli run = Cli.run("report", bad.toString());
        assertEquals(2, run.exitCode(), run.err());
        assertEquals(
                "perfab: " + bad + ": field 'measurements[" + (measurements.size() - 1) + "]': cell '"
                        + m.get("cell").asText() + "' (" + m.get("metric").asText() + ") of "
                        + m.get("side").asText() + " trial "
                        + (m.get("trial").asInt() + 1)
                        + " is measurements[0] too, and a trial has one value per cell: it would"
                        + " count twice\n",
                run.err());
    }
}
