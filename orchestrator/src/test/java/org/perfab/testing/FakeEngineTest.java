package org.perfab.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.exec.Processes;

/** The fake engine's clock: simulated, so that a test of a run's time needs no real time. */
class FakeEngineTest {
    @TempDir
    Path tmp;

    private final FakeEngine fake = new FakeEngine()
            .program("work", c -> FakeEngine.ok(Double.parseDouble(c.argv().get(1))));

    private Processes.Command work(double seconds) {
        return new Processes.Command(
                List.of("work", Double.toString(seconds)),
                tmp,
                Map.of(),
                Duration.ofMinutes(1),
                tmp.resolve("out"),
                tmp.resolve("err"),
                false);
    }

    @Test
    void aCommandTakesTheSecondsItsProgramSaysAndNothingElseDoes() throws Exception {
        double start = fake.seconds();
        fake.run(work(2.5));
        fake.run(work(1.5));
        assertEquals(4.0, fake.seconds() - start, 1e-12);
        assertEquals(4.0, fake.seconds() - start, 1e-12, "reading the clock takes no time");
    }

    @Test
    void commandsOnThreadsARunMadeOverlapAndItsTimeCatchesUpOnceTheyEnded() throws Exception {
        double start = fake.seconds();
        fake.run(work(1));
        CountDownLatch ran = new CountDownLatch(1);
        CountDownLatch end = new CountDownLatch(1);
        Thread other = new Thread(() -> {
            try {
                fake.run(work(3));
                fake.run(work(3));
                ran.countDown();
                end.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        other.start();
        fake.run(work(2));
        ran.await();
        assertEquals(3.0, fake.seconds() - start, 1e-12, "the other thread has not ended");
        end.countDown();
        other.join();
        assertEquals(7.0, fake.seconds() - start, 1e-12, "1 s, then 6 s beside 2 s");
    }

    @Test
    void itRunsTheProgramsItHasByName() {
        assertTrue(fake.has("work"));
        assertFalse(fake.has("valgrind"));
    }
}
