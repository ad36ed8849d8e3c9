package org.perfab.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.perfab.demo.ProcessCalibration;
import org.perfab.model.RunResults;
import org.perfab.report.Format;
import org.perfab.report.testing.Golden;
import org.perfab.stats.Calibration.Method;
import org.perfab.stats.Calibration.Noise;
import org.perfab.stats.Thresholds;

/** The calibration's grid as a value, and its layout. */
class CalibrateTest {
    private static final Calibrate.Request SMALL = new Calibrate.Request(10, 1, List.of(Noise.OUTLIERS), 0,
            Optional.empty(), Thresholds.DEFAULT);
    private static final Calibrate.Simulation SIMULATED = Calibrate.simulate(SMALL);

    @Test
    void simulatesEveryMethodAtEveryEffectOfEachCase() {
        Calibrate.Simulation s = SIMULATED;
        assertEquals(1, s.tables().size());
        assertEquals(9, s.tables().get(0).rows().size());
        for (Calibrate.Row row : s.tables().get(0).rows()) {
            for (Method m : Method.values()) {
                assertEquals(Calibrate.EFFECTS.size(), row.rates().get(m).size(), m.label());
            }
        }
        assertEquals(3, s.targets().size(), "outlier trials at 5, 10 and 20 trials");
        assertEquals(3, s.adaptive().size(), "outlier trials at CV 1, 3 and 10%");
        assertEquals(13, s.suites().size());
        assertEquals(8, s.adaptiveSuites().size());
    }

    @Test
    void theSameSeedGivesTheSameFigures() {
        assertEquals(CalibrationRenderer.render(SIMULATED, Format.TEXT),
                CalibrationRenderer.render(Calibrate.simulate(SMALL), Format.TEXT));
    }

    @Test
    void rendersTheTablesAndWordsEachSuite() {
        String text = CalibrationRenderer.render(SIMULATED, Format.TEXT);
        for (String part : new String[] {"perfab calibrate: 10 simulated runs per case, seed 1.", "noise: outlier trials\n",
            "1%     5  perfab   ", "benchstat (Mann-Whitney)", "Welch, build medians", "\nTargets\n",
            "Adaptive trials (--trials 5 --adaptive 20)", "A/A of 10 cells (normal, cv 3%, n 5): runs headlining a change",
            "40 cells, 2 slower by 8% (cv 1%, n 5): runs finding both",
            "A/A of 1,000 cells (cv 3%, n 5): false regressions per run",
            "5 cells, 1 slower by 10% (cv 3%): runs finding it"}) {
            assertTrue(text.contains(part), part + " in:\n" + text);
        }
        String markdown = CalibrationRenderer.render(SIMULATED, Format.MARKDOWN);
        assertTrue(markdown.startsWith("```text\nperfab calibrate:") && markdown.endsWith("\n```\n"), markdown);
        assertThrows(IllegalArgumentException.class,
                () -> CalibrationRenderer.render(SIMULATED, Format.JSON));
    }

    static Locale[] locales() {
        return Golden.LOCALES;
    }

    @ParameterizedTest
    @MethodSource("locales")
    void theSimulationsTablesAreStable(Locale locale) throws Exception {
        Golden.assertMatches("calibrate-simulation.txt",
                Golden.underLocale(locale, () -> CalibrationRenderer.render(SIMULATED, Format.TEXT)));
    }

    @ParameterizedTest
    @MethodSource("locales")
    void theRealRunsTableIsStable(Locale locale) throws Exception {
        RunResults.Machine machine = new RunResults.Machine("Example CPU @ 2.0GHz", 2, "Linux", "6.1", "21", "local");
        Calibrate.RealRuns real = new Calibrate.RealRuns(Path.of("calibration"), 12, new ProcessCalibration.Outcome(
                machine, List.of(new ProcessCalibration.Figures(0, 12, Double.NaN, Double.NaN, 0, 0, 0.4, 0.9, 0.3, 12),
                        new ProcessCalibration.Figures(3, 12, 50, 0, 0, 0, 3.04, 0.9, 0.2, 12.4),
                        new ProcessCalibration.Figures(10, 12, 100, 0, 8.3, 0, 10.2, 1.1, 0.2, 11.6))));
        Golden.assertMatches("calibrate-real-runs.txt",
                Golden.underLocale(locale, () -> CalibrationRenderer.render(real, Format.TEXT)));
        Golden.assertMatches("calibrate-real-runs.md",
                Golden.underLocale(locale, () -> CalibrationRenderer.render(real, Format.MARKDOWN)));
    }

    @Test
    void refusesRunsOutOfRangeNamingTheOption() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Calibrate.Request(10, 1, List.of(), 1001, Optional.empty(), Thresholds.DEFAULT));
        assertTrue(e.getMessage().contains("--ab-runs"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> new Calibrate.Request(0, 1, List.of(), 0, Optional.empty(), Thresholds.DEFAULT));
        assertTrue(e.getMessage().contains("--runs"), e.getMessage());
    }
}
