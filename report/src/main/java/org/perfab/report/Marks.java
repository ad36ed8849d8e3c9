package org.perfab.report;

import org.perfab.stats.Verdict;

/**
 * The mark of each verdict, for a line printed outside a rendering (a run's progress on a
 * terminal): the mark every format shows it with.
 */
public final class Marks {
    private Marks() {}

    /** Returns the mark of {@code v}: inconclusive is a grey question mark, never a tick. */
    public static String of(Verdict v) {
        return Words.mark(v);
    }
}
