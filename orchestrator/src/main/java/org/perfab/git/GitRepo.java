package org.perfab.git;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.eclipse.jgit.errors.AmbiguousObjectException;
import org.eclipse.jgit.errors.ConfigInvalidException;
import org.eclipse.jgit.errors.CorruptObjectException;
import org.eclipse.jgit.errors.IncorrectObjectTypeException;
import org.eclipse.jgit.errors.MissingObjectException;
import org.eclipse.jgit.errors.RepositoryNotFoundException;
import org.eclipse.jgit.errors.RevisionSyntaxException;
import org.eclipse.jgit.lib.AbbreviatedObjectId;
import org.eclipse.jgit.lib.Config;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectChecker;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.revwalk.filter.RevFilter;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.treewalk.CanonicalTreeParser;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.TreeFilter;
import org.perfab.failure.BadInputException;
import org.perfab.failure.RunFailedException;
import org.perfab.model.Ids;

/** A git repository opened for reading commits and writing their trees out. */
public final class GitRepo implements AutoCloseable {

    private final Repository repo;
    private final String shown;

    private GitRepo(Repository repo, String shown) {
        this.repo = repo;
        this.shown = shown;
    }

    /**
     * Opens the repository that holds {@code dir}: a working tree, any folder inside one (as git
     * finds it, looking up from {@code dir}), or a bare repository.
     *
     * @throws BadInputException when neither {@code dir} nor a folder above it is a git repository
     */
    public static GitRepo open(Path dir) {
        Path absolute = dir.toAbsolutePath().normalize();
        FileRepositoryBuilder builder = new FileRepositoryBuilder().setMustExist(true);
        builder.findGitDir(absolute.toFile());
        if (builder.getGitDir() == null) {
            if (!Files.isDirectory(absolute)) {
                throw new BadInputException(dir + ": no such folder");
            }
            throw new BadInputException(dir + ": not a git repository (nor is any folder above it)");
        }
        try {
            return new GitRepo(builder.build(), dir.toString());
        } catch (RepositoryNotFoundException e) {
            throw new BadInputException(dir + ": not a git repository");
        } catch (IOException | IllegalArgumentException e) {
            throw new BadInputException(dir + ": cannot open the git repository: " + e.getMessage(), e);
        }
    }

    /**
     * Returns the root of the working tree, or empty for a bare repository.
     */
    public Optional<Path> workTree() {
        return repo.isBare()
                ? Optional.empty()
                : Optional.of(repo.getWorkTree().toPath().toAbsolutePath().normalize());
    }

    /**
     * Returns where {@code dir} lies in the working tree, as a tree path ({@code ""} at its root, else
     * ending in {@code /}), or empty when it lies outside it or the repository is bare: how a path
     * typed in a subfolder names a path of a commit's tree. Where {@code dir} is not below the
     * working tree as written, and both exist, their links are followed (a shell's {@code $PWD}
     * through a linked folder).
     */
    public Optional<String> prefixOf(Path dir) {
        Path d = dir.toAbsolutePath().normalize();
        return workTree().flatMap(root -> {
            Path r = root;
            Path in = d;
            if (!in.startsWith(r) && Files.exists(in) && Files.exists(r)) {
                try {
                    in = in.toRealPath();
                    r = r.toRealPath();
                } catch (IOException e) {
                    return Optional.empty();
                }
            }
            if (!in.startsWith(r)) {
                return Optional.empty();
            }
            String rel = r.relativize(in).toString().replace(java.io.File.separatorChar, '/');
            return Optional.of(rel.isEmpty() ? "" : rel + "/");
        });
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
            throw unknown(ref);
        }
        try (RevWalk walk = new RevWalk(repo)) {
            RevCommit c = walk.parseCommit(id);
            return new Commit(ref, c.name(), c.getTree().name(), c.getShortMessage());
        } catch (IOException e) {
            throw new RunFailedException("cannot read commit " + id.name() + " ('" + ref + "'): " + e.getMessage(), e);
        }
    }

    /**
     * The branch a repository names as its default: what a run measures against when no base is
     * given.
     *
     * @param ref the branch as a user types it: where {@code origin/HEAD} points ({@code origin/main}),
     *     or a local branch ({@code master})
     * @param found how perfab found it, as a note says it: {@code origin/HEAD}, or the one branch of
     *     the usual names
     */
    public record DefaultBranch(String ref, String found) {
        public DefaultBranch {
            Objects.requireNonNull(ref, "ref");
            Objects.requireNonNull(found, "found");
        }
    }

    /**
     * Returns the repository's default branch: the branch {@code origin/HEAD} points to, where the
     * clone has it (git clone sets it; {@code git remote set-head origin --auto} mends it); else the
     * one of the local branches {@code main}, {@code master}, {@code trunk} and {@code develop} that
     * exists; else the one of them origin has ({@code origin/main}, say, in a clone with no local
     * branch of those names, as CI checks out).
     *
     * @throws BadInputException when the repository has several of those names and no
     *     {@code origin/HEAD}, naming them, or none of them, naming the branches it has: the base
     *     must be given
     */
    public DefaultBranch defaultBranch() {
        Optional<String> originHead = originHead();
        if (originHead.isPresent()) {
            return new DefaultBranch(originHead.get(), "origin/HEAD");
        }
        Branches branches = branches();
        String usual = and(Branches.DEFAULT_NAMES);
        for (boolean remote : new boolean[] {false, true}) {
            List<String> names = Branches.DEFAULT_NAMES.stream()
                    .map(n -> remote ? "origin/" + n : n)
                    .filter((remote ? branches.remote() : branches.local())::contains)
                    .toList();
            if (names.size() == 1) {
                return new DefaultBranch(
                        names.get(0),
                        "no origin/HEAD, and the only one of " + usual + " among "
                                + (remote ? "origin's branches" : "its branches"));
            }
            if (names.size() > 1) {
                throw new BadInputException("cannot tell the default branch of " + shown + ", the base when --base is"
                        + " left out: it has no origin/HEAD to say which, and has the branches " + and(names)
                        + "; give --base");
            }
        }
        throw new BadInputException("cannot tell the default branch of " + shown + ", the base when --base is left"
                + " out: it has no origin/HEAD, and none of " + usual + " is a branch there (" + branches.listed("")
                + "); give --base");
    }

    /** Returns the branch {@code origin/HEAD} points to, as a user types it; empty where it is missing or dangles. */
    private Optional<String> originHead() {
        try {
            Ref ref = repo.exactRef(Constants.R_REMOTES + "origin/" + Constants.HEAD);
            if (ref == null || ref.getObjectId() == null) {
                return Optional.empty();
            }
            return Optional.of(
                    ref.isSymbolic() ? Repository.shortenRefName(ref.getTarget().getName()) : "origin/HEAD");
        } catch (IOException e) {
            throw new RunFailedException("cannot read origin/HEAD in " + shown + ": " + e.getMessage(), e);
        }
    }

    /** Returns {@code names} as a sentence lists them: "a", "a and b", "a, b and c". */
    private static String and(List<String> names) {
        return names.size() < 2
                ? String.join("", names)
                : String.join(", ", names.subList(0, names.size() - 1)) + " and " + names.get(names.size() - 1);
    }

    /** Returns the repository's branches. */
    private Branches branches() {
        try {
            return Branches.of(repo);
        } catch (IOException e) {
            throw new RunFailedException("cannot read the branches of " + shown + ": " + e.getMessage(), e);
        }
    }

    /**
     * Returns the failure of {@code ref}, which names no commit: when it is an expression of a ref
     * that is here ({@code main~40}), that the expression reaches past it; otherwise the branches it
     * could have meant ({@link Branches#listed}).
     */
    private BadInputException unknown(String ref) {
        String named = Branches.named(ref);
        boolean isHere;
        try {
            isHere = !named.isEmpty() && !named.equals(ref) && repo.resolve(named + "^{commit}") != null;
        } catch (RevisionSyntaxException | IOException e) {
            isHere = false;
        }
        if (isHere) {
            return new BadInputException("unknown ref '" + ref + "' in " + shown + ": '" + named + "' is there, but"
                    + " the expression names no commit of its history (fewer ancestors, or no such parent)");
        }
        return new BadInputException("unknown ref '" + ref + "' in " + shown
                + " (a branch, tag, remote branch such as origin/main, or commit id); "
                + branches().listed(ref));
    }

    /** The head that names the working tree, uncommitted changes included: {@link #snapshot}. */
    public static final String WORKTREE = "WORKTREE";

    /**
     * Returns the working tree as a commit on top of {@code HEAD}: every tracked file as it is on
     * the disk (a deleted one left out), and every untracked file git would not ignore, as
     * {@code git add --all} would stage them. The commit is written to the repository's object
     * store, as {@code git stash create} writes one, and no ref, index or file changes; a run
     * measures and resumes it as any commit. When nothing differs from {@code HEAD}, returns
     * {@code HEAD}'s commit (typed {@link #WORKTREE}, its subject saying so). The folders of
     * {@code leaveOut} (the run's own folder and its cache, when they lie in the working tree) are
     * left out, tracked or not. A submodule's uncommitted changes are taken as a commit in its own
     * store; {@code note} hears what is left out and what untracked files are taken (see
     * {@link WorkTreeSnapshot}).
     *
     * @throws BadInputException for a bare repository, one with no commit yet, or an unresolved merge
     */
    public Commit snapshot(List<Path> leaveOut, Consumer<String> note) {
        Path root = workTree()
                .orElseThrow(() -> new BadInputException(
                        "--head " + WORKTREE + ": " + shown + " is a bare repository, with no working tree"));
        Commit head = resolve("HEAD");
        try (ObjectInserter inserter = repo.newObjectInserter();
                ObjectReader reader = repo.newObjectReader()) {
            ObjectId tree = WorkTreeSnapshot.write(repo, root, leaveOut, note);
            if (tree.name().equals(head.tree())) {
                return new Commit(WORKTREE, head.id(), head.tree(), head.subject() + " (no uncommitted changes)");
            }
            int changed = changedFiles(reader, ObjectId.fromString(head.tree()), tree);
            String subject = "the working tree of " + root.getFileName() + " on top of " + head.shortId() + " ("
                    + changed + " file" + (changed == 1 ? "" : "s") + " changed, uncommitted)";
            ObjectId id = WorkTreeSnapshot.commit(inserter, tree, ObjectId.fromString(head.id()), subject);
            inserter.flush();
            return new Commit(WORKTREE, id.name(), tree.name(), subject);
        } catch (IOException e) {
            throw new RunFailedException("cannot snapshot the working tree of " + shown + ": " + e.getMessage(), e);
        }
    }

    /** Returns how many files, links and submodules differ between the trees of {@code a} and {@code b}. */
    public int changedFiles(Commit a, Commit b) {
        try (ObjectReader reader = repo.newObjectReader()) {
            return changedFiles(reader, ObjectId.fromString(a.tree()), ObjectId.fromString(b.tree()));
        } catch (IOException e) {
            throw new RunFailedException(
                    "cannot compare the trees of " + a.shortId() + " and " + b.shortId() + ": " + e.getMessage(), e);
        }
    }

    private static int changedFiles(ObjectReader reader, ObjectId a, ObjectId b) throws IOException {
        try (TreeWalk tw = new TreeWalk(reader)) {
            tw.setRecursive(true);
            tw.addTree(a);
            tw.addTree(b);
            tw.setFilter(TreeFilter.ANY_DIFF);
            int n = 0;
            while (tw.next()) {
                n++;
            }
            return n;
        }
    }

    /**
     * Returns the merge-bases of {@code a} and {@code b}, the best first: one, or several after a
     * criss-cross merge (each side merged the other), of which an A/B measures the first.
     *
     * @throws BadInputException when they have none (unrelated histories, or a shallow clone)
     */
    public List<Commit> mergeBases(Commit a, Commit b) {
        try (RevWalk walk = new RevWalk(repo)) {
            walk.setRevFilter(RevFilter.MERGE_BASE);
            walk.markStart(walk.parseCommit(ObjectId.fromString(a.id())));
            walk.markStart(walk.parseCommit(ObjectId.fromString(b.id())));
            List<Commit> bases = new ArrayList<>();
            for (RevCommit base = walk.next(); base != null; base = walk.next()) {
                walk.parseBody(base);
                bases.add(new Commit(
                        "merge-base(" + a.typed() + ", " + b.typed() + ")",
                        base.name(),
                        base.getTree().name(),
                        base.getShortMessage()));
            }
            if (bases.isEmpty()) {
                boolean shallow = Files.exists(repo.getDirectory().toPath().resolve("shallow"));
                throw new BadInputException("no merge-base between '" + a.typed() + "' and '" + b.typed()
                        + "' in " + shown
                        + (shallow
                                ? ": the clone is shallow; fetch the full history (e.g. fetch-depth: 0)"
                                : ": their histories are unrelated"));
            }
            return bases;
        } catch (IOException e) {
            throw new RunFailedException("cannot walk the history of " + shown + ": " + e.getMessage(), e);
        }
    }

    /** Where a commit stands against the history of a ref. */
    public enum Reach {
        /** The commit is the ref's, or an ancestor of it. */
        ON,
        /** The repository has the commit, off the ref's history (a branch's, say). */
        OFF,
        /** The repository has no commit of that id (or the id is no commit id, or abbreviates several). */
        ABSENT
    }

    /**
     * Returns where each of {@code ids} (full or abbreviated commit ids, as a file records them)
     * stands against the history of {@code ref}: on it, off it, or not in the repository at all.
     */
    public Map<String, Reach> reach(Commit ref, Collection<String> ids) {
        Map<String, Reach> out = new LinkedHashMap<>();
        try (ObjectReader reader = repo.newObjectReader();
                RevWalk walk = new RevWalk(reader)) {
            RevCommit tip = walk.parseCommit(ObjectId.fromString(ref.id()));
            for (String id : ids) {
                if (out.containsKey(id)) {
                    continue;
                }
                RevCommit c = commit(reader, walk, id);
                out.put(id, c == null ? Reach.ABSENT : walk.isMergedInto(c, tip) ? Reach.ON : Reach.OFF);
            }
            return out;
        } catch (IOException e) {
            throw new RunFailedException("cannot walk the history of " + shown + ": " + e.getMessage(), e);
        }
    }

    /** Returns the one commit {@code id} names, or null when it names none or several. */
    private static RevCommit commit(ObjectReader reader, RevWalk walk, String id) throws IOException {
        if (!id.matches("[0-9a-fA-F]{4,40}")) {
            return null;
        }
        Collection<ObjectId> found = reader.resolve(AbbreviatedObjectId.fromString(id));
        if (found.size() != 1) {
            return null;
        }
        try {
            return walk.parseCommit(found.iterator().next());
        } catch (MissingObjectException | IncorrectObjectTypeException e) {
            return null;
        }
    }

    /** Returns the first of {@link #mergeBases}. */
    public Commit mergeBase(Commit a, Commit b) {
        return mergeBases(a, b).get(0);
    }

    /**
     * Returns the commits after {@code good} up to {@code bad} along {@code bad}'s first parents,
     * oldest first: what a bisect searches.
     *
     * @throws BadInputException when {@code good} is not on {@code bad}'s first-parent line, or is
     *     {@code bad} itself
     */
    public List<Commit> firstParents(Commit good, Commit bad) {
        List<Commit> line = new ArrayList<>();
        try (RevWalk walk = new RevWalk(repo)) {
            RevCommit c = walk.parseCommit(ObjectId.fromString(bad.id()));
            while (!c.name().equals(good.id())) {
                walk.parseBody(c);
                line.add(new Commit(Ids.shortId(c.name()), c.name(), c.getTree().name(), c.getShortMessage()));
                if (c.getParentCount() == 0) {
                    throw new BadInputException("'" + good.typed() + "' is not on the first-parent line of '"
                            + bad.typed() + "' in " + shown + ": bisect from an ancestor of the bad commit");
                }
                c = walk.parseCommit(c.getParent(0));
            }
        } catch (IOException e) {
            throw new RunFailedException("cannot walk the history of " + shown + ": " + e.getMessage(), e);
        }
        if (line.isEmpty()) {
            throw new BadInputException(
                    "'" + good.typed() + "' and '" + bad.typed() + "' are one commit: nothing to bisect");
        }
        Collections.reverse(line);
        return line;
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
                TreeWalk tw = TreeWalk.forPath(
                        repo,
                        path,
                        walk.parseCommit(ObjectId.fromString(commit.id())).getTree())) {
            if (tw == null || (tw.getFileMode(0).getBits() & FileMode.TYPE_MASK) != FileMode.TYPE_FILE) {
                return Optional.empty();
            }
            return Optional.of(repo.open(tw.getObjectId(0)).getBytes());
        } catch (IOException e) {
            throw new RunFailedException("cannot read " + path + " at " + commit.shortId() + ": " + e.getMessage(), e);
        }
    }

    /** What a path of a tree holds. */
    public enum Kind {
        /** A regular file. */
        FILE,
        /** A file with its executable bit set. */
        EXECUTABLE,
        /** A symbolic link. */
        LINK,
        /** A submodule's commit. */
        SUBMODULE
    }

    /**
     * One entry of a commit's tree.
     *
     * @param path its path, with {@code /} between names
     * @param id the id of its content: two entries with one id and kind hold the same thing
     * @param kind what it is
     */
    public record Entry(String path, String id, Kind kind) {}

    /**
     * Returns every file, link and submodule of {@code commit}'s tree (not the files inside its
     * submodules), by path in tree order.
     */
    public SortedMap<String, Entry> files(Commit commit) {
        SortedMap<String, Entry> files = new TreeMap<>();
        try (RevWalk walk = new RevWalk(repo);
                TreeWalk tw = new TreeWalk(repo)) {
            tw.addTree(walk.parseCommit(ObjectId.fromString(commit.id())).getTree());
            tw.setRecursive(true);
            while (tw.next()) {
                FileMode mode = tw.getFileMode(0);
                Kind kind = mode == FileMode.GITLINK
                        ? Kind.SUBMODULE
                        : mode == FileMode.SYMLINK
                                ? Kind.LINK
                                : mode == FileMode.EXECUTABLE_FILE ? Kind.EXECUTABLE : Kind.FILE;
                files.put(
                        tw.getPathString(),
                        new Entry(tw.getPathString(), tw.getObjectId(0).name(), kind));
            }
            return files;
        } catch (IOException e) {
            throw new RunFailedException("cannot list the tree of " + commit.shortId() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Writes {@code entries} of {@code commit}'s tree over what {@code tree} (a checkout) has at
     * their paths: each file or link there is replaced, missing folders are made, and nothing is
     * written through a link. Used to give the base's checkout the head's harness files.
     *
     * @throws BadInputException naming the path when a folder, or a link to one, is in the way
     */
    public void overlay(Commit commit, List<Entry> entries, Path tree) {
        try (TreeWriter out = new TreeWriter(tree);
                ObjectReader reader = repo.newObjectReader()) {
            for (Entry e : entries) {
                Path target = out.resolve(e.path());
                byte[] content = reader.open(ObjectId.fromString(e.id()), Constants.OBJ_BLOB)
                        .getBytes();
                out.clear(target);
                switch (e.kind()) {
                    case LINK -> out.link(target, Path.of(new String(content, StandardCharsets.UTF_8)));
                    case FILE, EXECUTABLE -> out.file(target, content, e.kind() == Kind.EXECUTABLE);
                    case SUBMODULE ->
                        throw new BadInputException("'" + e.path() + "' is a submodule; a harness file must be a file");
                }
            }
            out.finish();
        } catch (BadInputException e) {
            throw new BadInputException("cannot copy the head's harness files into " + tree + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new RunFailedException(
                    "cannot copy the harness files of " + commit.shortId() + " into " + tree + ": " + e.getMessage(),
                    e);
        }
    }

    /**
     * Writes {@code commit}'s tree into {@code dest}, which must not exist yet, and returns the
     * relative paths written (files and links, submodules' included). Executable bits and symbolic
     * links are kept. A submodule is written from its repository when this repository has it
     * (under {@code .git/modules} or in the working tree); when it does not, the run fails naming
     * the submodule.
     *
     * <p>A pull request controls the tree, so every tree object is checked as {@code git fsck}
     * would before anything below it is written: no entry named {@code .}, {@code ..} or
     * {@code .git}, none with a {@code /} in its name, no two entries of one name (a link and a
     * folder, say), no submodule name that climbs out of {@code .git/modules}. Nothing is ever
     * written through a link.
     *
     * @throws BadInputException naming the path when the tree is unsafe to write
     * @throws RunFailedException when an object or submodule is missing, or the disk refuses
     */
    public List<String> checkout(Commit commit, Path dest) {
        return checkout(commit, dest, Set.of());
    }

    /**
     * Writes {@code commit}'s tree into {@code dest} as {@link #checkout(Commit, Path)} does, the
     * submodules at the paths {@code leaveOut} names (from the top of the tree) left out: an empty
     * folder in their place, as git leaves a submodule it has not checked out.
     */
    public List<String> checkout(Commit commit, Path dest, Set<String> leaveOut) {
        List<String> written = new ArrayList<>();
        try {
            Files.createDirectories(dest.getParent());
            Files.createDirectory(dest);
            try (TreeWriter out = new TreeWriter(dest)) {
                write(repo, ObjectId.fromString(commit.id()), out, "", written, leaveOut);
                out.finish();
            }
            return written;
        } catch (MissingObjectException e) {
            throw new RunFailedException(
                    "commit " + commit.shortId() + " ('" + commit.typed() + "') is missing object "
                            + e.getObjectId().name() + " in " + shown,
                    e);
        } catch (BadInputException e) {
            throw new BadInputException(
                    "refusing to check out " + commit.shortId() + " ('" + commit.typed() + "'): " + e.getMessage(), e);
        } catch (IOException e) {
            throw new RunFailedException(
                    "cannot write the tree of " + commit.shortId() + " into " + dest + ": " + e.getMessage(), e);
        }
    }

    /**
     * Writes the tree of {@code commitId} (of {@code from}) at {@code prefix} below {@code out}'s
     * root: the top, or a submodule's folder.
     */
    private void write(
            Repository from,
            ObjectId commitId,
            TreeWriter out,
            String prefix,
            List<String> written,
            Set<String> leaveOut)
            throws IOException {
        List<Submodule> submodules = new ArrayList<>();
        ObjectChecker checker = checker();
        try (RevWalk walk = new RevWalk(from);
                ObjectReader reader = from.newObjectReader();
                TreeWalk tw = new TreeWalk(from, reader)) {
            RevCommit commit = walk.parseCommit(commitId);
            check(checker, reader, commit.getTree(), prefix);
            tw.addTree(commit.getTree());
            tw.setRecursive(false);
            while (tw.next()) {
                String path = tw.getPathString();
                Path target = out.resolve(prefix + path);
                FileMode mode = tw.getFileMode(0);
                ObjectId id = tw.getObjectId(0);
                if (tw.isSubtree()) {
                    check(checker, reader, id, prefix + path + "/");
                    out.folder(target);
                    tw.enterSubtree();
                    continue;
                }
                if (mode == FileMode.GITLINK) {
                    if (leaveOut.contains(prefix + path)) {
                        out.folder(target);
                    } else {
                        submodules.add(new Submodule(path, id));
                    }
                    continue;
                }
                ObjectLoader loader = reader.open(id, Constants.OBJ_BLOB);
                if (mode == FileMode.SYMLINK) {
                    out.link(target, Path.of(new String(loader.getCachedBytes(), StandardCharsets.UTF_8)));
                } else if (loader.isLarge()) {
                    try (OutputStream stream = out.largeFile(target)) {
                        loader.copyTo(stream);
                    }
                    if (mode == FileMode.EXECUTABLE_FILE) {
                        Files.setPosixFilePermissions(target, TreeWriter.EXECUTABLE);
                    }
                } else {
                    out.file(target, loader.getCachedBytes(), mode == FileMode.EXECUTABLE_FILE);
                }
                written.add(prefix + path);
            }
            if (!submodules.isEmpty()) {
                Config modules = gitmodules(from, reader, commit);
                for (Submodule s : submodules) {
                    writeSubmodule(from, modules, s, out, prefix, written, leaveOut);
                }
            }
        }
    }

    /** Returns a checker of tree objects that refuses what could write outside a checkout. */
    private static ObjectChecker checker() {
        // Zero-padded modes come from old git versions and are harmless.
        return new ObjectChecker().setAllowLeadingZeroFileMode(true);
    }

    private static void check(ObjectChecker checker, ObjectReader reader, ObjectId tree, String where)
            throws IOException {
        byte[] raw = reader.open(tree, Constants.OBJ_TREE).getCachedBytes();
        try {
            checker.checkTree(tree, raw);
        } catch (CorruptObjectException e) {
            throw new BadInputException("the tree " + (where.isEmpty() ? "at the top" : "at '" + where + "'")
                    + " has an unsafe entry"
                    + badEntry(checker, raw).map(n -> " '" + n + "'").orElse("")
                    + ", which git refuses to check out: " + e.getMessage().replaceFirst("^.*: ", ""));
        }
    }

    /** Returns the name of the first entry of a tree that is unsafe on its own or repeats a name. */
    private static Optional<String> badEntry(ObjectChecker checker, byte[] raw) {
        Set<String> seen = new HashSet<>();
        CanonicalTreeParser p = new CanonicalTreeParser();
        p.reset(raw);
        for (; !p.eof(); p.next()) {
            String name = p.getEntryPathString();
            byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
            try {
                checker.checkPathSegment(bytes, 0, bytes.length);
            } catch (CorruptObjectException e) {
                return Optional.of(name);
            }
            if (!seen.add(name)) {
                return Optional.of(name);
            }
        }
        return Optional.empty();
    }

    private record Submodule(String path, ObjectId commit) {}

    private static Config gitmodules(Repository from, ObjectReader reader, RevCommit commit) throws IOException {
        Config config = new Config();
        try (TreeWalk tw = TreeWalk.forPath(from, Constants.DOT_GIT_MODULES, commit.getTree())) {
            if (tw != null) {
                config.fromText(new String(reader.open(tw.getObjectId(0)).getBytes(), StandardCharsets.UTF_8));
            }
        } catch (ConfigInvalidException e) {
            throw new BadInputException(".gitmodules at " + commit.name() + " is malformed: " + e.getMessage(), e);
        }
        return config;
    }

    private void writeSubmodule(
            Repository from,
            Config modules,
            Submodule s,
            TreeWriter out,
            String prefix,
            List<String> written,
            Set<String> leaveOut)
            throws IOException {
        out.folder(out.resolve(prefix + s.path()));
        Optional<Repository> sub = submoduleRepository(from, modules, s, prefix);
        if (sub.isEmpty()) {
            throw new RunFailedException("submodule '" + prefix + s.path() + "' (commit "
                    + Ids.shortId(s.commit().name()) + ") is not available in " + shown
                    + "; run 'git submodule update --init --recursive' there first");
        }
        try (Repository r = sub.get()) {
            write(r, s.commit(), out, prefix + s.path() + "/", written, leaveOut);
        }
    }

    /**
     * Returns the repository that holds submodule {@code s} of {@code from} at its commit: under
     * {@code .git/modules} by its name, or its own checkout in the working tree reached without a
     * link; empty when neither has the commit. The caller closes it.
     */
    private Optional<Repository> submoduleRepository(Repository from, Config modules, Submodule s, String prefix) {
        String name = s.path();
        for (String section : modules.getSubsections("submodule")) {
            if (s.path().equals(modules.getString("submodule", section, "path"))) {
                name = section;
            }
        }
        checkSubmoduleName(name, prefix + s.path());
        List<Path> candidates = new ArrayList<>();
        candidates.add(from.getDirectory().toPath().resolve("modules").resolve(name));
        if (!from.isBare()) {
            Path inTree = from.getWorkTree().toPath().resolve(s.path());
            // Only the submodule's own checkout, reached without a link: a link there, or a
            // search upwards from a folder without .git, would read some other repository.
            if (!throughLink(from.getWorkTree().toPath(), inTree)
                    && Files.exists(inTree.resolve(Constants.DOT_GIT), LinkOption.NOFOLLOW_LINKS)
                    && !Files.isSymbolicLink(inTree.resolve(Constants.DOT_GIT))) {
                candidates.add(inTree);
            }
        }
        for (Path candidate : candidates) {
            if (!Files.exists(candidate)) {
                continue;
            }
            Repository sub;
            try {
                sub = new FileRepositoryBuilder()
                        .findGitDir(candidate.toFile())
                        .setMustExist(true)
                        .build();
            } catch (IOException | IllegalArgumentException e) {
                continue;
            }
            if (sub.getDirectory().equals(from.getDirectory()) || !has(sub, s.commit())) {
                sub.close();
                continue;
            }
            return Optional.of(sub);
        }
        return Optional.empty();
    }

    private static boolean has(Repository r, ObjectId id) {
        try {
            return r.getObjectDatabase().has(id);
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * A submodule of a tree.
     *
     * @param path its path from the top of the tree, nested submodules' below their parent's
     * @param commit the commit the tree records for it
     * @param available whether this repository has that commit (checked out, or under
     *     {@code .git/modules})
     */
    public record SubmoduleState(String path, String commit, boolean available) {}

    /**
     * Returns every submodule of {@code commit}'s tree, in tree order, with those of each available
     * submodule's own tree after it: what a checkout of the commit needs beside this repository's
     * own objects.
     *
     * @throws BadInputException when a submodule's name is unsafe or {@code .gitmodules} malformed
     * @throws RunFailedException when an object is missing
     */
    public List<SubmoduleState> submodules(Commit commit) {
        List<SubmoduleState> out = new ArrayList<>();
        try {
            submodules(repo, ObjectId.fromString(commit.id()), "", out);
        } catch (IOException e) {
            throw new RunFailedException(
                    "cannot read the submodules of " + commit.shortId() + " in " + shown + ": " + e.getMessage(), e);
        }
        return out;
    }

    private void submodules(Repository from, ObjectId commitId, String prefix, List<SubmoduleState> out)
            throws IOException {
        List<Submodule> found = new ArrayList<>();
        RevCommit commit;
        try (RevWalk walk = new RevWalk(from);
                ObjectReader reader = from.newObjectReader();
                TreeWalk tw = new TreeWalk(from, reader)) {
            commit = walk.parseCommit(commitId);
            tw.addTree(commit.getTree());
            tw.setRecursive(true);
            while (tw.next()) {
                if (tw.getFileMode(0) == FileMode.GITLINK) {
                    found.add(new Submodule(tw.getPathString(), tw.getObjectId(0)));
                }
            }
            if (found.isEmpty()) {
                return;
            }
            Config modules = gitmodules(from, reader, commit);
            for (Submodule s : found) {
                Optional<Repository> sub = submoduleRepository(from, modules, s, prefix);
                out.add(new SubmoduleState(prefix + s.path(), s.commit().name(), sub.isPresent()));
                if (sub.isPresent()) {
                    try (Repository r = sub.get()) {
                        submodules(r, s.commit(), prefix + s.path() + "/", out);
                    }
                }
            }
        }
    }

    /**
     * Refuses a submodule name that git would refuse: one with a {@code ..} segment (split at
     * {@code /} or {@code \\}) would name a folder outside {@code .git/modules}, and so read
     * another repository on the disk into the tree (CVE-2018-11235).
     */
    static void checkSubmoduleName(String name, String path) {
        boolean bad = name.isEmpty() || name.startsWith("/") || name.indexOf('\0') >= 0;
        for (String segment : name.split("[/\\\\]", -1)) {
            bad |= segment.equals("..");
        }
        if (bad) {
            throw new BadInputException("the submodule at '" + path + "' has the name '" + name
                    + "' in .gitmodules, which git refuses: a name must not climb out of .git/modules");
        }
    }

    private static boolean throughLink(Path top, Path below) {
        for (Path p = below; p != null && p.startsWith(top) && !p.equals(top); p = p.getParent()) {
            if (Files.isSymbolicLink(p)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void close() {
        repo.close();
    }
}
