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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.ingest.Formats;
import org.perfab.ingest.Reading;
import org.perfab.report.testing.Tool;
import org.perfab.workload.WorkloadLoader;

/**
 * Runs {@code scripts/perfab} as a user does: a real process, from another directory, on the jar
 * the build just shaded.
 */
class LauncherIT {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path LAUNCHER = ROOT.resolve("scripts/perfab");

    @TempDir
    Path dir;

    record Run(int code, String out, String err) {}

    private Run perfab(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(LAUNCHER.toString());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectOutput(dir.resolve("out.txt").toFile())
                .redirectError(dir.resolve("err.txt").toFile())
                .start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "perfab finished");
        return new Run(
                p.exitValue(),
                Files.readString(dir.resolve("out.txt"), StandardCharsets.UTF_8),
                Files.readString(dir.resolve("err.txt"), StandardCharsets.UTF_8));
    }

    @Test
    void comparesTwoFilesFromAnyDirectory() throws Exception {
        Files.copy(Path.of("src/test/resources/compare/base.json"), dir.resolve("base.json"));
        Files.copy(Path.of("src/test/resources/compare/head.json"), dir.resolve("head.json"));
        Run run = perfab("compare", "base.json", "head.json");
        assertEquals(0, run.code(), run.err());
        assertTrue(run.out().contains("\nthroughput (msg/s, MB/s)\ncell "), run.out());
        assertTrue(run.out().contains("publish/256B/1sub   12.41k msg/s"), run.out());
        assertTrue(run.out().contains("2 regressions, 1 inconclusive, 1 improvement"), run.out());
    }

    @Test
    void passesExitCodesThrough() throws Exception {
        Run run = perfab("compare", "missing.json", "missing.json");
        assertEquals(2, run.code());
        assertEquals("perfab: missing.json: no such file\n", run.err());
    }

    @Test
    void printsItsVersion() throws Exception {
        Run run = perfab("--version");
        assertEquals(0, run.code(), run.err());
        assertTrue(run.out().startsWith("perfab "), run.out());
    }

    @Test
    void reportPrintsTheTableToATerminalAndTheCommentToAPipe() throws Exception {
        Tool.SCRIPT.need();
        Path results =
                Path.of("../report/src/test/resources/golden/ab-run.json").toAbsolutePath();
        Run piped = perfab("report", results.toString());
        assertEquals(0, piped.code(), piped.err());
        assertTrue(piped.out().startsWith("<!-- perfab:"), "a pipe gets the comment: " + piped.out());
        // script(1) runs the command on a terminal of its own and copies what it printed.
        Process p = new ProcessBuilder("script", "-qec", LAUNCHER + " report " + results, "/dev/null")
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("tty.txt").toFile())
                .start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "perfab finished");
        String tty =
                Files.readString(dir.resolve("tty.txt"), StandardCharsets.UTF_8).replace("\r\n", "\n");
        assertEquals(0, p.exitValue(), tty);
        assertTrue(tty.contains("base: merge-base of main and feature"), "a terminal gets the table: " + tty);
        assertFalse(tty.contains("<!--") || tty.contains("<sub>"), tty);
        Run md = perfab("report", results.toString(), "--format", "markdown");
        assertTrue(md.out().startsWith("<!-- perfab:"));
    }

    @Test
    void aTerminalSeesColouredVerdictsUnlessNoColorIsSet() throws Exception {
        Tool.SCRIPT.need();
        Files.copy(Path.of("src/test/resources/compare/base.json"), dir.resolve("base.json"));
        Files.copy(Path.of("src/test/resources/compare/head.json"), dir.resolve("head.json"));
        String tty = onATerminal("compare base.json head.json");
        assertTrue(
                tty.contains("\u001b[31mregression\u001b[0m") && tty.contains("\u001b[32m1 improvement\u001b[0m"),
                "red regressions, green improvements: " + tty);
        String plain = onATerminal("env NO_COLOR=1 " + LAUNCHER + " compare base.json head.json");
        assertFalse(plain.contains("\u001b["), plain);
        assertEquals(tty.replaceAll("\u001b\\[[0-9;]*m", ""), plain, "the same text, colour aside");
        Run piped = perfab("compare", "base.json", "head.json");
        assertFalse(piped.out().contains("\u001b"), "a pipe gets no colour: " + piped.out());
    }

    /** Runs {@code command} (perfab's arguments, or a whole command line) on a terminal and returns what it showed. */
    private String onATerminal(String command) throws IOException, InterruptedException {
        String line = command.startsWith("env ") ? command : LAUNCHER + " " + command;
        Process p = new ProcessBuilder("script", "-qec", line, "/dev/null")
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("tty.txt").toFile())
                .start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "perfab finished");
        String tty =
                Files.readString(dir.resolve("tty.txt"), StandardCharsets.UTF_8).replace("\r\n", "\n");
        assertEquals(0, p.exitValue(), tty);
        return tty;
    }

    @Test
    void perfabsOwnWorkloadMeasuresTheJarOfItsTree() throws Exception {
        // What every pull request to perfab runs on each side: the harness in the side's tree.
        Path result = dir.resolve("self.json");
        ProcessBuilder pb = new ProcessBuilder("bash", "workloads/bench/self.sh")
                .directory(ROOT.toFile())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("self.log").toFile());
        pb.environment().put("PERFAB_RESULT", result.toString());
        Process p = pb.start();
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "the harness finished");
        assertEquals(0, p.exitValue(), Files.readString(dir.resolve("self.log")));
        List<Reading> readings = Formats.perfabJson().read(result);
        assertEquals(
                List.of("comment/10k", "compare/10k", "demo/create", "jmh/2k", "startup"),
                readings.stream().map(r -> r.cell().name()).distinct().sorted().toList());
        assertTrue(readings.stream().allMatch(r -> r.value() > 0), readings.toString());
        WorkloadLoader.parse(Files.readString(ROOT.resolve("workloads/perf-pr.yaml")), "perf-pr.yaml");
    }
}
