import demo.Subject;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.function.LongUnaryOperator;

/** The demo's cells for bench/Harness.java: each routine of the subject, on inputs made once from a fixed seed. */
public final class Cells {
    private Cells() {
    }

    /** Returns the cells by name, in the order the harness visits them. */
    public static Map<String, LongUnaryOperator> cells() {
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
        Map<String, LongUnaryOperator> cells = new LinkedHashMap<>();
        cells.put("bytes/checksum", x -> Subject.checksum(data));
        cells.put("text/hash", x -> Subject.hash(text));
        cells.put("matrix/multiply", x -> (long) Subject.multiply(a, b, product, n));
        cells.put("poly/evaluate", x -> (long) Subject.evaluate(coefficients, points));
        return cells;
    }
}
