package org.perfab.ab;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.regex.Pattern;
import org.perfab.failure.BadInputException;
import org.perfab.git.GitRepo;
import org.perfab.model.RunResults.HarnessFile;
import org.perfab.workload.Glob;
import org.perfab.workload.Workload;

/**
 * The harness files of a run whose harness is the head's: the files of the head's tree that are
 * copied into the base's tree before the base is built, so that both sides run the same harness
 * over their own code.
 *
 * @param files every harness file, with how the base's own copy compared
 * @param copies the head's entries to write into the base's tree: those the base lacks or has
 *     otherwise
 * @param erasesTheChange whether every file that differs between the sides is a harness file, so
 *     that after the copy both sides hold the same sources
 */
record HarnessFiles(List<HarnessFile> files, List<GitRepo.Entry> copies, boolean erasesTheChange) {
    /** No harness files: {@code from: self}. */
    static final HarnessFiles NONE = new HarnessFiles(List.of(), List.of(), false);

    HarnessFiles {
        files = List.copyOf(files);
        copies = List.copyOf(copies);
    }

    /**
     * Returns the harness files of {@code harness} in the head's tree {@code head}, compared with
     * the base's tree {@code base}. They are {@code harness.files} when given (paths, folders, and
     * globs where {@code *} stays within a folder and {@code **} crosses folders), else every
     * argument of the harness's commands that names a file in the head's tree; the workload file
     * is always one.
     *
     * @throws BadInputException when an entry of {@code harness.files} names nothing in the head's
     *     tree, or names a submodule
     */
    static HarnessFiles of(
            Workload.Harness harness,
            String workloadPath,
            SortedMap<String, GitRepo.Entry> head,
            SortedMap<String, GitRepo.Entry> base) {
        if (harness.from() == Workload.From.SELF) {
            return NONE;
        }
        Set<String> paths = new LinkedHashSet<>();
        if (isFile(head.get(workloadPath))) {
            paths.add(workloadPath);
        }
        if (harness.files().isEmpty()) {
            for (List<String> argv : harness.argvs()) {
                for (String arg : argv) {
                    named(arg, head).ifPresent(paths::add);
                }
            }
        } else {
            for (String entry : harness.files()) {
                List<String> matched = select(entry, head);
                if (matched.isEmpty()) {
                    throw new BadInputException("harness files: '" + entry + "' names no file in the head's tree");
                }
                paths.addAll(matched);
            }
        }
        List<HarnessFile> files = new ArrayList<>();
        List<GitRepo.Entry> copies = new ArrayList<>();
        for (String path : paths.stream().sorted().toList()) {
            GitRepo.Entry mine = head.get(path);
            GitRepo.Entry theirs = base.get(path);
            HarnessFile.State state = theirs == null
                    ? HarnessFile.State.ADDED
                    : theirs.equals(mine) ? HarnessFile.State.SAME : HarnessFile.State.CHANGED;
            files.add(new HarnessFile(path, state));
            if (state != HarnessFile.State.SAME) {
                copies.add(mine);
            }
        }
        return new HarnessFiles(files, copies, erasesTheChange(head, base, paths));
    }

    /** Returns whether every path that differs between the trees is among {@code copied}. */
    private static boolean erasesTheChange(
            Map<String, GitRepo.Entry> head, Map<String, GitRepo.Entry> base, Set<String> copied) {
        boolean anyDifference = false;
        for (Map.Entry<String, GitRepo.Entry> e : head.entrySet()) {
            if (!e.getValue().equals(base.get(e.getKey()))) {
                anyDifference = true;
                if (!copied.contains(e.getKey())) {
                    return false;
                }
            }
        }
        for (String path : base.keySet()) {
            if (!head.containsKey(path)) {
                return false; // a file the head deleted stays in the base's tree
            }
        }
        return anyDifference;
    }

    /** Returns the path of the head's file that {@code arg} (or the value of {@code --opt=arg}) names. */
    private static Optional<String> named(String arg, Map<String, GitRepo.Entry> head) {
        for (String candidate : List.of(arg, arg.substring(arg.indexOf('=') + 1))) {
            String path = candidate;
            while (path.startsWith("./")) {
                path = path.substring(2);
            }
            if (isFile(head.get(path))) {
                return Optional.of(path);
            }
        }
        return Optional.empty();
    }

    private static List<String> select(String entry, SortedMap<String, GitRepo.Entry> head) {
        GitRepo.Entry exact = head.get(entry);
        if (exact != null) {
            if (exact.kind() == GitRepo.Kind.SUBMODULE) {
                throw new BadInputException("harness files: '" + entry + "' is a submodule; list files instead");
            }
            return List.of(entry);
        }
        if (entry.chars().anyMatch(c -> c == '*' || c == '?')) {
            Pattern glob = Glob.compile(entry, "/");
            return head.values().stream()
                    .filter(HarnessFiles::isFile)
                    .map(GitRepo.Entry::path)
                    .filter(p -> glob.matcher(p).matches())
                    .toList();
        }
        String folder = entry.endsWith("/") ? entry : entry + "/";
        return head.subMap(folder, folder + Character.MAX_VALUE).values().stream()
                .filter(HarnessFiles::isFile)
                .map(GitRepo.Entry::path)
                .toList();
    }

    private static boolean isFile(GitRepo.Entry e) {
        return e != null && e.kind() != GitRepo.Kind.SUBMODULE;
    }
}
