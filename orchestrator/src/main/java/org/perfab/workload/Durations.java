package org.perfab.workload;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads the durations of a workload file: {@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h}. */
final class Durations {
    private static final Pattern FORM = Pattern.compile("(\\d+)(ms|s|m|h)");

    private Durations() {
    }

    /**
     * Returns the duration {@code text} names.
     *
     * @throws IllegalArgumentException when it is not a positive whole number of ms, s, m or h
     */
    static Duration parse(String what, String text) {
        Matcher m = FORM.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException(what + " '" + text
                    + "' is not a duration (a whole number with ms, s, m or h, e.g. 30s, 5m, 1h)");
        }
        long n = Long.parseLong(m.group(1));
        Duration d = switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofHours(n);
        };
        if (d.isZero()) {
            throw new IllegalArgumentException(what + " must be longer than zero");
        }
        return d;
    }
}
