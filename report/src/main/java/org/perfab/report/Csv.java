package org.perfab.report;

import java.util.List;
import org.perfab.model.CsvField;

/**
 * Comma-separated values (RFC 4180) for a spreadsheet: a header line, then a line per row, CRLF
 * line ends. Names are untrusted and kept whole, but a control character (a line break, an escape
 * sequence) is {@code ?}, and a field that a spreadsheet would run as a formula (it starts with
 * {@code = + - @}) is prefixed with {@code '}. Numbers are written in full, under no locale, an
 * undefined one (NaN) as an empty field.
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
        String shown = s.codePoints()
                .map(cp -> CsvField.control(cp) ? '?' : cp)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append)
                .toString();
        String text = CsvField.formula(shown) ? "'" + shown : shown;
        return text.indexOf(',') < 0 && text.indexOf('"') < 0 ? text : '"' + text.replace("\"", "\"\"") + '"';
    }
}
