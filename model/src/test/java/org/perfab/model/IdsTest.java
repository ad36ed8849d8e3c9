package org.perfab.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** {@link Ids}: the short form of ids, and of a commit as a file names it. */
class IdsTest {
    @Test
    void aCommitIsShortenedOnlyWhenItIsALongRunOfHexDigits() {
        String full = "3f9c1e0a77d2b6c1d0e9f8a7b6c5d4e3f2a1b0c9";
        assertEquals("3f9c1e0a77d2", Ids.shortId(full));
        assertEquals("3f9c1e0a77d2", Ids.shortCommit(full));
        assertEquals("3F9C1E0A77D2", Ids.shortCommit(full.toUpperCase(java.util.Locale.ROOT)));
        assertEquals("3f9c1e0a77d2", Ids.shortCommit("3f9c1e0a77d2"), "already short");
        assertEquals("release-2026.09-rc1", Ids.shortCommit("release-2026.09-rc1"), "a tag, as it is");
        assertEquals("unknown-build-of-tonight", Ids.shortCommit("unknown-build-of-tonight"));
        assertEquals("", Ids.shortCommit(""));
    }
}
