package org.perfab.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.perfab.ab.AbRun;
import org.perfab.ab.Events;
import org.perfab.demo.ProcessCalibration;
import org.perfab.model.CalibrationFigures;
import org.perfab.model.RealRuns;
import org.perfab.model.RunResults;
import org.perfab.model.Side;
import org.perfab.model.Simulation;
import org.perfab.report.CalibrateRenderer;
import org.perfab.report.Format;
import org.perfab.report.Products;
import org.perfab.report.testing.Golden;
import org.perfab.stats.Calibration.Method;
import org.perfab.stats.Calibration.Noise;
import org.perfab.stats.Thresholds;
import org.perfab.testing.FakeEngine;

/** The calibration's grid as a value, and its rendering in every format: {@code calibrate.EXT}. */
class CalibrateTest {
    private static final Calibrate.Request SMALL =
            new Calibrate.Request(10, 1, List.of(Noise.OUTLIERS), 0, Optional.empty(), Thresholds.DEFAULT);
    private static final Simulation SIMULATED = Calibrate.simulate(SMALL);

    /** Real runs of three commits on a made-up machine, the A/A's shares of the target undefined. */
    private static final RealRuns REAL = new RealRuns(
            Path.of("calibration"),
            12,
            5,
            new RunResults.Machine("Example CPU @ 2.0GHz", 2, "Linux", "6.1", "21", "local"),
            List.of(
                    new RealRuns.Commit(0, 12, Double.NaN, Double.NaN, 0, 0, 0.4, 0.9, 0.3, 12),
                    new RealRuns.Commit(3, 12, 50, 0, 0, 0, 3.04, 0.9, 0.2, 12.4),
                    new RealRuns.Commit(10, 12, 100, 0, 8.3, 0, 10.2, 1.1, 0.2, 11.6)));

    private static final CalibrationFigures FIGURES = new CalibrationFigures(SIMULATED, Optional.of(REAL));

    @Test
    void simulatesEveryMethodAtEveryEffectOfEachCase() {
        Simulation s = SIMULATED;
        assertEquals(1, s.tables().size());
        assertEquals(9, s.tables().get(0).rows().size());
        for (Simulation.Row row : s.tables().get(0).rows()) {
            for (Method m : Method.values()) {
                assertEquals(s.effects().size(), row.rates().get(m).size(), m.label());
            }
        }
        assertEquals(Calibrate.EFFECTS, s.effects());
        assertEquals(3, s.targets().size(), "outlier trials at 5, 10 and 20 trials");
        assertEquals(3, s.adaptive().size(), "outlier trials at CV 1, 3 and 10%");
        assertEquals(15, s.suites().size(), "13, and the A/A of 50 and 200 cells of the noise simulated");
        assertEquals(3, s.earned().size(), "outlier trials at 5, 10 and 20 trials");
        assertEquals(8, s.adaptiveSuites().size());
    }

    @Test
    void withoutRealRunsReturnsTheSimulationAloneOfItsSeedAndReportsNoProgress() throws Exception {
        List<String> progress = new ArrayList<>();
        List<Simulation> simulated = new ArrayList<>();
        AbRun.Context context = new AbRun.Context(
                new Events() {
                    @Override
                    public void note(String text) {
                        progress.add(text);
                    }

                    @Override
                    public void planned(int total, int done) {
                        progress.add("planned " + total);
                    }

                    @Override
                    public void starting(Side side, boolean warmup, int trial, int ofSide) {
                        progress.add("starting " + trial);
                    }

                    @Override
                    public void finished(
                            Side side, boolean warmup, int trial, int ofSide, double seconds, String status) {
                        progress.add("finished " + trial);
                    }
                },
                Map.of(),
                Clock.systemUTC(),
                r -> "",
                r -> "",
                new FakeEngine().engine());
        CalibrationFigures figures = Calibrate.run(SMALL, context, new Calibrate.Listener() {
            @Override
            public void simulated(Simulation simulation) {
                simulated.add(simulation);
            }

            @Override
            public void started(Path root, int runs, int trials) {
                progress.add("started in " + root);
            }

            @Override
            public void ran(ProcessCalibration.Ran run) {
                progress.add("ran " + run.done());
            }
        });
        // Simulated again from the same seed: the same figures.
        assertEquals(new CalibrationFigures(SIMULATED, Optional.empty()), figures);
        assertEquals(List.of(), progress, "the simulation is printed at once: nothing to wait for");
        assertEquals(List.of(), simulated, "nor its headlines, said only before real runs");
        JsonNode json = new ObjectMapper().readTree(Products.CALIBRATE.render(figures, Format.JSON));
        assertTrue(json.get("real").isNull(), json.toString());
        assertFalse(Products.CALIBRATE.render(figures, Format.TEXT).contains("Real processes"));
    }

    @Test
    void rendersTheTablesAndWordsEachSuite() {
        String text = Products.CALIBRATE.render(FIGURES, Format.TEXT);
        for (String part : new String[] {
            "perfab calibrate: 10 simulated runs per case, seed 1.",
            "noise: outlier trials\n",
            "1%     5  perfab   ",
            "benchstat (Mann-Whitney)",
            "Welch, build medians",
            "\nTargets\n",
            "passes on a slowdown of 2% or more: at most ",
            "wrong signs on a change of 5% or more: at most ",
            "small changes where nothing changed: at most ",
            "Every verdict earned, by noise and trials per side",
            "outlier trials   5  ",
            "Adaptive trials (--trials 5 --adaptive 20)",
            "A/A of 10 cells (normal, cv 3%, n 5): runs headlining a change",
            "40 cells, 2 slower by 8% (cv 1%, n 5): runs finding both",
            "A/A of 1,000 cells (cv 3%, n 5): false regressions per run",
            "5 cells, 1 slower by 10% (cv 3%): runs finding it",
            "\nReal processes: 12 A/B runs of each commit"
        }) {
            assertTrue(text.contains(part), part + " in:\n" + text);
        }
        String markdown = Products.CALIBRATE.render(FIGURES, Format.MARKDOWN);
        assertTrue(markdown.startsWith("### perfab calibrate\n\n10 simulated runs per case, seed 1."), markdown);
        assertEquals(FIGURES.simulation().tables().size(), markdown.split("\n#### Noise: ", -1).length - 1, markdown);
        assertTrue(markdown.contains("\n| 1% | 5 | perfab | 0.0 ("), markdown);
        String[] lines = markdown.split("\n");
        for (int i = 1; i < lines.length; i++) {
            if (lines[i].startsWith("|") && lines[i - 1].startsWith("|")) {
                assertEquals(
                        lines[i - 1].chars().filter(c -> c == '|').count(),
                        lines[i].chars().filter(c -> c == '|').count(),
                        "every row of a table has its header's columns: " + lines[i]);
            }
        }
        assertEquals(List.of(Format.TEXT, Format.JSON, Format.MARKDOWN), Products.CALIBRATE.formats());
    }

    @Test
    void theHeadlinesAreTheTargetsOfTheTables() {
        List<String> lines = CalibrateRenderer.headlines(SIMULATED);
        assertEquals("simulation done: 10 runs per case of 1 noise", lines.get(0));
        assertEquals(
                1 + SIMULATED.targets().size() + 3 + SIMULATED.runnerTargets().size(),
                lines.size(),
                String.join("\n", lines));
        assertEquals(11, SIMULATED.runnerTargets().size(), "every runner model's target has its line");
        String text = Products.CALIBRATE.render(FIGURES, Format.TEXT).replaceAll(" {2,}", " ");
        for (String line : lines.subList(1, lines.size())) {
            assertTrue(
                    line.startsWith("target: ") && text.contains(line.substring("target: ".length()) + "\n"),
                    line + " in:\n" + text);
        }
        assertTrue(lines.get(1).startsWith("target: outlier trials cv 1%, n 5: false regressions "), lines.get(1));
    }

    @Test
    void aPathWithBackticksAndALineBreakStaysOnItsLineInMarkdown() {
        RealRuns odd = new RealRuns(
                Path.of("runs```\n# not a heading"), REAL.runs(), REAL.trials(), REAL.machine(), REAL.commits());
        String markdown =
                Products.CALIBRATE.render(new CalibrationFigures(SIMULATED, Optional.of(odd)), Format.MARKDOWN);
        assertFalse(markdown.lines().anyMatch(l -> l.startsWith("#") && l.contains("not a heading")), markdown);
        assertTrue(
                markdown.lines()
                        .anyMatch(l -> l.startsWith("The runs, their results and comments are in runs")
                                && l.contains("not a heading")),
                "the path stays on its line: " + markdown);
    }

    static Stream<Arguments> formats() {
        List<Arguments> all = new ArrayList<>();
        for (Format f : Products.CALIBRATE.formats()) {
            for (Locale locale : Golden.LOCALES) {
                all.add(Arguments.of(f, locale));
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} under {1}")
    @MethodSource("formats")
    void rendersEveryFormatAsItsGoldenFile(Format format, Locale locale) throws Exception {
        String extension = switch (format) {
            case TEXT -> "txt";
            case MARKDOWN -> "md";
            case JSON -> "json";
            default -> throw new AssertionError("calibrate gained a format without a golden file: " + format.id());
        };
        Golden.assertMatches(
                "calibrate." + extension, Golden.underLocale(locale, () -> Products.CALIBRATE.render(FIGURES, format)));
    }

    @Test
    void refusesRunsOutOfRangeNamingTheOption() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> new Calibrate.Request(10, 1, List.of(), 1001, Optional.empty(), Thresholds.DEFAULT));
        assertTrue(e.getMessage().contains("--ab-runs"), e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class,
                () -> new Calibrate.Request(0, 1, List.of(), 0, Optional.empty(), Thresholds.DEFAULT));
        assertTrue(e.getMessage().contains("--runs"), e.getMessage());
    }
}
