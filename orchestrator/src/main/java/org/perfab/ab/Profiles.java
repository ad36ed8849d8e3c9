package org.perfab.ab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.perfab.model.FunctionChange;
import org.perfab.model.RunResults;
import org.perfab.model.Side;

/**
 * The counts of a counted trial by function, kept beside its results ({@code STEM.functions.json}),
 * and what they say of a cell: the functions whose counts moved most between the sides.
 */
final class Profiles {
    /** The most functions a trial keeps per cell: those that count most, which is where moves show. */
    static final int KEPT = 500;
    /** The most functions a cell names. */
    static final int NAMED = 5;

    private static final ObjectMapper JSON = new ObjectMapper();

    private Profiles() {}

    /** Returns where the trial of {@code stem} keeps its counts by function. */
    static Path file(Path results, String stem) {
        return results.resolve(stem + ".functions.json");
    }

    /** Writes {@code byCell} (cell, function, count), the {@value #KEPT} largest counts of each cell. */
    static void write(Path file, Map<String, Map<String, Double>> byCell) throws IOException {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode cells = root.putObject("cells");
        byCell.forEach((cell, functions) -> {
            ObjectNode c = cells.putObject(cell);
            functions.entrySet().stream()
                    .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                    .limit(KEPT)
                    .forEach(e -> {
                        double v = e.getValue();
                        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
                            c.put(e.getKey(), (long) v); // a whole count, as Cachegrind gave it
                        } else {
                            c.put(e.getKey(), v);
                        }
                    });
        });
        Files.writeString(file, JSON.writeValueAsString(root) + "\n", StandardCharsets.UTF_8);
    }

    /**
     * Returns the functions whose counts in cell {@code cell} moved most between the sides, over the
     * counted trials of {@code trials} that kept their counts in {@code results}: each side's mean per
     * trial, the {@value #NAMED} largest moves first. Empty when a side kept none.
     */
    static List<FunctionChange> moved(Path results, List<RunResults.TrialRecord> trials, String cell) {
        Map<String, double[]> sums = new HashMap<>();
        int[] n = new int[2];
        for (RunResults.TrialRecord t : trials) {
            if (t.warmup() || t.status() != RunResults.Status.OK) {
                continue;
            }
            JsonNode functions = read(file(results, RunDir.stem(t.seq(), t.side(), t.build())), cell);
            if (functions == null) {
                continue;
            }
            int s = t.side().ordinal();
            n[s]++;
            functions
                    .fields()
                    .forEachRemaining(f -> sums.computeIfAbsent(f.getKey(), k -> new double[2])[s] +=
                            f.getValue().asDouble());
        }
        if (n[Side.BASE.ordinal()] == 0 || n[Side.HEAD.ordinal()] == 0) {
            return List.of();
        }
        List<FunctionChange> all = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        sums.forEach((function, s) -> {
            FunctionChange c = new FunctionChange(FunctionChange.kept(function), s[0] / n[0], s[1] / n[1]);
            if (c.delta() != 0 && seen.add(function)) {
                all.add(c);
            }
        });
        // A move under a hundredth of the largest is not where the count moved.
        double largest =
                all.stream().mapToDouble(c -> Math.abs(c.delta())).max().orElse(0);
        return all.stream()
                .filter(c -> Math.abs(c.delta()) >= largest / 100)
                .sorted(Comparator.comparingDouble((FunctionChange c) -> -Math.abs(c.delta()))
                        .thenComparing(FunctionChange::function))
                .limit(NAMED)
                .toList();
    }

    /** Returns the counts by function of {@code cell} in {@code file}; null when it has none, or does not read. */
    private static JsonNode read(Path file, String cell) {
        try {
            JsonNode n = JSON.readTree(file.toFile()).path("cells").path(cell);
            return n.isObject() ? n : null;
        } catch (IOException e) {
            return null; // perfab's own notes of a trial: without them, the cell names no function
        }
    }
}
