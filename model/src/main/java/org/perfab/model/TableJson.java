package org.perfab.model;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;
import org.perfab.failure.BadInputException;
import org.perfab.stats.Caveat;
import org.perfab.stats.Comparison;
import org.perfab.stats.Sequential;
import org.perfab.stats.Statistic;
import org.perfab.stats.Summary;
import org.perfab.stats.Thresholds;
import org.perfab.stats.TrialTest;
import org.perfab.stats.Verdict;

/**
 * The JSON of a classified table's parts, as every file perfab writes and every JSON renderer
 * holds them: a row ({@link #comparison}), the verdict settings ({@link #thresholds(Thresholds)}),
 * the warnings, and a figure that may be undefined ({@link #number}).
 *
 * <p>Each comparison names its test's statistic, {@code "statistic": {"name", "value", "df"}}: the
 * name one of {@link Statistic.Kind}'s ({@code welch-t}, {@code mann-whitney-u}, {@code yuen-t}),
 * {@code df} null where the statistic has none or they are undefined; and its minimum detectable
 * effect, {@code mde}, null where the test gives none.
 */
public final class TableJson {
    private static final ObjectMapper COMPACT = new ObjectMapper();

    private TableJson() {}

    /**
     * Puts {@code table}'s counts of verdicts (by cell, {@code counts}, and by benchmark,
     * {@code benchmarks}), its {@code warnings} and its rows ({@code comparisons}) into {@code root}.
     */
    public static void write(ObjectNode root, ComparisonTable table) {
        ObjectNode counts = root.putObject("counts");
        for (Map.Entry<Verdict, Integer> e : table.counts().entrySet()) {
            counts.put(e.getKey().id(), e.getValue());
        }
        ObjectNode benchmarks = root.putObject("benchmarks");
        for (Map.Entry<Verdict, Integer> e : table.benchmarks().entrySet()) {
            benchmarks.put(e.getKey().id(), e.getValue());
        }
        root.set("warnings", warnings(table.warnings()));
        ArrayNode rows = root.putArray("comparisons");
        for (CellComparison row : table.rows()) {
            rows.add(comparison(row, table.thresholds()));
        }
    }

    /**
     * Returns the JSON of one classified row, as results.json and the comparison JSON hold it;
     * {@code thresholds} are the table's, which the row's detectable change depends on.
     */
    public static ObjectNode comparison(CellComparison row, Thresholds thresholds) {
        Cell cell = row.cell();
        ObjectNode node = COMPACT.createObjectNode();
        node.put("cell", cell.name());
        node.put("metric", cell.metric());
        node.put("unit", cell.unit());
        node.put("direction", cell.direction().id());
        statistics(node, row.comparison(), thresholds);
        node.put("decidedBy", row.byBuilds() ? "build-medians" : "trials");
        if (row.sameAs().isPresent()) {
            node.putObject("sameAs")
                    .put("cell", row.sameAs().get().name())
                    .put("metric", row.sameAs().get().metric());
        } else {
            node.putNull("sameAs");
        }
        number(node, "buildSpread", row.buildSpread());
        if (row.noiseFloor() == Double.POSITIVE_INFINITY) {
            node.put("noiseFloor", UNBOUNDED); // no change, however large, found with 80% power
        } else {
            number(node, "noiseFloor", row.noiseFloor());
        }
        if (!row.functions().isEmpty()) {
            ArrayNode functions = node.putArray("functions");
            for (FunctionChange f : row.functions()) {
                functions
                        .addObject()
                        .put("function", f.function())
                        .put("base", f.base())
                        .put("head", f.head());
            }
        }
        if (row.look().isPresent()) {
            Look l = row.look().get();
            node.putObject("look")
                    .put("look", l.look())
                    .put("looks", l.looks())
                    .put("trials", l.trials())
                    .put("alpha", l.alpha());
        } else {
            node.putNull("look");
        }
        ArrayNode outliers = node.putArray("outliers");
        for (Outlier o : row.outliers()) {
            ObjectNode x = outliers.addObject()
                    .put("side", o.side().id())
                    .put("build", o.build())
                    .put("trial", o.trial())
                    .put("value", o.value());
            number(x, "deviation", o.deviation());
        }
        if (row.trialLevel().isPresent()) {
            node.set(
                    "trialLevel",
                    statistics(COMPACT.createObjectNode(), row.trialLevel().get(), thresholds));
        } else {
            node.putNull("trialLevel");
        }
        // Welch's test beside the pairs that judged: written only then, derived again when read.
        row.welch().ifPresent(w -> node.set("welch", statistics(COMPACT.createObjectNode(), w, thresholds)));
        return node;
    }

    private static ObjectNode statistics(ObjectNode node, Comparison c, Thresholds thresholds) {
        node.put("verdict", c.verdict().id());
        number(node, "pctChange", c.pctChange());
        if (Double.isNaN(c.ciLow()) || Double.isNaN(c.ciHigh())) {
            node.putNull("ci95");
        } else {
            node.putArray("ci95").add(c.ciLow()).add(c.ciHigh());
        }
        number(node, "pValue", c.pValue());
        number(node, "qValue", c.qValue());
        node.set("statistic", statistic(c.statistic()));
        number(node, "mde", c.mde());
        number(node, "detectable", c.detectable(thresholds));
        node.set("base", summary(c.base()));
        node.set("head", summary(c.head()));
        ArrayNode caveats = node.putArray("caveats");
        for (Caveat caveat : c.caveats()) {
            caveats.add(caveat.id());
        }
        return node;
    }

    private static ObjectNode statistic(Statistic s) {
        ObjectNode node = COMPACT.createObjectNode();
        node.put("name", s.kind().id());
        number(node, "value", s.value());
        number(node, "df", s.df());
        return node;
    }

    private static ObjectNode summary(Summary s) {
        ObjectNode node = COMPACT.createObjectNode();
        node.put("n", s.n());
        number(node, "mean", s.mean());
        number(node, "median", s.median());
        number(node, "stddev", s.stddev());
        number(node, "cv", s.cv());
        number(node, "min", s.min());
        number(node, "max", s.max());
        return node;
    }

    /** Returns the JSON of verdict settings. */
    public static ObjectNode thresholds(Thresholds t) {
        ObjectNode node = COMPACT.createObjectNode();
        node.put("alpha", t.alpha());
        node.put("minEffect", t.minEffect());
        node.put("inconclusive", t.inconclusive());
        number(node, "fdr", t.fdr());
        // Left out when they follow the minimum effect (the default), as files before them were.
        if (!Double.isNaN(t.outlierFloor())) {
            node.put("outlierFloor", t.outlierFloor());
        }
        if (!Double.isNaN(t.noisyAbove())) {
            node.put("noisyAbove", t.noisyAbove());
        }
        if (t.adaptive().isPresent()) {
            node.putObject("adaptive")
                    .put("first", t.adaptive().get().first())
                    .put("max", t.adaptive().get().max());
        } else {
            node.putNull("adaptive");
        }
        node.put("test", t.test().id());
        return node;
    }

    /**
     * Returns the verdict settings in the object {@code name} of {@code parent}, as
     * {@link #thresholds(Thresholds)} writes them.
     *
     * @throws BadInputException naming the field when they are not valid
     */
    public static Thresholds thresholds(StrictJson.Obj parent, String name) {
        StrictJson.Obj th = parent.object(name);
        Optional<Sequential> adaptive = Optional.empty();
        if (th.has("adaptive") && !th.isNull("adaptive")) {
            StrictJson.Obj a = th.object("adaptive");
            int first = a.integer("first", 2, 1 << 20);
            int max = a.integer("max", first, 1 << 20);
            a.done();
            adaptive = Optional.of(new Sequential(first, max));
        }
        Optional<Sequential> looks = adaptive;
        // Files from before the outlier floor and the underpowered cut were settings of their own lack
        // them: both were the minimum effect. Files from before the test was a setting were judged
        // by Welch's test alone.
        TrialTest test = th.has("test") ? th.check("test", () -> TrialTest.fromId(th.text("test"))) : TrialTest.WELCH;
        Thresholds thresholds = parent.check(
                name,
                () -> new Thresholds(
                                th.number("alpha"),
                                th.number("minEffect"),
                                th.number("inconclusive"),
                                th.has("fdr") ? th.numberOrNaN("fdr") : Double.NaN,
                                th.has("outlierFloor") ? th.numberOrNaN("outlierFloor") : Double.NaN,
                                th.has("noisyAbove") ? th.numberOrNaN("noisyAbove") : Double.NaN,
                                looks)
                        .withTest(test));
        th.done();
        return thresholds;
    }

    /** Returns the JSON of {@code warnings}: each its kind, count, subjects and figures. */
    public static ArrayNode warnings(List<Warning> warnings) {
        ArrayNode array = COMPACT.createArrayNode();
        for (Warning w : warnings) {
            ObjectNode node = array.addObject();
            node.put("kind", w.kind().id()).put("count", w.count());
            ArrayNode subjects = node.putArray("subjects");
            w.subjects().forEach(subjects::add);
            ObjectNode figures = node.putObject("figures");
            w.figures().forEach(figures::put);
        }
        return array;
    }
    /** Returns the warning {@code w} holds, as {@link #warnings} writes each. */
    static Warning warning(StrictJson.Obj w) {
        Warning.Kind kind = w.check("kind", () -> Warning.Kind.of(w.text("kind")));
        int count = w.integer("count", 0, Integer.MAX_VALUE);
        List<String> subjects = w.texts("subjects");
        StrictJson.Obj f = w.object("figures");
        Map<String, Long> figures = new TreeMap<>();
        for (String name : f.names()) {
            figures.put(name, f.integer(name, Long.MIN_VALUE, Long.MAX_VALUE));
        }
        f.done();
        return w.check("subjects", () -> new Warning(kind, count, subjects, figures));
    }

    /** Puts {@code value} into {@code node} as {@code name}, null when it is not finite (an undefined figure). */
    public static void number(ObjectNode node, String name, double value) {
        if (Double.isFinite(value)) {
            node.put(name, value);
        } else {
            node.putNull(name);
        }
    }

    /** Puts {@code value} into {@code node} as {@code name}, null when it is absent or not finite. */
    private static void number(ObjectNode node, String name, OptionalDouble value) {
        number(node, name, value.orElse(Double.NaN));
    }

    /** A noise floor past any change: an A/A run of this size finds none, however large, with 80% power. */
    static final String UNBOUNDED = "unbounded";

    /** Returns the infinite noise floor {@code text} names, or refuses another word. */
    static double unbounded(String text) {
        if (!text.equals(UNBOUNDED)) {
            throw new IllegalArgumentException(
                    "a noise floor is a number, null or '" + UNBOUNDED + "', not '" + text + "'");
        }
        return Double.POSITIVE_INFINITY;
    }
}
