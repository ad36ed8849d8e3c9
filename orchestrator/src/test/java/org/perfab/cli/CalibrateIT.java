package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scripts/perfab calibrate} as a user runs it, made small: a few simulated runs per case
 * and one real A/B run of each commit. The figures depend on this machine, so the test checks the
 * tables, and that each commit's slowdown is measured: were both sides running the same code, the
 * 10% commit would measure about 0%.
 */
class CalibrateIT {
    @TempDir
    Path tmp;

    @Test
    void printsTheSimulatedTablesAndMeasuresRealCommits() throws Exception {
        Path launcher = Path.of("..", "scripts", "perfab").toAbsolutePath().normalize();
        Process p = new ProcessBuilder(launcher.toString(), "calibrate", "--runs", "20", "--noise", "normal,outliers",
                "--ab-runs", "1", "--dir", tmp.resolve("runs").toString())
                .directory(tmp.toFile())
                .redirectOutput(tmp.resolve("out.txt").toFile())
                .redirectError(tmp.resolve("err.txt").toFile())
                .start();
        assertTrue(p.waitFor(8, TimeUnit.MINUTES), "calibrate finished");
        String out = Files.readString(tmp.resolve("out.txt"), StandardCharsets.UTF_8);
        String err = Files.readString(tmp.resolve("err.txt"), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), err);
        for (String part : new String[] {"noise: normal\n", "noise: outlier trials\n", "Welch, outliers set aside",
            "Mann-Whitney", "Welch, build medians", "Adaptive trials (--trials 5 --adaptive 20)",
            "Suites (normal noise, Welch on trials)", "A/A of 1,000 cells (cv 3%, n 5)",
            "Real processes: 1 A/B run of each commit"}) {
            assertTrue(out.contains(part), part + " in:\n" + out);
        }
        assertTrue(err.contains("run 4 of 4 (+10%)"), err);
        double aa = measured(out, "A/A");
        double ten = measured(out, "+10%");
        assertTrue(Math.abs(aa) < 5, "the A/A measures about 0%: " + aa);
        assertTrue(ten > 5 && ten < 16, "the 10% commit measures about +10%: " + ten);
        assertTrue(Files.exists(tmp.resolve("runs/runs/10-000/results.json")));
    }

    /** Returns the change measured for target in the row of {@code commit}. */
    private static double measured(String out, String commit) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(commit) + " +1 .*? ([+-]\\d+\\.\\d)% +\\d+\\.\\d% +\\d+\\.\\d%"
                + " +\\d+s$").matcher(out);
        assertTrue(m.find(), commit + " row in:\n" + out);
        return Double.parseDouble(m.group(1));
    }
}
