package org.perfab.ab;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a trial's commands start, resolved to real paths: the guard against a run that measures one
 * side twice. Each side's trials run in its own tree, so a tool found on {@code PATH}
 * ({@code go}, {@code cargo}, {@code sh}) measures the code of the folder it runs in. But a program
 * named by a path, and the files a command names, can still lead both sides to one place: an
 * absolute path, or a link in both trees to one build.
 */
final class Programs {
    private Programs() {}

    /**
     * Returns the real paths of what {@code argv}, run in {@code cwd}, names: its program when
     * named by a path that is not in a {@code PATH} folder, and every argument (or value of
     * {@code --option=value}) that names an existing file or folder. Tools from {@code PATH} are
     * left out: they are not the code under test.
     */
    static Set<Path> located(List<String> argv, Path cwd, String pathVariable) {
        Set<Path> tools = toolFolders(pathVariable);
        Set<Path> found = new LinkedHashSet<>();
        for (int i = 0; i < argv.size(); i++) {
            String arg = argv.get(i);
            List<String> candidates = new ArrayList<>(List.of(arg));
            if (i > 0 && arg.contains("=")) {
                candidates.add(arg.substring(arg.indexOf('=') + 1));
            }
            for (String candidate : candidates) {
                if (candidate.isEmpty() || (i == 0 && !candidate.contains("/"))) {
                    continue;
                }
                Path real = real(cwd, candidate);
                if (real != null && !(i == 0 && (tools.contains(real.getParent()) || inTools(cwd, candidate, tools)))) {
                    found.add(real);
                }
            }
        }
        return found;
    }

    /**
     * Returns what both sides' commands name in common, when every command of both sides names
     * something and all of it is the same on both: the sign of a run that measures one program
     * twice. Empty otherwise.
     */
    static List<Path> shared(List<List<String>> argvs, Path baseTree, Path headTree, String pathVariable) {
        Set<Path> all = new LinkedHashSet<>();
        for (List<String> argv : argvs) {
            Set<Path> base = located(argv, baseTree, pathVariable);
            Set<Path> head = located(argv, headTree, pathVariable);
            if (base.isEmpty() || !base.equals(head)) {
                return List.of();
            }
            all.addAll(base);
        }
        return List.copyOf(all);
    }

    /** Returns whether the folder {@code name} is in, links resolved, is on {@code PATH}. */
    private static boolean inTools(Path cwd, String name, Set<Path> tools) {
        Path parent = cwd.resolve(name).getParent();
        try {
            return parent != null && tools.contains(parent.toRealPath());
        } catch (IOException e) {
            return false;
        }
    }

    private static Path real(Path cwd, String name) {
        try {
            Path p = cwd.resolve(name);
            return Files.exists(p) ? p.toRealPath() : null;
        } catch (InvalidPathException | IOException e) {
            return null;
        }
    }

    private static Set<Path> toolFolders(String pathVariable) {
        Set<Path> folders = new LinkedHashSet<>();
        if (pathVariable == null) {
            return folders;
        }
        for (String dir : pathVariable.split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            try {
                folders.add(Path.of(dir).toRealPath());
            } catch (InvalidPathException | IOException e) {
                // a folder on PATH that does not exist holds no tool
            }
        }
        return folders;
    }
}
