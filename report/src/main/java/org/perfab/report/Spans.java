package org.perfab.report;

import java.time.Duration;
import java.util.Locale;

/**
 * How long something takes, worded once for every place that says it: a span of time as a reader
 * reads it, and a duration as {@code --budget} takes it. A run's progress on a terminal and a
 * report's words about its budget say the same times the same way.
 */
public final class Spans {
    private Spans() {}

    /**
     * Returns a span of time in words: {@code 1.5 s} under 10 s, {@code 18 s}, {@code 2 min 30 s},
     * {@code 9 min}, {@code 1 h 5 min}; {@code ?} for NaN.
     */
    public static String span(double seconds) {
        if (Double.isNaN(seconds)) {
            return "?";
        }
        if (seconds < 9.95) {
            return String.format(Locale.ROOT, "%.1f s", seconds);
        }
        long s = Math.round(seconds);
        if (s < 60) {
            return s + " s";
        }
        if (s < 3600) {
            return s / 60 + " min" + (s % 60 == 0 ? "" : " " + s % 60 + " s");
        }
        long m = Math.round(seconds / 60);
        return m / 60 + " h" + (m % 60 == 0 ? "" : " " + m % 60 + " min");
    }

    /** Returns {@code d} as {@code --budget} takes it: {@code 7m}, {@code 90s}, {@code 1h}. */
    public static String option(Duration d) {
        long ms = d.toMillis();
        return ms % 3_600_000 == 0
                ? ms / 3_600_000 + "h"
                : ms % 60_000 == 0 ? ms / 60_000 + "m" : ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
    }
}
