package calib;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.LongUnaryOperator;

/**
 * The calibration's harness: times each routine of the side's build in rounds that visit every
 * cell in turn, and writes the median round of each cell as perfab-json to $PERFAB_RESULT. Built
 * with the subject into $PERFAB_BUILD_DIR/classes and started by bench/run.sh.
 */
public final class Harness {
    static final int ROUNDS = 15;
    static final long ROUND_NANOS = 6_000_000L;
    static final long WARMUP_NANOS = 60_000_000L;

    record Cell(String name, LongUnaryOperator op, double[] rounds) {
    }

    public static void main(String[] args) throws Exception {
        List<Cell> cells = List.of(
                new Cell("target", Subject::target, new double[ROUNDS]),
                new Cell("steady/a", Subject::steady, new double[ROUNDS]),
                new Cell("steady/b", Subject::steady, new double[ROUNDS]),
                new Cell("steady/c", Subject::steady, new double[ROUNDS]));
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
                    + " \"value\": %.1f}", c.name(), r[ROUNDS / 2]));
        }
        Files.writeString(Path.of(System.getenv("PERFAB_RESULT")),
                "{\"schema\": \"perfab/measurements/v1\", \"context\": {\"sink\": " + sink + "},\n"
                        + " \"measurements\": [\n" + String.join(",\n", rows) + "\n]}\n");
    }

    /** Calls {@code op} for about {@code nanos}; returns {elapsed, sum of results, calls}. */
    static long[] loop(LongUnaryOperator op, long nanos) {
        long sink = 0;
        long calls = 0;
        long start = System.nanoTime();
        long now;
        do {
            sink += op.applyAsLong(sink + calls);
            calls++;
            now = System.nanoTime();
        } while (now - start < nanos);
        return new long[] {now - start, sink, calls};
    }
}
