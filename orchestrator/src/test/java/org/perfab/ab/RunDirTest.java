package org.perfab.ab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.failure.BadInputException;
import org.perfab.model.Side;

class RunDirTest {
    @TempDir
    Path tmp;

    @Test
    void makesANewFolderAndListsWhatItMakes() throws IOException {
        Path out = tmp.resolve("a/b/out");
        try (RunDir dir = RunDir.create(out, false)) {
            assertEquals(out.resolve("results.json"), dir.results());
            SideDir side = dir.side(Side.HEAD, 1);
            assertEquals(out.resolve("work/head-1/tree"), side.tree());
        }
        assertEquals("""
                .perfab-lock
                .perfab-manifest
                .gitignore
                results.json
                work
                work/head-1
                """, Files.readString(out.resolve(".perfab-manifest")));
        assertEquals(
                "*",
                Files.readString(out.resolve(".gitignore"))
                        .lines()
                        .reduce((a, b) -> b)
                        .orElseThrow(),
                "git takes nothing of a run's folder");
    }

    @Test
    void onlyOneRunHoldsAFolderAtATime() {
        Path out = tmp.resolve("out");
        try (RunDir first = RunDir.create(out, false)) {
            first.plan();
            BadInputException e = assertThrows(BadInputException.class, () -> RunDir.create(out, false));
            assertTrue(
                    e.getMessage()
                            .contains("is in use by another perfab run (pid "
                                    + ProcessHandle.current().pid()),
                    e.getMessage());
        }
        try (RunDir again = RunDir.create(out, false)) {
            assertTrue(Files.exists(again.root()), "free once the first is closed");
        }
    }

    @Test
    void deletesOnlyWhatItMade() throws IOException {
        Path out = tmp.resolve("out");
        Files.createDirectories(out.resolve("work/base-0/tree"));
        Files.writeString(out.resolve("work/base-0/tree/mine.txt"), "the user's\n");
        BadInputException forced = assertThrows(BadInputException.class, () -> RunDir.create(out, true));
        assertTrue(forced.getMessage().contains("holds a 'work' that perfab did not write"), forced.getMessage());
        assertTrue(Files.exists(out.resolve("work/base-0/tree/mine.txt")));
        Path own = tmp.resolve("own");
        try (RunDir dir = RunDir.create(own, false)) {
            SideDir side = dir.side(Side.BASE, 0);
            Files.createDirectories(side.tree());
            dir.delete("work/base-0");
            assertFalse(Files.exists(side.root()));
            Files.createDirectories(own.resolve("work/extra"));
            BadInputException e = assertThrows(BadInputException.class, () -> dir.delete("work/extra"));
            assertTrue(e.getMessage().contains("exists and perfab did not make it"), e.getMessage());
        }
    }

    @Test
    void resumesOnlyAFolderThatHoldsARun() {
        BadInputException e = assertThrows(BadInputException.class, () -> RunDir.resume(tmp));
        assertTrue(e.getMessage().endsWith("holds no run to resume (no run.json)"), e.getMessage());
    }
}
