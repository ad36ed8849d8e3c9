package org.perfab.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * {@code bisect.json}, schema {@value #SCHEMA}: what a bisect found and every step it ran,
 * written after each step so that {@code --resume} can reuse the finished ones.
 */
public final class BisectionJson {
    /** The schema of a bisect's file. */
    public static final String SCHEMA = "perfab/bisect/v3";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private BisectionJson() {}

    /** Returns {@code b} as indented JSON, with a final newline. */
    public static String write(Bisection b) {
        ObjectNode root = JSON.createObjectNode();
        root.put("schema", SCHEMA)
                .put("cell", b.cell())
                .put("effect", b.effect())
                .put("good", b.good())
                .put("bad", b.bad());
        root.putObject("workload")
                .put("path", b.workload().path())
                .put("sha256", b.workload().sha256());
        if (b.firstBad().isPresent()) {
            root.put("firstBad", b.firstBad().get());
        } else {
            root.putNull("firstBad");
        }
        root.put("verdict", b.outcome().id());
        ArrayNode evidence = root.putArray("evidence");
        b.evidence().forEach(evidence::add);
        ArrayNode candidates = root.putArray("candidates");
        b.candidates().forEach(candidates::add);
        if (b.advice().isPresent()) {
            root.put("advice", b.advice().get());
        } else {
            root.putNull("advice");
        }
        ArrayNode steps = root.putArray("steps");
        for (Bisection.Step s : b.steps()) {
            ObjectNode n = steps.addObject()
                    .put("commit", s.commit())
                    .put("subject", s.subject())
                    .put("base", s.base())
                    .put("purpose", s.purpose())
                    .put("builds", s.builds())
                    .put("trials", s.trials())
                    .put("cell", s.cell())
                    .put("verdict", s.verdict());
            TableJson.number(n, "pctChange", s.pctChange());
            if (Double.isNaN(s.ciLow()) || Double.isNaN(s.ciHigh())) {
                n.putNull("ci95");
            } else {
                n.putArray("ci95").add(s.ciLow()).add(s.ciHigh());
            }
            TableJson.number(n, "pValue", s.pValue());
            TableJson.number(n, "buildSpread", s.buildSpread());
            n.put("buildsDiffer", s.buildsDiffer())
                    .put("call", s.call().id())
                    .put("bad", s.bad())
                    .put("reason", s.reason())
                    .put("seconds", s.seconds());
        }
        try {
            return JSON.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree failed to serialise", e);
        }
    }

    /**
     * Returns the bisect {@code text} holds; {@code shown} names the file in messages.
     *
     * @throws org.perfab.failure.BadInputException when it is not such a file
     */
    public static Bisection read(String text, String shown) {
        StrictJson.Obj n = StrictJson.parse(text, SCHEMA, shown);
        StrictJson.Obj w = n.object("workload");
        Bisection.WorkloadFile workload = new Bisection.WorkloadFile(w.text("path"), w.text("sha256"));
        w.done();
        Bisection b = new Bisection(
                n.text("cell"),
                n.number("effect"),
                n.text("good"),
                n.text("bad"),
                workload,
                n.textOrNull("firstBad"),
                n.check("verdict", () -> Bisection.Outcome.fromId(n.text("verdict"))),
                n.objects("steps", BisectionJson::step),
                n.texts("evidence"),
                n.texts("candidates"),
                n.textOrNull("advice"));
        n.done();
        return b;
    }

    private static Bisection.Step step(StrictJson.Obj s) {
        double low = Double.NaN;
        double high = Double.NaN;
        if (!s.isNull("ci95")) {
            double[] ci = s.numbers("ci95");
            if (ci.length != 2) {
                throw s.error("ci95", "expected two numbers, got " + ci.length);
            }
            low = ci[0];
            high = ci[1];
        }
        boolean bad = s.bool("bad");
        Bisection.Call call = s.check("call", () -> Bisection.Call.fromId(s.text("call")));
        if (bad != (call == Bisection.Call.BAD)) {
            throw s.error("bad", "says " + bad + " while the call is " + call.id());
        }
        return new Bisection.Step(
                s.text("commit"),
                s.text("subject"),
                s.text("base"),
                s.text("purpose"),
                s.integer("builds", 1, Integer.MAX_VALUE),
                s.integer("trials", 0, Integer.MAX_VALUE),
                s.text("cell"),
                s.text("verdict"),
                s.numberOrNaN("pctChange"),
                low,
                high,
                s.numberOrNaN("pValue"),
                s.numberOrNaN("buildSpread"),
                s.bool("buildsDiffer"),
                call,
                s.text("reason"),
                s.number("seconds"));
    }
}
