package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code perfab github}: what the scripts of perfab's workflows say in their own words reaches the
 * job summary, the step's outputs and the annotations through perfab, escaped and bounded as
 * perfab's own reports are. The step files are named by the environment, which each command here
 * is given as a step's would be.
 */
class GithubCommandTest {
    @TempDir
    Path tmp;

    private record Step(int code, String out, String err, String summary, String output) {}

    /** Runs {@code perfab github ARGS} as a step: with its own summary and output files, as they are now. */
    private Step step(String... args) throws IOException {
        Path summary = tmp.resolve("summary");
        Path output = tmp.resolve("output");
        for (Path f : List.of(summary, output)) {
            if (!Files.exists(f)) {
                Files.writeString(f, "");
            }
        }
        List<String> argv = new ArrayList<>(List.of("github"));
        argv.addAll(List.of(args));
        Cli run = Cli.run(
                Map.of("GITHUB_STEP_SUMMARY", summary.toString(), "GITHUB_OUTPUT", output.toString()),
                argv.toArray(String[]::new));
        return new Step(
                run.exitCode(),
                run.out(),
                run.err(),
                Files.readString(summary, StandardCharsets.UTF_8),
                Files.readString(output, StandardCharsets.UTF_8));
    }

    @Test
    void anAnnotationIsOneLineWhateverItQuotes() {
        Cli run = Cli.run(
                "github",
                "annotate",
                "--level",
                "error",
                "--title",
                "perfab: nightly, the base",
                "the base 'x\n::warning::all clear\r\n%0A' is not a commit");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(
                "::error title=perfab%3A nightly%2C the base::the base 'x?::warning::all clear??%250A' is not a"
                        + " commit\n",
                run.out());
        Cli notice = Cli.run("github", "annotate", "say it");
        assertEquals("::notice title=perfab::say it\n", notice.out(), "a notice titled perfab unless told");
        Cli bad = Cli.run("github", "annotate", "--level", "fatal", "x");
        assertEquals(2, bad.exitCode());
        assertTrue(bad.err().contains("--level"), bad.err());
        assertEquals(2, Cli.run("github", "annotate", "--title", " ", "x").exitCode(), "a title is needed");
    }

    @Test
    void aValueThatWouldEndItsLineIsRefusedBeforeAnyOutputIsWritten() throws Exception {
        Step ok = step("output", "measured=true", "first-bad=0123456789abcdef", "empty=");
        assertEquals(0, ok.code(), ok.err());
        assertEquals("measured=true\nfirst-bad=0123456789abcdef\nempty=\n", ok.output());
        Step broken = step("output", "fine=1", "base=abc\nnew=999");
        assertEquals(2, broken.code(), broken.err());
        assertTrue(broken.err().contains("the step output base (abc?new=999) holds a line break"), broken.err());
        assertEquals(ok.output(), broken.output(), "none written, the fine one neither");
        for (String pair : List.of("1st=x", "a b=x", "=x", "novalue", "a\nb=x")) {
            assertEquals(2, Cli.run("github", "output", pair).exitCode(), pair);
        }
    }

    @Test
    void aMessageIsAnInertParagraphOfTheSummaryAndALineOfTheLog() throws Exception {
        Path plan = tmp.resolve("plan.md");
        Files.writeString(plan, "### perfab plan\n\n| cell |\n|:--|\n| a |\n");
        Step s = step(
                "summary",
                "-m",
                "the base is v1 @octo/team #12 <b>x</b> [y](https://e.x)\n::error::z",
                plan.toString());
        assertEquals(0, s.code(), s.err());
        assertEquals(
                "the base is v1 @octo/team #12 <b>x</b> [y](https://e.x)?::error::z\n",
                s.out(),
                "one line for the log");
        assertTrue(
                s.summary()
                        .startsWith("the base is v1 @\u200Bocto/team \\#\u200B12 &lt;b&gt;x&lt;/b&gt;"
                                + " \\[y\\](https:\u200B//e.x)?::error::z\n\n### perfab plan\n"),
                s.summary());
        assertEquals(2, Cli.run("github", "summary").exitCode(), "nothing to append");
        assertEquals(
                2,
                Cli.run("github", "summary", tmp.resolve("missing.md").toString())
                        .exitCode());
    }

    @Test
    void theSummaryStaysWithinItsMebibyte() throws Exception {
        Files.writeString(tmp.resolve("summary"), "x".repeat((int) GithubActions.SUMMARY_LIMIT - 500));
        Path big = tmp.resolve("big.md");
        Files.writeString(big, "y".repeat(10_000) + "\n");
        Step s = step("summary", big.toString());
        assertEquals(0, s.code(), s.err());
        assertTrue(Files.size(tmp.resolve("summary")) <= GithubActions.SUMMARY_LIMIT);
        assertFalse(s.summary().contains("yyy"), "not cut in the middle");
        assertTrue(
                s.summary()
                        .endsWith("perfab: " + big + " (10001 bytes) does not fit in what is left of the job"
                                + " summary's 1 MiB; it is in " + big + "\n"),
                s.summary().substring(s.summary().length() - 300));
    }

    @Test
    void annotateWritesTheSummaryOnlyWhenAsked() throws Exception {
        Step quiet = step("annotate", "--level", "warning", "no A/A on ubuntu-latest");
        assertEquals("::warning title=perfab::no A/A on ubuntu-latest\n", quiet.out());
        assertEquals("", quiet.summary());
        Step both = step("annotate", "--summary", "no comment: the run was cancelled");
        assertEquals("::notice title=perfab::no comment: the run was cancelled\n", both.out());
        assertEquals("no comment: the run was cancelled\n\n", both.summary());
        assertEquals("", both.output(), "a message has no outputs");
    }
}
