package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.TreeFormatter;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.perfab.testing.GitFixture;
import org.perfab.testing.Subjects;

/**
 * A pull request controls its tree. Trees that git itself would refuse to check out must not let
 * perfab write a byte outside the run's folder: each case here wrote {@code pwned.txt} outside
 * {@code --out} before the checkout was hardened.
 */
class HostileTreesIT {
    @TempDir
    Path tmp;

    /** One entry of a hand-made tree. */
    private record Entry(String name, FileMode mode, ObjectId id) {}

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"dot-dot folders", "a slash in a name", "a link and a folder of one name", "a .git folder"})
    void refusesATreeThatWouldWriteOutsideItsFolder(String how) throws IOException {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        Subjects.write(g, 100, 2, "");
        g.commit("initial");
        Path outside = tmp.resolve("outside");
        Files.createDirectories(outside);
        hostileHead(g.dir(), how, outside);
        Cli run = Cli.abOnThisMachine(g.dir(), tmp.resolve("out"));
        assertEquals(2, run.exitCode(), run.err());
        assertTrue(run.err().contains("refusing to check out"), run.err());
        String named = switch (how) {
            case "dot-dot folders" -> "entry '..'";
            case "a slash in a name" -> "entry '../../../../pwned.txt'";
            case "a link and a folder of one name" -> "entry 'escape'";
            default -> "entry '.git'";
        };
        assertTrue(run.err().contains(named), run.err());
        try (Stream<Path> all = Files.walk(tmp)) {
            List<Path> pwned = all.filter(p -> p.getFileName().toString().equals("pwned.txt"))
                    .toList();
            assertEquals(List.of(), pwned, "nothing of the hostile tree was written");
        }
    }

    /** Makes branch {@code feature}: main's tree plus one hostile entry. */
    private static void hostileHead(Path dir, String how, Path outside) throws IOException {
        try (Repository repo = new FileRepositoryBuilder()
                        .setGitDir(dir.resolve(".git").toFile())
                        .build();
                ObjectInserter ins = repo.newObjectInserter();
                RevWalk walk = new RevWalk(repo)) {
            var main = walk.parseCommit(repo.resolve("main"));
            List<Entry> entries = new ArrayList<>();
            try (TreeWalk tw = new TreeWalk(repo)) {
                tw.addTree(main.getTree());
                while (tw.next()) {
                    entries.add(new Entry(tw.getNameString(), tw.getFileMode(0), tw.getObjectId(0)));
                }
            }
            ObjectId pwned = ins.insert(Constants.OBJ_BLOB, "pwned\n".getBytes(StandardCharsets.UTF_8));
            switch (how) {
                case "dot-dot folders" -> {
                    ObjectId t = tree(ins, List.of(new Entry("pwned.txt", FileMode.REGULAR_FILE, pwned)));
                    for (int i = 0; i < 3; i++) {
                        t = tree(ins, List.of(new Entry("..", FileMode.TREE, t)));
                    }
                    entries.add(new Entry("..", FileMode.TREE, t));
                }
                case "a slash in a name" ->
                    entries.add(new Entry("../../../../pwned.txt", FileMode.REGULAR_FILE, pwned));
                case "a link and a folder of one name" -> {
                    ObjectId target =
                            ins.insert(Constants.OBJ_BLOB, outside.toString().getBytes(StandardCharsets.UTF_8));
                    entries.add(new Entry("escape", FileMode.SYMLINK, target));
                    entries.add(new Entry(
                            "escape",
                            FileMode.TREE,
                            tree(ins, List.of(new Entry("pwned.txt", FileMode.REGULAR_FILE, pwned)))));
                }
                case ".git folder", "a .git folder" ->
                    entries.add(new Entry(
                            ".git",
                            FileMode.TREE,
                            tree(ins, List.of(new Entry("pwned.txt", FileMode.REGULAR_FILE, pwned)))));
                default -> throw new IllegalArgumentException(how);
            }
            CommitBuilder c = new CommitBuilder();
            c.setTreeId(tree(ins, entries));
            c.setParentId(main);
            PersonIdent who = new PersonIdent("hostile", "hostile@perfab.invalid");
            c.setAuthor(who);
            c.setCommitter(who);
            c.setMessage("a hostile tree\n");
            ObjectId commit = ins.insert(c);
            ins.flush();
            RefUpdate ref = repo.updateRef("refs/heads/feature");
            ref.setNewObjectId(commit);
            ref.forceUpdate();
        }
    }

    /** Inserts a tree of {@code entries} in git's order, without checking them as git would. */
    private static ObjectId tree(ObjectInserter ins, List<Entry> entries) throws IOException {
        List<Entry> sorted = new ArrayList<>(entries);
        sorted.sort((a, b) -> sortKey(a).compareTo(sortKey(b)));
        TreeFormatter f = new TreeFormatter();
        for (Entry e : sorted) {
            f.append(e.name().getBytes(StandardCharsets.UTF_8), e.mode(), e.id());
        }
        return ins.insert(f);
    }

    private static String sortKey(Entry e) {
        return e.mode() == FileMode.TREE ? e.name() + "/" : e.name();
    }

    @Test
    void refusesASubmoduleNameThatClimbsOutOfGitModules() throws IOException {
        // Another repository on the disk, where a climbing name would lead.
        GitFixture other = GitFixture.init(tmp.resolve("other"));
        other.write("pwned.txt", "another repository's file\n");
        String otherCommit = other.commit("elsewhere");
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        Subjects.write(g, 100, 2, "");
        g.commit("initial");
        g.git("checkout", "-q", "-b", "feature");
        g.write(".gitmodules", "[submodule \"../../../other\"]\n\tpath = sub\n\turl = https://example.invalid/x\n");
        g.git("add", ".gitmodules");
        g.git("update-index", "--add", "--cacheinfo", "160000," + otherCommit + ",sub");
        g.git("commit", "-q", "-m", "a submodule with a climbing name");
        g.git("checkout", "-q", "main");
        Cli run = Cli.abOnThisMachine(g.dir(), tmp.resolve("out"));
        assertEquals(2, run.exitCode(), run.err());
        assertTrue(
                run.err()
                        .contains("the submodule at 'sub' has the name '../../../other' in .gitmodules,"
                                + " which git refuses"),
                run.err());
        assertFalse(Files.exists(tmp.resolve("out/work/head-0/tree/sub/pwned.txt")));
    }
}
