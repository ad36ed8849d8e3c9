import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongUnaryOperator;

/**
 * The harness of perfab's embedded subjects (the demo's and the calibration's): times each cell of
 * the side's build, and writes one figure per cell as perfab-json to $PERFAB_RESULT. The cells are
 * what {@code Cells.cells()} returns, from $PERFAB_BUILD_DIR/classes, where the build compiled
 * bench/Cells.java (the head's, like this file) with the side's own src/: each cell a routine of
 * the subject, called with a number that changes from call to call.
 *
 * <p>After a warm-up of each cell, it measures in short rounds that visit every cell in turn, and
 * reports each cell's fastest round ({@code --report fastest}: on a shared machine a neighbour's
 * burst slows some rounds down, never speeds one up, so the fastest round is the one least
 * disturbed) or its median round ({@code --report median}: the typical round, as a calibration of
 * perfab's rules wants). Run as
 * {@code java bench/Harness.java --rounds 25 --round-ms 20 --warmup-ms 250 --report fastest},
 * or compiled: {@code java -cp $PERFAB_BUILD_DIR/classes Harness ...}.
 */
public final class Harness {
    /** The calls between two readings of the clock. */
    static final int CALLS = 8;

    record Cell(String name, LongUnaryOperator op, double[] rounds) {
    }

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(option(args, "--rounds"));
        long roundNanos = Long.parseLong(option(args, "--round-ms")) * 1_000_000L;
        long warmupNanos = Long.parseLong(option(args, "--warmup-ms")) * 1_000_000L;
        String report = option(args, "--report");
        if (!report.equals("fastest") && !report.equals("median")) {
            throw new IllegalArgumentException("--report is fastest or median, got " + report);
        }
        Path classes = Path.of(System.getenv("PERFAB_BUILD_DIR"), "classes");
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()})) {
            @SuppressWarnings("unchecked")
            Map<String, LongUnaryOperator> ops = (Map<String, LongUnaryOperator>) loader.loadClass("Cells")
                    .getMethod("cells").invoke(null);
            List<Cell> cells = new ArrayList<>();
            ops.forEach((name, op) -> cells.add(new Cell(name, op, new double[rounds])));
            long sink = 0;
            for (Cell c : cells) {
                sink += loop(c.op(), warmupNanos)[1];
            }
            for (int r = 0; r < rounds; r++) {
                for (Cell c : cells) {
                    long[] timed = loop(c.op(), roundNanos);
                    c.rounds()[r] = timed[0] / (double) timed[2];
                    sink += timed[1];
                }
            }
            List<String> rows = new ArrayList<>();
            for (Cell c : cells) {
                double[] r = c.rounds().clone();
                Arrays.sort(r);
                rows.add(String.format(Locale.ROOT, "  {\"cell\": \"%s\", \"metric\": \"time\", \"unit\": \"ns/op\","
                        + " \"value\": %.1f}", c.name(), report.equals("fastest") ? r[0] : r[rounds / 2]));
            }
            Files.writeString(Path.of(System.getenv("PERFAB_RESULT")),
                    "{\"schema\": \"perfab/measurements/v1\", \"context\": {\"sink\": " + sink + "},\n"
                            + " \"measurements\": [\n" + String.join(",\n", rows) + "\n]}\n");
        }
    }

    /** Returns the value that follows {@code name} in {@code args}. */
    static String option(String[] args, String name) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(name)) {
                return args[i + 1];
            }
        }
        throw new IllegalArgumentException("Harness needs " + name);
    }

    /**
     * Calls {@code op} for about {@code nanos}, {@value #CALLS} calls between readings of the clock;
     * returns {elapsed, sum of results, calls}.
     */
    static long[] loop(LongUnaryOperator op, long nanos) {
        long sink = 0;
        long calls = 0;
        long start = System.nanoTime();
        long now;
        do {
            for (int i = 0; i < CALLS; i++) {
                sink += op.applyAsLong(sink + calls + i);
            }
            calls += CALLS;
            now = System.nanoTime();
        } while (now - start < nanos);
        return new long[] {now - start, sink, calls};
    }
}
