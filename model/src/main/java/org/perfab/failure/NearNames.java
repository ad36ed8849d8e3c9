package org.perfab.failure;

/**
 * The rule a message about bad input uses to offer the names a mistyped one may have meant (a
 * command, an option, a branch): those a few one-letter edits away.
 */
public final class NearNames {
    private NearNames() {}

    /**
     * Returns whether {@code name} is a typo away from {@code typed}: at most
     * {@code max(2, length of typed / 3)} one-letter edits ({@link #edits}).
     */
    public static boolean near(String typed, String name) {
        int most = Math.max(2, typed.length() / 3);
        // No fewer edits than the lengths differ by: a long name is far without the table.
        return Math.abs(typed.length() - name.length()) <= most && edits(typed, name) <= most;
    }

    /**
     * Returns the Levenshtein distance between two names: how many one-letter insertions,
     * deletions and replacements turn one into the other (0 for equal names).
     */
    public static int edits(String a, String b) {
        int[] row = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            row[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            int diagonal = row[0];
            row[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int above = row[j];
                row[j] = Math.min(
                        Math.min(row[j] + 1, row[j - 1] + 1), diagonal + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1));
                diagonal = above;
            }
        }
        return row[b.length()];
    }
}
