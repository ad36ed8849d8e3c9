package org.perfab.exec;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.model.Load;

/** Real commands: what perfab measures of every command it runs, sampled for its own figures or not. */
class ProcessesTest {
    /** A shell loop that keeps one CPU busy for about a quarter of a second on an idle machine. */
    static final String SPIN = "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done";

    @TempDir
    Path tmp;

    private Processes.Outcome run(boolean sample, String script) throws InterruptedException {
        Processes.Command c = new Processes.Command(List.of("sh", "-c", script), tmp, Map.of(), Duration.ofMinutes(2),
                tmp.resolve("out"), tmp.resolve("err"), sample);
        return new Processes().run(c);
    }

    @Test
    void measuresTheLoadOfACommandNotSampledForItsOwnFigures() throws InterruptedException {
        assumeTrue(Files.isDirectory(Path.of("/proc/self")), "Linux only");
        Processes.Outcome o = run(false, SPIN);
        assertTrue(o.succeeded(), o.failure());
        assertTrue(o.cpuSeconds().isEmpty(), "its own cell figures stay for commands that ask for them");
        Load load = o.load().orElseThrow();
        assertTrue(load.cpuSeconds() > 0, load.toString());
        // One shell uses at most one CPU: its time can pass its wall time only by the ticks' rounding.
        assertTrue(load.cpuSeconds() <= load.wallSeconds() + 0.05, load.toString());
        assertTrue(load.wallSeconds() == o.wallSeconds(), load.toString());
    }

    @Test
    void countsTheCpuTimeOfTheCommandsChildrenAsItsOwn() throws InterruptedException {
        assumeTrue(Files.isDirectory(Path.of("/proc/self")), "Linux only");
        Processes.Outcome o = run(true, "sh -c '" + SPIN + "'; sh -c '" + SPIN + "'");
        assertTrue(o.succeeded(), o.failure());
        Load load = o.load().orElseThrow();
        double sampled = o.cpuSeconds().orElseThrow();
        assertTrue(sampled > 0, o.toString());
        assertTrue(load.cpuSeconds() >= sampled, "the kernel's account at the end includes the last slice: " + o);
    }
}
