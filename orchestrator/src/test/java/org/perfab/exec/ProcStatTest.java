package org.perfab.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.perfab.model.Load;

/** Reading {@code /proc} from fixtures: the machine's ticks, a process's ticks, CPU lists, and a command's load. */
class ProcStatTest {
    /** A /proc/stat of a 4-CPU virtual machine, guest columns and the long lines included. */
    static final String STAT = """
            cpu  10000 500 3000 80000 1200 100 200 400 50 0
            cpu0 4000 100 1000 18000 300 50 60 100 50 0
            cpu1 3000 200 1000 19000 300 20 40 100 0 0
            cpu2 2000 100 500 21000 300 20 50 100 0 0
            cpu3 1000 100 500 22000 300 10 50 100 0 0
            intr 114434918 9 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
            ctxt 217431245
            btime 1767225600
            processes 81273
            procs_running 3
            procs_blocked 0
            softirq 48734518 2 17386402 2 2139403 0 0 1302 15584617 0 13622790
            """;

    @TempDir
    Path tmp;

    private static BitSet cpus(int... n) {
        BitSet set = new BitSet();
        for (int i : n) {
            set.set(i);
        }
        return set;
    }

    @Test
    void countsUserNiceSystemIrqAndSoftirqAsBusyAndStealApart() {
        ProcStat.Ticks t = ProcStat.machine(STAT, new BitSet()).orElseThrow();
        assertEquals(10000 + 500 + 3000 + 100 + 200, t.busy(), "guest time is inside user: not counted twice");
        assertEquals(400, t.steal());
        assertEquals(13800 + 80000 + 1200 + 400, t.total());
        assertEquals(3, t.running());
    }

    @Test
    void sumsOnlyTheCpusPerfabMayRunOn() {
        ProcStat.Ticks t = ProcStat.machine(STAT, cpus(1, 3)).orElseThrow();
        assertEquals(3000 + 200 + 1000 + 20 + 40 + 1000 + 100 + 500 + 10 + 50, t.busy());
        assertEquals(200, t.steal());
        assertEquals(t.busy() + 19000 + 300 + 22000 + 300 + 200, t.total());
    }

    @Test
    void takesTheWholeMachineWhenNoAllowedCpuHasALine() {
        assertEquals(ProcStat.machine(STAT, new BitSet()), ProcStat.machine(STAT, cpus(17)));
    }

    @Test
    void readsAnOldKernelWithoutStealColumns() {
        ProcStat.Ticks t = ProcStat.machine("cpu  100 0 50 1000\nprocs_running 1\n", new BitSet())
                .orElseThrow();
        assertEquals(new ProcStat.Ticks(150, 0, 1150, 1), t);
    }

    @Test
    void saysNothingOfATextThatIsNotProcStat() {
        assertEquals(Optional.empty(), ProcStat.machine("", new BitSet()));
        assertEquals(Optional.empty(), ProcStat.machine("cpu  a b c d e\n", new BitSet()));
        assertEquals(
                -1,
                ProcStat.machine("cpu  1 2 3 4 5\n", new BitSet()).orElseThrow().running(),
                "no procs_running line");
    }

    @Test
    void countsAProcessesFieldsFromTheLastParenthesisOfItsName() {
        String stat = "4242 (a (b) c) R 1 4242 4242 0 -1 4194304 98 0 1 0 250 30 12 8 20 0 1 0 118689 3133440 358";
        assertEquals(Optional.of(new ProcStat.CpuTicks(280, 20)), ProcStat.cpuTicks(stat));
        assertEquals(Optional.empty(), ProcStat.cpuTicks("4242 (gone"));
        assertEquals(Optional.empty(), ProcStat.cpuTicks("4242 (short) R 1 2 3"));
    }

    @Test
    void readsTheSessionOfAProcessPastAnyParenthesisInItsName() {
        assertEquals(
                OptionalLong.of(4100),
                ProcStat.sessionOf("4242 (x) S 4100 (evil) S 1 1 1) S 4100 4242 4100 0 -1 4194304 98 0 1 0 250 30"));
        assertEquals(OptionalLong.of(4100), ProcStat.sessionOf("4242 (sleep) S 1 4242 4100 0 -1"));
    }

    @Test
    void aZombieOrATextThatIsNotStatHasNoSession() {
        assertEquals(OptionalLong.empty(), ProcStat.sessionOf("4242 (sleep) Z 1 4242 4100 0 -1"));
        assertEquals(OptionalLong.empty(), ProcStat.sessionOf("4242 (sleep) X 1 4242 4100 0 -1"));
        assertEquals(OptionalLong.empty(), ProcStat.sessionOf("4242 (sleep) S 1 4242"));
        assertEquals(OptionalLong.empty(), ProcStat.sessionOf("4242 (gone"));
        assertEquals(OptionalLong.empty(), ProcStat.sessionOf("4242 (x) S 1 4242 -5 0 -1"));
    }

    @Test
    void readsThePeakResidentSet() {
        assertEquals(OptionalLong.of(2204), ProcStat.peakRssKiBOf("Name:\tcat\nVmPeak:\t 9 kB\nVmHWM:\t    2204 kB\n"));
        assertEquals(OptionalLong.empty(), ProcStat.peakRssKiBOf("Name:\tkthreadd\n"));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = ';',
            value = {"0-1;{0, 1}", "0-3,8;{0, 1, 2, 3, 8}", "5;{5}", "3-1;none", "'';none", "0-99999999;none", "x;none"
            })
    void readsACpuList(String list, String cpus) {
        assertEquals(cpus, ProcStat.cpuList(list).map(BitSet::toString).orElse("none"));
    }

    @Test
    void readsTheCpusAllowedFromStatus() {
        assertEquals(Optional.of(cpus(2, 3)), ProcStat.allowedCpus("Cpus_allowed:\tc\nCpus_allowed_list:\t2-3\n"));
    }

    private void write(String file, String text) throws IOException {
        Path path = tmp.resolve(file);
        Files.createDirectories(path.getParent());
        Files.writeString(path, text);
    }

    private static String stat(long user, long system, long idle, long steal, int running) {
        return "cpu  " + user + " 0 " + system + " " + idle + " 0 0 0 " + steal + " 0 0\n"
                + "cpu0 " + user + " 0 " + system + " " + idle + " 0 0 0 " + steal + " 0 0\n"
                + "procs_running " + running + "\n";
    }

    private static String self(long utime, long cutime) {
        return "77 (java) S 1 77 77 0 -1 0 0 0 0 0 " + utime + " 0 " + cutime + " 0 20 0 30 0 1 1 1";
    }

    @Test
    void othersAreTheMachinesBusyTimeLessTheCommandsAndPerfabsOwn() throws IOException {
        write("self/status", "Cpus_allowed_list:\t0\n");
        write("stat", stat(1000, 500, 9000, 0, 1));
        write("self/stat", self(300, 40));
        ProcStat proc = new ProcStat(tmp);
        LoadMeter meter = LoadMeter.start(proc, 0);
        write("stat", stat(1000, 500, 9000, 0, 4));
        meter.sample(0);
        write("stat", stat(1000, 500, 9000, 0, 9));
        meter.sample(LoadMeter.QUEUE_NANOS / 2); // too soon: not a sample
        write("stat", stat(1000, 500, 9000, 0, 2));
        meter.sample(LoadMeter.QUEUE_NANOS);
        // Over 2 s: 150 busy ticks (1.5 core-seconds) and 10 stolen of 200 ticks in all.
        write("stat", stat(1120, 530, 9040, 10, 1));
        write("self/stat", self(305, 140));
        meter.end(2_000_000_000L);
        assertEquals(1.0, meter.reapedSeconds().orElseThrow(), 1e-9, "the children perfab waited for: 100 ticks");
        Load load = meter.load(1.98, 1.0, Load.CpuClock.TICKS).orElseThrow();
        assertEquals(1.98, load.wallSeconds());
        assertEquals(1.0, load.cpuSeconds());
        assertEquals((1.5 - 1.0 - 0.05) / 2, load.othersCores(), 1e-9, "busy, less the command's, less perfab's");
        assertEquals(10.0 / 200, load.stealShare(), 1e-9);
        assertEquals((3 + 1) / 2.0, load.runQueueMean(), 1e-9, "procs_running counts perfab's reader: one less");
        assertEquals(3, load.runQueueMax());
    }

    @Test
    void othersAreNeverNegative() throws IOException {
        write("stat", stat(1000, 0, 9000, 0, 1));
        LoadMeter meter = LoadMeter.start(new ProcStat(tmp), 0);
        meter.sample(0);
        write("stat", stat(1050, 0, 9050, 0, 1));
        meter.end(1_000_000_000L);
        assertEquals(
                0.0,
                meter.load(1, 0.6, Load.CpuClock.TICKS).orElseThrow().othersCores(),
                "ticks are hundredths: a command can seem to use more than the machine counted");
    }

    @Test
    void noLoadWithoutProc() {
        ProcStat proc = new ProcStat(tmp.resolve("nothing"));
        assertTrue(!proc.available());
        LoadMeter meter = LoadMeter.start(proc, 0);
        meter.sample(0);
        meter.end(1);
        assertEquals(Optional.empty(), meter.load(1, 1, Load.CpuClock.TICKS));
        assertTrue(meter.reapedSeconds().isEmpty());
    }
}
