package org.perfab.ab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.perfab.git.Commit;
import org.perfab.git.GitRepo;
import org.perfab.model.RunResults;
import org.perfab.model.Side;
import org.perfab.workload.Workload;

/**
 * Makes a run's sides ready to measure: each side and build checked out into its own folder, the
 * head's harness files copied into the base's, and each built into its private output folder (or
 * taken from the cache). A side whose build finished before (a resumed run) is kept as it is.
 */
final class Sides {
    private final Plan plan;
    private final Workload workload;
    private final RunDir dir;
    private final Builder builder;
    private final Ledger ledger;
    private final Events events;

    Sides(Plan plan, Workload workload, RunDir dir, Builder builder, Ledger ledger, Events events) {
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
            HarnessFiles harness = HarnessFiles.of(workload.harness(), plan.workloadPath(), git.files(plan.head()),
                    git.files(plan.mergeBase()));
            note(harness);
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

    private void prepare(GitRepo git, SideDir side, Commit commit, List<GitRepo.Entry> copies)
            throws IOException, InterruptedException {
        Optional<Builder.Result> done = Builder.recorded(side);
        if (done.isPresent() && Files.isDirectory(side.tree())) {
            ledger.build(side, done.get(), 0, 0);
            return;
        }
        dir.delete(dir.root().relativize(side.root()).toString());
        long t0 = System.nanoTime();
        git.checkout(commit, side.tree());
        git.overlay(plan.head(), copies, side.tree());
        builder.perturb(side, commit, workload.build());
        Map<String, Trees.Stamp> snapshot = Trees.snapshot(side.tree());
        long t1 = System.nanoTime();
        String what = side.label() + " (" + commit.shortId() + ")";
        if (workload.build().isPresent()) {
            events.building(what);
        }
        Builder.Result r = builder.build(side, Builder.sources(commit, copies, workload.build()), workload.build(),
                snapshot);
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
            events.note("the base runs the head's harness: copied " + String.join(", ", changed.subList(0,
                    Math.min(8, changed.size()))) + (changed.size() > 8 ? " and " + (changed.size() - 8) + " more" : "")
                    + " into its tree");
        }
    }
}
