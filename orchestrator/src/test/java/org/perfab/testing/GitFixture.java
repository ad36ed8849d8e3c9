package org.perfab.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.MergeResult;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.StoredConfig;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.revwalk.filter.RevFilter;
import org.eclipse.jgit.transport.RefSpec;
import org.eclipse.jgit.treewalk.TreeWalk;

/**
 * A real git repository in a temporary folder, for end-to-end tests. What every fixture does
 * (make the repository, commit everything, switch or make a branch) runs in process with JGit, as
 * a git process per step would cost a test more than the run it sets up; anything else runs the
 * real {@code git} program, which reads no user or system git configuration.
 */
public final class GitFixture {
    private final Path dir;
    private int tick;

    private GitFixture(Path dir) {
        this.dir = dir;
    }

    /** Creates an empty repository in {@code dir} whose first branch is {@code main}. */
    public static GitFixture init(Path dir) throws IOException {
        Files.createDirectories(dir);
        try (Git git =
                Git.init().setDirectory(dir.toFile()).setInitialBranch("main").call()) {
            StoredConfig config = git.getRepository().getConfig();
            config.setBoolean("commit", null, "gpgsign", false);
            config.save();
        } catch (GitAPIException e) {
            throw new IOException("cannot make a repository in " + dir, e);
        }
        return new GitFixture(dir);
    }

    public Path dir() {
        return dir;
    }

    /** Writes {@code path} (relative) with {@code content}. */
    public GitFixture write(String path, String content) throws IOException {
        Path file = dir.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content, StandardCharsets.UTF_8);
        return this;
    }

    /** Writes an executable script. */
    public GitFixture script(String path, String content) throws IOException {
        write(path, content);
        Files.setPosixFilePermissions(dir.resolve(path), PosixFilePermissions.fromString("rwxr-xr-x"));
        return this;
    }

    /** Stages everything and commits; returns the new commit id. */
    public String commit(String message) throws IOException {
        try (Git git = Git.open(dir.toFile())) {
            git.add().addFilepattern(".").call();
            git.add().addFilepattern(".").setUpdate(true).call(); // and the deletions, as git add -A
            PersonIdent who =
                    new PersonIdent("perfab test", "test@perfab.invalid", Instant.parse(when()), ZoneOffset.UTC);
            return git.commit()
                    .setMessage(message)
                    .setAuthor(who)
                    .setCommitter(who)
                    .setSign(false)
                    .setAllowEmpty(true)
                    .call()
                    .name();
        } catch (GitAPIException e) {
            throw new IOException("cannot commit in " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * Runs git with {@code args} in the repository and returns its standard output; {@code checkout
     * -q [-b|--orphan] NAME} and the commands of {@link #inProcess} run in process.
     */
    public String git(String... args) throws IOException {
        List<String> a = List.of(args);
        boolean create = a.size() == 4 && a.subList(0, 3).equals(List.of("checkout", "-q", "-b"));
        boolean orphan = a.size() == 4 && a.subList(0, 3).equals(List.of("checkout", "-q", "--orphan"));
        if (create
                || orphan
                || a.size() == 3
                        && a.subList(0, 2).equals(List.of("checkout", "-q"))
                        && !a.get(2).startsWith("-")) {
            try (Git git = Git.open(dir.toFile())) {
                git.checkout()
                        .setName(a.get(a.size() - 1))
                        .setCreateBranch(create)
                        .setOrphan(orphan)
                        .call();
                return "";
            } catch (GitAPIException e) {
                throw new IOException("git " + String.join(" ", args) + " failed: " + e.getMessage(), e);
            }
        }
        String inProcess = inProcess(a);
        return inProcess != null ? inProcess : run(dir, args);
    }

    /**
     * Runs in process the git commands tests use to look at refs or move them ({@code rev-parse
     * REV}, {@code merge-base A B}, {@code branch [-m OLD] NAME [START]}, {@code branch -q -D NAME},
     * {@code tag NAME REV}, {@code ls-tree -r --name-only REV}, {@code fetch -q URL REFSPEC}, {@code
     * merge -q BRANCH}) and returns what git prints; null for any other command.
     */
    private String inProcess(List<String> a) throws IOException {
        try (Git git = Git.open(dir.toFile())) {
            Repository repo = git.getRepository();
            String moved = exchange(git, a);
            if (moved != null) {
                return moved;
            }
            if (a.size() == 2 && a.get(0).equals("rev-parse") && !a.get(1).startsWith("-")) {
                return commit(repo, a.get(1)).name() + "\n";
            }
            if (a.size() == 3 && a.get(0).equals("merge-base")) {
                try (RevWalk walk = new RevWalk(repo)) {
                    walk.setRevFilter(RevFilter.MERGE_BASE);
                    walk.markStart(walk.parseCommit(commit(repo, a.get(1))));
                    walk.markStart(walk.parseCommit(commit(repo, a.get(2))));
                    RevCommit base = walk.next();
                    if (base == null) {
                        throw new IOException("git merge-base found none");
                    }
                    return base.name() + "\n";
                }
            }
            if (a.size() == 4 && a.subList(0, 2).equals(List.of("branch", "-m"))) {
                git.branchRename().setOldName(a.get(2)).setNewName(a.get(3)).call();
                return "";
            }
            if (a.size() == 4 && a.subList(0, 3).equals(List.of("branch", "-q", "-D"))) {
                git.branchDelete().setBranchNames(a.get(3)).setForce(true).call();
                return "";
            }
            if ((a.size() == 2 || a.size() == 3)
                    && a.get(0).equals("branch")
                    && !a.get(1).startsWith("-")) {
                git.branchCreate()
                        .setName(a.get(1))
                        .setStartPoint(a.size() == 3 ? a.get(2) : "HEAD")
                        .call();
                return "";
            }
            if (a.size() == 3 && a.get(0).equals("tag") && !a.get(1).startsWith("-")) {
                try (RevWalk walk = new RevWalk(repo)) {
                    git.tag()
                            .setName(a.get(1))
                            .setAnnotated(false)
                            .setObjectId(walk.parseCommit(commit(repo, a.get(2))))
                            .call();
                }
                return "";
            }
            return null;
        } catch (GitAPIException e) {
            throw new IOException("git " + String.join(" ", a) + " failed: " + e.getMessage(), e);
        }
    }

    /**
     * Runs {@code ls-tree -r --name-only REV}, {@code fetch -q URL REFSPEC} and {@code merge -q
     * BRANCH} (which fails, as git does, where it conflicts) in process; returns null for any other.
     */
    private static String exchange(Git git, List<String> a) throws IOException, GitAPIException {
        Repository repo = git.getRepository();
        if (a.size() == 4 && a.subList(0, 3).equals(List.of("ls-tree", "-r", "--name-only"))) {
            StringBuilder files = new StringBuilder();
            try (RevWalk walk = new RevWalk(repo);
                    TreeWalk tree = new TreeWalk(repo)) {
                tree.addTree(walk.parseCommit(commit(repo, a.get(3))).getTree());
                tree.setRecursive(true);
                while (tree.next()) {
                    files.append(tree.getPathString()).append('\n');
                }
            }
            return files.toString();
        }
        if (a.size() == 4 && a.subList(0, 2).equals(List.of("fetch", "-q"))) {
            git.fetch().setRemote(a.get(2)).setRefSpecs(new RefSpec(a.get(3))).call();
            return "";
        }
        if (a.size() == 3 && a.subList(0, 2).equals(List.of("merge", "-q"))) {
            MergeResult merged = git.merge()
                    .include(repo.resolve(a.get(2)))
                    .setMessage("Merge branch '" + a.get(2) + "'")
                    .call();
            if (!merged.getMergeStatus().isSuccessful()) {
                throw new IOException("git merge " + a.get(2) + " failed: " + merged.getMergeStatus());
            }
            return "";
        }
        return null;
    }

    /** Returns the commit {@code rev} names in {@code repo}. */
    private static ObjectId commit(Repository repo, String rev) throws IOException {
        ObjectId id = repo.resolve(rev + "^{commit}");
        if (id == null) {
            throw new IOException("git rev-parse " + rev + ": unknown revision");
        }
        return id;
    }

    /** Returns the next time a commit is made at, a second after the last. */
    private String when() {
        return "2026-01-01T00:00:" + String.format("%02d", Math.min(59, tick++)) + "Z";
    }

    /** Runs git with {@code args} in {@code cwd}, isolated from the user's configuration. */
    public String run(Path cwd, String... args) throws IOException {
        List<String> argv = new ArrayList<>(List.of(
                "git",
                "-c",
                "commit.gpgsign=false",
                "-c",
                "protocol.file.allow=always",
                "-c",
                "init.defaultBranch=main"));
        argv.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(argv).directory(cwd.toFile()).redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        env.put("GIT_CONFIG_NOSYSTEM", "1");
        env.put("GIT_CONFIG_GLOBAL", "/dev/null");
        env.put("HOME", dir.toString());
        String when = when();
        env.put("GIT_AUTHOR_NAME", "perfab test");
        env.put("GIT_AUTHOR_EMAIL", "test@perfab.invalid");
        env.put("GIT_COMMITTER_NAME", "perfab test");
        env.put("GIT_COMMITTER_EMAIL", "test@perfab.invalid");
        env.put("GIT_AUTHOR_DATE", when);
        env.put("GIT_COMMITTER_DATE", when);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException("git " + String.join(" ", args) + " failed:\n" + out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
        return out;
    }
}
