package org.perfab.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What Cachegrind and perf stat write, read back as counts; and why a command did not run under them. */
class CountersTest {
    private static final Path FIXTURES = Path.of("src/test/resources/counters");

    @TempDir
    Path tmp;

    @Test
    void sumsEveryProcessAndEstimatesCyclesFromTheCaches() throws IOException {
        Files.copy(FIXTURES.resolve("cachegrind.101"), tmp.resolve("cachegrind.101"));
        Files.copy(FIXTURES.resolve("cachegrind.102"), tmp.resolve("cachegrind.102"));
        Counters.Counted c = Counters.read(tmp);
        assertEquals(1180, c.instructions());
        // L1 hits 1180 + 460 + 125 - 44 = 1721, last-level hits 44 - 23 = 21, memory 23.
        assertEquals(1721 + 5 * 21 + 35 * 23, c.estimatedCycles());
        assertEquals(
                Map.of(
                        "/build/dash/src/main.c:main",
                        150L,
                        "/build/dash/src/main.c:parse",
                        30L,
                        "subject.c:main",
                        1000L),
                c.byFunction());
    }

    @Test
    void aFolderWithoutASummaryIsNoCount() throws IOException {
        Files.writeString(tmp.resolve("cachegrind.7"), "events: Ir\nfl=a.c\nfn=f\n");
        IOException e = assertThrows(IOException.class, () -> Counters.read(tmp));
        assertTrue(e.getMessage().startsWith("Cachegrind wrote no counts into"), e.getMessage());
    }

    @Test
    void wrapsTheCommandSoThatNothingLandsInItsTree() {
        List<String> argv = Counters.cachegrind(tmp.resolve("counts"), tmp.resolve("logs"), List.of("./subject", "-x"));
        assertEquals(
                List.of(
                        "valgrind",
                        "--tool=cachegrind",
                        "--cache-sim=yes",
                        "--trace-children=yes",
                        "--cachegrind-out-file=" + tmp.resolve("counts/cachegrind.%p"),
                        "--log-file=" + tmp.resolve("logs/valgrind.%p.log"),
                        "--",
                        "./subject",
                        "-x"),
                argv);
    }

    @Test
    void namesTheInstructionValgrindCannotSimulateAndWhere() throws IOException {
        Files.copy(FIXTURES.resolve("valgrind.4242.log"), tmp.resolve("valgrind.4242.log"));
        assertEquals(
                Optional.of("Unrecognised instruction at address 0x4011c5. (at 0x4011C5: runtime.cputicks"
                        + " (asm_amd64.s:12)): an instruction Valgrind cannot simulate"),
                Counters.why(tmp));
        Files.delete(tmp.resolve("valgrind.4242.log"));
        Files.writeString(
                tmp.resolve("valgrind.1.log"),
                "==1== Process terminating with default action of signal 11"
                        + " (SIGSEGV)\n==1==  Access not within mapped region at address 0x0\n");
        assertEquals(Optional.of("Process terminating with default action of signal 11 (SIGSEGV)"), Counters.why(tmp));
    }

    @Test
    void readsTheCpusCountersOrSaysTheyAreRefused() throws IOException {
        assertEquals(
                Map.of("instructions", 1234567L, "cycles", 493827L),
                Counters.readPerf(FIXTURES.resolve("perf-counted.csv")));
        IOException e = assertThrows(IOException.class, () -> Counters.readPerf(FIXTURES.resolve("perf-refused.csv")));
        assertEquals(
                "the CPU's counter instructions:u is <not supported> here: the kernel or the virtual machine"
                        + " refuses it (measure instructions instead: Valgrind counts them)",
                e.getMessage());
    }
}
