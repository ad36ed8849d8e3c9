package org.perfab.ingest;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.perfab.stats.Direction;

/** What a unit says about which way is better. */
public final class Units {
    private static final Set<String> TIMES = Set.of("ns", "us", "\u00b5s", "\u03bcs", "ms", "s",
            "sec", "secs", "second", "seconds", "min", "minutes", "h", "hours", "cycles", "ticks");
    private static final Set<String> PER_SECOND = Set.of("s", "sec", "second");
    private static final Set<String> COSTS = Set.of("b", "byte", "bytes", "kb", "kib", "mb", "mib",
            "gb", "gib", "alloc", "allocs", "allocations", "instructions", "insns");

    private static final java.util.Map<String, Double> SECONDS = java.util.Map.of("ns", 1e-9, "us", 1e-6,
            "\u00b5s", 1e-6, "\u03bcs", 1e-6, "ms", 1e-3, "s", 1.0, "sec", 1.0, "min", 60.0, "h", 3600.0);
    private static final java.util.Map<String, Double> BYTES = java.util.Map.of("b", 1.0, "kb", 1e3, "kib", 1024.0,
            "mb", 1e6, "mib", 1048576.0, "gb", 1e9, "gib", 1073741824.0);

    private Units() {
    }

    /**
     * Returns {@code value} in {@code from} converted to {@code to}, when both are times or both
     * sizes, with the same per-operation or per-second suffix ({@code ns/op} to {@code us/op},
     * {@code MB/s} to {@code KiB/s}); empty otherwise.
     */
    public static java.util.Optional<Double> convert(double value, String from, String to) {
        if (from.equals(to)) {
            return java.util.Optional.of(value);
        }
        String[] a = split(from);
        String[] b = split(to);
        if (!a[1].equals(b[1])) {
            return java.util.Optional.empty();
        }
        for (java.util.Map<String, Double> scale : java.util.List.of(SECONDS, BYTES)) {
            Double fa = scale.get(a[0]);
            Double fb = scale.get(b[0]);
            if (fa != null && fb != null) {
                return java.util.Optional.of(value * fa / fb);
            }
        }
        return java.util.Optional.empty();
    }

    /** Splits {@code ns/op} into {@code ns} and {@code /op}; sizes are lower-cased. */
    private static String[] split(String unit) {
        String u = unit.trim();
        int slash = u.indexOf('/');
        String base = slash < 0 ? u : u.substring(0, slash);
        String rest = slash < 0 ? "" : u.substring(slash);
        return new String[] {SECONDS.containsKey(base) ? base : base.toLowerCase(Locale.ROOT), rest};
    }

    /**
     * Returns the direction {@code unit} implies, or empty when it tells nothing.
     *
     * <ul>
     *   <li>time, plain or per operation ({@code ns}, {@code ms/op}, {@code s}, {@code cycles}):
     *       lower is better;
     *   <li>anything per unit of time ({@code ops/s}, {@code ops/ms}, {@code msg/s}, {@code MB/sec},
     *       {@code Hz}):
     *       higher is better;
     *   <li>sizes, allocations and instruction counts, plain or per operation ({@code B/op},
     *       {@code allocs/op}): lower is better.
     * </ul>
     */
    public static Optional<Direction> direction(String unit) {
        String u = unit.trim().toLowerCase(Locale.ROOT);
        if (u.isEmpty()) {
            return Optional.empty();
        }
        if (u.equals("hz") || u.equals("khz") || u.equals("mhz") || u.equals("ops")
                || u.endsWith("/s") && u.length() > 2 || u.endsWith("/sec") || u.endsWith("/second")
                || u.endsWith(" per second")) {
            return Optional.of(Direction.HIGHER_IS_BETTER);
        }
        int slash = u.indexOf('/');
        String numerator = slash < 0 ? u : u.substring(0, slash);
        String denominator = slash < 0 ? "" : u.substring(slash + 1);
        if (numerator.isEmpty()) {
            return Optional.empty();
        }
        if (PER_SECOND.contains(denominator) || TIMES.contains(denominator)) {
            return Optional.of(Direction.HIGHER_IS_BETTER);
        }
        if (TIMES.contains(numerator) || COSTS.contains(numerator)) {
            return Optional.of(Direction.LOWER_IS_BETTER);
        }
        return Optional.empty();
    }
}
