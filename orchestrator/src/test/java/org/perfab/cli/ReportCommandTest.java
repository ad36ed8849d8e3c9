package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.report.Report;
import org.perfab.testing.GitFixture;
import org.perfab.testing.Subjects;

/** {@code perfab report} on the results of a real run, and what {@code --format github} writes. */
class ReportCommandTest {
    @TempDir
    Path tmp;

    private Path results;

    @BeforeEach
    void run() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 3, "");
        Cli ab = Cli.run("ab", "--repo=" + g.dir(), "--base=main", "--head=feature", "--out", tmp.resolve("out").toString());
        assertEquals(0, ab.exitCode(), ab.err());
        results = tmp.resolve("out/results.json");
    }

    @Test
    void rendersTheSavedRunAsTheCommentItWroteThen() throws IOException {
        Cli md = Cli.run("report", results.toString());
        assertEquals(0, md.exitCode(), md.err());
        assertEquals(Files.readString(tmp.resolve("out/comment.md")), md.out());
        assertTrue(md.out().startsWith("<!-- perfab:subject -->"), md.out());
        Cli html = Cli.run("report", results.toString(), "--format", "html", "-o", tmp.resolve("r.html").toString());
        assertEquals(0, html.exitCode(), html.err());
        assertEquals(Files.readString(tmp.resolve("out/report.html")), Files.readString(tmp.resolve("r.html")));
        Cli text = Cli.run("report", results.toString(), "--format", "text");
        assertTrue(text.out().contains("speed/run"), text.out());
    }

    @Test
    void rejectsAFileThatIsNotARun() throws IOException {
        Path bad = tmp.resolve("bad.json");
        Files.writeString(bad, "{\"schema\": \"perfab/comparison/v1\"}");
        Cli run = Cli.run("report", bad.toString());
        assertEquals(2, run.exitCode());
        assertTrue(run.err().contains(bad + ": not a perfab run"), run.err());
        Files.writeString(bad, "{\"schema\": ");
        Cli torn = Cli.run("report", bad.toString());
        assertEquals(2, torn.exitCode());
        assertTrue(torn.err().contains("malformed JSON at line 1"), torn.err());
        assertEquals(2, Cli.run("report", tmp.resolve("none.json").toString()).exitCode());
    }

    @Test
    void githubFormatWritesTheSummaryOutputsAndAnnotations() throws IOException {
        Path summary = tmp.resolve("summary.md");
        Path output = tmp.resolve("output.txt");
        Files.writeString(summary, "earlier step\n");
        Report report = Report.of(ReportCommand.read(results));
        Path comment = tmp.resolve("comment.md");
        GithubActions.publish(report, comment,
                Map.of("GITHUB_STEP_SUMMARY", summary.toString(), "GITHUB_OUTPUT", output.toString()));
        assertEquals("earlier step\n" + Files.readString(comment), Files.readString(summary));
        assertEquals("regressions=1\ninconclusive=0\nimprovements=0\ncomment=" + comment.toAbsolutePath() + "\n",
                Files.readString(output));
        Cli annotations = Cli.run("report", results.toString(), "--format", "github", "-o", comment.toString());
        assertEquals(0, annotations.exitCode(), annotations.err());
        assertTrue(annotations.out().startsWith("::warning title=perfab regression::speed/run time: +10.0%25"),
                annotations.out());
    }

    @Test
    void keepsTheJobSummaryWithinItsLimit() throws IOException {
        Path summary = tmp.resolve("summary.md");
        Files.writeString(summary, "x".repeat((int) GithubActions.SUMMARY_LIMIT - 1000));
        GithubActions.publish(Report.of(ReportCommand.read(results)), tmp.resolve("c.md"),
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
        Cli stricter = Cli.run("compare", "--format", "json", "--min-effect", "15", "--inconclusive", "15",
                results.toString());
        assertEquals(0, stricter.exitCode(), stricter.err());
        assertTrue(stricter.out().contains("\"regression\" : 0"), stricter.out());
        assertTrue(stricter.out().contains("\"minEffect\" : 15.0"), stricter.out());
    }
}
