package org.perfab.workload;

import java.util.Objects;
import java.util.regex.Pattern;
import org.perfab.model.Cell;

/**
 * A pattern over cells: {@code NAME} or {@code NAME:METRIC}, in the syntax of {@link Glob}, where
 * {@code /} and {@code :} end a segment: {@code *} matches any run of characters except those two,
 * {@code **} any run at all, and {@code ?} one character other than those two. A pattern without a {@code :} matches every metric of the names it matches.
 * Examples: {@code batched/*:p50}, {@code publish/**}, {@code startup}.
 */
public final class CellGlob {
    private final String text;
    private final Pattern name;
    private final Pattern metric;

    private CellGlob(String text, Pattern name, Pattern metric) {
        this.text = text;
        this.name = name;
        this.metric = metric;
    }

    /**
     * Returns the glob {@code text}.
     *
     * @throws IllegalArgumentException when it is empty or has more than one {@code :}
     */
    public static CellGlob of(String text) {
        Objects.requireNonNull(text, "text");
        if (text.isEmpty()) {
            throw new IllegalArgumentException("a cell pattern must not be empty");
        }
        int colon = text.lastIndexOf(':');
        if (colon != text.indexOf(':')) {
            throw new IllegalArgumentException(
                    "cell pattern '" + text + "' has more than one ':' (expected NAME or NAME:METRIC)");
        }
        String namePart = colon < 0 ? text : text.substring(0, colon);
        String metricPart = colon < 0 ? "**" : text.substring(colon + 1);
        return new CellGlob(text, compile(namePart), compile(metricPart));
    }

    /** Returns whether {@code cell}'s name and metric match. */
    public boolean matches(Cell cell) {
        return name.matcher(cell.name()).matches()
                && metric.matcher(cell.metric()).matches();
    }

    @Override
    public String toString() {
        return text;
    }

    private static Pattern compile(String glob) {
        return Glob.compile(glob, "/:");
    }
}
