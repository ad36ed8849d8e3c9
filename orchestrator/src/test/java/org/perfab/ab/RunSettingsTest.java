package org.perfab.ab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.perfab.failure.BadInputException;
import org.perfab.stats.Sequential;
import org.perfab.stats.ThresholdSettings;
import org.perfab.stats.Thresholds;
import org.perfab.workload.Workload;
import org.perfab.workload.WorkloadLoader;

class RunSettingsTest {
    private static final String SHOWN = "perfab.yaml at HEAD (1a2b3c4d5e6f)";
    private static final String PRESET = "--preset release";

    private static Workload workload(String keys) {
        return WorkloadLoader.parse("name: x\n" + keys + "harness: {run: [./bench]}\n", SHOWN);
    }

    private static Optional<Integer> only(String setting, String which, Integer value) {
        return setting.equals(which) ? Optional.ofNullable(value) : Optional.empty();
    }

    @ParameterizedTest(name = "{0}: command line {1}, preset {2}, workload {3}: {4} from {5}")
    @CsvSource(nullValues = "-", textBlock = """
                    trials,   7,  20, 9,  7,  --trials
                    trials,   -,  20, 9,  20, --preset release
                    trials,   -,  -,  9,  9,  workload
                    trials,   -,  -,  -,  5,  workload
                    builds,   2,  3,  4,  2,  --builds
                    builds,   -,  3,  4,  3,  --preset release
                    builds,   -,  -,  4,  4,  workload
                    builds,   -,  -,  -,  1,  the default
                    adaptive, 30, 40, 50, 30, --adaptive
                    adaptive, 0,  40, 50, 0,  --adaptive
                    adaptive, -,  40, 50, 40, --preset release
                    adaptive, -,  -,  50, 50, workload
                    adaptive, -,  -,  -,  20, the default
                    """)
    void layersTheCommandLineOverThePresetOverTheWorkloadOverTheDefault(
            String setting, Integer line, Integer preset, Integer inWorkload, int value, String from) {
        RunSettings given = RunSettings.given(
                only(setting, "trials", line),
                only(setting, "builds", line),
                only(setting, "adaptive", line),
                Optional.empty(),
                Optional.empty(),
                ThresholdSettings.NONE);
        RunSettings kind = RunSettings.of(
                PRESET,
                only(setting, "trials", preset),
                only(setting, "builds", preset),
                only(setting, "adaptive", preset),
                Optional.empty(),
                false,
                ThresholdSettings.NONE);
        Workload w = workload(inWorkload == null ? "" : setting + ": " + inWorkload + "\n");
        RunSettings.Size size = given.over(kind).size(w, SHOWN);
        Setting<Integer> got = switch (setting) {
            case "trials" -> size.trials();
            case "builds" -> size.builds();
            default -> size.adaptive();
        };
        String source = from.equals("workload") ? "'" + setting + "' of " + SHOWN : from;
        assertEquals(new Setting<>(value, source), got);
    }

    @Test
    void takesTrialsWithoutAWorkloadFromTheCommandLineElseTheDefault() {
        RunSettings given = RunSettings.given(
                Optional.of(7),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                ThresholdSettings.NONE);
        assertEquals(new Setting<>(7, "--trials"), given.trials(Optional.empty(), SHOWN));
        assertEquals(
                new Setting<>(Workload.DEFAULT_TRIALS, "the default"),
                RunSettings.NONE.trials(Optional.empty(), SHOWN));
        assertEquals(
                new Setting<>(9, "'trials' of " + SHOWN),
                RunSettings.NONE.trials(Optional.of(workload("trials: 9\n")), SHOWN));
    }

    @Test
    void turnsAdaptiveTrialsOffForSeveralBuildsNamingWhereTheBuildsWereGiven() {
        RunSettings kind = RunSettings.of(
                PRESET,
                Optional.of(20),
                Optional.of(3),
                Optional.empty(),
                Optional.empty(),
                true,
                ThresholdSettings.NONE);
        RunSettings.Size size = RunSettings.NONE.over(kind).size(workload("adaptive: 40\n"), SHOWN);
        assertEquals(new Setting<>(0, PRESET), size.adaptive());
        BadInputException e = assertThrows(
                BadInputException.class,
                () -> RunSettings.given(
                                Optional.empty(),
                                Optional.empty(),
                                Optional.of(30),
                                Optional.empty(),
                                Optional.empty(),
                                ThresholdSettings.NONE)
                        .over(kind)
                        .size(workload(""), SHOWN));
        assertTrue(
                e.getMessage().startsWith("--adaptive needs one build per side: with 3 builds (" + PRESET + ")"),
                e.getMessage());
    }

    @Test
    void layersPaddingAndBudgetTheCommandLineOverThePreset() {
        RunSettings kind = RunSettings.of(
                PRESET,
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.of(Duration.ofSeconds(150)),
                true,
                ThresholdSettings.NONE);
        assertEquals(
                Optional.of(new Setting<>(true, PRESET)),
                RunSettings.NONE.over(kind).padding());
        assertEquals(
                Optional.of(Duration.ofSeconds(150)),
                RunSettings.NONE.over(kind).budget());
        RunSettings given = RunSettings.given(
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.of(Duration.ofSeconds(60)),
                Optional.of(false),
                ThresholdSettings.NONE);
        assertEquals(
                Optional.of(new Setting<>(false, "--no-env-padding")),
                given.over(kind).padding());
        assertFalse(given.over(kind).padded());
        assertEquals(Optional.of(Duration.ofSeconds(60)), given.over(kind).budget());
        assertFalse(RunSettings.NONE.padded());
        assertEquals(Optional.empty(), RunSettings.NONE.budget());
    }

    @ParameterizedTest(name = "min effect: command line {0}, preset {1}, workload {2}: {3}")
    @CsvSource(nullValues = "-", textBlock = """
                    2, 1, 5, 2
                    -, 1, 5, 1
                    -, -, 5, 5
                    -, -, -, 3
                    """)
    void layersEachThresholdTheCommandLineOverThePresetOverTheWorkloadOverTheDefault(
            Double line, Double preset, Double inWorkload, double minEffect) {
        RunSettings given =
                RunSettings.given(new ThresholdSettings(Optional.empty(), Optional.ofNullable(line), Optional.empty()));
        RunSettings kind = RunSettings.of(
                PRESET,
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                false,
                new ThresholdSettings(Optional.of(0.01), Optional.ofNullable(preset), Optional.empty()));
        Workload w = workload("adaptive: off\nthresholds: {inconclusive: 12"
                + (inWorkload == null ? "" : ", min_effect: " + inWorkload) + "}\n");
        RunSettings layered = given.over(kind);
        Thresholds t = layered.verdictRules(w, "w.yaml", layered.size(w, SHOWN));
        assertEquals(minEffect, t.minEffect());
        assertEquals(0.01, t.alpha(), "the preset's, which nothing above gives");
        assertEquals(12.0, t.inconclusive(), "the workload's, which nothing above gives");
        assertEquals(Thresholds.DEFAULT.fdr(), t.fdr(), "the default's, which no layer gives");
    }

    @Test
    void givesTheRunsThresholdsTheLooksOfItsAdaptiveTrials() {
        Workload w = workload("trials: 5\n");
        RunSettings.Size size = RunSettings.NONE.size(w, SHOWN);
        Thresholds t = RunSettings.NONE.verdictRules(w, "w.yaml", size);
        assertEquals(Optional.of(new Sequential(5, Workload.DEFAULT_ADAPTIVE)), t.adaptive());
        Workload fixed = workload("trials: 5\nadaptive: off\n");
        assertEquals(
                Thresholds.DEFAULT,
                RunSettings.NONE.verdictRules(fixed, "w.yaml", RunSettings.NONE.size(fixed, SHOWN)));
    }

    @Test
    void namesTheWorkloadWhenItsThresholdsDoNotFitTheCommandLines() {
        Workload w = workload("adaptive: off\nthresholds: {inconclusive: 4}\n");
        RunSettings given =
                RunSettings.given(new ThresholdSettings(Optional.empty(), Optional.of(5.0), Optional.empty()));
        BadInputException e =
                assertThrows(BadInputException.class, () -> given.verdictRules(w, "w.yaml", given.size(w, SHOWN)));
        assertTrue(e.getMessage().startsWith("thresholds of w.yaml with the command line: "), e.getMessage());
    }

    @Test
    void judgesARunWithoutAWorkloadByTheCommandLineOverTheDefaults() {
        assertEquals(Thresholds.DEFAULT, RunSettings.NONE.verdictRules());
        Thresholds t = RunSettings.given(new ThresholdSettings(Optional.of(0.01), Optional.of(2.0), Optional.empty()))
                .verdictRules();
        assertEquals(0.01, t.alpha());
        assertEquals(2.0, t.minEffect());
        assertEquals(Thresholds.DEFAULT.inconclusive(), t.inconclusive());
        assertEquals(Thresholds.DEFAULT.minEffect(), RunSettings.NONE.minEffect());
        assertEquals(
                1.0,
                RunSettings.NONE
                        .over(RunSettings.of(
                                PRESET,
                                Optional.empty(),
                                Optional.empty(),
                                Optional.empty(),
                                Optional.empty(),
                                false,
                                new ThresholdSettings(Optional.empty(), Optional.of(1.0), Optional.empty())))
                        .minEffect());
    }
}
