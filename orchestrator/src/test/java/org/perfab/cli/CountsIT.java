package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.perfab.ab.Engine;
import org.perfab.report.testing.Tool;
import org.perfab.testing.GitFixture;

/**
 * Counted trials, end to end: a small C program built on each side, whose head executes a known
 * share more instructions, counted under Valgrind's Cachegrind. A count does not move with the
 * machine's load, so two trials a side decide; each verdict here fails if the wrong side's code ran.
 * Skipped where valgrind or cc is missing, failed there where CI requires them ({@link Tool}).
 */
@Execution(ExecutionMode.CONCURRENT)
class CountsIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    @BeforeEach
    void tools() {
        Tool.VALGRIND.need();
        Tool.C_COMPILER.need();
    }

    /** The subject: {@code ROUNDS} rounds of a loop of 100,000 steps; exits {@code EXIT}. */
    private static String subject(int rounds, int exit) {
        return "#include <stdio.h>\n"
                + "int main(void) {\n"
                + "    volatile unsigned long s = 0;\n"
                + "    for (unsigned long r = 0; r < " + rounds + "; r++)\n"
                + "        for (unsigned long i = 0; i < 100000; i++) s += i ^ r;\n"
                + "    printf(\"%lu\\n\", s);\n"
                + "    return " + exit + ";\n"
                + "}\n";
    }

    /** A repository whose main has {@code base} rounds and whose feature has {@code head}, measured by {@code harness}. */
    private GitFixture project(int base, int head, int headExit, String harness) throws IOException {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.write("subject.c", subject(base, 0));
        g.write("perfab.yaml", "name: counted\nbuild:\n  run: [cc, -O1, -o, subject, subject.c]\n" + harness);
        g.commit("the subject");
        g.git("checkout", "-q", "-b", "feature");
        g.write("subject.c", subject(head, headExit));
        g.commit("more work");
        g.git("checkout", "-q", "main");
        return g;
    }

    private static final String TIMED =
            "harness:\n  format: time\n  measure: [instructions]\n  commands:\n    work: [./subject]\n";

    private Cli ab(GitFixture g, String head, String out) {
        return Cli.run(
                Engine.REAL,
                "ab",
                "--repo=" + g.dir(),
                "--base=main",
                "--head=" + head,
                "--out",
                tmp.resolve(out).toString());
    }

    private Map<String, JsonNode> rows(String out) throws IOException {
        Map<String, JsonNode> rows = new HashMap<>();
        for (JsonNode row :
                JSON.readTree(tmp.resolve(out + "/results.json").toFile()).get("comparisons")) {
            rows.put(row.get("cell").asText() + ":" + row.get("metric").asText(), row);
        }
        return rows;
    }

    @Test
    void tenPercentMoreInstructionsIsARegressionInTwoTrialsAndNothingLandsInTheTree() throws IOException {
        GitFixture g = project(100, 110, 0, TIMED);
        Cli run = ab(g, "feature", "out");
        assertEquals(0, run.exitCode(), run.err());
        JsonNode results = JSON.readTree(tmp.resolve("out/results.json").toFile());
        assertEquals(2, results.at("/settings/trials").asInt(), "counts need two trials a side by default");
        Map<String, JsonNode> rows = rows("out");
        assertEquals(new TreeSet<>(List.of("work:instructions", "work:est-cycles")), new TreeSet<>(rows.keySet()));
        for (JsonNode row : rows.values()) {
            assertEquals("regression", row.get("verdict").asText(), row.toString());
            double change = row.get("pctChange").asDouble();
            assertTrue(change > 9.5 && change < 10.5, "the loop is ten tenths of the work: " + row);
        }
        for (JsonNode trial : results.get("trials")) {
            assertTrue(trial.get("load").isNull(), "a count's trial is never judged by the machine's load: " + trial);
        }
        String comment = Files.readString(tmp.resolve("out/comment.md"));
        assertTrue(comment.contains("2 trials per side, counted by Valgrind's Cachegrind (not timed)"), comment);
        assertFalse(comment.contains("busy"), comment);
        assertTrue(run.out().contains("counted by Valgrind's Cachegrind, not timed"), run.out());
        // Valgrind's files are the run's, beside the trials' results and logs, never in a side's tree.
        List<Path> counts = new ArrayList<>();
        try (Stream<Path> all = Files.walk(tmp.resolve("out"))) {
            all.filter(p -> p.getFileName().toString().startsWith("cachegrind.")
                            || p.getFileName().toString().startsWith("valgrind."))
                    .forEach(counts::add);
        }
        assertFalse(counts.isEmpty());
        for (Path p : counts) {
            assertFalse(tmp.resolve("out").relativize(p).toString().matches("work/(base|head)-\\d+/.*"), p.toString());
        }
    }

    /** Two functions: {@code hash} of {@code hashRounds} rounds and {@code copy} of 50. */
    private static String twoFunctions(int hashRounds) {
        return "#include <stdio.h>\n"
                + "static volatile unsigned long sink;\n"
                + "__attribute__((noinline)) static void hash(void) {\n"
                + "    for (unsigned long i = 0; i < " + hashRounds + " * 10000UL; i++) sink += i * 2654435761UL;\n"
                + "}\n"
                + "__attribute__((noinline)) static void copy(void) {\n"
                + "    for (unsigned long i = 0; i < 50 * 10000UL; i++) sink ^= i;\n"
                + "}\n"
                + "int main(void) { hash(); copy(); printf(\"%lu\\n\", sink); return 0; }\n";
    }

    @Test
    void theCommentNamesTheFunctionWhoseInstructionsGrew() throws IOException {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.write("subject.c", twoFunctions(100));
        g.write("perfab.yaml", "name: counted\nbuild:\n  run: [cc, -O1, -g, -o, subject, subject.c]\n" + TIMED);
        g.commit("the subject");
        g.git("checkout", "-q", "-b", "feature");
        g.write("subject.c", twoFunctions(130));
        g.commit("a slower hash");
        g.git("checkout", "-q", "main");
        Cli run = ab(g, "feature", "out");
        assertEquals(0, run.exitCode(), run.err());
        JsonNode row = rows("out").get("work:instructions");
        assertEquals("regression", row.get("verdict").asText(), row.toString());
        JsonNode first = row.get("functions").get(0);
        assertTrue(first.get("function").asText().endsWith("subject.c:hash"), row.toString());
        assertTrue(first.get("head").asDouble() > first.get("base").asDouble() * 1.25, first.toString());
        String comment = Files.readString(tmp.resolve("out/comment.md"));
        assertTrue(
                comment.matches("(?s).*moved most in hash \\(subject\\.c\\) \\+[0-9.]+M \\(\\+30\\.0%\\).*"), comment);
        // Read back from results.json, as the comment job renders it.
        Cli report =
                Cli.run(Engine.REAL, "report", tmp.resolve("out/results.json").toString(), "--format", "markdown");
        assertEquals(0, report.exitCode(), report.err());
        assertTrue(report.out().contains("moved most in hash (subject.c)"), report.out());
        Cli html = Cli.run(
                Engine.REAL,
                "report",
                tmp.resolve("out/results.json").toString(),
                "--format",
                "html",
                "-o",
                tmp.resolve("report.html").toString());
        assertEquals(0, html.exitCode(), html.err());
        assertTrue(Files.readString(tmp.resolve("report.html")).contains("moved most in hash (subject.c)"));
    }

    @Test
    void theCpusCountersWhereTheMachineRefusesThemStopTheRunBeforeItBuilds() throws IOException, InterruptedException {
        assumeTrue(
                org.perfab.exec.Counters.hardwareProblem(new org.perfab.exec.ProcessTrees(System.getenv()))
                        .isPresent(),
                "this machine reads the CPU's counters");
        GitFixture g = project(
                100,
                110,
                0,
                "harness:\n  format: time\n  measure: [hw-instructions]\n  commands:\n    work: [./subject]\n");
        Cli run = ab(g, "feature", "out");
        assertEquals(2, run.exitCode(), run.err());
        assertTrue(
                run.err()
                        .contains("harness measure hw-instructions and hw-cycles read the CPU's counters, and this"
                                + " machine cannot: "),
                run.err());
        assertFalse(Files.exists(tmp.resolve("out/work/base-0/tree/subject")), "nothing was built");
    }

    @Test
    void anAADoesNotMoveAndItsCountsBarelyVary() throws IOException {
        GitFixture g = project(100, 110, 0, TIMED);
        Cli run = ab(g, "main", "out");
        assertEquals(0, run.exitCode(), run.err());
        for (JsonNode row : rows("out").values()) {
            assertFalse(
                    row.get("verdict").asText().equals("regression")
                            || row.get("verdict").asText().equals("improvement"),
                    row.toString());
            assertTrue(row.at("/base/cv").asDouble() < 0.1 && row.at("/head/cv").asDouble() < 0.1, row.toString());
        }
    }

    @Test
    void wallAndInstructionsTogetherRunEachCommandOnceForEach() throws IOException {
        GitFixture g = project(
                100,
                110,
                0,
                "harness:\n  format: time\n  measure: [wall, instructions]\n"
                        + "  commands:\n    work: [./subject]\ntrials: 3\nadaptive: off\n");
        Cli run = ab(g, "feature", "out");
        assertEquals(0, run.exitCode(), run.err());
        Map<String, JsonNode> rows = rows("out");
        assertEquals(
                new TreeSet<>(List.of("work:wall", "work:instructions", "work:est-cycles")),
                new TreeSet<>(rows.keySet()),
                "wall as asked, no CPU or memory");
        assertEquals("regression", rows.get("work:instructions").get("verdict").asText());
        assertFalse(Files.readString(tmp.resolve("out/comment.md")).contains("not timed"));
    }

    @Test
    void aHarnessThatReportsItselfIsCountedWholeAsOneCellNamedByTheWorkload() throws IOException {
        GitFixture g = project(
                100, 110, 0, "harness:\n  run: [./subject]\n  format: perfab-json\n  measure: [instructions]\n");
        Cli run = ab(g, "feature", "out");
        assertEquals(0, run.exitCode(), run.err());
        Map<String, JsonNode> rows = rows("out");
        assertEquals(
                new TreeSet<>(List.of("counted:instructions", "counted:est-cycles")), new TreeSet<>(rows.keySet()));
        assertEquals(
                "regression", rows.get("counted:instructions").get("verdict").asText());
    }

    @Test
    void aCommandThatFailsUnderValgrindIsAFailedTrialWithItsReasonNeverAZero() throws IOException {
        GitFixture g = project(100, 100, 3, TIMED);
        Cli run = ab(g, "feature", "out");
        assertEquals(3, run.exitCode(), run.err());
        JsonNode results = JSON.readTree(tmp.resolve("out/results.json").toFile());
        boolean said = false;
        for (JsonNode trial : results.get("trials")) {
            if (trial.get("side").asText().equals("head")) {
                assertEquals("failed", trial.get("status").asText(), trial.toString());
                said |= trial.get("reason").asText().equals("command 'work' exited with code 3 under Valgrind");
            }
        }
        assertTrue(said, results.get("trials").toString());
        for (JsonNode m : results.get("measurements")) {
            assertFalse(m.get("side").asText().equals("head"), "no count of a failed trial: " + m);
        }
    }
}
