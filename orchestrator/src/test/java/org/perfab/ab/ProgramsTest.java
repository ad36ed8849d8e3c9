package org.perfab.ab;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProgramsTest {
    @TempDir
    Path tmp;

    private Path file(String relative) throws IOException {
        Path p = tmp.resolve(relative);
        Files.createDirectories(p.getParent());
        Files.writeString(p, "x\n");
        return p;
    }

    @Test
    void namesProgramsGivenAsPathsAndArgumentsThatNameFiles() throws IOException {
        Path base = tmp.resolve("base");
        file("base/app");
        file("base/bench/run.sh");
        file("bin/sh");
        String path = tmp.resolve("bin").toString();
        assertEquals(
                Set.of(base.resolve("app").toRealPath()), Programs.located(List.of("./app", "--fast"), base, path));
        assertEquals(
                Set.of(base.resolve("bench/run.sh").toRealPath()),
                Programs.located(List.of("sh", "bench/run.sh"), base, path),
                "sh is a tool from PATH");
        assertEquals(
                Set.of(),
                Programs.located(List.of(tmp.resolve("bin/sh").toString(), "-c", "true"), base, path),
                "a tool named by its path in a PATH folder is a tool still");
        assertEquals(
                Set.of(base.resolve("bench").toRealPath()),
                Programs.located(List.of("go", "test", "--dir=bench"), base, path));
    }

    @Test
    void findsWhatBothSidesStartInCommonOnly() throws IOException {
        Path shared = file("elsewhere/app");
        Path base = Files.createDirectories(tmp.resolve("base"));
        Path head = Files.createDirectories(tmp.resolve("head"));
        Files.createSymbolicLink(base.resolve("app"), shared);
        Files.createSymbolicLink(head.resolve("app"), shared);
        file("base/own");
        file("head/own");
        assertEquals(
                List.of(shared.toRealPath()),
                Programs.shared(List.of(List.of("./app")), base, head, ""),
                "a link in both trees to one program");
        assertEquals(
                List.of(),
                Programs.shared(List.of(List.of("./app", "own")), base, head, ""),
                "each side also names a file of its own");
        assertEquals(
                List.of(),
                Programs.shared(List.of(List.of("./app"), List.of("cargo", "bench")), base, head, ""),
                "a command that names nothing runs in its own side's tree");
    }
}
