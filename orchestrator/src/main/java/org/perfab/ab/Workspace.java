package org.perfab.ab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.perfab.failure.RunFailedException;
import org.perfab.git.Commit;
import org.perfab.git.GitRepo;
import org.perfab.model.Ids;
import org.perfab.model.RunResults;
import org.perfab.model.Side;
import org.perfab.model.Warning;
import org.perfab.workload.Workload;

/**
 * The run's workspace, the design's stage after the plan: makes the sides ready to measure, each
 * side and build checked out into its own folder ({@link SideDir}), the head's harness files copied
 * into the base's, and each built into its private output folder (or taken from the cache) by the
 * build stage ({@link Builder}). A side whose build finished before (a resumed run) is kept as it
 * is. Submodules the clone has not checked out, and the workload does not need, are left out of
 * both sides alike.
 */
final class Workspace {
    private final Plan plan;
    private final Workload workload;
    private final RunDir dir;
    private final Builder builder;
    private final Ledger ledger;
    private final Events events;
    private Set<String> leftOut = Set.of();

    Workspace(Plan plan, Workload workload, RunDir dir, Builder builder, Ledger ledger, Events events) {
        this.plan = plan;
        this.workload = workload;
        this.dir = dir;
        this.builder = builder;
        this.ledger = ledger;
        this.events = events;
    }

    /** Prepares every side that has no finished build, and returns the harness files it copied. */
    HarnessFiles prepare() throws IOException, InterruptedException {
        try (GitRepo git = GitRepo.open(Path.of(plan.repository()))) {
            HarnessFiles harness = HarnessFiles.of(
                    workload.harness(), plan.workloadPath(), git.files(plan.head()), git.files(plan.mergeBase()));
            note(harness);
            leftOut = submodules(git);
            for (Side side : Side.values()) {
                Commit commit = side == Side.BASE ? plan.mergeBase() : plan.head();
                List<GitRepo.Entry> copies = side == Side.BASE ? harness.copies() : List.of();
                for (int b = 0; b < plan.builds(); b++) {
                    prepare(git, dir.side(side, b), commit, copies);
                }
            }
            return harness;
        }
    }

    /** Returns the submodules left out of both sides' trees (see {@link #submodules}); empty before {@link #prepare}. */
    Set<String> leftOut() {
        return leftOut;
    }

    /**
     * Returns the submodules to leave out of both sides' trees: every one the clone has not checked
     * out on either side, the same on both, so that a submodule one side has and the other lacks
     * cannot pass for a change of the code. Says which were left out, and which differ between the
     * sides, as warnings.
     *
     * @throws RunFailedException when the workload needs one the clone has not checked out, naming
     *     each and how to check it out
     */
    private Set<String> submodules(GitRepo git) {
        List<GitRepo.SubmoduleState> base = git.submodules(plan.mergeBase());
        List<GitRepo.SubmoduleState> head = git.submodules(plan.head());
        Set<String> missing = new TreeSet<>();
        Map<String, String[]> commits = new TreeMap<>();
        for (int s = 0; s < 2; s++) {
            for (GitRepo.SubmoduleState m : s == 0 ? base : head) {
                if (!m.available()) {
                    missing.add(m.path());
                }
                commits.computeIfAbsent(m.path(), k -> new String[] {"none", "none"})[s] = Ids.shortId(m.commit());
            }
        }
        List<String> needed =
                missing.stream().filter(p -> workload.submodules().needs(p)).toList();
        if (!needed.isEmpty()) {
            throw new RunFailedException("the workload needs submodule" + (needed.size() == 1 ? " '" : "s '")
                    + String.join("', '", needed) + "', which " + plan.repository() + " has not checked out at the"
                    + " commits measured; run 'git submodule update --init --recursive' there (in CI, check out"
                    + " with submodules: actions/checkout's 'submodules: recursive'), or leave the submodules the"
                    + " build does not need out of 'submodules:'");
        }
        // A submodule below one left out goes with it.
        Set<String> leave = new TreeSet<>();
        for (String p : missing) {
            if (leave.stream().noneMatch(l -> p.startsWith(l + "/"))) {
                leave.add(p);
            }
        }
        if (!leave.isEmpty()) {
            events.note("left out of both sides' trees, as the clone has not checked them out and the workload does"
                    + " not need them: submodule" + (leave.size() == 1 ? " " : "s ") + String.join(", ", leave));
            ledger.warning(Warning.of(Warning.Kind.SUBMODULES_LEFT_OUT, List.copyOf(leave), Map.of()));
        }
        List<String> changed = new ArrayList<>();
        commits.forEach((path, c) -> {
            if (!c[0].equals(c[1])) {
                changed.add(path + " " + c[0] + ".." + c[1]);
            }
        });
        if (!changed.isEmpty()) {
            ledger.warning(Warning.of(Warning.Kind.SUBMODULES_CHANGED, changed, Map.of()));
        }
        return leave;
    }

    private void prepare(GitRepo git, SideDir side, Commit commit, List<GitRepo.Entry> copies)
            throws IOException, InterruptedException {
        Optional<Builder.Result> done = Builder.recorded(side);
        if (done.isPresent() && Files.isDirectory(side.tree())) {
            ledger.build(side, done.get(), 0, 0);
            return;
        }
        dir.delete(dir.root().relativize(side.root()).toString());
        long t0 = System.nanoTime();
        git.checkout(commit, side.tree(), leftOut);
        git.overlay(plan.head(), copies, side.tree());
        builder.perturb(side, commit, workload.build());
        Map<String, Trees.Stamp> snapshot = Trees.snapshot(side.tree());
        long t1 = System.nanoTime();
        String what = side.label() + " (" + commit.shortId() + ")";
        if (workload.build().isPresent()) {
            events.building(what);
        }
        Builder.Result r = builder.build(
                side, Builder.sources(commit, copies, workload.build(), leftOut), workload.build(), snapshot);
        if (workload.build().isPresent()) {
            events.built(what, r.seconds(), r.cached() ? r.savedSeconds() : Double.NaN);
        }
        ledger.build(side, r, (t1 - t0) / 1e9, (System.nanoTime() - t1) / 1e9);
    }

    private void note(HarnessFiles harness) {
        List<String> changed = new ArrayList<>();
        for (RunResults.HarnessFile f : harness.files()) {
            if (f.state() != RunResults.HarnessFile.State.SAME) {
                changed.add(f.path() + " (" + f.state().id() + ")");
            }
        }
        if (!changed.isEmpty()) {
            events.note("the base runs the head's harness: copied "
                    + String.join(", ", changed.subList(0, Math.min(8, changed.size())))
                    + (changed.size() > 8 ? " and " + (changed.size() - 8) + " more" : "")
                    + " into its tree");
        }
    }
}
