package org.perfab.model;

/** The short form perfab shows of a commit's id, a tree's or a digest: its first 12 hex digits, as git shows them. */
public final class Ids {
    /** How many characters a short id keeps. */
    public static final int SHORT = 12;

    private Ids() {}

    /** Returns the first {@value #SHORT} characters of {@code id}, or all of a shorter one. */
    public static String shortId(String id) {
        return id.length() > SHORT ? id.substring(0, SHORT) : id;
    }

    /**
     * Returns a commit as a file a pull request controls names it (a series' commit column): the
     * short id of a longer run of hex digits, else the text as it is (a tag, a branch, "unknown").
     */
    public static String shortCommit(String text) {
        return text.length() > SHORT && text.chars().allMatch(c -> Character.digit(c, 16) >= 0) ? shortId(text) : text;
    }
}
