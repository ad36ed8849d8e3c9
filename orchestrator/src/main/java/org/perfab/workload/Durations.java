package org.perfab.workload;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads the durations of a workload file: {@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h}. */
public final class Durations {
    private static final Pattern FORM = Pattern.compile("(\\d+)(ms|s|m|h)");
    /** The longest timeout a workload may set: a week. */
    static final Duration MAX = Duration.ofDays(7);

    private Durations() {}

    /**
     * Returns the duration {@code text} names.
     *
     * @throws IllegalArgumentException when it is not a positive whole number of ms, s, m or h,
     *     or is longer than {@link #MAX}
     */
    public static Duration parse(String what, String text) {
        Matcher m = FORM.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException(
                    what + " '" + text + "' is not a duration (a whole number with ms, s, m or h, e.g. 30s, 5m, 1h)");
        }
        String digits = m.group(1).replaceFirst("^0+(?=\\d)", "");
        long n = digits.length() > 12 ? Long.MAX_VALUE : Long.parseLong(digits);
        long millisPer = switch (m.group(2)) {
            case "ms" -> 1;
            case "s" -> 1000;
            case "m" -> 60_000;
            default -> 3_600_000;
        };
        if (n > MAX.toMillis() / millisPer) {
            throw new IllegalArgumentException(
                    what + " '" + text + "' is longer than the most perfab allows (" + MAX.toHours() + "h)");
        }
        Duration d = Duration.ofMillis(n * millisPer);
        if (d.isZero()) {
            throw new IllegalArgumentException(what + " must be longer than zero");
        }
        return d;
    }

    /**
     * Returns {@code d} as {@link #parse} reads it, in its largest whole unit: {@code 7m},
     * {@code 90s}, {@code 1h}, {@code 1500ms}.
     */
    public static String format(Duration d) {
        long ms = d.toMillis();
        return ms % 3_600_000 == 0
                ? ms / 3_600_000 + "h"
                : ms % 60_000 == 0 ? ms / 60_000 + "m" : ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
    }
}
