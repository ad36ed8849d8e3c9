package org.perfab.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.model.ResultsJson;

/** Every input a pull request can shape is read with a bound: regular files only, none past {@link BadInputException#MAX_BYTES}. */
class BadInputExceptionTest {
    @TempDir
    Path tmp;

    @Test
    @Tag("starts-processes") // mkfifo makes the FIFO
    void aFifoIsRefusedAtOnceNotWaitedOn() throws Exception {
        Path fifo = tmp.resolve("times.json");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        BadInputException e = assertTimeoutPreemptively(
                Duration.ofSeconds(10), () -> assertThrows(BadInputException.class, () -> ResultsJson.read(fifo)));
        assertEquals(
                fifo + ": cannot read: not a regular file (a FIFO, a device or a socket): perfab reads only"
                        + " regular files",
                e.getMessage());
    }

    @Test
    void aDeviceThatNeverEndsIsRefusedNotReadUntilTheHeapRunsOut() throws IOException {
        Path zero = Path.of("/dev/zero");
        assumeTrue(Files.exists(zero));
        BadInputException e = assertTimeoutPreemptively(
                Duration.ofSeconds(10),
                () -> assertThrows(BadInputException.class, () -> BadInputException.read(zero)));
        assertTrue(e.getMessage().startsWith("/dev/zero: cannot read: not a regular file"), e.getMessage());
        // A link to it is the device it names.
        Path link = tmp.resolve("results.json");
        try {
            Files.createSymbolicLink(link, zero);
        } catch (IOException | UnsupportedOperationException skipped) {
            return;
        }
        assertThrows(BadInputException.class, () -> ResultsJson.read(link));
        Files.delete(link);
    }

    @Test
    void aFilePastTheBoundIsRefusedNamingTheBound() throws IOException {
        Path big = tmp.resolve("shard.json");
        try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(BadInputException.MAX_BYTES + 1); // sparse: nothing is written
        }
        BadInputException e = assertThrows(BadInputException.class, () -> BadInputException.read(big));
        assertEquals(big + ": cannot read: larger than 256 MiB, the most perfab reads of one input", e.getMessage());
        assertThrows(IOException.class, () -> BadInputException.open(big));
    }

    @Test
    void aDirectoryOrAFileThatIsNotUtf8SaysSo() throws IOException {
        BadInputException dir = assertThrows(BadInputException.class, () -> BadInputException.read(tmp));
        assertTrue(
                dir.getMessage().endsWith(": cannot read: a directory: perfab reads only regular files"),
                dir.getMessage());
        Path latin = Files.write(tmp.resolve("latin1.txt"), new byte[] {'c', 'a', 'f', (byte) 0xE9});
        BadInputException e = assertThrows(BadInputException.class, () -> BadInputException.read(latin));
        assertEquals(latin + ": cannot read: Input length = 1", e.getMessage());
        Path bom = Files.writeString(tmp.resolve("bom.txt"), "\uFEFFname\n", StandardCharsets.UTF_8);
        assertEquals("name\n", BadInputException.read(bom));
        assertEquals(
                tmp.resolve("none") + ": no such file",
                assertThrows(BadInputException.class, () -> BadInputException.read(tmp.resolve("none")))
                        .getMessage());
    }
}
