package org.perfab.exec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * A cgroup (v2) that perfab made for one command, so that it can find and kill every process the
 * command started however it left: a child that started a session of its own, cleared its
 * environment or left the process tree is still in the cgroup the kernel put it in as it was
 * forked. Only a process that moves itself into another cgroup leaves, and that takes write access
 * to the cgroups above (as root has): no harness does it by accident. Nothing here throws: a cgroup
 * that cannot be read or written tells nothing, and the caller falls back to what else it has.
 */
final class Cgroup {
    /** How long a pause between two looks at a cgroup that is still emptying, in milliseconds. */
    private static final long NAP_MILLIS = 5;

    private final Path dir;

    private Cgroup(Path dir) {
        this.dir = dir;
    }

    /** Where perfab may make cgroups for its commands: a cgroup v2 directory it can write. */
    static final class Home {
        private final Path dir;

        private Home(Path dir) {
            this.dir = dir;
        }

        /**
         * Returns perfab's own cgroup when cgroup v2 is mounted and perfab may make cgroups in it
         * (it makes one and removes it to tell); empty otherwise: not Linux, cgroup v1 only, a
         * read-only mount, a user without the rights. {@code proc} is {@code /proc}.
         */
        static Optional<Home> probe(Path proc) {
            try {
                String mountinfo = Files.readString(proc.resolve("self").resolve("mountinfo"));
                String cgroup = Files.readString(proc.resolve("self").resolve("cgroup"));
                return dir(mountinfo, cgroup).flatMap(Home::at);
            } catch (IOException | RuntimeException e) {
                return Optional.empty();
            }
        }

        /** Returns {@code dir} as a home when perfab may make cgroups in it; empty otherwise. */
        static Optional<Home> at(Path dir) {
            if (!Files.isRegularFile(dir.resolve("cgroup.procs"))) {
                return Optional.empty();
            }
            Home home = new Home(dir);
            return home.make().filter(Cgroup::remove).map(made -> home);
        }

        /** Returns a new, empty cgroup named {@code perfab-UUID} in this one; empty when it cannot be made. */
        Optional<Cgroup> make() {
            Path made = dir.resolve("perfab-" + UUID.randomUUID());
            try {
                Files.createDirectory(made);
            } catch (IOException | RuntimeException e) {
                return Optional.empty();
            }
            if (!Files.isRegularFile(made.resolve("cgroup.procs"))) {
                remove(made); // a plain folder, not a cgroup
                return Optional.empty();
            }
            return Optional.of(new Cgroup(made));
        }
    }

    /** Returns the directory of this cgroup. */
    Path dir() {
        return dir;
    }

    /**
     * Returns the directory of the cgroup v2 a process is in, from {@code mountinfo} and
     * {@code cgroup}, the texts of its {@code /proc/PID/mountinfo} and {@code /proc/PID/cgroup};
     * empty when no cgroup v2 is mounted or its cgroup is not under a mount of it (a container that
     * sees only part of the tree).
     */
    static Optional<Path> dir(String mountinfo, String cgroup) {
        String own = null;
        for (String line : cgroup.split("\n")) {
            if (line.startsWith("0::/")) {
                own = line.substring(3);
            }
        }
        if (own == null || own.endsWith(" (deleted)")) {
            return Optional.empty();
        }
        for (String line : mountinfo.split("\n")) {
            // ID PARENT MAJOR:MINOR ROOT MOUNT-POINT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPER-OPTIONS
            int dash = line.indexOf(" - ");
            if (dash < 0) {
                continue;
            }
            String[] after = line.substring(dash + 3).split(" ");
            String[] before = line.substring(0, dash).split(" ");
            if (!after[0].equals("cgroup2") || before.length < 5) {
                continue;
            }
            String root = unescape(before[3]);
            String point = unescape(before[4]);
            String rest;
            if (root.equals("/")) {
                rest = own;
            } else if (own.equals(root) || own.startsWith(root + "/")) {
                rest = own.substring(root.length());
            } else {
                continue;
            }
            Path mount = Path.of(point);
            Path found = rest.isEmpty() || rest.equals("/") ? mount : mount.resolve(rest.substring(1));
            if (found.normalize().startsWith(mount)) {
                return Optional.of(found.normalize());
            }
        }
        return Optional.empty();
    }

    /** Returns a field of {@code mountinfo} with its octal escapes ({@code \040} for a space) undone. */
    private static String unescape(String field) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < field.length(); i++) {
            char c = field.charAt(i);
            if (c == '\\' && isOctal(field, i + 1) && isOctal(field, i + 2) && isOctal(field, i + 3)) {
                s.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                s.append(c);
            }
        }
        return s.toString();
    }

    private static boolean isOctal(String s, int i) {
        return i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '7';
    }

    /**
     * Returns the processes in this cgroup and in any cgroup below it (a command may make some),
     * by pid; empty when there are none or the cgroup is gone.
     */
    List<Long> members() {
        List<Long> pids = new ArrayList<>();
        for (Path d : tree(false)) {
            try {
                for (String line : Files.readAllLines(d.resolve("cgroup.procs"), StandardCharsets.US_ASCII)) {
                    if (!line.isBlank()) {
                        pids.add(Long.parseLong(line.strip()));
                    }
                }
            } catch (IOException | RuntimeException e) {
                // gone, or not a cgroup: nothing in it
            }
        }
        return pids;
    }

    /**
     * Moves the running process {@code pid} into this cgroup; returns whether the kernel took it.
     * What it forked before is not moved.
     */
    boolean admit(long pid) {
        return write(dir.resolve("cgroup.procs"), Long.toString(pid));
    }

    /**
     * Returns whether any process ran in this cgroup, by the CPU time the kernel charged to it: a
     * command that joined it and ended has left that trace, one that could not join has not.
     */
    boolean ran() {
        return usageMicros().orElse(0) > 0;
    }

    /**
     * Returns the CPU time, user plus system, of every process that has been in this cgroup or in
     * one below it since it joined, in microseconds: {@code usage_usec} of {@code cpu.stat}, the
     * kernel's own account, which keeps the time of processes that have ended (cgroup v2 keeps it
     * whether or not the cpu controller is on). Empty when it cannot be read: an old kernel without
     * the file, or the cgroup is gone.
     */
    OptionalLong usageMicros() {
        try {
            return usageMicrosOf(Files.readString(dir.resolve("cpu.stat"), StandardCharsets.US_ASCII));
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
    }

    /**
     * Returns the {@code usage_usec} of {@code cpuStat}, the text of a cgroup's {@code cpu.stat};
     * empty when it has none, or not a whole number.
     */
    static OptionalLong usageMicrosOf(String cpuStat) {
        for (String line : cpuStat.split("\n")) {
            if (line.startsWith("usage_usec ")) {
                String n = line.substring("usage_usec ".length()).strip();
                if (n.isEmpty() || n.length() > 18 || !n.chars().allMatch(c -> c >= '0' && c <= '9')) {
                    return OptionalLong.empty();
                }
                return OptionalLong.of(Long.parseLong(n));
            }
        }
        return OptionalLong.empty();
    }

    /** Where perfab itself stands against this cgroup: a command it ran may move it in. */
    enum Self {
        /** perfab is not in this cgroup, nor below it. */
        OUTSIDE,
        /** A command moved perfab in, and perfab moved itself back to the cgroup above. */
        MOVED_BACK,
        /** A command moved perfab in, and the cgroup above refused to take it back. */
        STUCK
    }

    /**
     * Moves perfab's own process out of this cgroup (or one below it), where a command it ran may
     * have put it (by writing perfab's pid to {@code cgroup.procs}), back into the cgroup above
     * this one, where perfab made it: emptying this cgroup would otherwise kill perfab.
     */
    Self rescueSelf() {
        long self = ProcessHandle.current().pid();
        if (!members().contains(self)) {
            return Self.OUTSIDE;
        }
        Path above = dir.getParent();
        return above != null
                        && write(above.resolve("cgroup.procs"), Long.toString(self))
                        && !members().contains(self)
                ? Self.MOVED_BACK
                : Self.STUCK;
    }

    /**
     * Kills every process in this cgroup and in the cgroups below it, until none is left or
     * {@code deadline} (a {@link System#nanoTime} value) has passed. Each round, the processes
     * found go to {@code found} before they are killed, so that they can be named (a process may
     * be found in several rounds). The kernel's {@code cgroup.kill} kills them and whatever they
     * fork meanwhile in one go; a kernel before 5.14 lacks it, and the cgroup is frozen so that
     * nothing forks while each is killed. perfab's own process is never killed: when it is among
     * them (see {@link #rescueSelf}), the others are killed one by one. Returns whether it was
     * emptied.
     */
    boolean empty(Consumer<List<Long>> found, long deadline) {
        return empty(found, deadline, Files.exists(dir.resolve("cgroup.kill")));
    }

    /** Empties this cgroup as {@link #empty(Consumer, long)} does, with {@code cgroup.kill} only when {@code cut}. */
    boolean empty(Consumer<List<Long>> found, long deadline, boolean cut) {
        boolean froze = false;
        boolean interrupted = Thread.interrupted();
        long self = ProcessHandle.current().pid();
        try {
            while (true) {
                List<Long> all = members();
                List<Long> pids = all.stream().filter(pid -> pid != self).toList();
                if (pids.isEmpty()) {
                    return all.isEmpty();
                }
                found.accept(pids);
                if (!cut || all.size() != pids.size() || !write(dir.resolve("cgroup.kill"), "1")) {
                    froze = froze || all.size() == pids.size() && write(dir.resolve("cgroup.freeze"), "1");
                    for (long pid : pids) {
                        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
                    }
                }
                if (System.nanoTime() - deadline > 0) {
                    return false;
                }
                interrupted |= nap();
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Removes this cgroup and the cgroups below it, trying again until {@code deadline} while the
     * kernel finishes with the processes that were in them, and returns whether it is gone.
     */
    boolean remove(long deadline) {
        boolean interrupted = Thread.interrupted();
        try {
            while (!remove()) {
                if (System.nanoTime() - deadline > 0) {
                    return false;
                }
                interrupted |= nap();
            }
            return true;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Removes this cgroup and those below it once, and returns whether it is gone. */
    private boolean remove() {
        for (Path d : tree(true)) {
            remove(d);
        }
        return !Files.exists(dir);
    }

    private static boolean remove(Path dir) {
        try {
            Files.deleteIfExists(dir); // rmdir: the files in a cgroup are the kernel's, and go with it
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Returns this cgroup and the cgroups below it, the deepest first when {@code deepestFirst}. */
    private List<Path> tree(boolean deepestFirst) {
        try (Stream<Path> all = Files.walk(dir)) {
            Stream<Path> dirs = all.filter(Files::isDirectory);
            return deepestFirst
                    ? dirs.sorted(Comparator.comparingInt(Path::getNameCount).reversed())
                            .toList()
                    : dirs.toList();
        } catch (IOException | RuntimeException e) {
            return Files.isDirectory(dir) ? List.of(dir) : List.of();
        }
    }

    private static boolean write(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.US_ASCII);
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * Pauses a little, and returns whether the thread was interrupted meanwhile; the interrupt is
     * cleared, to be restored once done, as a cgroup left behind would outlive perfab.
     */
    private static boolean nap() {
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(NAP_MILLIS));
        return Thread.interrupted();
    }
}
