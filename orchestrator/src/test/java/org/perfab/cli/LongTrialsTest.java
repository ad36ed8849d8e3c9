package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.testing.FakeEngine;
import org.perfab.testing.GitFixture;

/**
 * A run whose trials are so long that its looks cannot fit a CI job says so once the first trials
 * price it, naming the harness's own options and --budget; one that a budget bounds does not.
 */
class LongTrialsTest {
    private static final String HARNESS = "#!/bin/sh\n# a suite that takes three minutes a trial\n";

    @TempDir
    Path tmp;

    /** Each trial takes 180 simulated seconds, and reports its side's cost with a jitter by trial. */
    private static FakeEngine engine() {
        return new FakeEngine().script(HARNESS, c -> {
            double cost = Double.parseDouble(
                    Files.readString(c.dir().resolve("cost.txt")).strip());
            int trial = Integer.parseInt(c.env().get("PERFAB_TRIAL"));
            Files.writeString(
                    Path.of(c.env().get("PERFAB_RESULT")),
                    "{\"schema\": \"perfab/measurements/v1\","
                            + " \"measurements\": [{\"cell\": \"suite\", \"metric\": \"time\", \"unit\": \"s\", \"value\": "
                            + cost * (1 + 0.08 * (trial % 3 - 1)) + "}]}");
            return FakeEngine.ok(180);
        });
    }

    private GitFixture repo() throws IOException {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.script("bench.sh", HARNESS);
        g.write("cost.txt", "180\n");
        g.write("perfab.yaml", "name: long\ntrials: 5\nwarmup: 1\nharness:\n  run: [sh, bench.sh]\n");
        g.commit("initial");
        g.git("checkout", "-q", "-b", "feature");
        g.write("cost.txt", "181\n");
        g.commit("a small change");
        return g;
    }

    @Test
    void aRunWhoseLooksCannotFitACiJobSaysSoNamingWhatShortensIt() throws IOException {
        GitFixture g = repo();
        Path out = tmp.resolve("out");
        Cli run = Cli.ab(engine().engine(), g.dir(), out, "--adaptive", "20");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(
                run.err().contains("a pair of trials takes 6m")
                        && run.err().contains("past a CI job's hour")
                        && run.err().contains("--budget"),
                run.err());
        JsonNode results =
                new ObjectMapper().readTree(out.resolve("results.json").toFile());
        boolean warned = false;
        for (JsonNode w : results.get("warnings")) {
            warned |= w.get("kind").asText().equals("long-trials");
        }
        assertTrue(warned, results.get("warnings").toString());
        assertTrue(Files.readString(out.resolve("comment.md")).contains("past the hour a CI job is given"));

        Path bounded = tmp.resolve("bounded");
        Cli withBudget = Cli.ab(engine().engine(), g.dir(), bounded, "--adaptive", "20", "--budget", "50m");
        assertEquals(0, withBudget.exitCode(), withBudget.err());
        assertTrue(!withBudget.err().contains("past a CI job's hour"), withBudget.err());
    }
}
