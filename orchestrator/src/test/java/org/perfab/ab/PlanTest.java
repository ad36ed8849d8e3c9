package org.perfab.ab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.failure.BadInputException;
import org.perfab.model.Sharding;
import org.perfab.stats.Sequential;
import org.perfab.stats.Thresholds;
import org.perfab.stats.Verdict;

/** A run's plan reads back every setting it wrote, and a plan of an earlier perfab still reads. */
class PlanTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    private static Plan plan(Optional<Plan.Options> options) {
        Plan p = Plans.plan(3, 1, 1);
        return new Plan(
                p.repository(),
                p.baseTip(),
                p.head(),
                p.mergeBase(),
                p.workloadPath(),
                p.workloadText(),
                6,
                p.warmup(),
                p.builds(),
                Optional.of(7L),
                Optional.of(-3L),
                Thresholds.DEFAULT.withAdaptive(new Sequential(3, 12)),
                p.startedAt(),
                Optional.of(new Sharding.Shard(2, 4)),
                Map.of("BenchmarkSum", 0.25),
                List.of("Sum/size=8"),
                List.of(),
                options);
    }

    private Plan roundTrip(Plan p) throws IOException {
        Path file = tmp.resolve("run.json");
        p.write(file);
        return Plan.read(file);
    }

    @Test
    void readsBackTheOptionsBesideTheTrialOrder() throws IOException {
        Plan.Options options = new Plan.Options(
                Optional.of(Duration.ofSeconds(90)),
                List.of(Verdict.INCONCLUSIVE, Verdict.REGRESSION),
                Optional.of(new Plan.Noise(tmp.resolve("noise.json"), "{\"schema\": \"x\"}\n")),
                Optional.of(tmp.resolve("cache")));
        Plan p = plan(Optional.of(options));
        assertEquals(p, roundTrip(p));
        assertEquals(List.of(Verdict.REGRESSION, Verdict.INCONCLUSIVE), options.failOn(), "sorted");
        Plan none = plan(Optional.of(Plan.Options.NONE));
        assertEquals(none, roundTrip(none));
        assertTrue(Files.readString(tmp.resolve("run.json")).contains("\"budget\" : null"));
    }

    @Test
    void aPlanOfAnEarlierPerfabHasNoOptions() throws IOException {
        Path file = tmp.resolve("run.json");
        plan(Optional.of(Plan.Options.NONE)).write(file);
        ObjectNode n = (ObjectNode) JSON.readTree(file.toFile());
        n.remove("options");
        Files.writeString(file, JSON.writeValueAsString(n));
        assertEquals(plan(Optional.empty()), Plan.read(file));
    }

    @Test
    void aBadOptionIsAnErrorNamingTheFileAndTheField() throws IOException {
        Path file = tmp.resolve("run.json");
        plan(Optional.of(Plan.Options.NONE)).write(file);
        ObjectNode n = (ObjectNode) JSON.readTree(file.toFile());
        ((ObjectNode) n.get("options")).put("budget", "soon");
        Files.writeString(file, JSON.writeValueAsString(n));
        BadInputException e = assertThrows(BadInputException.class, () -> Plan.read(file));
        assertEquals(
                file + ": field 'options.budget': budget 'soon' is not a duration (a whole number with ms, s, m"
                        + " or h, e.g. 30s, 5m, 1h)",
                e.getMessage());
        ((ObjectNode) n.get("options")).put("budget", "5m").put("colour", "blue");
        Files.writeString(file, JSON.writeValueAsString(n));
        e = assertThrows(BadInputException.class, () -> Plan.read(file));
        assertEquals(file + ": field 'options.colour': unknown field", e.getMessage());
    }
}
