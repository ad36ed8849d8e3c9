package org.perfab.report;

import java.util.List;

/** Lays out the rows of a table: columns padded for a terminal, or a Markdown table. */
final class Tables {
    private Tables() {
    }

    /** Returns {@code rows} with every column padded to its widest cell (in code points), two spaces apart. */
    static String aligned(List<String[]> rows) {
        return aligned(rows, new boolean[rows.isEmpty() ? 0 : rows.get(0).length]);
    }

    /**
     * Returns {@code rows} with every column padded to its widest cell (in code points), two spaces
     * apart; a column whose {@code right} is true is aligned right. No line ends in a space.
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
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < r.length; i++) {
                if (i > 0) {
                    line.append("  ");
                }
                String pad = " ".repeat(width[i] - width(r[i]));
                line.append(i < right.length && right[i] ? pad + r[i] : r[i] + pad);
            }
            out.append(line.toString().stripTrailing()).append('\n');
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
