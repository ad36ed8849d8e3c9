package org.perfab.ab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import org.perfab.failure.BadInputException;
import org.perfab.git.Commit;
import org.perfab.stats.Thresholds;
import org.perfab.workload.Workload;
import org.perfab.workload.WorkloadLoader;

/**
 * What a run will do, fixed before its first trial and kept in {@code run.json}, so that
 * {@code --resume} continues the same run: the same commits, workload, trial order and settings.
 *
 * @param repository the repository as given
 * @param baseTip the base ref, resolved
 * @param head the head ref, resolved
 * @param mergeBase the baseline commit
 * @param workloadPath the workload's path in the head's tree
 * @param workloadText the workload file as read from the head
 * @param trials counted trials per side
 * @param warmup warm-ups per side
 * @param builds builds per side
 * @param seed the seed of the trial order; empty for alternation
 * @param thresholds the verdict settings
 * @param startedAt when the run first started
 */
record Plan(String repository, Commit baseTip, Commit head, Commit mergeBase, String workloadPath,
        String workloadText, int trials, int warmup, int builds, Optional<Long> seed, Thresholds thresholds,
        Instant startedAt) {

    static final String SCHEMA = "perfab/run/v1";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** Returns the workload, parsed from the text the run started with. */
    Workload workload() {
        return WorkloadLoader.parse(workloadText, workloadPath + " at " + head.shortId());
    }

    /** Returns the trial order. */
    TrialOrder order() {
        return new TrialOrder(trials, warmup, builds, seed);
    }

    /** Returns whether both sides are one tree: an A/A run. */
    boolean aa() {
        return mergeBase.id().equals(head.id());
    }

    void write(Path file) throws IOException {
        ObjectNode n = JSON.createObjectNode();
        n.put("schema", SCHEMA).put("repository", repository);
        n.set("baseTip", commit(baseTip));
        n.set("head", commit(head));
        n.set("mergeBase", commit(mergeBase));
        n.put("workloadPath", workloadPath).put("workloadText", workloadText);
        n.put("trials", trials).put("warmup", warmup).put("builds", builds);
        if (seed.isPresent()) {
            n.put("seed", seed.get());
        } else {
            n.putNull("seed");
        }
        n.putObject("thresholds").put("alpha", thresholds.alpha()).put("minEffect", thresholds.minEffect())
                .put("inconclusive", thresholds.inconclusive());
        n.put("startedAt", startedAt.toString());
        Files.writeString(file, JSON.writeValueAsString(n) + "\n", StandardCharsets.UTF_8);
    }

    static Plan read(Path file) {
        JsonNode n;
        try {
            n = JSON.readTree(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new BadInputException(file + ": cannot read the run to resume: " + e.getMessage(), e);
        }
        if (n == null || !SCHEMA.equals(n.path("schema").asText())) {
            throw new BadInputException(file + ": not a perfab run (expected schema " + SCHEMA + ")");
        }
        JsonNode t = n.path("thresholds");
        return new Plan(n.path("repository").asText(), commit(n.path("baseTip")), commit(n.path("head")),
                commit(n.path("mergeBase")), n.path("workloadPath").asText(), n.path("workloadText").asText(),
                n.path("trials").asInt(), n.path("warmup").asInt(), n.path("builds").asInt(),
                n.path("seed").isNull() ? Optional.empty() : Optional.of(n.path("seed").asLong()),
                new Thresholds(t.path("alpha").asDouble(), t.path("minEffect").asDouble(),
                        t.path("inconclusive").asDouble()),
                Instant.parse(n.path("startedAt").asText()));
    }

    private static ObjectNode commit(Commit c) {
        ObjectNode n = JSON.createObjectNode();
        n.put("typed", c.typed()).put("id", c.id()).put("tree", c.tree()).put("subject", c.subject());
        return n;
    }

    private static Commit commit(JsonNode n) {
        return new Commit(n.path("typed").asText(), n.path("id").asText(), n.path("tree").asText(),
                n.path("subject").asText());
    }
}
