package org.perfab.report;

import java.util.List;

/** Lays out the rows of a table: columns padded for a terminal, or a Markdown table. */
final class Tables {
    private Tables() {}

    /** Returns {@code rows} with every column padded to its widest cell (in code points), two spaces apart. */
    static String aligned(List<String[]> rows) {
        return aligned(rows, new boolean[rows.isEmpty() ? 0 : rows.get(0).length]);
    }

    /**
     * Returns {@code rows} with every column padded to its widest cell (in code points), two spaces
     * apart; a column whose {@code right} is true is aligned right. No line ends in a space. Each
     * line is written straight into the result, no string made for a cell or a line: a table of
     * tens of thousands of rows would make hundreds of thousands.
     */
    static String aligned(List<String[]> rows, boolean[] right) {
        if (rows.isEmpty()) {
            return "";
        }
        int[] width = new int[rows.get(0).length];
        for (String[] r : rows) {
            for (int i = 0; i < r.length; i++) {
                width[i] = Math.max(width[i], width(r[i]));
            }
        }
        StringBuilder out = new StringBuilder();
        for (String[] r : rows) {
            int start = out.length();
            for (int i = 0; i < r.length; i++) {
                if (i > 0) {
                    out.append("  ");
                }
                int pad = width[i] - width(r[i]);
                boolean toRight = i < right.length && right[i];
                if (!toRight) {
                    out.append(r[i]);
                }
                for (int k = 0; k < pad; k++) {
                    out.append(' ');
                }
                if (toRight) {
                    out.append(r[i]);
                }
            }
            int end = out.length();
            while (end > start && Character.isWhitespace(out.charAt(end - 1))) {
                end--;
            }
            out.setLength(end);
            out.append('\n');
        }
        return out.toString();
    }

    /**
     * Returns {@code rows} as a Markdown table, the first row its header; {@code align} is the
     * line under it ({@code |:--|--:|}). The cells must be escaped for Markdown already.
     */
    static String markdown(List<String[]> rows, String align) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < rows.size(); i++) {
            out.append("| ").append(String.join(" | ", rows.get(i))).append(" |\n");
            if (i == 0) {
                out.append(align).append('\n');
            }
        }
        return out.toString();
    }

    /** Returns how wide {@code s} shows: its code points, less the ANSI colour escapes a terminal does not show. */
    private static int width(String s) {
        String shown = s.indexOf('\u001b') < 0 ? s : s.replaceAll("\u001b\\[[0-9;]*m", "");
        return shown.codePointCount(0, shown.length());
    }
}
