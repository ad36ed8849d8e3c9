package org.perfab.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.perfab.report.testing.Tool;
import org.perfab.testing.ProcessTable;
import org.perfab.testing.StartsProcesses;

/** Finding perfab's cgroup from fixtures of {@code /proc}, and emptying a real cgroup where the machine gives one. */
class CgroupTest {
    /** A host with cgroup v1 and v2 side by side (systemd's hybrid mode). */
    static final String HYBRID = """
            31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
            32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime shared:9 - cgroup cgroup rw,cpu
            41 31 0:38 / /sys/fs/cgroup/unified rw,relatime shared:5 - cgroup2 cgroup2 rw
            """;
    /** A host with cgroup v2 alone. */
    static final String UNIFIED = """
            24 30 0:22 / /proc rw,nosuid,nodev,noexec,relatime shared:13 - proc proc rw
            35 24 0:30 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate
            """;
    /** A container that sees the cgroup tree from its own cgroup down. */
    static final String CONTAINER = """
            812 790 0:30 /docker/abc /sys/fs/cgroup ro,nosuid,nodev,noexec,relatime - cgroup2 cgroup rw
            """;
    /** A host with cgroup v1 alone. */
    static final String LEGACY = """
            32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime shared:9 - cgroup cgroup rw,cpu
            """;

    @ParameterizedTest
    @CsvSource(
            delimiter = ';',
            value = {
                "HYBRID;0::/;/sys/fs/cgroup/unified",
                "HYBRID;1:cpu:/x\\n0::/ci/job;/sys/fs/cgroup/unified/ci/job",
                "UNIFIED;0::/user.slice/user-1000.slice/session-2.scope;/sys/fs/cgroup/user.slice/user-1000.slice/session-2.scope",
                "CONTAINER;0::/docker/abc;/sys/fs/cgroup",
                "CONTAINER;0::/docker/abc/job;/sys/fs/cgroup/job",
                "CONTAINER;0::/docker/abcd;none",
                "CONTAINER;0::/elsewhere;none",
                "UNIFIED;0::/../../outside;none",
                "UNIFIED;0::/gone (deleted);none",
                "UNIFIED;1:cpu:/x;none",
                "LEGACY;0::/;none",
            })
    void findsTheCgroupOfAProcessUnderTheCgroup2Mount(String mounts, String cgroup, String dir) throws Exception {
        String mountinfo = (String) CgroupTest.class.getDeclaredField(mounts).get(null);
        assertEquals(
                dir,
                Cgroup.dir(mountinfo, cgroup.replace("\\n", "\n") + "\n")
                        .map(Path::toString)
                        .orElse("none"));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = ';',
            value = {
                "usage_usec 24195\\nuser_usec 20000\\nsystem_usec 4195\\n;24195",
                "nr_periods 0\\nusage_usec 0\\n;0",
                "user_usec 1\\n;none",
                "usage_usec -3\\n;none",
                "usage_usec 1e6\\n;none",
                "usage_usec 99999999999999999999\\n;none",
            })
    void readsTheCpuTimeOfACgroupFromItsCpuStat(String cpuStat, String micros) {
        OptionalLong usage = Cgroup.usageMicrosOf(cpuStat.replace("\\n", "\n"));
        assertEquals(micros, usage.isPresent() ? Long.toString(usage.getAsLong()) : "none");
    }

    @Test
    void readsAMountPointWithEscapedSpaces() {
        String mountinfo = "41 31 0:38 / /mnt/cg\\040two\\134x rw - cgroup2 cgroup2 rw\n";
        assertEquals(Optional.of(Path.of("/mnt/cg two\\x/job")), Cgroup.dir(mountinfo, "0::/job\n"));
    }

    @Test
    @StartsProcesses
    void emptiesACgroupByFreezingItWhereTheKernelCannotKillItInOneGo() throws Exception {
        Optional<Cgroup.Home> home = Cgroup.Home.probe(Path.of("/proc"));
        Tool.CGROUPS.need(home.isPresent());
        Cgroup cgroup = home.get().make().orElseThrow();
        try {
            Process p = new ProcessBuilder(
                            "/bin/sh",
                            "-c",
                            "echo $$ > \"$1/cgroup.procs\"; sleep 51 & sleep 52 & wait",
                            "sh",
                            cgroup.dir().toString())
                    .start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (cgroup.members().size() < 3) {
                assertTrue(System.nanoTime() < deadline, "the shell joined the cgroup and started its sleeps");
                Thread.sleep(10);
            }
            List<Long> found = new ArrayList<>();
            assertTrue(cgroup.empty(found::addAll, System.nanoTime() + TimeUnit.SECONDS.toNanos(5), false));
            assertTrue(found.size() >= 3, found.toString());
            for (long pid : found) {
                assertTrue(ProcessTable.ended(pid), pid + " is gone");
            }
            assertTrue(cgroup.ran());
            p.waitFor(30, TimeUnit.SECONDS);
        } finally {
            assertTrue(cgroup.remove(System.nanoTime() + TimeUnit.SECONDS.toNanos(5)));
        }
        assertFalse(Files.exists(cgroup.dir()));
    }
}
