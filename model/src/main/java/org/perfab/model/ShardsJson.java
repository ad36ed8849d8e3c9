package org.perfab.model;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.perfab.failure.BadInputException;

/**
 * The {@code shards} of a {@code results.json}: the object written, read back, and checked against
 * the file's trials and measurements. A shard's own run states its slice; merged shards list their
 * trials and measurements shard after shard, each saying its shard, and the file's claims must fit
 * them: each part's trials are its own, every trial is some part's, and no cell is measured by two
 * shards (it would be judged on both shards' trials).
 */
final class ShardsJson {
    private ShardsJson() {}

    /** Puts {@code sharding} into {@code root} as its {@code shards}. */
    static void write(ObjectNode root, Sharding sharding) {
        ObjectNode shards = root.putObject("shards");
        shards.put("count", sharding.count());
        ArrayNode parts = shards.putArray("parts");
        for (Sharding.Part each : sharding.parts()) {
            ObjectNode part = parts.addObject();
            part.put("index", each.index())
                    .put("state", each.state().id())
                    .put("runner", each.runner())
                    .put("listed", each.listed())
                    .put("suite", each.suite())
                    .put("cut", each.cut())
                    .put("trials", each.trials());
            ArrayNode names = part.putArray("benchmarks");
            each.benchmarks().forEach(names::add);
            if (!each.listing().isEmpty()) {
                ArrayNode listing = part.putArray("listing");
                each.listing().forEach(listing::add);
            }
        }
    }

    /** Returns the sharding the object {@code node}, {@code root}'s {@code shards}, holds. */
    static Sharding read(StrictJson.Obj node, StrictJson.Obj root) {
        int count = node.integer("count", 1, Sharding.MAX_SHARDS);
        List<Sharding.Part> parts = node.objects("parts", p -> {
            Sharding.Part part = p.check(
                    "index",
                    () -> new Sharding.Part(
                            p.integer("index", 1, count),
                            p.check("state", () -> Sharding.State.of(p.text("state"))),
                            p.text("runner"),
                            p.integer("listed", 0, Integer.MAX_VALUE),
                            p.text("suite"),
                            p.has("cut") ? p.text("cut") : Sharding.BY_COUNT,
                            p.texts("benchmarks"),
                            p.integer("trials", 0, Integer.MAX_VALUE),
                            p.has("listing") ? p.texts("listing") : List.of()));
            p.done();
            return part;
        });
        node.done();
        return root.check("shards", () -> new Sharding(count, parts));
    }

    /**
     * Returns the {@code trials} of merged shards, part by part, as {@code sharding} states them:
     * each part's count of trials, in order, each trial of that part by its own {@code shard}
     * ({@code shardOfTrial}, trial by trial); and checks that no cell of {@code shardOfCell}'s keys
     * (a cell and the shard of a measurement of it) is measured by two shards.
     *
     * @throws BadInputException naming {@code shown} and the field when they do not fit
     */
    static List<List<RunResults.TrialRecord>> byShard(
            Sharding sharding,
            List<RunResults.TrialRecord> trials,
            List<Integer> shardOfTrial,
            List<TrialJson.Measured> measured,
            String shown) {
        List<List<RunResults.TrialRecord>> byShard = new ArrayList<>();
        int from = 0;
        for (Sharding.Part p : sharding.parts()) {
            int to = from + p.trials();
            boolean own = to <= trials.size();
            for (int j = from; own && j < to; j++) {
                own = shardOfTrial.get(j) == p.index();
            }
            if (!own) {
                throw new BadInputException(shown + ": field 'shards': shard " + p.index()
                        + " holds " + p.trials() + " trials, which are not the trials of shard " + p.index()
                        + " in 'trials'");
            }
            byShard.add(trials.subList(from, to));
            from = to;
        }
        if (from != trials.size()) {
            throw new BadInputException(
                    shown + ": field 'shards': the shards hold " + from + " of the " + trials.size() + " trials");
        }
        // Shards measure disjoint cells: one in two would be judged on both shards' trials.
        Map<CellId, Integer> shardOfCell = new HashMap<>();
        for (TrialJson.Measured m : measured) {
            Integer other = shardOfCell.putIfAbsent(m.cell(), m.shard());
            if (other != null && other != m.shard()) {
                throw new BadInputException(shown + ": field 'measurements': cell " + m.cell()
                        + " is measured by shards " + other + " and " + m.shard() + ", which measure disjoint cells");
            }
        }
        return byShard;
    }
}
