package org.perfab.ab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.perfab.failure.BadInputException;
import org.perfab.git.GitRepo;
import org.perfab.model.RunResults.HarnessFile;
import org.perfab.workload.Workload;
import org.perfab.workload.WorkloadLoader;

class HarnessFilesTest {
    private static SortedMap<String, GitRepo.Entry> tree(String... pathsAndIds) {
        SortedMap<String, GitRepo.Entry> t = new TreeMap<>();
        for (int i = 0; i < pathsAndIds.length; i += 2) {
            String path = pathsAndIds[i];
            GitRepo.Kind kind = path.startsWith("vendor/") ? GitRepo.Kind.SUBMODULE : GitRepo.Kind.FILE;
            t.put(path, new GitRepo.Entry(path, pathsAndIds[i + 1], kind));
        }
        return t;
    }

    private static Workload.Harness harness(String yaml) {
        return WorkloadLoader.parse("name: x\nharness:\n" + yaml, "w.yaml").harness();
    }

    @Test
    void byDefaultTakesTheWorkloadAndEveryArgumentThatNamesAFile() {
        SortedMap<String, GitRepo.Entry> head =
                tree("perfab.yaml", "1", "bench/run.sh", "2", "conf.toml", "3", "src/lib.go", "4");
        SortedMap<String, GitRepo.Entry> base = tree("perfab.yaml", "1", "bench/run.sh", "old", "src/lib.go", "5");
        HarnessFiles h = HarnessFiles.of(
                harness("  run: [sh, ./bench/run.sh, --config=conf.toml, src, -v]\n"), "perfab.yaml", head, base);
        assertEquals(
                List.of(
                        new HarnessFile("bench/run.sh", HarnessFile.State.CHANGED),
                        new HarnessFile("conf.toml", HarnessFile.State.ADDED),
                        new HarnessFile("perfab.yaml", HarnessFile.State.SAME)),
                h.files());
        assertEquals(
                List.of("bench/run.sh", "conf.toml"),
                h.copies().stream().map(GitRepo.Entry::path).toList(),
                "only what differs is copied");
        assertFalse(h.erasesTheChange(), "src/lib.go differs and is the code's");
    }

    @Test
    void listedFilesMayBeFoldersAndGlobs() {
        SortedMap<String, GitRepo.Entry> head = tree(
                "perfab.yaml",
                "1",
                "a_test.go",
                "2",
                "pkg/b_test.go",
                "3",
                "pkg/b.go",
                "4",
                "data/x.csv",
                "5",
                "data/sub/y.csv",
                "6");
        HarnessFiles h = HarnessFiles.of(
                harness("  run: [go, test, .]\n  files: ['**/*_test.go', data]\n"), "perfab.yaml", head, head);
        assertEquals(
                List.of("a_test.go", "data/sub/y.csv", "data/x.csv", "perfab.yaml", "pkg/b_test.go"),
                h.files().stream().map(HarnessFile::path).toList());
        assertTrue(h.copies().isEmpty(), "nothing differs");
    }

    @Test
    void saysWhenTheHarnessIsAllThatChanged() {
        SortedMap<String, GitRepo.Entry> head = tree("perfab.yaml", "1", "bench.sh", "2", "src.c", "3");
        SortedMap<String, GitRepo.Entry> base = tree("perfab.yaml", "1", "bench.sh", "9", "src.c", "3");
        assertTrue(HarnessFiles.of(harness("  run: [sh, bench.sh]\n"), "perfab.yaml", head, base)
                .erasesTheChange());
        SortedMap<String, GitRepo.Entry> deleted =
                tree("perfab.yaml", "1", "bench.sh", "9", "src.c", "3", "gone.c", "4");
        assertFalse(
                HarnessFiles.of(harness("  run: [sh, bench.sh]\n"), "perfab.yaml", head, deleted)
                        .erasesTheChange(),
                "a file the head deleted stays in the base's tree");
        assertFalse(
                HarnessFiles.of(harness("  run: [sh, bench.sh]\n"), "perfab.yaml", head, head)
                        .erasesTheChange(),
                "an A/A run has no change to erase");
    }

    @Test
    void selfCopiesNothing() {
        SortedMap<String, GitRepo.Entry> head = tree("perfab.yaml", "1", "bench.sh", "2");
        assertEquals(
                HarnessFiles.NONE,
                HarnessFiles.of(harness("  from: self\n  run: [sh, bench.sh]\n"), "perfab.yaml", head, tree()));
    }

    @Test
    void refusesAListedPathThatNamesNothingOrASubmodule() {
        SortedMap<String, GitRepo.Entry> head = tree("perfab.yaml", "1", "vendor/lib", "2");
        BadInputException none = assertThrows(
                BadInputException.class,
                () -> HarnessFiles.of(harness("  run: [b]\n  files: ['*.sh']\n"), "perfab.yaml", head, head));
        assertEquals("harness files: '*.sh' names no file in the head's tree", none.getMessage());
        BadInputException sub = assertThrows(
                BadInputException.class,
                () -> HarnessFiles.of(harness("  run: [b]\n  files: [vendor/lib]\n"), "perfab.yaml", head, head));
        assertTrue(sub.getMessage().contains("is a submodule"), sub.getMessage());
    }
}
