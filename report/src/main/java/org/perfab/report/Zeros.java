package org.perfab.report;

import java.util.List;
import java.util.function.UnaryOperator;
import org.perfab.model.CellComparison;

/**
 * The words for the rows whose values are 0 on both sides in every trial (the allocations of code
 * that allocates nothing): a report folds them into one line rather than a row each.
 */
final class Zeros {
    /** How many of the folded cells a line names before it counts the rest. */
    static final int NAMED = 4;

    private Zeros() {
    }

    /**
     * Returns the line for the rows of {@code rows} that are 0 on both sides in every trial:
     * "20 cells 0 on both sides in every trial (DigestBytes/100B, ... and 16 more)"; empty when
     * there are none; each name passes through {@code escape}, the format's escaping.
     */
    static String line(List<CellComparison> rows, UnaryOperator<String> escape) {
        List<String> names = rows.stream().filter(CellComparison::allZero).map(r -> escape.apply(r.cell().name()))
                .toList();
        if (names.isEmpty()) {
            return "";
        }
        int shown = Math.min(names.size(), NAMED);
        return names.size() + (names.size() == 1 ? " cell" : " cells") + " 0 on both sides in every trial ("
                + String.join(", ", names.subList(0, shown))
                + (names.size() > shown ? " and " + (names.size() - shown) + " more" : "") + ")";
    }
}
