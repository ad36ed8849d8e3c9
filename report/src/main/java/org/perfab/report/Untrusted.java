package org.perfab.report;

import java.util.Locale;

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
    /** Stands for a space a reader could not see or count (see {@link #spaces}). */
    private static final char SPACE = '\u2420';
    /** Opens a code point written out, {@code ⟨U+00A0⟩}. */
    private static final char OPEN = '\u27E8';

    private static final char CLOSE = '\u27E9';

    private Untrusted() {}

    /**
     * Returns the name {@code s} (of a cell, a metric, a unit) as plain text: its spaces shown
     * (see {@link #spaces}), then control characters (newlines and escape sequences included)
     * replaced by {@code ?}, and shortened to {@link #MAX_LENGTH} code points.
     */
    static String plain(String s) {
        return plain(spaces(s), MAX_LENGTH);
    }

    /**
     * Returns {@code name} with every space a reader could not see or count written visibly, so
     * that two names that differ only in their spaces never look alike ({@code a b}, {@code a  b}
     * and {@code a b } are three cells). A space at the start or the end, or in a run of two or
     * more, is {@code ␠}; any other space character (a no-break space, an em space) is its code
     * point, {@code ⟨U+00A0⟩}, wherever it is; so are the two markers themselves when a name has
     * them, so that no name reads as another. A name whose words are one space apart is returned
     * as it is. The one rule for every renderer: {@link #plain(String)}, {@link #markdown(String)}
     * and {@link #html(String)} apply it to a name; prose, which quotes names already shown, is
     * left alone.
     */
    static String spaces(String name) {
        StringBuilder out = new StringBuilder(name.length() + 8);
        int i = 0;
        while (i < name.length()) {
            int cp = name.codePointAt(i);
            if (!space(cp)) {
                if (cp == SPACE || cp == OPEN) {
                    codePoint(cp, out);
                } else {
                    out.appendCodePoint(cp);
                }
                i += Character.charCount(cp);
                continue;
            }
            int end = i;
            while (end < name.length() && space(name.codePointAt(end))) {
                end += Character.charCount(name.codePointAt(end));
            }
            if (end - i == 1 && cp == ' ' && i > 0 && end < name.length()) {
                out.append(' ');
            } else {
                for (int k = i; k < end; k += Character.charCount(name.codePointAt(k))) {
                    if (name.charAt(k) == ' ') {
                        out.append(SPACE);
                    } else {
                        codePoint(name.codePointAt(k), out);
                    }
                }
            }
            i = end;
        }
        return out.toString();
    }

    /** Returns whether {@code cp} is a space a reader sees as one: ASCII's or another Unicode space separator. */
    private static boolean space(int cp) {
        return cp == ' ' || Character.getType(cp) == Character.SPACE_SEPARATOR;
    }

    private static void codePoint(int cp, StringBuilder out) {
        out.append(OPEN).append(String.format(Locale.ROOT, "U+%04X", cp)).append(CLOSE);
    }

    /** Returns {@link #plain} bounded to {@code max} code points instead: for prose, its spaces as they are. */
    public static String plain(String s, int max) {
        StringBuilder out = new StringBuilder(Math.min(s.length(), MAX_LENGTH + 8));
        s.codePoints().forEach(cp -> {
            if (Character.isISOControl(cp)
                    || cp == 0x2028
                    || cp == 0x2029
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
        return markdown(spaces(s), MAX_LENGTH);
    }

    /** Returns {@link #markdown} bounded to {@code max} code points instead: for prose, its spaces as they are. */
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
        return out.toString()
                .replace("://", ":" + ZERO_WIDTH_SPACE + "//")
                .replaceAll("(?i)\\bwww\\.", "www" + ZERO_WIDTH_SPACE + ".");
    }

    /** Returns the name {@code s} as HTML text or attribute value: its spaces shown (see {@link #spaces}), then as {@link #html(String, int)}. */
    static String html(String s) {
        return html(spaces(s), MAX_LENGTH);
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

    /** Returns prose (a sentence that may quote untrusted names) as HTML text, bounded to {@link #MAX_PROSE}. */
    static String htmlProse(String s) {
        return html(s, MAX_PROSE);
    }

    /**
     * Returns {@code s} as XML 1.0 character data or attribute value: {@link #plain} bounded to
     * {@code max} code points, then every character XML cannot carry (a lone surrogate,
     * {@code U+FFFE}, {@code U+FFFF}) as {@code ?}, then {@code & < > " '} as entities, so that no
     * name closes an element, a comment or a {@code ]]>} section.
     */
    static String xml(String s, int max) {
        String p = plain(s, max);
        StringBuilder out = new StringBuilder(p.length() + 16);
        for (int i = 0; i < p.length(); i++) {
            char c = p.charAt(i);
            boolean pair =
                    Character.isHighSurrogate(c) && i + 1 < p.length() && Character.isLowSurrogate(p.charAt(i + 1));
            if (pair) {
                out.append(c).append(p.charAt(++i));
            } else if (Character.isSurrogate(c) || c == '\uFFFE' || c == '\uFFFF') {
                out.append('?');
            } else if (!entity(c, out)) {
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
