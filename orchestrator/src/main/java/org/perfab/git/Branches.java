package org.perfab.git;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.Repository;
import org.perfab.failure.NearNames;

/**
 * The branches of a repository, as perfab chooses a default base among them and as a message about
 * a ref the repository lacks lists them: the names nearest the ref first.
 *
 * @param local the local branches ({@code main}, {@code feature/x}), sorted
 * @param remote the remote-tracking branches ({@code origin/main}), sorted; no symbolic ref
 *     ({@code origin/HEAD}) among them
 */
record Branches(List<String> local, List<String> remote) {
    /** The names a repository's default branch goes by, in the order perfab lists them. */
    static final List<String> DEFAULT_NAMES = List.of("main", "master", "trunk", "develop");
    /** The most branch names a message lists. */
    static final int SHOWN = 10;
    /** The longest branch name a message shows, in code points; a longer one keeps its start and an ellipsis. */
    static final int NAME_LENGTH = 60;

    Branches {
        local = local.stream().sorted().toList();
        remote = remote.stream().sorted().toList();
    }

    /** Returns the branches of {@code repo}. */
    static Branches of(Repository repo) throws IOException {
        return new Branches(names(repo, Constants.R_HEADS), names(repo, Constants.R_REMOTES));
    }

    private static List<String> names(Repository repo, String prefix) throws IOException {
        List<String> names = new ArrayList<>();
        for (Ref ref : repo.getRefDatabase().getRefsByPrefix(prefix)) {
            if (!ref.isSymbolic()) {
                names.add(Repository.shortenRefName(ref.getName()));
            }
        }
        return names;
    }

    /**
     * Returns the branches as a message lists them, nearest {@code typed} first: "its branches
     * include master, feature-x (did you mean master?)", at most {@link #SHOWN} names, each at most
     * {@link #NAME_LENGTH} long, and how many more there are; the question when some name is near
     * (see {@link Nearness}); "it has no branches" for none. An empty {@code typed} lists them by
     * name alone. The names are the repository's, as it has them: the command line makes a message
     * safe to print as it prints it.
     */
    String listed(String typed) {
        String stem = stem(typed);
        List<Near> all = new ArrayList<>();
        local.forEach(name -> all.add(near(stem, name, false)));
        remote.forEach(name -> all.add(near(stem, name, true)));
        if (all.isEmpty()) {
            return "it has no branches";
        }
        all.sort(Comparator.comparing(Near::nearness)
                .thenComparingInt(Near::edits)
                .thenComparing(Near::remote)
                .thenComparing(Near::name));
        List<String> shown =
                all.stream().limit(SHOWN).map(n -> bounded(n.name())).toList();
        String more = all.size() > SHOWN ? " and " + (all.size() - SHOWN) + " more" : "";
        String question = all.get(0).nearness() != Nearness.FAR ? " (did you mean " + shown.get(0) + "?)" : "";
        return "its branches include " + String.join(", ", shown) + more + question;
    }

    /** Returns {@code name}, or its first {@link #NAME_LENGTH} code points, the last an ellipsis. */
    private static String bounded(String name) {
        return name.codePointCount(0, name.length()) <= NAME_LENGTH
                ? name
                : name.substring(0, name.offsetByCodePoints(0, NAME_LENGTH - 1)) + "\u2026";
    }

    /**
     * Returns the ref an expression starts from: {@code typed} without what follows the ref
     * ({@code main} of {@code main~3}, {@code main^{tree}}, {@code main@{1}} or {@code main:path}).
     */
    static String named(String typed) {
        int end = typed.length();
        for (String mark : List.of("~", "^", ":", "@{")) {
            int at = typed.indexOf(mark);
            end = at >= 0 ? Math.min(end, at) : end;
        }
        return typed.substring(0, end);
    }

    /** Returns the branch {@code typed} names ({@link #named}), without a remote's name before it ({@code origin/}). */
    private String stem(String typed) {
        String name = named(typed);
        return remoteOf(name).map(r -> name.substring(r.length() + 1)).orElse(name);
    }

    /**
     * Returns the remote whose branches {@code name} would be one of ({@code origin} of
     * {@code origin/main}): {@code origin}, or a remote this repository has branches of.
     */
    private Optional<String> remoteOf(String name) {
        int slash = name.indexOf('/');
        if (slash <= 0) {
            return Optional.empty();
        }
        String remoteName = name.substring(0, slash);
        return remoteName.equals("origin") || remote.stream().anyMatch(r -> r.startsWith(remoteName + "/"))
                ? Optional.of(remoteName)
                : Optional.empty();
    }

    /** How near a branch is to the name typed, the nearest first. */
    private enum Nearness {
        /** The same branch on another side: {@code feature} typed, {@code origin/feature} here. */
        SAME,
        /** Two of the names a default branch goes by: {@code main} typed, {@code master} here. */
        DEFAULTS,
        /** A typo away ({@link NearNames#near}). */
        TYPO,
        /** One starts the other, of three letters or more: {@code feat} typed, {@code feature-x} here. */
        PREFIX,
        /** None of those. */
        FAR
    }

    /**
     * A branch and how near it is to a ref typed: its nearness, then its one-letter edits from it
     * (0 for a far one, which sorts by name).
     */
    private record Near(String name, boolean remote, Nearness nearness, int edits) {}

    private Near near(String stem, String name, boolean isRemote) {
        String branch = isRemote ? name.substring(name.indexOf('/') + 1) : name;
        Nearness nearness = nearness(stem, branch);
        return new Near(name, isRemote, nearness, nearness == Nearness.FAR ? 0 : NearNames.edits(stem, branch));
    }

    /** Returns how near the branch {@code branch} is to the name {@code stem} typed; far for an empty one. */
    private static Nearness nearness(String stem, String branch) {
        if (stem.isEmpty()) {
            return Nearness.FAR;
        }
        if (stem.equals(branch)) {
            return Nearness.SAME;
        }
        if (DEFAULT_NAMES.contains(stem) && DEFAULT_NAMES.contains(branch)) {
            return Nearness.DEFAULTS;
        }
        if (NearNames.near(stem, branch)) {
            return Nearness.TYPO;
        }
        boolean starts =
                stem.length() >= 3 && branch.startsWith(stem) || branch.length() >= 3 && stem.startsWith(branch);
        return starts ? Nearness.PREFIX : Nearness.FAR;
    }
}
