import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * The demo's harness: loads the side's build from $PERFAB_BUILD_DIR, times each routine, and
 * writes perfab-json to $PERFAB_RESULT. Run as: java bench/Harness.java
 *
 * <p>After a warm-up, it measures in short rounds that visit every routine in turn, and reports
 * each routine's fastest round: on a shared machine, a neighbour's burst slows some rounds down,
 * never speeds one up, so the fastest round is the one least disturbed.
 */
public class Harness {
    static final int ROUNDS = 25;
    static final long ROUND_NANOS = 20_000_000L;
    static final long WARMUP_NANOS = 250_000_000L;

    interface Op {
        long run() throws Exception;
    }

    record Cell(String name, Op op, double[] rounds) {
    }

    public static void main(String[] args) throws Exception {
        Path classes = Path.of(System.getenv("PERFAB_BUILD_DIR"), "classes");
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()})) {
            Class<?> subject = loader.loadClass("demo.Subject");
            Random random = new Random(42);
            byte[] data = new byte[12 * 1024];
            random.nextBytes(data);
            char[] text = new char[4096];
            for (int i = 0; i < text.length; i++) {
                text[i] = (char) ('a' + random.nextInt(26));
            }
            int n = 40;
            double[] a = random.doubles(n * n).toArray();
            double[] b = random.doubles(n * n).toArray();
            double[] product = new double[n * n];
            double[] coefficients = random.doubles(16).toArray();
            double[] points = random.doubles(512).toArray();
            Method checksum = subject.getMethod("checksum", byte[].class);
            Method hash = subject.getMethod("hash", char[].class);
            Method multiply = subject.getMethod("multiply", double[].class, double[].class, double[].class, int.class);
            Method evaluate = subject.getMethod("evaluate", double[].class, double[].class);
            List<Cell> cells = List.of(
                    new Cell("bytes/checksum", () -> (Long) checksum.invoke(null, (Object) data), new double[ROUNDS]),
                    new Cell("text/hash", () -> (Long) hash.invoke(null, (Object) text), new double[ROUNDS]),
                    new Cell("matrix/multiply", () -> (long) (double) (Double) multiply.invoke(null, a, b, product, n),
                            new double[ROUNDS]),
                    new Cell("poly/evaluate", () -> (long) (double) (Double) evaluate.invoke(null, coefficients, points),
                            new double[ROUNDS]));
            long sink = 0;
            for (Cell c : cells) {
                sink += loop(c.op(), WARMUP_NANOS)[1];
            }
            for (int r = 0; r < ROUNDS; r++) {
                for (Cell c : cells) {
                    long[] timed = loop(c.op(), ROUND_NANOS);
                    c.rounds()[r] = timed[0] / (double) timed[2];
                    sink += timed[1];
                }
            }
            List<String> rows = new ArrayList<>();
            for (Cell c : cells) {
                double[] r = c.rounds().clone();
                Arrays.sort(r);
                rows.add(String.format(Locale.ROOT, "  {\"cell\": \"%s\", \"metric\": \"time\", \"unit\": \"ns/op\","
                        + " \"value\": %.1f}", c.name(), r[0]));
            }
            Files.writeString(Path.of(System.getenv("PERFAB_RESULT")),
                    "{\"schema\": \"perfab/measurements/v1\", \"context\": {\"sink\": " + sink + "},\n"
                            + " \"measurements\": [\n" + String.join(",\n", rows) + "\n]}\n");
        }
    }

    /** Calls {@code op} for about {@code nanos}; returns {elapsed, sum of results, calls}. */
    static long[] loop(Op op, long nanos) throws Exception {
        long sink = 0;
        long calls = 0;
        long start = System.nanoTime();
        long now;
        do {
            for (int i = 0; i < 8; i++) {
                sink += op.run();
            }
            calls += 8;
            now = System.nanoTime();
        } while (now - start < nanos);
        return new long[] {now - start, sink, calls};
    }
}
