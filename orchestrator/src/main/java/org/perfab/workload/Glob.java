package org.perfab.workload;

import java.util.regex.Pattern;

/**
 * The one glob syntax of workload files, for cell patterns and harness paths alike: {@code *}
 * matches any run of characters within one segment, {@code ?} one character within one segment,
 * {@code **} any run at all, and {@code **}{@code /} also no segment at all.
 */
public final class Glob {
    private Glob() {}

    /**
     * Returns the pattern of {@code glob}, whose segments end at any character of {@code stops}
     * ({@code "/"} for paths; {@code "/:"} for cells, where {@code :} parts name and metric).
     */
    public static Pattern compile(String glob, String stops) {
        String within = "[^" + stops.replaceAll("[\\\\\\]^-]", "\\\\$0") + "]";
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            if (glob.startsWith("**/", i)) {
                regex.append("(?:.*/)?");
                i += 2;
            } else if (glob.startsWith("**", i)) {
                regex.append(".*");
                i++;
            } else if (c == '*') {
                regex.append(within).append('*');
            } else if (c == '?') {
                regex.append(within);
            } else {
                regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString(), Pattern.DOTALL);
    }
}
