package org.perfab.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.perfab.model.CellComparison;

/**
 * The words for the rows whose values are 0 on both sides in every trial (the allocations of code
 * that allocates nothing): a report folds them into one line rather than a row each.
 */
final class Zeros {
    /** How many benchmarks (and metrics) each set of folded cells names before the line counts the rest. */
    static final int NAMED = 4;
    /** How many sets of metrics the line words before it counts the rest. */
    static final int GROUPS = 3;

    private Zeros() {}

    /**
     * Returns the line for the rows of {@code rows} that are 0 on both sides in every trial, each
     * cell named once with its metric: the benchmarks that share the same zero metrics are named
     * together, "58 cells 0 on both sides in every trial: B/op and allocs/op of 29 benchmarks
     * (Count, Iterate, Leaf, Rank and 25 more)"; "1 cell 0 on both sides in every trial: allocs of
     * publish/64KiB/1sub". Empty when there are none. Each name and metric passes through
     * {@code escape}, the format's escaping.
     */
    static String line(List<CellComparison> rows, UnaryOperator<String> escape) {
        // Each benchmark's zero metrics, in the order of the rows; then the benchmarks of each set of metrics.
        Map<String, List<String>> metricsOf = new LinkedHashMap<>();
        int cells = 0;
        for (CellComparison r : rows) {
            if (r.allZero()) {
                metricsOf
                        .computeIfAbsent(r.cell().name(), k -> new ArrayList<>())
                        .add(r.cell().metric());
                cells++;
            }
        }
        if (cells == 0) {
            return "";
        }
        Map<List<String>, List<String>> benchmarksOf = new LinkedHashMap<>();
        metricsOf.forEach((name, metrics) ->
                benchmarksOf.computeIfAbsent(metrics, k -> new ArrayList<>()).add(name));
        List<String> groups = new ArrayList<>();
        int left = 0;
        for (Map.Entry<List<String>, List<String>> g : benchmarksOf.entrySet()) {
            if (groups.size() == GROUPS) {
                left += g.getKey().size() * g.getValue().size();
                continue;
            }
            groups.add(group(g.getKey(), g.getValue(), escape));
        }
        return cells + (cells == 1 ? " cell" : " cells") + " 0 on both sides in every trial: "
                + String.join("; ", groups)
                + (left == 0 ? "" : "; and " + left + (left == 1 ? " more cell" : " more cells"));
    }

    /** Returns the words for the benchmarks {@code names} whose cells of {@code metrics} are 0. */
    private static String group(List<String> metrics, List<String> names, UnaryOperator<String> escape) {
        List<String> shown = metrics.stream().limit(NAMED).map(escape).toList();
        String which = metrics.size() > NAMED
                ? String.join(", ", shown) + " and " + (metrics.size() - NAMED) + " more metrics"
                : shown.size() == 1
                        ? shown.get(0)
                        : String.join(", ", shown.subList(0, shown.size() - 1)) + " and " + shown.get(shown.size() - 1);
        if (names.size() == 1) {
            return which + " of " + escape.apply(names.get(0));
        }
        int named = Math.min(names.size(), NAMED);
        return which + " of " + names.size() + " benchmarks ("
                + String.join(", ", names.subList(0, named).stream().map(escape).toList())
                + (names.size() > named ? " and " + (names.size() - named) + " more" : "") + ")";
    }
}
