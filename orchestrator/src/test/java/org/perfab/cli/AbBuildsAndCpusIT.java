package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.ab.Engine;
import org.perfab.testing.GitFixture;
import org.perfab.testing.Subjects;

/** {@code perfab ab} with several builds per side, and with trials pinned to CPUs. */
class AbBuildsAndCpusIT {
    @TempDir
    Path tmp;

    private JsonNode run(GitFixture g, String... more) throws IOException {
        List<String> args = new ArrayList<>(List.of(
                "ab",
                "--repo=" + g.dir(),
                "--base=main",
                "--head=feature",
                "--out",
                tmp.resolve("out").toString()));
        args.addAll(List.of(more));
        Cli run = Cli.run(Engine.REAL, args.toArray(new String[0]));
        assertEquals(0, run.exitCode(), run.err());
        return new ObjectMapper().readTree(tmp.resolve("out/results.json").toFile());
    }

    @Test
    void buildsEachSideSeveralTimesAndTakesTurns() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 4, "");
        JsonNode results = run(g, "--builds", "2");
        for (String dir : List.of("base-0", "base-1", "head-0", "head-1")) {
            assertTrue(Files.exists(tmp.resolve("out/work/" + dir + "/out/level")), dir);
        }
        assertTrue(Files.exists(tmp.resolve("out/logs/build-head-1.log")));
        StringBuilder builds = new StringBuilder();
        for (JsonNode t : results.get("trials")) {
            if (!t.get("warmup").asBoolean()) {
                builds.append(t.get("build").asInt());
            }
        }
        assertEquals("00110011", builds.toString(), "pair i uses build i mod 2 of each side");
        assertEquals(2, results.at("/settings/builds").asInt());
    }

    @Test
    void pinsEveryTrialToTheWorkloadsCpus() throws IOException {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.script("bench.sh", """
                #!/bin/sh
                cpus=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)
                printf '{"schema": "perfab/measurements/v1", "measurements": [' > "$PERFAB_RESULT"
                printf '{"cell": "cpu%s", "metric": "t", "unit": "ns", "value": 1}]}' "$cpus" >> "$PERFAB_RESULT"
                """);
        g.write("perfab.yaml", """
                name: pinned
                trials: 2
                warmup: 0
                harness:
                  run: [sh, bench.sh]
                  cpus: "0"
                """);
        g.commit("initial");
        g.git("checkout", "-q", "-b", "feature");
        g.write("x", "y");
        g.commit("change");
        JsonNode results = run(g);
        List<String> cells = new ArrayList<>();
        results.get("comparisons").forEach(c -> cells.add(c.get("cell").asText()));
        assertEquals(List.of("cpu0"), cells);
    }
}
