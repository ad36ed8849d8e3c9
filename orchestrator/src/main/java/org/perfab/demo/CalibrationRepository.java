package org.perfab.demo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;

/**
 * Writes the git repository of perfab's calibration on real processes: on {@code main}, a subject
 * whose routine {@code target} costs {@link #STEPS} steps, with its build, harness and workload;
 * and for each effect a branch {@code effect-N} from main whose one commit raises those steps by
 * N percent, a real change of the code that makes {@code target} about N% slower. Its three
 * {@code steady/...} cells never change. Made with JGit, like the demo.
 */
public final class CalibrationRepository {
    /** The steps of {@code target} on {@code main}. */
    public static final int STEPS = 20000;

    private static final String ROOT = "/org/perfab/workloads/calibrate/";
    /** The files of the subject: each its path, and the resource folder it comes from. */
    private static final Map<String, String> FILES = files();

    private CalibrationRepository() {}

    /** Returns the branch whose commit slows {@code target} by {@code percent}. */
    public static String branch(int percent) {
        return "effect-" + percent;
    }

    /**
     * Creates the repository in {@code dir} (empty or missing), with a branch for each of
     * {@code effects}, in percent.
     */
    public static void create(Path dir, List<Integer> effects) throws IOException {
        Files.createDirectories(dir);
        try (Git git =
                Git.init().setDirectory(dir.toFile()).setInitialBranch("main").call()) {
            git.getRepository().getConfig().setBoolean("commit", null, "gpgsign", false);
            for (Map.Entry<String, String> f : FILES.entrySet()) {
                write(dir, f.getKey(), DemoRepository.resource(f.getValue(), f.getKey()));
            }
            write(dir, "src/calib/Subject.java", subject(STEPS));
            DemoRepository.commit(git, "The calibration subject", 0);
            int minute = 1;
            for (int effect : effects) {
                git.checkout().setName("main").call();
                git.branchCreate().setName(branch(effect)).call();
                git.checkout().setName(branch(effect)).call();
                write(dir, "src/calib/Subject.java", subject(STEPS * (100 + effect) / 100));
                DemoRepository.commit(
                        git, String.format(Locale.ROOT, "target takes %d%% more steps", effect), minute++);
            }
            git.checkout().setName("main").call();
        } catch (GitAPIException e) {
            throw new IOException("could not write the calibration repository in " + dir + ": " + e.getMessage(), e);
        }
    }

    private static Map<String, String> files() {
        Map<String, String> files = new LinkedHashMap<>();
        for (String f : List.of("perfab.yaml", "bench/run.sh", "bench/Cells.java", "src/calib/Subject.java")) {
            files.put(f, ROOT);
        }
        files.put("tools/Build.java", DemoRepository.SHARED);
        files.put("bench/Harness.java", DemoRepository.SHARED);
        return files;
    }

    private static String subject(int steps) {
        return DemoRepository.resource(ROOT, "src/calib/Subject.java").replace("@TARGET@", Integer.toString(steps));
    }

    private static void write(Path dir, String path, String text) throws IOException {
        Path target = dir.resolve(path);
        Files.createDirectories(target.getParent());
        Files.writeString(target, text, StandardCharsets.UTF_8);
    }
}
