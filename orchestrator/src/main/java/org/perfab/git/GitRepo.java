package org.perfab.git;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.errors.AmbiguousObjectException;
import org.eclipse.jgit.errors.ConfigInvalidException;
import org.eclipse.jgit.errors.IncorrectObjectTypeException;
import org.eclipse.jgit.errors.MissingObjectException;
import org.eclipse.jgit.errors.RepositoryNotFoundException;
import org.eclipse.jgit.errors.RevisionSyntaxException;
import org.eclipse.jgit.lib.Config;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.revwalk.filter.RevFilter;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.perfab.failure.BadInputException;
import org.perfab.failure.RunFailedException;

/** A git repository opened for reading commits and writing their trees out. */
public final class GitRepo implements AutoCloseable {
    private static final Set<PosixFilePermission> EXECUTABLE = EnumSet.of(
            PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE,
            PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_EXECUTE);

    private final Repository repo;
    private final String shown;

    private GitRepo(Repository repo, String shown) {
        this.repo = repo;
        this.shown = shown;
    }

    /**
     * Opens the repository at {@code dir} (a working tree or a bare repository).
     *
     * @throws BadInputException when {@code dir} is not a git repository
     */
    public static GitRepo open(Path dir) {
        try {
            Git git = Git.open(dir.toFile());
            return new GitRepo(git.getRepository(), dir.toString());
        } catch (RepositoryNotFoundException e) {
            throw new BadInputException(dir + ": not a git repository");
        } catch (IOException e) {
            throw new BadInputException(dir + ": cannot open the git repository: " + e.getMessage(), e);
        }
    }

    /**
     * Resolves {@code ref}: a branch, a remote branch such as {@code origin/main}, a tag, a full or
     * short commit id, or an expression such as {@code HEAD~3}.
     *
     * @throws BadInputException naming the ref when it names no commit, or is ambiguous
     */
    public Commit resolve(String ref) {
        ObjectId id;
        try {
            id = repo.resolve(ref + "^{commit}");
        } catch (AmbiguousObjectException e) {
            throw new BadInputException("ref '" + ref + "' is ambiguous in " + shown
                    + ": it abbreviates several objects; give more digits");
        } catch (RevisionSyntaxException | IncorrectObjectTypeException e) {
            throw new BadInputException("ref '" + ref + "' is not a commit in " + shown);
        } catch (IOException e) {
            throw new RunFailedException("cannot read ref '" + ref + "' in " + shown + ": " + e.getMessage(), e);
        }
        if (id == null) {
            throw new BadInputException("unknown ref '" + ref + "' in " + shown
                    + " (a branch, tag, remote branch such as origin/main, or commit id)");
        }
        try (RevWalk walk = new RevWalk(repo)) {
            RevCommit c = walk.parseCommit(id);
            return new Commit(ref, c.name(), c.getTree().name(), c.getShortMessage());
        } catch (IOException e) {
            throw new RunFailedException("cannot read commit " + id.name() + " ('" + ref + "'): "
                    + e.getMessage(), e);
        }
    }

    /**
     * Returns the best common ancestor of {@code a} and {@code b}, the baseline of a pull request.
     *
     * @throws BadInputException when they have none (unrelated histories, or a shallow clone that
     *     stops short of it)
     */
    public Commit mergeBase(Commit a, Commit b) {
        try (RevWalk walk = new RevWalk(repo)) {
            walk.setRevFilter(RevFilter.MERGE_BASE);
            walk.markStart(walk.parseCommit(ObjectId.fromString(a.id())));
            walk.markStart(walk.parseCommit(ObjectId.fromString(b.id())));
            RevCommit base = walk.next();
            if (base == null) {
                boolean shallow = Files.exists(repo.getDirectory().toPath().resolve("shallow"));
                throw new BadInputException("no merge-base between '" + a.typed() + "' and '" + b.typed()
                        + "' in " + shown + (shallow
                                ? ": the clone is shallow; fetch the full history (e.g. fetch-depth: 0)"
                                : ": their histories are unrelated"));
            }
            walk.parseBody(base);
            return new Commit("merge-base(" + a.typed() + ", " + b.typed() + ")", base.name(),
                    base.getTree().name(), base.getShortMessage());
        } catch (IOException e) {
            throw new RunFailedException("cannot walk the history of " + shown + ": " + e.getMessage(), e);
        }
    }

    /**
     * Returns the content of {@code path} in {@code commit}'s tree, or empty when there is no such
     * file.
     */
    public Optional<byte[]> read(Commit commit, String path) {
        if (path.isEmpty() || path.startsWith("/") || path.contains("//")) {
            return Optional.empty();
        }
        try (RevWalk walk = new RevWalk(repo);
                TreeWalk tw = TreeWalk.forPath(repo, path, walk.parseCommit(ObjectId.fromString(commit.id())).getTree())) {
            if (tw == null || (tw.getFileMode(0).getBits() & FileMode.TYPE_MASK) != FileMode.TYPE_FILE) {
                return Optional.empty();
            }
            return Optional.of(repo.open(tw.getObjectId(0)).getBytes());
        } catch (IOException e) {
            throw new RunFailedException("cannot read " + path + " at " + commit.shortId() + ": "
                    + e.getMessage(), e);
        }
    }

    /**
     * Writes {@code commit}'s tree into {@code dest}, which must not exist yet, and returns the
     * relative paths written (files and links, submodules' included). Executable bits and symbolic
     * links are kept. A submodule is written from its repository when this repository has it
     * (under {@code .git/modules} or in the working tree); when it does not, nothing is left half
     * written and the run fails naming the submodule.
     *
     * @throws RunFailedException when an object or submodule is missing, or the disk refuses
     */
    public List<String> checkout(Commit commit, Path dest) {
        List<String> written = new ArrayList<>();
        try {
            Files.createDirectories(dest.getParent());
            Files.createDirectory(dest);
            write(repo, ObjectId.fromString(commit.id()), dest, "", written);
            return written;
        } catch (MissingObjectException e) {
            throw new RunFailedException("commit " + commit.shortId() + " ('" + commit.typed()
                    + "') is missing object " + e.getObjectId().name() + " in " + shown, e);
        } catch (IOException e) {
            throw new RunFailedException("cannot write the tree of " + commit.shortId() + " into "
                    + dest + ": " + e.getMessage(), e);
        }
    }

    private void write(Repository from, ObjectId commitId, Path dest, String prefix, List<String> written)
            throws IOException {
        List<Submodule> submodules = new ArrayList<>();
        Files.createDirectories(dest);
        Set<Path> made = new java.util.HashSet<>();
        made.add(dest);
        try (RevWalk walk = new RevWalk(from);
                ObjectReader reader = from.newObjectReader();
                TreeWalk tw = new TreeWalk(from, reader);
                Writers writers = new Writers()) {
            RevCommit commit = walk.parseCommit(commitId);
            tw.addTree(commit.getTree());
            tw.setRecursive(true);
            while (tw.next()) {
                String path = tw.getPathString();
                Path target = dest.resolve(path);
                FileMode mode = tw.getFileMode(0);
                ObjectId id = tw.getObjectId(0);
                if (made.add(target.getParent())) {
                    Files.createDirectories(target.getParent());
                }
                if (mode == FileMode.GITLINK) {
                    submodules.add(new Submodule(path, id));
                    continue;
                }
                ObjectLoader loader = reader.open(id, Constants.OBJ_BLOB);
                if (mode == FileMode.SYMLINK) {
                    Files.createSymbolicLink(target,
                            Path.of(new String(loader.getCachedBytes(), StandardCharsets.UTF_8)));
                } else if (loader.isLarge()) {
                    try (OutputStream out = Files.newOutputStream(target)) {
                        loader.copyTo(out);
                    }
                    executable(target, mode);
                } else {
                    writers.write(target, loader.getCachedBytes(), mode == FileMode.EXECUTABLE_FILE);
                }
                written.add(prefix + path);
            }
            writers.finish();
            if (!submodules.isEmpty()) {
                Config modules = gitmodules(from, reader, commit);
                for (Submodule s : submodules) {
                    writeSubmodule(from, modules, s, dest, prefix, written);
                }
            }
        }
    }

    private static void executable(Path target, FileMode mode) throws IOException {
        if (mode == FileMode.EXECUTABLE_FILE) {
            Files.setPosixFilePermissions(target, EXECUTABLE);
        }
    }

    /**
     * Writes files on a few threads while the tree walk reads the next blobs: creating many small
     * files is bound by system calls, and two cores write about twice as fast as one.
     */
    private static final class Writers implements AutoCloseable {
        private static final int IN_FLIGHT = 512;
        private final java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(
                Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors())), r -> {
                    Thread t = new Thread(r, "perfab-checkout");
                    t.setDaemon(true);
                    return t;
                });
        private final java.util.concurrent.Semaphore slots = new java.util.concurrent.Semaphore(IN_FLIGHT);
        private final java.util.concurrent.atomic.AtomicReference<IOException> failure =
                new java.util.concurrent.atomic.AtomicReference<>();

        void write(Path target, byte[] content, boolean executable) throws IOException {
            rethrow();
            slots.acquireUninterruptibly();
            pool.execute(() -> {
                try {
                    Files.write(target, content);
                    if (executable) {
                        Files.setPosixFilePermissions(target, EXECUTABLE);
                    }
                } catch (IOException e) {
                    failure.compareAndSet(null, e);
                } finally {
                    slots.release();
                }
            });
        }

        /** Waits for every write and throws the first failure. */
        void finish() throws IOException {
            slots.acquireUninterruptibly(IN_FLIGHT);
            slots.release(IN_FLIGHT);
            rethrow();
        }

        private void rethrow() throws IOException {
            IOException e = failure.get();
            if (e != null) {
                throw e;
            }
        }

        @Override
        public void close() {
            pool.shutdownNow();
        }
    }

    private record Submodule(String path, ObjectId commit) {
    }

    private static Config gitmodules(Repository from, ObjectReader reader, RevCommit commit) throws IOException {
        Config config = new Config();
        try (TreeWalk tw = TreeWalk.forPath(from, Constants.DOT_GIT_MODULES, commit.getTree())) {
            if (tw != null) {
                config.fromText(new String(reader.open(tw.getObjectId(0)).getBytes(), StandardCharsets.UTF_8));
            }
        } catch (ConfigInvalidException e) {
            throw new RunFailedException(".gitmodules at " + commit.name() + " is malformed: " + e.getMessage(), e);
        }
        return config;
    }

    private void writeSubmodule(Repository from, Config modules, Submodule s, Path dest, String prefix,
            List<String> written) throws IOException {
        String name = s.path();
        for (String section : modules.getSubsections("submodule")) {
            if (s.path().equals(modules.getString("submodule", section, "path"))) {
                name = section;
            }
        }
        List<Path> candidates = new ArrayList<>();
        candidates.add(from.getDirectory().toPath().resolve("modules").resolve(name));
        if (!from.isBare()) {
            candidates.add(from.getWorkTree().toPath().resolve(s.path()));
        }
        for (Path candidate : candidates) {
            if (!Files.exists(candidate)) {
                continue;
            }
            Repository sub;
            try {
                sub = new FileRepositoryBuilder().findGitDir(candidate.toFile()).setMustExist(true).build();
            } catch (IOException | IllegalArgumentException e) {
                continue;
            }
            try (sub) {
                if (sub.getDirectory().equals(from.getDirectory()) || !sub.getObjectDatabase().has(s.commit())) {
                    continue;
                }
                write(sub, s.commit(), dest.resolve(s.path()), prefix + s.path() + "/", written);
                return;
            }
        }
        throw new RunFailedException("submodule '" + prefix + s.path() + "' (commit "
                + s.commit().name().substring(0, 12) + ") is not available in " + shown
                + "; run 'git submodule update --init --recursive' there first");
    }

    @Override
    public void close() {
        repo.close();
    }
}
