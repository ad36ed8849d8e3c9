package org.perfab.model;

import java.util.regex.Pattern;

/**
 * What a field of a CSV file a person may open in a spreadsheet must not hold: a control or format
 * character (a line break, an escape sequence, a bidirectional override), and text a spreadsheet
 * would run as a formula. The one rule of both, for what perfab writes (the report's CSV, which
 * neutralises such a field) and what it reads from elsewhere (a history folded into a series, which
 * is refused).
 */
public final class CsvField {
    private static final Pattern NUMBER = Pattern.compile("[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][+-]?[0-9]+)?%?");

    private CsvField() {}

    /** Returns whether the code point {@code cp} is a control or format character: never shown as it is. */
    public static boolean control(int cp) {
        return Character.isISOControl(cp) || Character.getType(cp) == Character.FORMAT;
    }

    /**
     * Returns whether a spreadsheet would run {@code field} as a formula: it starts with
     * {@code = + - @} and is not a number ({@code -1.5}, {@code +3.0%}, {@code 1e-7} are numbers).
     */
    public static boolean formula(String field) {
        return !field.isEmpty()
                && "=+-@".indexOf(field.charAt(0)) >= 0
                && !NUMBER.matcher(field).matches();
    }
}
