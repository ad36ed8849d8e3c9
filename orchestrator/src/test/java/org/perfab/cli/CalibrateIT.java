package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.testing.Comparisons;

/**
 * {@code scripts/perfab calibrate} as a user runs it, made small: a few simulated runs per case
 * and one real A/B run of each commit, the simulation's targets on standard error before the real
 * runs start and every table on standard output at the end. The figures depend on this machine, so the test checks the
 * tables, and that each commit's change is measured as well as this machine's noise allows: were
 * both sides running the same code, the 10% commit would measure about 0%, which a quiet machine
 * tells apart.
 */
@Order(2) // see docs/development.md: the longest classes start first
class CalibrateIT {
    @TempDir
    Path tmp;

    @Test
    void printsTheSimulatedTablesAndMeasuresRealCommits() throws Exception {
        Path launcher = Path.of("..", "scripts", "perfab").toAbsolutePath().normalize();
        Process p = new ProcessBuilder(
                        launcher.toString(),
                        "calibrate",
                        "--runs",
                        "20",
                        "--noise",
                        "normal,outliers",
                        "--ab-runs",
                        "1",
                        "--dir",
                        tmp.resolve("runs").toString())
                .directory(tmp.toFile())
                .redirectOutput(tmp.resolve("out.txt").toFile())
                .redirectError(tmp.resolve("err.txt").toFile())
                .start();
        assertTrue(p.waitFor(8, TimeUnit.MINUTES), "calibrate finished");
        String out = Files.readString(tmp.resolve("out.txt"), StandardCharsets.UTF_8);
        String err = Files.readString(tmp.resolve("err.txt"), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), err);
        for (String part : new String[] {
            "noise: normal\n",
            "noise: outlier trials\n",
            "  5  perfab   ",
            "Mann-Whitney",
            "Welch, build medians",
            "Adaptive trials (--trials 5 --adaptive 20)",
            "Suites of many cells",
            "A/A of 1,000 cells (cv 3%, n 5)",
            "Real processes: 1 A/B run of each commit"
        }) {
            assertTrue(out.contains(part), part + " in:\n" + out);
        }
        int targets =
                err.indexOf("perfab: simulation done: 20 runs per case of 2 noises\nperfab: target: outlier trials");
        assertTrue(
                targets >= 0 && targets < err.indexOf("perfab: run 1 of 4"),
                "the simulation's targets come before the real runs:\n" + err);
        assertTrue(err.contains("run 4 of 4 (+10%)"), err);
        assertMeasuredNear(out, "A/A", "00-000", 0);
        assertMeasuredNear(out, "+10%", "10-000", 10);
        assertTrue(Files.exists(tmp.resolve("runs/runs/10-000/results.json")));
    }

    /**
     * Asserts that the table's row of {@code commit} shows the change its run measured for the
     * target, and that the change lies within 2 points, plus twice the half-width of its own 95%
     * interval, of the {@code effect} the commit makes. On a quiet machine (trials spread by about
     * 1%) that is within about 5 points, so a +10% commit measured at 0%, one side's code on both
     * sides, fails; a busy one spreads five trials by 20% and more, which hides a 10% change from
     * any test, and the bound widens with the noise the run measured.
     */
    private void assertMeasuredNear(String out, String commit, String run, int effect) {
        JsonNode target = Comparisons.of(tmp.resolve("runs/runs/" + run + "/results.json"))
                .get("target:time");
        assertNotNull(target, run + ": the target's row");
        double pct = target.get("pctChange").asDouble();
        assertEquals(pct, measured(out, commit), 0.051, "the table shows the run's change: " + target);
        JsonNode ci = target.path("ci95");
        double half = ci.isArray() && !ci.get(0).isNull() && !ci.get(1).isNull()
                ? (ci.get(1).asDouble() - ci.get(0).asDouble()) / 2
                : Double.POSITIVE_INFINITY;
        assertTrue(Math.abs(pct - effect) <= 2 + 2 * half, commit + " measures about " + effect + "%: " + target);
    }

    /** Returns the change measured for target in the row of {@code commit}. */
    private static double measured(String out, String commit) {
        Matcher m = Pattern.compile(
                        "(?m)^" + Pattern.quote(commit) + " +1 .*? ([+-]\\d+\\.\\d)% +\\d+\\.\\d% +\\d+\\.\\d% +\\d+s$")
                .matcher(out);
        assertTrue(m.find(), commit + " row in:\n" + out);
        return Double.parseDouble(m.group(1));
    }
}
