package org.perfab.git;

import java.util.Objects;
import org.perfab.model.Ids;

/**
 * A resolved commit.
 *
 * @param typed the ref as the user typed it ({@code main}, {@code HEAD~3}, a short SHA)
 * @param id the full commit id (40 hex digits)
 * @param tree the id of its root tree: two commits with one tree build the same sources
 * @param subject the first line of its message
 */
public record Commit(String typed, String id, String tree, String subject) {
    public Commit {
        Objects.requireNonNull(typed, "typed");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(tree, "tree");
        Objects.requireNonNull(subject, "subject");
    }

    /** Returns the first 12 digits of the id, as people quote it. */
    public String shortId() {
        return Ids.shortId(id);
    }
}
