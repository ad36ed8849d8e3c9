package org.perfab.report;

import java.util.List;

/**
 * Comma-separated values (RFC 4180) for a spreadsheet: a header line, then a line per row, CRLF
 * line ends. Names are untrusted: a field that a spreadsheet would run as a formula (it starts
 * with {@code = + - @}, a tab or a carriage return) is prefixed with {@code '}, and numbers are
 * written in full, under no locale, an undefined one (NaN) as an empty field.
 */
final class Csv {
    private final StringBuilder out = new StringBuilder();

    /** Starts a table whose first line is {@code header}. */
    Csv(String... header) {
        line(List.of(header));
    }

    /** Appends one line of fields, each quoted when it holds a comma, a quote or a line break. */
    Csv line(List<String> fields) {
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            out.append(field(fields.get(i)));
        }
        out.append("\r\n");
        return this;
    }

    /** Appends one line of fields. */
    Csv line(String... fields) {
        return line(List.of(fields));
    }

    /** Returns the table. */
    String text() {
        return out.toString();
    }

    /** Returns {@code v} as a field: the shortest text that reads back as {@code v}; empty when undefined. */
    static String number(double v) {
        if (!Double.isFinite(v)) {
            return "";
        }
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }

    private static String field(String s) {
        String text = !s.isEmpty() && "=+-@\t\r".indexOf(s.charAt(0)) >= 0 && !numeric(s) ? "'" + s : s;
        if (text.indexOf(',') < 0 && text.indexOf('"') < 0 && text.indexOf('\n') < 0 && text.indexOf('\r') < 0) {
            return text;
        }
        return '"' + text.replace("\"", "\"\"") + '"';
    }

    /** Returns whether {@code s} is a number perfab wrote ({@code -1.5}, {@code +3.0%}): no formula. */
    private static boolean numeric(String s) {
        return s.matches("[+-]?[0-9][0-9.eE+-]*%?");
    }
}
