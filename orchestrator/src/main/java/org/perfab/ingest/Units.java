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

    private Units() {
    }

    /**
     * Returns the direction {@code unit} implies, or empty when it tells nothing.
     *
     * <ul>
     *   <li>time, plain or per operation ({@code ns}, {@code ms/op}, {@code s}, {@code cycles}):
     *       lower is better;
     *   <li>anything per unit of time ({@code ops/s}, {@code msg/s}, {@code MB/sec}, {@code Hz}):
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
        if (PER_SECOND.contains(denominator)) {
            return Optional.of(Direction.HIGHER_IS_BETTER);
        }
        if (TIMES.contains(numerator) || COSTS.contains(numerator)) {
            return Optional.of(Direction.LOWER_IS_BETTER);
        }
        return Optional.empty();
    }
}
