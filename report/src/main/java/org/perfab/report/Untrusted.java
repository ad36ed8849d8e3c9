package org.perfab.report;

/**
 * Makes text from the code under test (cell names, metrics, units, labels) safe to show. A pull
 * request controls every cell name, so none may inject markup, mentions, references or terminal
 * control sequences into what perfab prints or posts.
 */
public final class Untrusted {
    /** The longest cell name shown; longer ones keep their start and end around an ellipsis. */
    static final int MAX_LENGTH = 120;
    /** The longest sentence shown (a warning that quotes untrusted names). */
    static final int MAX_PROSE = 2000;

    /**
     * The characters that start inline markup anywhere in a line. Those that matter only at the
     * start of a line ({@code - + . >} and digits) are left alone: untrusted text never starts
     * one, it always follows perfab's own text, and escaping them would only clutter the source
     * of a comment.
     */
    private static final String MARKDOWN_SPECIALS = "\\`*_[]|~$";
    private static final char ZERO_WIDTH_SPACE = '\u200B';

    private Untrusted() {
    }

    /**
     * Returns {@code s} with control characters (newlines and escape sequences included) replaced
     * by {@code ?}, and shortened to {@link #MAX_LENGTH} code points.
     */
    static String plain(String s) {
        return plain(s, MAX_LENGTH);
    }

    /** Returns {@link #plain} bounded to {@code max} code points instead. */
    public static String plain(String s, int max) {
        StringBuilder out = new StringBuilder(Math.min(s.length(), MAX_LENGTH + 8));
        s.codePoints().forEach(cp -> {
            if (Character.isISOControl(cp) || cp == 0x2028 || cp == 0x2029
                    || Character.getType(cp) == Character.FORMAT) {
                out.append('?');
            } else {
                out.appendCodePoint(cp);
            }
        });
        return defused(shorten(out.toString(), max));
    }

    /**
     * Returns {@code text} with every line that a GitHub Actions runner would read as a workflow
     * command ({@code ::} after any leading space the runner trims: the Unicode spaces as well as
     * ASCII ones) with a zero-width space before its {@code ::}, which the runner does not trim. The one rule for text
     * from a pull request, wherever it lands in a log: a cell name, a harness's output quoted in a
     * message.
     */
    public static String defused(String text) {
        StringBuilder out = new StringBuilder(text.length() + 4);
        int start = 0;
        while (start <= text.length()) {
            int end = text.indexOf('\n', start);
            end = end < 0 ? text.length() : end + 1;
            int at = command(text, start, end);
            if (at >= 0) {
                out.append(text, start, at).append(ZERO_WIDTH_SPACE).append(text, at, end);
            } else {
                out.append(text, start, end);
            }
            if (end == text.length()) {
                break;
            }
            start = end;
        }
        return out.toString();
    }

    /**
     * Returns where the line from {@code start} to {@code end} has {@code ::} after its leading
     * spaces; -1 when it has not.
     */
    private static int command(String text, int start, int end) {
        int i = start;
        while (i < end) {
            int cp = text.codePointAt(i);
            if (!Character.isWhitespace(cp) && !Character.isSpaceChar(cp) && cp != 0x85) {
                break;
            }
            i += Character.charCount(cp);
        }
        return text.startsWith("::", i) && i + 2 <= end ? i : -1;
    }

    /**
     * Returns {@code s} as inert Markdown text for a table cell: {@link #plain} first, then HTML
     * special characters as entities, Markdown punctuation backslash-escaped, and {@code @} and
     * {@code #} followed by a zero-width space so that no user is mentioned and no issue linked, and
 * {@code ://} and {@code www.} broken the same way so that nothing becomes a link.
     */
    static String markdown(String s) {
        return markdown(s, MAX_LENGTH);
    }

    /** Returns {@link #markdown} bounded to {@code max} code points instead. */
    static String markdown(String s, int max) {
        String p = plain(s, max);
        StringBuilder out = new StringBuilder(p.length() + 16);
        for (int i = 0; i < p.length(); i++) {
            char c = p.charAt(i);
            if (entity(c, out)) {
                continue;
            }
            switch (c) {
                case '@' -> out.append('@').append(ZERO_WIDTH_SPACE);
                case '#' -> out.append("\\#").append(ZERO_WIDTH_SPACE);
                default -> {
                    if (MARKDOWN_SPECIALS.indexOf(c) >= 0) {
                        out.append('\\');
                    }
                    out.append(c);
                }
            }
        }
        // No autolinks: a URL or a www. host in a cell name must not become a link in perfab's voice.
        return out.toString().replace("://", ":" + ZERO_WIDTH_SPACE + "//")
                .replaceAll("(?i)\\bwww\\.", "www" + ZERO_WIDTH_SPACE + ".");
    }

    /**
     * Returns {@code s} as HTML text or attribute value: {@link #plain} bounded to {@code max} code
     * points, then {@code & < > " '} as entities.
     */
    static String html(String s, int max) {
        String p = plain(s, max);
        StringBuilder out = new StringBuilder(p.length() + 16);
        for (int i = 0; i < p.length(); i++) {
            char c = p.charAt(i);
            if (!entity(c, out)) {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** Appends {@code c} as an HTML entity when it needs one, and returns whether it did. */
    private static boolean entity(char c, StringBuilder out) {
        switch (c) {
            case '&' -> out.append("&amp;");
            case '<' -> out.append("&lt;");
            case '>' -> out.append("&gt;");
            case '"' -> out.append("&quot;");
            case '\'' -> out.append("&#39;");
            default -> {
                return false;
            }
        }
        return true;
    }

    private static String shorten(String s, int max) {
        int length = s.codePointCount(0, s.length());
        if (length <= max) {
            return s;
        }
        int keep = (max - 1) / 2;
        int headEnd = s.offsetByCodePoints(0, keep);
        int tailStart = s.offsetByCodePoints(s.length(), -(max - 1 - keep));
        return s.substring(0, headEnd) + "\u2026" + s.substring(tailStart);
    }
}
