package org.perfab.model;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The metrics of counts, which a busy machine cannot move (unlike a timing), and what counted them:
 * the names every part of perfab gives them, in one place.
 */
public final class Counted {
    /** Instructions executed, counted by Valgrind's Cachegrind. */
    public static final String INSTRUCTIONS = "instructions";
    /** An estimate of cycles from Cachegrind's simulated caches. */
    public static final String ESTIMATED_CYCLES = "est-cycles";
    /** Instructions of one operation of a benchmark, counted by Valgrind's Cachegrind or Callgrind. */
    public static final String INSTRUCTIONS_PER_OP = "instructions/op";
    /** The estimate of cycles of one operation of a benchmark, from Valgrind's simulated caches. */
    public static final String ESTIMATED_CYCLES_PER_OP = "est-cycles/op";
    /** User-space instructions retired, from the CPU's counters. */
    public static final String HW_INSTRUCTIONS = "hw-instructions";
    /** User-space cycles, from the CPU's counters. */
    public static final String HW_CYCLES = "hw-cycles";

    /** Each count's metric, and what counted it. */
    private static final Map<String, String> BY = Map.of(
            INSTRUCTIONS,
            "Valgrind's Cachegrind",
            ESTIMATED_CYCLES,
            "Valgrind's Cachegrind",
            INSTRUCTIONS_PER_OP,
            "Valgrind",
            ESTIMATED_CYCLES_PER_OP,
            "Valgrind",
            HW_INSTRUCTIONS,
            "the CPU's counters",
            HW_CYCLES,
            "the CPU's counters");

    private Counted() {}

    /** Returns whether {@code metric} is a count. */
    public static boolean is(String metric) {
        return BY.containsKey(metric);
    }

    /**
     * Returns what counted every cell of {@code metrics} ("Valgrind's Cachegrind"), when each is a
     * count; empty when one is a timing, or there is none.
     */
    public static Optional<String> by(List<String> metrics) {
        if (metrics.isEmpty() || !metrics.stream().allMatch(Counted::is)) {
            return Optional.empty();
        }
        return Optional.of(String.join(
                " and ", metrics.stream().map(BY::get).distinct().sorted().toList()));
    }
}
