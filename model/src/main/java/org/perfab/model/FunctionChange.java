package org.perfab.model;

import java.util.Objects;

/**
 * How one function's count moved between the sides of a counted cell: the first question a
 * reviewer asks of a count that grew is where it grew.
 *
 * @param function the function as the counter names it, with its file ({@code FILE:FUNCTION})
 * @param base its mean count per trial on the baseline (0 when the baseline never ran it)
 * @param head its mean count per trial on the candidate (0 when the candidate never ran it)
 */
public record FunctionChange(String function, double base, double head) {
    /**
     * The longest name kept, in characters: past what a symbol needs (a demangled C++ template runs
     * to a few thousand), so a longer name in a results file read back was not written by perfab.
     */
    public static final int LONGEST = 4096;

    public FunctionChange {
        Objects.requireNonNull(function, "function");
    }

    /**
     * Returns {@code name} as kept: its start and end around an ellipsis when it is longer than
     * {@link #LONGEST}, so that what perfab writes it can read back.
     */
    public static String kept(String name) {
        if (name.length() <= LONGEST) {
            return name;
        }
        int half = (LONGEST - 1) / 2;
        return name.substring(0, half) + "\u2026" + name.substring(name.length() - half);
    }

    /** Returns how much its count grew (negative: shrank), per trial. */
    public double delta() {
        return head - base;
    }
}
