package org.perfab.ab;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;
import org.perfab.failure.BadInputException;
import org.perfab.model.Side;

/**
 * The folder a run writes into ({@code --out}), and the one place its layout is spelt out.
 *
 * <p>A run holds an exclusive lock on the folder for as long as it runs, so two runs can never
 * append to one {@code trials.jsonl} (which would count every trial twice). perfab writes only
 * into a folder that is new, empty or its own, and deletes only what its manifest says it made:
 * a {@code --out} pointed at a folder of the user's loses nothing.
 */
final class RunDir implements AutoCloseable {
    static final String LOCK = OutLock.FILE;
    static final String MANIFEST = ".perfab-manifest";
    static final String GITIGNORE = ".gitignore";
    /** Every name perfab writes at the top of the folder. */
    private static final Set<String> OWN = Set.of(
            "run.json",
            "trials.jsonl",
            "results.json",
            "results.json.partial",
            "comment.md",
            "report.html",
            "noise.json",
            "logs",
            "work",
            LOCK,
            MANIFEST);

    private final Path root;
    private final OutLock lock;
    private final Set<String> made;

    private RunDir(Path root, OutLock lock, Set<String> made) {
        this.root = root;
        this.lock = lock;
        this.made = made;
    }

    /**
     * Opens {@code out} for a new run, making it when missing, and locks it.
     *
     * @param force write beside files that perfab did not make (never over them)
     * @throws BadInputException when {@code out} is a file, cannot be made, holds a run already,
     *     holds other files (without {@code force}), or is locked by another run
     */
    static RunDir create(Path out, boolean force) {
        Path root = out.toAbsolutePath().normalize();
        if (Files.exists(root) && !Files.isDirectory(root)) {
            throw new BadInputException("--out " + root + " is a file, not a folder");
        }
        makeFolder(root);
        // Checked before the lock, so that a refused folder is left as it was, and again once
        // locked, when no other run can be writing it.
        Set<String> manifest = readManifest(root);
        Set<String> own = new LinkedHashSet<>(manifest);
        own.add(LOCK);
        own.add(MANIFEST);
        checkNew(root, own, force);
        RunDir dir = locked(root, manifest);
        try {
            checkNew(root, dir.made, force);
            return dir;
        } catch (RuntimeException e) {
            dir.close();
            throw e;
        }
    }

    private static void checkNew(Path root, Set<String> made, boolean force) {
        if (Files.exists(root.resolve("run.json")) || Files.exists(root.resolve("trials.jsonl"))) {
            throw new BadInputException(root + " already holds a run: continue it with --resume, or"
                    + " choose another --out (or remove the folder)");
        }
        List<String> foreign = new ArrayList<>();
        try (Stream<Path> entries = Files.list(root)) {
            entries.map(p -> p.getFileName().toString())
                    .sorted()
                    .filter(name -> !made.contains(name))
                    .forEach(foreign::add);
        } catch (IOException e) {
            throw new BadInputException("cannot read --out " + root + ": " + BadInputException.reason(e), e);
        }
        if (!foreign.isEmpty() && !force) {
            throw new BadInputException("--out " + root + " holds files perfab did not write ("
                    + String.join(", ", foreign.subList(0, Math.min(5, foreign.size())))
                    + (foreign.size() > 5 ? " and " + (foreign.size() - 5) + " more" : "")
                    + "): choose a new or empty folder, or give --force to write beside them"
                    + " (perfab never deletes what it did not make)");
        }
        for (String name : foreign) {
            if (OWN.contains(name)) {
                throw new BadInputException("--out " + root + " holds a '" + name + "' that perfab did not write;"
                        + " perfab would have to replace it: move it, or choose another --out");
            }
        }
    }

    /**
     * Opens {@code out}, which holds a run to continue, and locks it.
     *
     * @throws BadInputException when it holds no run or another run has it locked
     */
    static RunDir resume(Path out) {
        Path root = out.toAbsolutePath().normalize();
        if (!Files.isRegularFile(root.resolve("run.json"))) {
            throw new BadInputException(root + " holds no run to resume (no run.json)");
        }
        return locked(root, readManifest(root));
    }

    private static RunDir locked(Path root, Set<String> manifest) {
        RunDir dir = new RunDir(root, OutLock.take(root, "--out"), new LinkedHashSet<>(manifest));
        dir.claim(LOCK);
        dir.claim(MANIFEST);
        dir.ignoredByGit();
        return dir;
    }

    private static void makeFolder(Path root) {
        try {
            Files.createDirectories(root);
        } catch (IOException e) {
            throw new BadInputException("cannot make --out " + root + ": " + BadInputException.reason(e), e);
        }
    }

    private static Set<String> readManifest(Path root) {
        Path file = root.resolve(MANIFEST);
        Set<String> names = new LinkedHashSet<>();
        if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            try {
                for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                    if (!line.isBlank()) {
                        names.add(line.strip());
                    }
                }
            } catch (IOException e) {
                throw new BadInputException("cannot read " + file + ": " + BadInputException.reason(e), e);
            }
        }
        return names;
    }

    /**
     * Writes a {@code .gitignore} of {@code *} into the folder, when it has none, so that git and
     * a later run's {@code --head WORKTREE} take nothing of a run folder left in a working tree.
     */
    private void ignoredByGit() {
        Path file = root.resolve(GITIGNORE);
        if (Files.exists(file, LinkOption.NOFOLLOW_LINKS) && !made.contains(GITIGNORE)) {
            return; // the user's own
        }
        claim(GITIGNORE);
        try {
            Files.writeString(file, "# a perfab run's folder: nothing in it is code\n*\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new BadInputException("cannot write into --out " + root + ": " + BadInputException.reason(e), e);
        }
    }

    /**
     * Records that perfab makes {@code relative} (a path below the folder), before it does: only
     * what the manifest lists is ever deleted.
     */
    void claim(String relative) {
        if (made.add(relative)) {
            try {
                Files.writeString(
                        root.resolve(MANIFEST),
                        relative + "\n",
                        StandardCharsets.UTF_8,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND,
                        StandardOpenOption.WRITE);
            } catch (IOException e) {
                throw new BadInputException("cannot write into --out " + root + ": " + BadInputException.reason(e), e);
            }
        }
    }

    /**
     * Deletes {@code relative} (a path below the folder) and everything below it, when it exists
     * and perfab made it.
     *
     * @throws BadInputException when it exists and perfab's manifest does not list it
     */
    void delete(String relative) throws IOException {
        Path p = root.resolve(relative);
        if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        if (!made.contains(relative)) {
            throw new BadInputException(p + " exists and perfab did not make it; move it, or choose another --out");
        }
        Trees.delete(p);
    }

    Path root() {
        return root;
    }

    /** The run's plan, written before its first trial. */
    Path plan() {
        return own("run.json");
    }

    /** One line per trial, appended as each ends. */
    Path trials() {
        return own("trials.jsonl");
    }

    Path results() {
        return own("results.json");
    }

    /** Where {@code results.json} is written before it is moved into place. */
    Path partialResults() {
        return own("results.json.partial");
    }

    Path comment() {
        return own("comment.md");
    }

    Path report() {
        return own("report.html");
    }

    /** The noise floors an A/A run measured. */
    Path noise() {
        return own("noise.json");
    }

    /** Build logs, and {@code trials/} below it for the trials' output. */
    Path logs() {
        return own("logs");
    }

    Path trialLogs() {
        return logs().resolve("trials");
    }

    /** Where the harness writes each trial's {@code $PERFAB_RESULT}. */
    Path trialResults() {
        return own("work").resolve("results");
    }

    /** Returns the folders of build {@code build} of {@code side}; claims them for deletion. */
    SideDir side(Side side, int build) {
        SideDir dir = SideDir.of(own("work"), side, build);
        claim(root.relativize(dir.root()).toString());
        return dir;
    }

    /** Returns the sides' first builds, the head's first: where the harness's benchmarks are listed. */
    List<SideDir> firstBuilds() {
        return List.of(side(Side.HEAD, 0), side(Side.BASE, 0));
    }

    /**
     * Returns how the files of the trial at {@code seq} of build {@code build} of {@code side} begin
     * ({@code 0002-base-0}): its output in the trials' logs ({@code .out}, {@code .err}, or one
     * pair per timed command, {@code 0002-base-0-0-NAME.err}) and its results file.
     */
    static String stem(int seq, Side side, int build) {
        return String.format(Locale.ROOT, "%04d-%s-%d", seq, side.id(), build);
    }

    private Path own(String name) {
        claim(name);
        return root.resolve(name);
    }

    /** Releases the lock. */
    @Override
    public void close() {
        lock.close();
    }
}
