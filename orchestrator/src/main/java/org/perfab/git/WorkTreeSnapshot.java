package org.perfab.git;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import org.eclipse.jgit.dircache.DirCache;
import org.eclipse.jgit.dircache.DirCacheBuilder;
import org.eclipse.jgit.dircache.DirCacheEntry;
import org.eclipse.jgit.dircache.DirCacheIterator;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.treewalk.FileTreeIterator;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.WorkingTreeIterator;
import org.perfab.failure.BadInputException;
import org.perfab.model.Ids;

/**
 * A working tree written as a tree, as {@code git add --all} would stage it, into the repository's
 * object store; the tree of each submodule checked out in it is written the same way into the
 * submodule's store, on top of the submodule's own {@code HEAD}, so that an uncommitted change
 * inside a submodule is measured too.
 *
 * <p>What git would not stage is left out and said (through {@code note}): an entry that is
 * neither a file, a link nor a folder (a named pipe, which would be read for ever, a socket, a
 * device), a path git refuses ({@code .GIT}, {@code git~1}: names that read as {@code .git} on
 * some file systems), a repository inside the tree that is not a submodule. What it takes that
 * the repository does not track is said too: how many untracked files, how large, the largest
 * first. An unresolved merge is refused: its file holds both sides and the markers.
 */
final class WorkTreeSnapshot {
    /** How many untracked files the note names, the largest first. */
    private static final int NAMED = 3;

    private final Path top;
    private final List<Path> skipped;
    private final Consumer<String> note;
    private final List<Untracked> untracked = new ArrayList<>();

    /** An untracked file the snapshot takes, with its size. */
    private record Untracked(String path, long bytes) {}

    private WorkTreeSnapshot(Path top, List<Path> skipped, Consumer<String> note) {
        this.top = top;
        this.skipped = skipped.stream().map(p -> p.toAbsolutePath().normalize()).toList();
        this.note = note;
    }

    /**
     * Writes the working tree of {@code repo} (at {@code root}) and returns its tree, leaving out
     * the folders of {@code leaveOut} and saying through {@code note} what else it left out or took.
     *
     * @throws BadInputException when the tree, or a submodule's, has an unresolved merge
     */
    static ObjectId write(Repository repo, Path root, List<Path> leaveOut, Consumer<String> note) throws IOException {
        WorkTreeSnapshot s = new WorkTreeSnapshot(root, leaveOut, note);
        ObjectId tree = s.tree(repo, root);
        s.sayUntracked();
        return tree;
    }

    private ObjectId tree(Repository repo, Path root) throws IOException {
        DirCache index = repo.readDirCache();
        refuseUnmerged(index, root);
        try (ObjectInserter inserter = repo.newObjectInserter();
                ObjectReader reader = repo.newObjectReader();
                TreeWalk tw = new TreeWalk(repo, reader)) {
            DirCache snapshot = DirCache.newInCore();
            DirCacheBuilder builder = snapshot.builder();
            int work = tw.addTree(new FileTreeIterator(repo));
            int staged = tw.addTree(new DirCacheIterator(index));
            while (tw.next()) {
                Path path = root.resolve(tw.getPathString()).normalize();
                WorkingTreeIterator file = tw.getTree(work, WorkingTreeIterator.class);
                DirCacheIterator entry = tw.getTree(staged, DirCacheIterator.class);
                if (tw.isSubtree()) {
                    boolean ignored = entry == null && file != null && file.isEntryIgnored();
                    if (!ignored && skipped.stream().noneMatch(path::startsWith) && gitTakes(tw, path)) {
                        tw.enterSubtree();
                    }
                    continue;
                }
                if (file == null || (entry == null && file.isEntryIgnored())) {
                    continue; // deleted, or untracked and ignored
                }
                if (!gitTakes(tw, path)) {
                    continue;
                }
                FileMode mode = file.getEntryFileMode();
                ObjectId id;
                if (mode == FileMode.GITLINK) {
                    if (entry == null) {
                        note.accept("left out " + shown(path) + ": a repository inside the tree that is not a"
                                + " submodule, as git leaves it out (add it with 'git submodule add' to measure it)");
                        continue;
                    }
                    id = submodule(
                            path,
                            file.getEntryObjectId().equals(ObjectId.zeroId())
                                    ? entry.getEntryObjectId()
                                    : file.getEntryObjectId());
                } else if (mode != FileMode.SYMLINK && !aFile(path)) {
                    continue;
                } else if (entry != null && !file.isModified(entry.getDirCacheEntry(), true, reader)) {
                    id = entry.getEntryObjectId();
                } else {
                    if (entry == null) {
                        untracked.add(new Untracked(shown(path), file.getEntryContentLength()));
                    }
                    try (InputStream in = file.openEntryStream()) {
                        id = inserter.insert(Constants.OBJ_BLOB, file.getEntryContentLength(), in);
                    }
                }
                DirCacheEntry e = new DirCacheEntry(tw.getRawPath());
                e.setFileMode(mode);
                e.setObjectId(id);
                builder.add(e);
            }
            builder.finish();
            ObjectId tree = snapshot.writeTree(inserter);
            inserter.flush();
            return tree;
        }
    }

    /**
     * Returns the commit a submodule at {@code path} stands at in the snapshot: its own working
     * tree as a commit on top of {@code checkedOut} when it is checked out there and has
     * uncommitted changes, else {@code checkedOut}.
     */
    private ObjectId submodule(Path path, ObjectId checkedOut) throws IOException {
        Path dotGit = path.resolve(Constants.DOT_GIT);
        if (!Files.exists(dotGit, LinkOption.NOFOLLOW_LINKS) || Files.isSymbolicLink(dotGit)) {
            return checkedOut; // not checked out: the commit the index records
        }
        try (Repository sub = new FileRepositoryBuilder()
                        .setGitDir(gitDir(dotGit))
                        .setWorkTree(path.toFile())
                        .setMustExist(true)
                        .build();
                RevWalk walk = new RevWalk(sub)) {
            ObjectId headId = sub.resolve(Constants.HEAD);
            if (headId == null) {
                return checkedOut;
            }
            RevCommit head = walk.parseCommit(headId);
            ObjectId tree = tree(sub, path);
            if (tree.equals(head.getTree())) {
                return head;
            }
            try (ObjectInserter inserter = sub.newObjectInserter()) {
                ObjectId id = commit(inserter, tree, head, "the working tree of the submodule " + shown(path));
                inserter.flush();
                note.accept("the submodule " + shown(path) + " has uncommitted changes: they are measured, as a"
                        + " commit on top of its HEAD " + Ids.shortId(head.name()) + " written to its object store");
                return id;
            }
        }
    }

    /** Returns the git folder a submodule's {@code .git} names: itself, or the folder its {@code gitdir:} line names. */
    private static java.io.File gitDir(Path dotGit) throws IOException {
        if (Files.isDirectory(dotGit, LinkOption.NOFOLLOW_LINKS)) {
            return dotGit.toFile();
        }
        String line = Files.readString(dotGit).strip();
        if (!line.startsWith("gitdir:")) {
            throw new IOException(dotGit + " is not a gitdir file");
        }
        return dotGit.getParent()
                .resolve(line.substring("gitdir:".length()).strip())
                .normalize()
                .toFile();
    }

    /** Writes a commit of {@code tree} on top of {@code parent}, by perfab, and returns its id. */
    static ObjectId commit(ObjectInserter inserter, ObjectId tree, ObjectId parent, String subject) throws IOException {
        PersonIdent who = new PersonIdent("perfab", "perfab@localhost");
        CommitBuilder commit = new CommitBuilder();
        commit.setTreeId(tree);
        commit.setParentId(parent);
        commit.setAuthor(who);
        commit.setCommitter(who);
        commit.setMessage("perfab: " + subject + "\n");
        return inserter.insert(commit);
    }

    /** Returns whether git would take the path the walk stands at; says why not when it would not. */
    private boolean gitTakes(TreeWalk tw, Path path) {
        try {
            new DirCacheEntry(tw.getRawPath());
            return true;
        } catch (IllegalArgumentException e) {
            note.accept("left out " + shown(path) + ": a path git refuses to stage (a name that reads as .git on"
                    + " some file systems)");
            return false;
        }
    }

    /**
     * Returns whether {@code path} is a file (JGit takes whatever is not a folder or a link for
     * one, and a named pipe would then be read for ever); says why not when it is not.
     */
    private boolean aFile(Path path) throws IOException {
        BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (a.isRegularFile()) {
            return true;
        }
        note.accept("left out " + shown(path) + ": neither a file, a link nor a folder (a named pipe, a socket or a"
                + " device), as git leaves it out");
        return false;
    }

    private static void refuseUnmerged(DirCache index, Path root) {
        List<String> unmerged = new ArrayList<>();
        for (int i = 0; i < index.getEntryCount(); i++) {
            DirCacheEntry e = index.getEntry(i);
            if (e.getStage() != DirCacheEntry.STAGE_0 && !unmerged.contains(e.getPathString())) {
                unmerged.add(e.getPathString());
            }
        }
        if (!unmerged.isEmpty()) {
            throw new BadInputException("--head " + GitRepo.WORKTREE + ": " + root + " has an unresolved merge ("
                    + String.join(", ", unmerged.subList(0, Math.min(5, unmerged.size())))
                    + (unmerged.size() > 5 ? " and " + (unmerged.size() - 5) + " more" : "")
                    + "): resolve it and 'git add' the result, or measure a commit");
        }
    }

    private void sayUntracked() {
        if (untracked.isEmpty()) {
            return;
        }
        long bytes = untracked.stream().mapToLong(Untracked::bytes).sum();
        List<Untracked> largest = untracked.stream()
                .sorted(Comparator.comparingLong(Untracked::bytes).reversed().thenComparing(Untracked::path))
                .limit(NAMED)
                .toList();
        note.accept("the head takes " + untracked.size() + " untracked file" + (untracked.size() == 1 ? "" : "s")
                + " (" + size(bytes) + "): "
                + String.join(
                        ", ",
                        largest.stream()
                                .map(u -> u.path() + " (" + size(u.bytes()) + ")")
                                .toList())
                + (untracked.size() > NAMED ? " and " + (untracked.size() - NAMED) + " more" : "")
                + "; add what is not part of the code to .gitignore");
    }

    /** Returns a size in bytes, KiB, MiB or GiB. */
    static String size(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        double v = bytes;
        int i = -1;
        while (v >= 1024 && i < units.length - 1) {
            v /= 1024;
            i++;
        }
        return String.format(Locale.ROOT, v < 10 ? "%.1f %s" : "%.0f %s", v, units[i]);
    }

    /** Returns {@code path} as the note names it: from the top of the working tree. */
    private String shown(Path path) {
        return path.startsWith(top) && !path.equals(top) ? top.relativize(path).toString() : path.toString();
    }
}
