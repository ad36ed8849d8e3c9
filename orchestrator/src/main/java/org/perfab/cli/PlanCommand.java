package org.perfab.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import org.perfab.failure.BadInputException;
import org.perfab.model.CellId;
import org.perfab.model.NoiseFile;
import org.perfab.model.ResultsJson;
import org.perfab.report.Untrusted;
import org.perfab.stats.Comparison;
import org.perfab.stats.NoiseFloor;
import org.perfab.stats.Sensitivity;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code perfab plan}: how many trials and builds a run needs to find a change. */
@Command(name = "plan", mixinStandardHelpOptions = true,
        description = {"Say, per cell, how many builds and trials per side a run needs to find a change of"
                + " --effect percent with 80%% power, from the noise an A/A run measured (its noise.json) or"
                + " the baseline of any results.json. With the spread between builds known, the advice puts"
                + " code layout inside the test (several builds per side). A run has at most 20 builds and 1000"
                + " trials per side; a change no such run finds is \"more than\" the cap it lies beyond."},
        footer = {"", "Example:", "  perfab ab --base v1.2 --head v1.2 --builds 3 --out aa && perfab plan --noise"
                + " aa/noise.json --effect 2"})
final class PlanCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Spec
    CommandSpec spec;

    @Option(names = "--noise", paramLabel = "FILE", description = "The noise.json of an A/A run.")
    Path noise;

    @Parameters(index = "0", arity = "0..1", paramLabel = "RESULTS", description = "Or a results.json: its baseline's noise.")
    Path results;

    @Option(names = "--effect", paramLabel = "PCT", defaultValue = "3",
            description = "The change to find, in percent (default: ${DEFAULT-VALUE}).")
    double effect;

    @Option(names = "--alpha", paramLabel = "P", defaultValue = "0.05",
            description = "The significance level (default: ${DEFAULT-VALUE}).")
    double alpha;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
            description = "text or json (default: ${DEFAULT-VALUE}).")
    String format;

    @Override
    public Integer call() throws IOException {
        if ((noise == null) == (results == null)) {
            throw new ParameterException(spec.commandLine(), "give either --noise FILE or a RESULTS file");
        }
        if (!(effect > 0) || !(alpha > 0 && alpha < 1)) {
            throw new ParameterException(spec.commandLine(), "--effect must be above 0 and --alpha between 0 and 1");
        }
        if (!format.equals("text") && !format.equals("json")) {
            throw new ParameterException(spec.commandLine(), "--format: '" + format + "' is not text or json");
        }
        NoiseFile file = noise != null ? NoiseFile.read(BadInputException.read(noise), noise.toString())
                : NoiseFile.of(ResultsJson.read(results));
        Sensitivity test = new Sensitivity(alpha, Comparison.POWER);
        List<String[]> lines = new ArrayList<>();
        lines.add(new String[] {"cell", "metric", "within ±cv", "between ±cv", "5 trials find", "builds", "trials",
            "finds"});
        ObjectNode root = JSON.createObjectNode();
        root.put("schema", "perfab/plan/v2").put("effect", effect).put("alpha", alpha).put("power", Comparison.POWER)
                .put("maxBuilds", NoiseFloor.MAX_BUILDS).put("maxTrials", NoiseFloor.MAX_TRIALS);
        ArrayNode cells = root.putArray("cells");
        Set<String> notes = new TreeSet<>();
        for (Map.Entry<CellId, NoiseFloor> e : file.cells().entrySet()) {
            NoiseFloor floor = e.getValue();
            double now = floor.mde(1, NoiseFile.DEFAULT_TRIALS, test);
            NoiseFloor.Advice advice = floor.advise(effect, test);
            String[] run = columns(advice);
            lines.add(new String[] {Untrusted.plain(e.getKey().name(), 80), Untrusted.plain(e.getKey().metric(), 40),
                percent(floor.within()), percent(floor.between()), finds(now), run[0], run[1], run[2]});
            if (now == Double.POSITIVE_INFINITY) {
                notes.add("no change: a run of " + NoiseFile.DEFAULT_TRIALS + " trials finds none, however large, with"
                        + " 80% power (the slower side spreads as much wider).");
            }
            if (advice.beyond() == NoiseFloor.Cap.TRIALS) {
                notes.add("more than " + advice.trials() + " trials: no run of at most that many trials per side finds"
                        + " the change, with 1 build, or up to " + NoiseFloor.MAX_BUILDS + " when the spread between"
                        + " builds is known.");
            }
            if (advice.beyond() == NoiseFloor.Cap.BUILDS) {
                notes.add("more than " + advice.builds() + " builds: the spread between builds alone hides the change"
                        + " from any run of at most that many builds per side, whatever its trials.");
            }
            ObjectNode c = cells.addObject().put("cell", e.getKey().name()).put("metric", e.getKey().metric())
                    .put("within", floor.within());
            number(c, "between", floor.between());
            number(c, "mdeAtDefault", now);
            advice(c.putObject("advice"), advice);
        }
        String out = format.equals("json") ? JSON.writeValueAsString(root) + "\n" : table(lines, notes);
        spec.commandLine().getOut().print(out);
        spec.commandLine().getOut().flush();
        return ExitCode.OK;
    }

    private String table(List<String[]> lines, Set<String> notes) {
        int[] width = new int[lines.get(0).length];
        for (String[] l : lines) {
            for (int i = 0; i < l.length; i++) {
                width[i] = Math.max(width[i], l[i].length());
            }
        }
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "To find a change of %s with 80%% power at alpha %s (trials per side;"
                + " spread over the builds):%n%n", percent(effect), alpha));
        for (String[] l : lines) {
            StringBuilder row = new StringBuilder();
            for (int i = 0; i < l.length; i++) {
                String pad = " ".repeat(width[i] - l[i].length());
                row.append(i < 2 ? l[i] + pad : pad + l[i]).append("  ");
            }
            s.append(row.toString().stripTrailing()).append('\n');
        }
        if (!notes.isEmpty()) {
            s.append('\n');
            notes.forEach(n -> s.append(n).append('\n'));
        }
        return s.toString();
    }

    /** Returns the builds, trials and finds columns of {@code advice}; past a cap, "more than" the cap. */
    private static String[] columns(NoiseFloor.Advice advice) {
        return switch (advice.beyond()) {
            case NONE -> new String[] {Integer.toString(advice.builds()), Integer.toString(advice.trials()),
                percent(advice.mde())};
            case TRIALS -> new String[] {Integer.toString(advice.builds()), "more than " + advice.trials(), "-"};
            case BUILDS -> new String[] {"more than " + advice.builds(), "-", "-"};
        };
    }

    /**
     * Puts {@code advice} into {@code a}: builds, trials and the mde of the run found; past a cap, the
     * cap as {@code buildsMoreThan} or {@code trialsMoreThan} and null for what is not known.
     */
    private static void advice(ObjectNode a, NoiseFloor.Advice advice) {
        boolean builds = advice.beyond() == NoiseFloor.Cap.BUILDS;
        a.put("builds", builds ? null : advice.builds()).put("buildsMoreThan", builds ? advice.builds() : null)
                .put("trials", advice.found() ? advice.trials() : null)
                .put("trialsMoreThan", advice.beyond() == NoiseFloor.Cap.TRIALS ? advice.trials() : null);
        number(a, "mde", advice.mde());
    }

    private static String percent(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.2f%%", v);
    }

    /** Returns the smallest change a run finds: "no change" when none, however large, is found with 80% power. */
    private static String finds(double mde) {
        return mde == Double.POSITIVE_INFINITY ? "no change" : percent(mde);
    }

    /** Puts {@code value} as {@code name}, or null when it is not finite (unknown, or no change is found). */
    private static void number(ObjectNode node, String name, double value) {
        if (Double.isFinite(value)) {
            node.put(name, value);
        } else {
            node.putNull(name);
        }
    }
}
