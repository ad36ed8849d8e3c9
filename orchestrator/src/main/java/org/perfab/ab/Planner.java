package org.perfab.ab;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import org.perfab.exec.Commands;
import org.perfab.exec.Counters;
import org.perfab.failure.BadInputException;
import org.perfab.git.Commit;
import org.perfab.git.GitRepo;
import org.perfab.model.Warning;
import org.perfab.stats.Thresholds;
import org.perfab.workload.Workload;
import org.perfab.workload.WorkloadLoader;

/**
 * Makes the plan of an A/B run ({@code run.json}) from its request: a new run's from the
 * repository and the head's workload, its settings layered once ({@link RunSettings}); a resumed run's as it was
 * written, with the options it goes on with.
 */
final class Planner {
    private final AbRequest request;
    private final Events events;
    private final Clock clock;
    private final Ledger ledger;
    private final RunDir dir;
    /** The noise file of an A/A run the cells are marked by, as the run read it; empty for none. */
    private final Optional<Plan.Noise> noise;

    /** What runs the run's commands: here, {@code perf stat} for a workload that reads the CPU's counters. */
    private final Commands processes;

    Planner(
            AbRequest request,
            Events events,
            Clock clock,
            Ledger ledger,
            RunDir dir,
            Optional<Plan.Noise> noise,
            Commands processes) {
        this.processes = Objects.requireNonNull(processes, "processes");
        this.request = Objects.requireNonNull(request, "request");
        this.events = Objects.requireNonNull(events, "events");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.ledger = Objects.requireNonNull(ledger, "ledger");
        this.dir = Objects.requireNonNull(dir, "dir");
        this.noise = Objects.requireNonNull(noise, "noise");
    }

    /**
     * Returns the plan of a new run, written to the run's folder: the refs resolved, the workload
     * read from the head's tree, and the run's size and verdict settings layered.
     *
     * @throws BadInputException for an unknown ref, a missing or bad workload, or settings that do
     *     not fit together
     */
    Plan fresh() throws IOException, InterruptedException {
        Instant started = clock.instant();
        try (GitRepo git = GitRepo.open(request.repository())) {
            Commit baseTip = git.resolve(request.base().orElseGet(() -> {
                GitRepo.DefaultBranch d = git.defaultBranch();
                events.note("base: " + d.ref() + ", the repository's default branch (" + d.found() + ")");
                return d.ref();
            }));
            Commit head = head(git);
            Commit mergeBase = mergeBase(git, baseTip, head);
            String workload = workloadPath(git, head);
            String shown = workload + " at " + request.head() + " (" + head.shortId() + ")";
            String yaml = new String(
                    git.read(head, workload).orElseThrow(() -> noWorkload(git, workload, shown)),
                    StandardCharsets.UTF_8);
            Workload w = WorkloadLoader.parse(yaml, shown);
            checkCounters(w, shown, processes);
            RunSettings.Size size = request.settings().size(w, shown);
            int trialCount = size.trials().value();
            Thresholds thresholds = request.settings().verdictRules(w, request.workload(), size);
            Optional<Long> seed = request.seed().or(w::seed);
            Plan p = new Plan(
                    request.repository().toString(),
                    baseTip,
                    head,
                    mergeBase,
                    workload,
                    yaml,
                    trialCount,
                    w.warmup(),
                    size.builds().value(),
                    seed,
                    request.settings().padded()
                            ? Optional.of(seed.orElseGet(() -> new Random().nextLong()))
                            : Optional.empty(),
                    thresholds,
                    started,
                    request.shard(),
                    request.shardTimes(),
                    List.of(),
                    List.of(),
                    Optional.of(options()));
            p.write(dir.plan());
            return p;
        }
    }

    /**
     * Returns the head's commit: the ref's, or for {@link GitRepo#WORKTREE} a snapshot of the working
     * tree, warned of when it differs from the commit checked out.
     */
    private Commit head(GitRepo git) throws IOException {
        if (!request.head().equals(GitRepo.WORKTREE)) {
            return git.resolve(request.head());
        }
        Commit head = git.snapshot(
                Stream.concat(Stream.of(request.out()), request.cache().stream())
                        .toList(),
                events::note);
        Commit tip = git.resolve("HEAD");
        events.note("the head is " + head.subject() + ": " + head.shortId());
        if (!tip.id().equals(head.id())) {
            ledger.warning(Warning.of(
                    Warning.Kind.UNCOMMITTED_HEAD, List.of(tip.shortId(), head.shortId()), Map.of("files", (long)
                            git.changedFiles(tip, head))));
        }
        return head;
    }

    /**
     * Returns the merge-base of {@code baseTip} and {@code head}: the first, where there are several,
     * which is warned of.
     */
    private Commit mergeBase(GitRepo git, Commit baseTip, Commit head) throws IOException {
        List<Commit> bases = git.mergeBases(baseTip, head);
        Commit mergeBase = bases.get(0);
        if (bases.size() > 1) {
            List<String> ids = bases.stream().map(Commit::shortId).toList();
            events.note("base and head have " + bases.size() + " merge-bases (a criss-cross merge): "
                    + String.join(", ", ids) + "; the baseline is " + mergeBase.shortId());
            ledger.warning(Warning.of(Warning.Kind.SEVERAL_MERGE_BASES, ids, Map.of()));
        }
        return mergeBase;
    }

    /**
     * Refuses a workload {@code w} (named {@code shown}) that reads the CPU's counters on a machine,
     * that {@code processes} run on, that cannot.
     */
    private static void checkCounters(Workload w, String shown, Commands processes) throws InterruptedException {
        if (w.harness().measure().stream().anyMatch(Workload.Measure::hardware)) {
            Optional<String> problem = Counters.hardwareProblem(processes);
            if (problem.isPresent()) {
                throw new BadInputException(shown + ": harness measure hw-instructions and hw-cycles read the CPU's"
                        + " counters, and this machine cannot: " + problem.get());
            }
        }
    }

    /**
     * Returns {@code p}, the plan of the run being resumed, with the options it goes on with: a plan
     * of an earlier perfab, which did not keep them, keeps this request's from now on.
     */
    Plan resumed(Plan p) throws IOException {
        events.note("resuming the run in " + dir.root() + " (" + p.head().typed() + " against "
                + p.baseTip().typed() + ") with the settings it began with");
        if (p.options().isEmpty()) {
            p = p.withOptions(options());
            p.write(dir.plan());
        }
        return p;
    }

    /** Returns the options of this run that its plan keeps beside the trial order. */
    private Plan.Options options() {
        return new Plan.Options(request.budget(), request.failOn(), noise, request.cache());
    }

    /**
     * Returns the workload's path in the head's tree. A path given in a subfolder of the working tree
     * names a file of that subfolder, as git's paths do, unless only the tree's root has it; an
     * absolute path in the working tree names that file of the tree; the default is taken from the
     * root.
     */
    private String workloadPath(GitRepo git, Commit head) {
        Path given = Path.of(request.workload());
        Optional<String> folder =
                given.isAbsolute() && given.getParent() != null ? git.prefixOf(given.getParent()) : Optional.empty();
        if (folder.isPresent()) {
            return folder.get() + given.getFileName(); // an absolute path in the working tree names the tree's file
        }
        String prefix = git.prefixOf(request.repository()).orElse("");
        if (prefix.isEmpty() || request.workload().equals(AbRequest.DEFAULT_WORKLOAD)) {
            return request.workload();
        }
        String inFolder =
                Path.of(prefix + request.workload()).normalize().toString().replace('\\', '/');
        return git.read(head, inFolder).isEmpty()
                        && git.read(head, request.workload()).isPresent()
                ? request.workload()
                : inFolder;
    }

    /** Says why the head has no workload file at {@code path}, and what to do. */
    private BadInputException noWorkload(GitRepo git, String path, String shown) {
        Optional<Path> root = git.workTree().map(r -> r.toAbsolutePath().normalize());
        Path given = Path.of(path);
        if (given.isAbsolute() || given.normalize().startsWith("..")) {
            Path outside = root.map(r -> r.resolve(given).normalize()).orElse(given);
            if (outside.getParent() == null || git.prefixOf(outside.getParent()).isEmpty()) {
                return new BadInputException("no workload file: " + shown + " is outside the repository, and perfab"
                        + " reads the workload from the head's tree, so that the harness is the head's own: copy it"
                        + " into the repository and commit it on the head, or copy it in and measure the working tree"
                        + " with --head " + GitRepo.WORKTREE);
            }
        }
        Optional<Path> onDisk = root.map(r -> r.resolve(path)).filter(Files::isRegularFile);
        if (onDisk.isPresent() && !request.head().equals(GitRepo.WORKTREE)) {
            return new BadInputException("no workload file: " + shown + " is not in that commit, though the working"
                    + " tree has " + path + " (uncommitted, or on another branch): commit it, or measure the working"
                    + " tree with --head " + GitRepo.WORKTREE);
        }
        return new BadInputException("no workload file: " + shown + " does not exist (give its path with --workload)");
    }

    /**
     * Returns the noise file at {@code file}, as read now.
     *
     * @throws BadInputException naming the file when it cannot be read or is not a noise file
     */
    static Plan.Noise noise(Path file) {
        Plan.Noise noise;
        try {
            noise = new Plan.Noise(file, Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new BadInputException("--noise " + file + ": cannot read: " + BadInputException.reason(e), e);
        }
        noise.floors(); // a file that is not a noise file is refused before the run begins
        return noise;
    }
}
