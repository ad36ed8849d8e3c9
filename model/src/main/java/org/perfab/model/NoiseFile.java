package org.perfab.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.perfab.stats.NoiseFloor;
import org.perfab.stats.Sample;
import org.perfab.stats.Sensitivity;
import org.perfab.stats.Summary;
import org.perfab.stats.Thresholds;

/**
 * The noise floor of each cell, as an A/A run measured it ({@code noise.json}, schema
 * {@value #SCHEMA}): how far trials of one build spread, how far builds of the same code spread,
 * and the smallest change a run of the default size (5 trials, one build per side) could find
 * (null when it finds no change, however large, with 80% power: a spread of some 70% or more).
 *
 * @param name the workload's name
 * @param commit the commit measured against itself
 * @param cells the floor of each cell, by cell, in the cells' order
 */
public record NoiseFile(String name, String commit, Map<CellId, NoiseFloor> cells) {
    /** The schema of {@code noise.json}. */
    public static final String SCHEMA = "perfab/noise/v1";
    /** The size of run the file's {@code mde} is for: 5 trials, one build per side. */
    public static final int DEFAULT_TRIALS = 5;

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final double POWER = 0.80;

    public NoiseFile {
        cells = Collections.unmodifiableMap(new TreeMap<>(cells));
    }

    /**
     * Returns the noise floors a run shows. In an A/A run both sides are one commit, built
     * separately: the trials within each build give the spread within builds (the root mean square
     * of each build's coefficient of variation), and the medians of all builds of both sides give
     * the spread between builds (NaN with fewer than two builds in all). Of an A/B run only the
     * baseline counts, since the head's builds are of other code. An A/A run judged in pairs gives
     * the pairs' spread too: the standard deviation of the log ratios of the pairs of one build, over
     * the square root of 2, in percent.
     */
    public static NoiseFile of(RunResults aa) {
        Map<CellId, Map<List<Object>, List<Double>>> byBuild = new LinkedHashMap<>();
        for (Measurement m : aa.measurements()) {
            if (!aa.provenance().aa() && m.side() != Side.BASE) {
                continue;
            }
            byBuild.computeIfAbsent(m.cell().id(), k -> new LinkedHashMap<>())
                    .computeIfAbsent(List.of(m.side(), m.build()), k -> new ArrayList<>())
                    .add(m.value());
        }
        Map<CellId, Double> paired =
                aa.provenance().aa() && aa.table().pairing().inPairs() ? paired(aa) : Map.of();
        Map<CellId, NoiseFloor> cells = new TreeMap<>();
        byBuild.forEach((cell, builds) -> {
            double squares = 0;
            int counted = 0;
            List<Double> medians = new ArrayList<>();
            for (List<Double> values : builds.values()) {
                Summary s = Summary.of(Sample.of(
                        values.stream().mapToDouble(Double::doubleValue).toArray()));
                if (!Double.isNaN(s.cv())) {
                    squares += s.cv() * s.cv();
                    counted++;
                }
                medians.add(s.median());
            }
            double between = medians.size() < 2
                    ? Double.NaN
                    : Summary.of(Sample.of(medians.stream()
                                    .mapToDouble(Double::doubleValue)
                                    .toArray()))
                            .cv();
            if (counted > 0) {
                cells.put(
                        cell,
                        new NoiseFloor(Math.sqrt(squares / counted), between, paired.getOrDefault(cell, Double.NaN)));
            }
        });
        return new NoiseFile(aa.name(), aa.provenance().head().commit(), cells);
    }

    /**
     * Returns the pairs' spread of each cell of {@code aa} with 3 pairs or more: the base's and the
     * head's value of one trial number and build, every value above 0.
     */
    private static Map<CellId, Double> paired(RunResults aa) {
        Map<List<Object>, Double> base = new HashMap<>();
        for (Measurement m : aa.measurements()) {
            if (m.side() == Side.BASE) {
                base.put(List.of(m.cell().id(), m.build(), m.trial()), m.value());
            }
        }
        Map<CellId, List<Double>> ratios = new LinkedHashMap<>();
        for (Measurement m : aa.measurements()) {
            Double b = m.side() == Side.HEAD ? base.get(List.of(m.cell().id(), m.build(), m.trial())) : null;
            if (b != null && b > 0 && m.value() > 0) {
                ratios.computeIfAbsent(m.cell().id(), k -> new ArrayList<>()).add(Math.log(m.value() / b));
            }
        }
        Map<CellId, Double> out = new HashMap<>();
        ratios.forEach((cell, r) -> {
            if (r.size() >= 3) {
                double sd = Summary.of(Sample.of(
                                r.stream().mapToDouble(Double::doubleValue).toArray()))
                        .stddev();
                out.put(cell, sd / Math.sqrt(2) * 100);
            }
        });
        return out;
    }

    /** Returns the file's text. */
    public String write(Thresholds thresholds) {
        ObjectNode root = JSON.createObjectNode();
        root.put("schema", SCHEMA).put("name", name).put("commit", commit);
        root.put("mdeTrials", DEFAULT_TRIALS);
        ArrayNode array = root.putArray("cells");
        Sensitivity test = new Sensitivity(thresholds.alpha(), POWER);
        cells.forEach((id, floor) -> {
            ObjectNode c = array.addObject();
            c.put("cell", id.name()).put("metric", id.metric()).put("within", floor.within());
            TableJson.number(c, "between", floor.between());
            TableJson.number(c, "paired", floor.paired());
            TableJson.number(c, "mde", floor.mde(1, DEFAULT_TRIALS, test));
        });
        try {
            return JSON.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree failed to serialise", e);
        }
    }

    /**
     * Returns the noise floors {@code text} holds; {@code shown} names it in messages.
     *
     * @throws org.perfab.failure.BadInputException naming the field when it is not such a file
     */
    public static NoiseFile read(String text, String shown) {
        StrictJson.Obj n = StrictJson.parse(text, SCHEMA, shown);
        Map<CellId, NoiseFloor> cells = new TreeMap<>();
        n.integer("mdeTrials", 2, Integer.MAX_VALUE);
        for (Map.Entry<CellId, NoiseFloor> e : n.objects("cells", c -> {
            CellId id = new CellId(c.text("cell"), c.text("metric"));
            // Files from before the pairs' spread was measured were of runs judged by Welch's test.
            NoiseFloor floor = c.check(
                    "within",
                    () -> new NoiseFloor(
                            c.number("within"),
                            c.numberOrNaN("between"),
                            c.has("paired") ? c.numberOrNaN("paired") : Double.NaN));
            c.numberOrNaN("mde");
            return Map.entry(id, floor);
        })) {
            cells.put(e.getKey(), e.getValue());
        }
        NoiseFile file = new NoiseFile(n.text("name"), n.text("commit"), cells);
        n.done();
        return file;
    }
}
