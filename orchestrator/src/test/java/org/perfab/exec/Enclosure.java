package org.perfab.exec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A cgroup that a test runs a perfab in, where the machine gives one: perfab makes the cgroups of
 * its commands inside its own, so that what a perfab killed with SIGKILL leaves (its commands, their
 * cgroups) can be cleared when the test ends. Elsewhere it holds nothing and clears nothing.
 */
public final class Enclosure implements AutoCloseable {
    private final Optional<Cgroup> cgroup;

    private Enclosure(Optional<Cgroup> cgroup) {
        this.cgroup = cgroup;
    }

    /** Returns a new enclosure, empty where the machine gives no cgroup. */
    public static Enclosure make() {
        return new Enclosure(Cgroup.Home.probe(Path.of("/proc")).flatMap(Cgroup.Home::make));
    }

    /** Returns {@code argv} made to run inside this enclosure (as it is where there is none). */
    public List<String> around(List<String> argv) {
        if (cgroup.isEmpty()) {
            return argv;
        }
        List<String> inside = new ArrayList<>(List.of(
                Processes.SH, "-c", ProcessTrees.JOIN, "sh", cgroup.get().dir().toString()));
        inside.addAll(argv);
        return inside;
    }

    /** Returns the cgroups made inside this enclosure and not removed; empty where there is none. */
    public List<Path> cgroupsInside() {
        if (cgroup.isEmpty()) {
            return List.of();
        }
        try (Stream<Path> inside = Files.list(cgroup.get().dir())) {
            return inside.filter(Files::isDirectory).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Kills whatever is left inside, and removes the enclosure with the cgroups made in it. */
    @Override
    public void close() {
        cgroup.ifPresent(g -> {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            g.empty(pids -> {}, deadline);
            if (!g.remove(deadline)) {
                throw new IllegalStateException("could not remove " + g.dir());
            }
        });
    }
}
