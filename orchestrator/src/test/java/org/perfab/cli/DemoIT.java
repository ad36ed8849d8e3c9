package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scripts/perfab demo} as a new user runs it: a real A/B of the embedded project. Its
 * verdicts depend on this machine's noise, so the test checks the run and the comment's shape;
 * the verdict rules are tested with deterministic harnesses elsewhere.
 */
@Order(Integer.MAX_VALUE - 2) // see docs/development.md: the longest classes start first
class DemoIT {
    @TempDir
    Path tmp;

    @Test
    void runsARealAbOfTheEmbeddedProjectAndPrintsTheComment() throws Exception {
        Path launcher = Path.of("..", "scripts", "perfab").toAbsolutePath().normalize();
        Process p = new ProcessBuilder(
                        launcher.toString(),
                        "demo",
                        "--trials",
                        "2",
                        "--max-trials",
                        "2",
                        "--dir",
                        tmp.resolve("demo").toString())
                .directory(tmp.toFile())
                .redirectOutput(tmp.resolve("out.txt").toFile())
                .redirectError(tmp.resolve("err.txt").toFile())
                .start();
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "the demo finished");
        String out = Files.readString(tmp.resolve("out.txt"), StandardCharsets.UTF_8);
        String err = Files.readString(tmp.resolve("err.txt"), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), err);
        for (String cell : List.of("bytes/checksum", "matrix/multiply", "poly/evaluate", "text/hash")) {
            assertTrue(out.contains("| " + cell + " | time |"), cell + " in:\n" + out);
        }
        assertTrue(out.startsWith("<!-- perfab:demo -->\n### perfab · demo: "), out);
        assertTrue(out.contains("Advisory: this check never fails the job."), out);
        Path results = tmp.resolve("demo/perfab-out/results.json");
        assertTrue(Files.exists(results));
        assertTrue(err.contains("the results are in " + tmp.resolve("demo/perfab-out")), err);
        String project = Files.readString(tmp.resolve("demo/project/perfab.yaml"));
        assertTrue(project.contains("name: demo"), project);
        // The planted slowdown shows, or the user is told plainly that this machine hid it.
        JsonNode checksum = null;
        for (JsonNode row : new ObjectMapper().readTree(results.toFile()).path("comparisons")) {
            if (row.path("cell").asText().equals("bytes/checksum")) {
                checksum = row;
            }
        }
        assertTrue(checksum != null, "the planted cell is in the results");
        boolean shown = checksum.at("/verdict").asText().equals("regression");
        assertEquals(!shown, err.contains("about 8% slower, and this run did not show it: "), checksum + "\n" + err);
    }

    @Test
    void createOnlySaysWhatToRunNext() throws Exception {
        Path launcher = Path.of("..", "scripts", "perfab").toAbsolutePath().normalize();
        Process p = new ProcessBuilder(
                        launcher.toString(),
                        "demo",
                        "--create-only",
                        "--dir",
                        tmp.resolve("d").toString())
                .directory(tmp.toFile())
                .redirectOutput(tmp.resolve("out.txt").toFile())
                .redirectError(tmp.resolve("err.txt").toFile())
                .start();
        assertTrue(p.waitFor(2, TimeUnit.MINUTES));
        String err = Files.readString(tmp.resolve("err.txt"), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), err);
        assertEquals(tmp.resolve("d/project") + "\n", Files.readString(tmp.resolve("out.txt")));
        assertTrue(
                err.contains("\n  " + launcher + " ab --repo " + tmp.resolve("d/project") + " --base main --head"
                        + " feature --out " + tmp.resolve("d/perfab-out") + " --trials 5 --adaptive 20\n"),
                err);
    }
}
