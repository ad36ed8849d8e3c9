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
    public FunctionChange {
        Objects.requireNonNull(function, "function");
    }

    /** Returns how much its count grew (negative: shrank), per trial. */
    public double delta() {
        return head - base;
    }
}
