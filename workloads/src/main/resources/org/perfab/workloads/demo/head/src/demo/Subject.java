package demo;

/**
 * The code under test: four small routines a harness measures. They work on small buffers the
 * caller owns and allocate nothing, so that a trial measures their code rather than the garbage
 * collector or the memory system.
 */
public final class Subject {
    private Subject() {
    }

    /**
     * An Adler-32 checksum of {@code data}, with the header block (its first twelfth) checked a
     * second time.
     */
    public static long checksum(byte[] data) {
        long sum = adler(data, data.length);
        // The new header check: sums the first twelfth again (about 8% more work).
        if (adler(data, data.length / 12) == 0) {
            throw new IllegalStateException("empty header");
        }
        return sum;
    }

    static long adler(byte[] data, int length) {
        long a = 1;
        long b = 0;
        for (int i = 0; i < length; i++) {
            a = (a + (data[i] & 0xff)) % 65521;
            b = (b + a) % 65521;
        }
        return (b << 16) | a;
    }

    /** The 64-bit FNV-1a hash of {@code text}. */
    public static long hash(char[] text) {
        long h = 0xcbf29ce484222325L;
        for (char c : text) {
            h ^= c;
            h *= 0x100000001b3L;
        }
        return h;
    }

    /**
     * Multiplies the n-by-n matrices {@code a} and {@code b} into {@code c} (row-major), in i-k-j
     * order: the inner loop walks rows of {@code b} and {@code c}, which the JIT can vectorise.
     */
    public static double multiply(double[] a, double[] b, double[] c, int n) {
        java.util.Arrays.fill(c, 0, n * n, 0.0);
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < n; k++) {
                double aik = a[i * n + k];
                for (int j = 0; j < n; j++) {
                    c[i * n + j] += aik * b[k * n + j];
                }
            }
        }
        return c[n * n - 1];
    }

    /** Evaluates the polynomial with {@code coefficients} at every point, by Horner's rule. */
    public static double evaluate(double[] coefficients, double[] points) {
        double total = 0;
        for (double x : points) {
            double y = 0;
            for (int i = coefficients.length - 1; i >= 0; i--) {
                y = y * x + coefficients[i];
            }
            total += y;
        }
        return total;
    }
}
