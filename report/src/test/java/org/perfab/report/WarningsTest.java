package org.perfab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.perfab.model.Warning;

class WarningsTest {
    @Test
    void wordsABusyMachineWithItsFigures() {
        Warning w = Warning.of(
                Warning.Kind.BUSY_MACHINE,
                List.of(),
                Map.of(
                        "othersMillicores",
                        1834L,
                        "cores",
                        2L,
                        "runQueueMilli",
                        3912L,
                        "runQueueMax",
                        7L,
                        "stealPermille",
                        0L,
                        "trials",
                        10L));
        assertEquals(
                "The machine was busy while trials ran: other processes used 1.8 of 2 cores on average (run queue"
                        + " 3.9, steal 0.0%); timings carry their noise, see each row's spread.",
                Warnings.words(w));
        Warning stolen = Warning.of(
                Warning.Kind.BUSY_MACHINE,
                List.of(),
                Map.of(
                        "othersMillicores",
                        120L,
                        "cores",
                        1L,
                        "runQueueMilli",
                        800L,
                        "runQueueMax",
                        2L,
                        "stealPermille",
                        73L,
                        "trials",
                        3L));
        assertEquals(
                "The machine was busy while trials ran: other processes used 0.1 of 1 core on average (run queue"
                        + " 0.8, steal 7.3%); timings carry their noise, see each row's spread.",
                Warnings.words(stolen));
        // A shard's, in a merge of shards: whose trials it speaks of.
        Map<String, Long> ofShard = new java.util.HashMap<>(w.figures());
        ofShard.put("shard", 2L);
        ofShard.put("shards", 4L);
        assertEquals(
                "The machine was busy while trials of shard 2 of 4 ran: other processes used 1.8 of 2 cores on"
                        + " average (run queue 3.9, steal 0.0%); timings carry their noise, see each row's spread.",
                Warnings.words(Warning.of(Warning.Kind.BUSY_MACHINE, List.of(), ofShard)));
    }

    @Test
    void wordsABudgetsStopWithTheBudgetThatLetsTheNextLookRun() {
        Warning w = Warning.of(
                Warning.Kind.BUDGET_STOP,
                List.of("Sum/size=8 time", "Leaf time"),
                Map.of(
                        "look",
                        1L,
                        "looks",
                        4L,
                        "trials",
                        5L,
                        "more",
                        5L,
                        "benchmarks",
                        2L,
                        "budgetMillis",
                        300_000L,
                        "spentMillis",
                        260_000L,
                        "nextMillis",
                        95_000L,
                        "enoughMillis",
                        420_000L));
        assertEquals(
                "The run stopped at look 1 of at most 4 (5 trials per side) with 2 cells undecided (Sum/size=8"
                        + " time, Leaf time): the next look, 5 more trials a side of 2 benchmarks, would have taken about 1 min"
                        + " 35 s, past --budget 5m (4 min 20 s spent). --budget 7m lets it run.",
                Warnings.words(w));
        Warning unpriced = Warning.of(
                Warning.Kind.BUDGET_STOP,
                List.of("Leaf time"),
                Map.of(
                        "look",
                        2L,
                        "looks",
                        4L,
                        "trials",
                        10L,
                        "more",
                        5L,
                        "benchmarks",
                        1L,
                        "budgetMillis",
                        90_000L,
                        "spentMillis",
                        95_000L,
                        "enoughMillis",
                        105_000L));
        assertEquals(
                "The run stopped at look 2 of at most 4 (10 trials per side) with 1 cell undecided (Leaf time):"
                        + " the next look, 5 more trials a side of 1 benchmark, would have passed --budget 90s (1 min 35 s"
                        + " spent). --budget 105s lets it run.",
                Warnings.words(unpriced));
    }

    @Test
    void saysThatBuildsWithoutABuildStepAreOneCheckoutAndWhatToDo() {
        Warning w = Warning.of(
                Warning.Kind.UNPERTURBED_BUILDS,
                List.of("base", "head"),
                Map.of("builds", 3L, "perturbed", 0L, "noBuildStep", 1L));
        assertEquals(
                "The workload has no build step, so the 3 builds of each side are identical checkouts: the builds"
                        + " of base, head are the same code, the spread between them says nothing of code layout, and judging"
                        + " on their medians only loses power. Give the workload a build step (build.run) with a build.perturb"
                        + " command that shifts layout (a no-op in a cold function, a padding symbol), or run one build per"
                        + " side (--builds 1).",
                Warnings.words(w));
        // A file written before perfab recorded noBuildStep reads as a run with a build step.
        Warning older = Warning.of(
                Warning.Kind.UNPERTURBED_BUILDS, List.of("base", "head"), Map.of("builds", 2L, "perturbed", 0L));
        assertEquals(
                "Each side was built 2 times without build.perturb, and the builds of base, head are"
                        + " byte-identical: the spread between builds says nothing of code layout. Give the build a perturb"
                        + " command (a no-op in a cold function, a padding symbol) to put layout inside the test.",
                Warnings.words(older));
    }
}
