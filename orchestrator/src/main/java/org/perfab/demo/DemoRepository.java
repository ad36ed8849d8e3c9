package org.perfab.demo;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TimeZone;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.lib.PersonIdent;

/**
 * Writes the demo's git repository: on {@code main}, the subject with its build, harness and
 * workload; on {@code feature}, branched from there, a change that makes {@code bytes/checksum} about
 * 8% slower and {@code matrix/multiply} faster; then one more commit on {@code main}, so that the
 * merge-base is not main's tip. Made with JGit: it needs no {@code git} program and reads no git
 * configuration.
 */
public final class DemoRepository {
    private static final String ROOT = "/org/perfab/workloads/demo/";
    /** The folder of what the demo's subject and the calibration's share: their build and harness. */
    static final String SHARED = "/org/perfab/workloads/shared/";

    private static final PersonIdent AUTHOR = new PersonIdent(
            "perfab demo", "demo@perfab.invalid", Instant.parse("2026-01-05T10:00:00Z"), ZoneOffset.UTC);

    private DemoRepository() {}

    /** One file of the demo: the step (commit) it belongs to, its resource folder and its path. */
    private record Entry(int step, String folder, String path) {}

    /**
     * Creates the repository in {@code dir} (which must be empty or missing). Its workload runs
     * {@code java} from {@code PATH}; {@code cpus}, when present, pins the trials to those CPUs.
     */
    public static void create(Path dir, Optional<String> cpus) throws IOException {
        List<Entry> entries = manifest();
        Files.createDirectories(dir);
        try (Git git =
                Git.init().setDirectory(dir.toFile()).setInitialBranch("main").call()) {
            git.getRepository().getConfig().setBoolean("commit", null, "gpgsign", false);
            write(dir, entries, 1, cpus);
            commit(git, "Add the subject, its build, harness and workload", 0);
            git.branchCreate().setName("feature").call();
            git.checkout().setName("feature").call();
            write(dir, entries, 2, cpus);
            commit(git, "Check the checksum header twice; multiply matrices in i-k-j order", 1);
            git.checkout().setName("main").call();
            write(dir, entries, 3, cpus);
            commit(git, "Add notes", 2);
        } catch (GitAPIException e) {
            throw new IOException("could not write the demo repository in " + dir + ": " + e.getMessage(), e);
        }
    }

    private static void write(Path dir, List<Entry> entries, int step, Optional<String> cpus) throws IOException {
        for (Entry e : entries) {
            if (e.step() != step) {
                continue;
            }
            String text = resource(e.folder() + "/" + e.path());
            if (e.path().equals("perfab.yaml")) {
                text = text.replace(
                        "  # CPUS\n",
                        cpus.map(c -> "  cpus: \"" + c + "\"   # one CPU for every trial: see README.md\n")
                                .orElse(""));
            }
            Path target = dir.resolve(e.path());
            Files.createDirectories(target.getParent());
            Files.writeString(target, text, StandardCharsets.UTF_8);
        }
    }

    /** Commits everything in the work tree of {@code git}, {@code minutes} after the demo's epoch. */
    static void commit(Git git, String message, int minutes) throws GitAPIException {
        git.add().addFilepattern(".").call();
        PersonIdent when = new PersonIdent(
                AUTHOR,
                Instant.parse("2026-01-05T10:00:00Z").plusSeconds(60L * minutes),
                TimeZone.getTimeZone("UTC").toZoneId());
        git.commit()
                .setMessage(message)
                .setAuthor(when)
                .setCommitter(when)
                .setSign(false)
                .call();
    }

    private static List<Entry> manifest() {
        List<Entry> entries = new ArrayList<>();
        for (String line : resource("files.txt").split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.trim().split(" ");
            entries.add(new Entry(Integer.parseInt(f[0]), f[1], f[2]));
        }
        return entries;
    }

    private static String resource(String name) {
        return resource(ROOT, name);
    }

    /**
     * Returns the text of the resource {@code name} in the folder {@code root} of the jar; a name
     * may climb out of it with {@code ..}.
     */
    static String resource(String root, String name) {
        try (InputStream in = DemoRepository.class.getResourceAsStream(
                URI.create(root + name).normalize().getPath())) {
            if (in == null) {
                throw new IllegalStateException("the demo file " + name + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
