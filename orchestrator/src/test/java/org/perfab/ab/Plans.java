package org.perfab.ab;

import java.time.Instant;
import java.util.Optional;
import org.perfab.git.Commit;
import org.perfab.stats.Thresholds;

/** Plans made in memory for the tests of a run's stages. */
final class Plans {
    static final String WORKLOAD = "name: unit\nharness:\n  run: [sh, bench.sh]\nbuild:\n  run: [make]\n";

    private Plans() {}

    static Commit commit(String typed, char id, char tree) {
        return new Commit(
                typed, String.valueOf(id).repeat(40), String.valueOf(tree).repeat(40), "subject");
    }

    /** A plan of {@code trials} counted trials and {@code warmup} warm-ups per side, base and head trees differing. */
    static Plan plan(int trials, int warmup, int builds) {
        return plan(trials, warmup, builds, WORKLOAD);
    }

    /** A plan as {@link #plan(int, int, int)} makes, of the workload {@code workload}. */
    static Plan plan(int trials, int warmup, int builds, String workload) {
        return new Plan(
                "repo",
                commit("main", 'c', 'd'),
                commit("feature", 'a', 'b'),
                commit("merge-base", 'e', 'f'),
                "perfab.yaml",
                workload,
                trials,
                warmup,
                builds,
                Optional.empty(),
                Optional.empty(),
                Thresholds.DEFAULT,
                Instant.parse("2026-11-01T10:00:00Z"));
    }

    /** An A/A plan: both sides one commit. */
    static Plan aa(int trials) {
        return new Plan(
                "repo",
                commit("main", 'a', 'b'),
                commit("main", 'a', 'b'),
                commit("merge-base", 'a', 'b'),
                "perfab.yaml",
                WORKLOAD,
                trials,
                0,
                1,
                Optional.empty(),
                Optional.empty(),
                Thresholds.DEFAULT,
                Instant.parse("2026-11-01T10:00:00Z"));
    }
}
