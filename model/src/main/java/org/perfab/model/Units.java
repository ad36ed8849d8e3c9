package org.perfab.model;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.perfab.stats.Direction;

/**
 * What a unit says: which way is better, and how it converts into another unit of its kind. Case
 * matters where it carries meaning: {@code MB} is megabytes and {@code Mb} megabits, and the two
 * convert (by 8); a unit this class does not know converts only into itself.
 */
public final class Units {
    /** Units of elapsed time, in seconds. */
    private static final Map<String, Double> SECONDS = Map.ofEntries(
            Map.entry("ns", 1e-9),
            Map.entry("us", 1e-6),
            Map.entry("\u00b5s", 1e-6),
            Map.entry("\u03bcs", 1e-6),
            Map.entry("ms", 1e-3),
            Map.entry("s", 1.0),
            Map.entry("sec", 1.0),
            Map.entry("secs", 1.0),
            Map.entry("second", 1.0),
            Map.entry("seconds", 1.0),
            Map.entry("min", 60.0),
            Map.entry("minutes", 60.0),
            Map.entry("h", 3600.0),
            Map.entry("hours", 3600.0));
    /** Units of size, in bits: bytes and bits alike, so that each converts into the other. */
    private static final Map<String, Double> BITS = Map.ofEntries(
            Map.entry("B", 8.0),
            Map.entry("byte", 8.0),
            Map.entry("bytes", 8.0),
            Map.entry("kB", 8e3),
            Map.entry("KB", 8e3),
            Map.entry("MB", 8e6),
            Map.entry("GB", 8e9),
            Map.entry("TB", 8e12),
            Map.entry("KiB", 8.0 * 1024),
            Map.entry("MiB", 8.0 * (1 << 20)),
            Map.entry("GiB", 8.0 * (1 << 30)),
            Map.entry("TiB", 8.0 * (1L << 40)),
            Map.entry("b", 1.0),
            Map.entry("bit", 1.0),
            Map.entry("bits", 1.0),
            Map.entry("kb", 1e3),
            Map.entry("Kb", 1e3),
            Map.entry("kbit", 1e3),
            Map.entry("Mb", 1e6),
            Map.entry("Mbit", 1e6),
            Map.entry("Gb", 1e9),
            Map.entry("Gbit", 1e9),
            Map.entry("Kib", 1024.0),
            Map.entry("Mib", 1048576.0),
            Map.entry("Gib", 1073741824.0));
    /** Counts and sizes that cost, lower-cased: fewer is better. */
    private static final Set<String> COSTS = costs();
    /** The ways of writing "per second". */
    private static final Set<String> PER_SECOND = Set.of("s", "sec", "second");

    private Units() {}

    private static Set<String> costs() {
        Set<String> costs =
                new HashSet<>(Set.of("alloc", "allocs", "allocations", "instructions", "insns", "cycles", "ticks"));
        BITS.keySet().forEach(k -> costs.add(k.toLowerCase(Locale.ROOT)));
        return Set.copyOf(costs);
    }

    /**
     * Returns {@code value} in {@code from} converted to {@code to}: both times, or both sizes (bits
     * or bytes), with the same per-operation or per-second suffix ({@code ns/op} to {@code us/op},
     * {@code Mb/s} to {@code KiB/s}, {@code ms/s} to {@code ns/s}); empty when they do not
     * convert.
     */
    public static Optional<Double> convert(double value, String from, String to) {
        if (from.equals(to)) {
            return Optional.of(value);
        }
        String[] a = split(from);
        String[] b = split(to);
        if (!a[1].equals(b[1])) {
            return Optional.empty();
        }
        for (Map<String, Double> scale : List.of(SECONDS, BITS)) {
            Double fa = scale.get(a[0]);
            Double fb = scale.get(b[0]);
            if (fa != null && fb != null) {
                return Optional.of(value * fa / fb);
            }
        }
        return Optional.empty();
    }

    /**
     * A unit to show values in, for people: {@code value * factor}, then {@code prefix}, a space
     * and {@code unit} ({@code 37.42 ms/op}, {@code 12.41k msg/s}).
     *
     * @param prefix a decimal prefix written onto the number ({@code k}, {@code M}), or empty
     * @param unit the unit shown
     * @param factor what a value in the measured unit is multiplied by
     */
    public record Display(String prefix, String unit, double factor) {}

    private static final List<String> TIME_STEPS = List.of("ns", "\u00b5s", "ms", "s");
    private static final List<String> BYTE_STEPS = List.of("B", "KiB", "MiB", "GiB", "TiB");
    private static final List<String> DECIMAL_BYTE_STEPS = List.of("B", "kB", "MB", "GB", "TB");
    private static final String[] SI = {"", "k", "M", "G", "T"};
    private static final Set<String> BYTE_NAMES =
            Set.of("B", "byte", "bytes", "kB", "KB", "MB", "GB", "TB", "KiB", "MiB", "GiB", "TiB");

    /**
     * Returns the unit to show values near {@code reference} in {@code unit}: a time in ns, µs, ms
     * or s, whichever puts it at 1 or more and under 1000 ({@code 37423436 ns/op} is
     * {@code 37.42 ms/op}); a size in bytes in B, KiB, MiB, GiB or TiB; any other count with a
     * decimal prefix from 10,000 up ({@code 12.41k msg/s}). A unit perfab cannot scale, or a
     * reference that is 0 or not finite, is shown as it is.
     */
    public static Display display(String unit, double reference) {
        String[] parts = split(unit);
        double r = Math.abs(reference);
        if (!(r > 0) || Double.isInfinite(r)) {
            return new Display("", unit, 1);
        }
        for (List<String> steps : List.of(TIME_STEPS, BYTE_STEPS, DECIMAL_BYTE_STEPS)) {
            Map<String, Double> scale = steps == TIME_STEPS ? SECONDS : BITS;
            Double from = scale.get(parts[0]);
            boolean decimal = Set.of("kB", "KB", "MB", "GB", "TB").contains(parts[0]);
            boolean kind = steps == TIME_STEPS
                    ? from != null
                    : BYTE_NAMES.contains(parts[0]) && decimal == (steps == DECIMAL_BYTE_STEPS);
            if (!kind) {
                continue; // not this kind: bits stay bits, and megabytes stay decimal
            }
            String best = steps.get(0);
            for (String step : steps) {
                if (r * from / scale.get(step) >= 1) {
                    best = step;
                }
            }
            return new Display("", best + parts[1], from / scale.get(best));
        }
        if (BITS.containsKey(parts[0])) {
            return new Display("", unit, 1); // bits, already prefixed or not: as measured
        }
        int k = 0;
        while (r >= (k == 0 ? 1e4 : 1e3) && k < SI.length - 1) {
            r /= 1000;
            k++;
        }
        return new Display(SI[k], unit, Math.pow(1000, -k));
    }

    /** Splits {@code ns/op} into {@code ns} and {@code /op}; {@code /sec} and {@code /second} are {@code /s}. */
    private static String[] split(String unit) {
        String u = unit.trim();
        int slash = u.indexOf('/');
        String base = slash < 0 ? u : u.substring(0, slash);
        String per = slash < 0 ? "" : u.substring(slash + 1).toLowerCase(Locale.ROOT);
        return new String[] {base, slash < 0 ? "" : "/" + (PER_SECOND.contains(per) ? "s" : per)};
    }

    /**
     * Returns the direction {@code unit} implies, or empty when it tells nothing.
     *
     * <ul>
     *   <li>time, plain or per operation ({@code ns}, {@code ms/op}, {@code s}, {@code cycles}):
     *       lower is better;
     *   <li>time per unit of time ({@code ms/s}, {@code ns/s}: a share of time, such as time spent
     *       collecting garbage each second): lower is better;
     *   <li>anything else per unit of time ({@code ops/s}, {@code ops/ms}, {@code msg/s},
     *       {@code MB/sec}, {@code Hz}): higher is better;
     *   <li>sizes, allocations and instruction counts, plain or per operation ({@code B/op},
     *       {@code allocs/op}): lower is better.
     * </ul>
     */
    public static Optional<Direction> direction(String unit) {
        String u = unit.trim();
        String lower = u.toLowerCase(Locale.ROOT);
        if (u.isEmpty()) {
            return Optional.empty();
        }
        if (lower.equals("hz")
                || lower.equals("khz")
                || lower.equals("mhz")
                || lower.equals("ghz")
                || lower.equals("ops")
                || lower.endsWith(" per second")) {
            return Optional.of(Direction.HIGHER_IS_BETTER);
        }
        int slash = u.indexOf('/');
        String numerator = slash < 0 ? u : u.substring(0, slash);
        String denominator = slash < 0 ? "" : lower.substring(slash + 1);
        if (numerator.isEmpty()) {
            return Optional.empty();
        }
        boolean numeratorIsTime =
                SECONDS.containsKey(numerator) || SECONDS.containsKey(numerator.toLowerCase(Locale.ROOT));
        if (SECONDS.containsKey(denominator)) {
            return Optional.of(numeratorIsTime ? Direction.LOWER_IS_BETTER : Direction.HIGHER_IS_BETTER);
        }
        if (numeratorIsTime || COSTS.contains(numerator.toLowerCase(Locale.ROOT))) {
            return Optional.of(Direction.LOWER_IS_BETTER);
        }
        return Optional.empty();
    }
}
