package org.perfab.baseline;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiConsumer;
import org.perfab.ab.MachineProbe;
import org.perfab.failure.BadInputException;
import org.perfab.ingest.MeasurementFormat;
import org.perfab.model.Baseline;
import org.perfab.model.BaselineCheck;
import org.perfab.model.BaselineDiff;
import org.perfab.model.BaselineUpdate;
import org.perfab.model.Exclusions;
import org.perfab.model.ResultsJson;
import org.perfab.model.Snapshot;

/**
 * A ratchet baseline's core, one method per step of its life: make a snapshot of a run, seed the
 * floors from a folder of snapshots, check a snapshot against them, ratchet them down, compare two
 * baselines, measure the floor under the budget, and the demo of all of these on a synthetic corpus.
 * Each takes what the command line gave and returns what happened, for a renderer to word. The files
 * it writes go through {@code write}, which replaces a file whole (a reader never sees half).
 */
public final class Ratchet {
    /** The coherence tolerance, in percent, when none is given. */
    public static final double DEFAULT_TOLERANCE = 5;
    /**
     * How far, in percent, an update may lower a floor before it names it: a halving. Builds that
     * cannot differ spread 39% at the 95th percentile on a noisy tier, so a smaller figure names
     * ordinary nights; a benchmark that stopped doing its work falls much further.
     */
    public static final double DROP_TOLERANCE = 50;

    private Ratchet() {}

    /**
     * An anchor that cannot be used: none given and no baseline to take it from, or one the
     * exclusions leave out. A mistake of the command line (exit 2), worded for it.
     */
    public static final class BadAnchorException extends BadInputException {
        private static final long serialVersionUID = 1L;

        BadAnchorException(String message) {
            super(message);
        }
    }

    /** Returns the baseline in {@code file}; a {@link BadInputException} names the file when it is not one. */
    static Baseline readBaseline(Path file) {
        return Baseline.read(BadInputException.read(file), file.toString());
    }

    /** Returns the snapshot in {@code file}; a {@link BadInputException} names the file when it is not one. */
    static Snapshot readSnapshot(Path file) {
        return Snapshot.read(BadInputException.read(file), file.toString());
    }

    /** Where a snapshot's measurements come from. */
    public sealed interface Source permits ToolOutput, AbResults {}

    /**
     * A benchmark tool's output.
     *
     * @param file the output
     * @param format its format; detected when empty
     */
    public record ToolOutput(Path file, Optional<MeasurementFormat> format) implements Source {
        public ToolOutput {
            Objects.requireNonNull(file, "file");
            Objects.requireNonNull(format, "format");
        }
    }

    /**
     * A {@code results.json} of {@code perfab ab}: the head's trials.
     *
     * @param file the results
     */
    public record AbResults(Path file) implements Source {
        public AbResults {
            Objects.requireNonNull(file, "file");
        }
    }

    /**
     * The snapshot to make.
     *
     * @param source where its measurements come from
     * @param stamp the machine key and what else is given; an empty commit is {@code $GITHUB_SHA}'s
     *     for a tool's output
     * @param metric the metric to keep; empty for time, else the only one
     * @param dir the folder to file it in as {@code DATE-SHA-MACHINESLUG.json}; empty to file it nowhere
     * @param replace whether a snapshot of the same day, commit and machine with other values is
     *     replaced rather than refused
     * @param env the environment ({@code GITHUB_SHA}, and this machine's processor)
     */
    public record Snapshotting(
            Source source,
            SnapshotSources.Stamp stamp,
            Optional<String> metric,
            Optional<Path> dir,
            boolean replace,
            Map<String, String> env) {
        public Snapshotting {
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(stamp, "stamp");
            Objects.requireNonNull(metric, "metric");
            Objects.requireNonNull(dir, "dir");
            env = Map.copyOf(env);
        }
    }

    /**
     * A snapshot made.
     *
     * @param made the snapshot and the benchmarks left out of it
     * @param filed the file it was filed in; empty when no folder was given
     * @param already whether that file already held this very snapshot (nothing was written)
     */
    public record Snapped(SnapshotSources.Made made, Optional<Path> filed, boolean already) {}

    /**
     * Returns the snapshot of a run, filed in the request's folder when it names one.
     *
     * @throws BadInputException when the source cannot be read or holds no cost to keep, when the
     *     snapshot has no commit for a file name, or when its file holds another snapshot (of another
     *     machine whose name makes the same file name; of this day, commit and machine with other
     *     values, unless {@code replace})
     */
    public static Snapped snapshot(Snapshotting request, BiConsumer<Path, String> write) {
        SnapshotSources.Stamp given = request.stamp();
        SnapshotSources.Made made;
        if (request.source() instanceof ToolOutput tool) {
            SnapshotSources.Stamp stamp = new SnapshotSources.Stamp(
                    given.machine(),
                    given.arch(),
                    given.cpu(),
                    given.commit().or(() -> Optional.ofNullable(request.env().get("GITHUB_SHA"))),
                    given.date());
            made = SnapshotSources.fromFile(
                    tool.file(),
                    tool.format(),
                    request.metric(),
                    stamp,
                    MachineProbe.probe(request.env()).cpu());
        } else {
            Path results = ((AbResults) request.source()).file();
            made = SnapshotSources.fromResults(ResultsJson.read(results), results.toString(), request.metric(), given);
        }
        if (request.dir().isEmpty()) {
            return new Snapped(made, Optional.empty(), false);
        }
        Snapshot s = made.snapshot();
        String name;
        try {
            name = s.fileName();
        } catch (IllegalArgumentException e) {
            throw new BadInputException("--dir: " + e.getMessage() + "; give it with --commit");
        }
        Path file = request.dir().get().resolve(name);
        if (Files.exists(file)) {
            Snapshot there = readSnapshot(file);
            if (!there.machine().equals(s.machine())) {
                throw new BadInputException(file + " holds a snapshot of the machine '" + there.machine()
                        + "', whose file name is the one of '" + s.machine() + "': give machine keys that"
                        + " differ in letters or digits, not only in case, spaces or punctuation");
            }
            if (there.equals(s)) {
                return new Snapped(made, Optional.of(file), true);
            }
            if (!request.replace()) {
                throw new BadInputException(file + " already holds another snapshot of '" + s.machine()
                        + "' for " + s.date() + " and commit " + s.commit() + " (a rerun of that day's job?):"
                        + " give --replace to keep this one instead");
            }
        }
        write.accept(file, s.write());
        return new Snapped(made, Optional.of(file), false);
    }

    /**
     * The floors to seed.
     *
     * @param snapshots the folder of snapshots
     * @param anchor the benchmark every ratio is against; empty for the anchor of {@code output}
     * @param window snapshots per tier, the newest
     * @param tolerance the coherence tolerance, in percent
     * @param arch only snapshots whose content is of this architecture; empty for all
     * @param exclusions the benchmarks left out
     * @param output the baseline file; when it exists, its other tiers and measured floors are kept
     */
    public record Seeding(
            Path snapshots,
            Optional<String> anchor,
            int window,
            double tolerance,
            Optional<String> arch,
            Exclusions exclusions,
            Path output) {
        public Seeding {
            Objects.requireNonNull(snapshots, "snapshots");
            Objects.requireNonNull(anchor, "anchor");
            Objects.requireNonNull(arch, "arch");
            Objects.requireNonNull(exclusions, "exclusions");
            Objects.requireNonNull(output, "output");
        }
    }

    /**
     * The floors seeded.
     *
     * @param seeded the tiers seeded now, with the report of what was left out and noticed
     * @param written the baseline written to the output (the seeded tiers over the file's own);
     *     empty when no tier was seeded and the file was left as it was
     * @param noSnapshot whether the folder held no snapshot at all (of the architecture asked for)
     */
    public record Seeded(Baseline seeded, Optional<Baseline> written, boolean noSnapshot) {}

    /**
     * Returns the floors seeded from the newest snapshots of each tier (see {@link Corpus#seed}),
     * written over the request's output when some tier was seeded.
     *
     * @throws BadAnchorException when no anchor is given and the output does not exist yet, or the
     *     exclusions leave the anchor out
     * @throws BadInputException when the folder or the output cannot be read, or the output's anchor
     *     is another
     */
    public static Seeded seed(Seeding request, BiConsumer<Path, String> write) {
        Path output = request.output();
        Optional<Baseline> existing = Files.exists(output) ? Optional.of(readBaseline(output)) : Optional.empty();
        String anchor = request.anchor()
                .or(() -> existing.map(Baseline::anchor))
                .orElseThrow(
                        () -> new BadAnchorException("--anchor NAME is needed: " + output + " does not exist yet"));
        if (request.exclusions().excludes(anchor)) {
            throw new BadAnchorException("the anchor " + anchor + " is excluded by a prefix");
        }
        Corpus corpus = Corpus.read(request.snapshots(), request.arch());
        Baseline seeded = corpus.seed(anchor, request.window(), request.tolerance(), request.exclusions());
        Baseline result;
        try {
            result = existing.map(b -> b.with(seeded)).orElse(seeded);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(output + ": " + e.getMessage());
        }
        if (seeded.tiers().isEmpty()) {
            return new Seeded(seeded, Optional.empty(), corpus.tiers().isEmpty());
        }
        write.accept(output, result.write());
        return new Seeded(seeded, Optional.of(result), false);
    }

    /**
     * The budget a check allows: a percentage, or a multiple of the tier's measured floor.
     *
     * @param percent the percentage; ignored when {@code auto}
     * @param auto whether the budget comes from the tier's measured floor
     * @param multiple what the measured spreads are multiplied by, with {@code auto}
     */
    public record Allowance(double percent, boolean auto, double multiple) {
        public Allowance {
            if (auto ? !(multiple > 0) || Double.isInfinite(multiple) : !(percent >= 0) || Double.isInfinite(percent)) {
                throw new IllegalArgumentException(
                        auto
                                ? "a multiple is above 0, got " + multiple
                                : "a budget is a percentage >= 0, got " + percent);
            }
        }

        /** A budget of {@code percent}. */
        public static Allowance of(double percent) {
            return new Allowance(percent, false, Double.NaN);
        }

        /** A budget of {@code multiple} times the tier's measured floor. */
        public static Allowance auto(double multiple) {
            return new Allowance(Double.NaN, true, multiple);
        }
    }

    /**
     * The check to run.
     *
     * @param baseline the baseline file
     * @param snapshot the snapshot file
     * @param budget how far above its floor a ratio may go
     * @param exclusions the benchmarks left out
     * @param tolerance the coherence tolerance, in percent
     */
    public record Checking(Path baseline, Path snapshot, Allowance budget, Exclusions exclusions, double tolerance) {
        public Checking {
            Objects.requireNonNull(baseline, "baseline");
            Objects.requireNonNull(snapshot, "snapshot");
            Objects.requireNonNull(budget, "budget");
            Objects.requireNonNull(exclusions, "exclusions");
        }
    }

    /**
     * Returns the check of a snapshot against the floors of its tier.
     *
     * @throws BadInputException when a file cannot be read, the budget is {@code auto} and the tier
     *     has no measured floor, or the snapshot cannot be checked (it lacks the anchor, say)
     */
    public static BaselineCheck check(Checking request) {
        Baseline b = readBaseline(request.baseline());
        Snapshot s = readSnapshot(request.snapshot());
        BaselineCheck.Budget budget;
        if (request.budget().auto()) {
            Baseline.Key key = new Baseline.Key(s.machine(), s.arch());
            Baseline.Floor floor = b.floor(key)
                    .orElseThrow(() -> new BadInputException(request.baseline() + ": no"
                            + " measured floor for " + key
                            + ", so --budget auto has nothing to multiply; measure one with"
                            + " 'perfab baseline floor --snapshots CONTROL_DIR --baseline " + request.baseline()
                            + "'"));
            budget = BaselineCheck.Budget.auto(floor, request.budget().multiple());
        } else {
            budget = BaselineCheck.Budget.of(request.budget().percent());
        }
        try {
            return BaselineCheck.of(
                    b, s, request.snapshot().toString(), budget, request.exclusions(), request.tolerance());
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e.getMessage());
        }
    }

    /**
     * The ratcheting to do.
     *
     * @param baseline the baseline file
     * @param snapshots the snapshots, taken in order
     * @param tolerance the coherence tolerance, in percent
     * @param dropTolerance a floor lowered by more than this, in percent, is named
     * @param exclusions the benchmarks left out
     * @param output where to write the baseline; empty for over {@code baseline}
     */
    public record Updating(
            Path baseline,
            List<Path> snapshots,
            double tolerance,
            double dropTolerance,
            Exclusions exclusions,
            Optional<Path> output) {
        public Updating {
            Objects.requireNonNull(baseline, "baseline");
            snapshots = List.copyOf(snapshots);
            Objects.requireNonNull(exclusions, "exclusions");
            Objects.requireNonNull(output, "output");
        }
    }

    /**
     * The floors ratcheted.
     *
     * @param update what each snapshot did
     * @param baseline the baseline written
     * @param written where
     */
    public record Updated(BaselineUpdate update, Baseline baseline, Path written) {}

    /**
     * Returns the baseline with its floors ratcheted down by each snapshot in turn: every benchmark
     * a snapshot held below its floor takes the snapshot's ratio; new benchmarks are not added. The
     * baseline is written whatever the snapshots did. What a reader should look at is kept with each
     * step: a snapshot older than its tier's seeding window, and each floor it lowered, so that a
     * floor falling twentyfold (a benchmark that stopped doing its work) is named.
     *
     * @throws BadInputException when a file cannot be read or a snapshot cannot be checked
     */
    public static Updated update(Updating request, BiConsumer<Path, String> write) {
        Baseline b = readBaseline(request.baseline());
        List<BaselineUpdate.Step> steps = new ArrayList<>();
        for (Path p : request.snapshots()) {
            Snapshot s = readSnapshot(p);
            BaselineCheck c;
            try {
                c = BaselineCheck.of(
                        b,
                        s,
                        p.getFileName().toString(),
                        BaselineCheck.Budget.of(0),
                        request.exclusions(),
                        request.tolerance());
            } catch (IllegalArgumentException e) {
                throw new BadInputException(e.getMessage());
            }
            List<BaselineUpdate.Lowered> lowered = new ArrayList<>();
            if (c.known() && !c.incoherent()) {
                Baseline before = b;
                List<Baseline.Entry> down = c.ratcheted(before);
                down.forEach(e -> lowered.add(new BaselineUpdate.Lowered(
                        e.benchmark(),
                        before.entries(e.key()).stream()
                                .filter(o -> o.benchmark().equals(e.benchmark()))
                                .findFirst()
                                .orElseThrow()
                                .ratio(),
                        e.ratio())));
                b = b.withEntries(down);
            }
            Optional<LocalDate> seeded =
                    b.tier(c.key()).map(Baseline.Tier::date).filter(s.date()::isBefore);
            steps.add(new BaselineUpdate.Step(p.toString(), c, lowered, seeded));
        }
        Path to = request.output().orElse(request.baseline());
        write.accept(to, b.write());
        return new Updated(new BaselineUpdate(steps, request.tolerance(), request.dropTolerance()), b, to);
    }

    /**
     * Returns two baselines side by side.
     *
     * @throws BadInputException when a file cannot be read or the two cannot be compared
     */
    public static BaselineDiff diff(Path first, Path second) {
        try {
            return BaselineDiff.of(readBaseline(first), readBaseline(second));
        } catch (IllegalArgumentException e) {
            throw new BadInputException(first + " and " + second + ": " + e.getMessage());
        }
    }

    /**
     * The floor to measure.
     *
     * @param snapshots the folder of control snapshots
     * @param anchor the anchor; empty for the baseline's
     * @param arch only snapshots whose content is of this architecture; empty for all
     * @param baseline the baseline to store the floors in; empty to store them nowhere
     * @param exclusions the benchmarks left out
     */
    public record Flooring(
            Path snapshots,
            Optional<String> anchor,
            Optional<String> arch,
            Optional<Path> baseline,
            Exclusions exclusions) {
        public Flooring {
            Objects.requireNonNull(snapshots, "snapshots");
            Objects.requireNonNull(anchor, "anchor");
            Objects.requireNonNull(arch, "arch");
            Objects.requireNonNull(baseline, "baseline");
            Objects.requireNonNull(exclusions, "exclusions");
            if (anchor.isEmpty() && baseline.isEmpty()) {
                throw new IllegalArgumentException("an anchor, or a baseline to take it from");
            }
        }
    }

    /**
     * The floors measured.
     *
     * @param floors each tier's with two control snapshots or more
     * @param anchor the anchor they are measured against
     * @param stored the baseline they were stored in; empty when none was given or no tier had a floor
     */
    public record Floored(List<Baseline.Floor> floors, String anchor, Optional<Path> stored) {
        public Floored {
            floors = List.copyOf(floors);
        }
    }

    /**
     * Returns each tier's noise floor over its control snapshots (see {@link Corpus#floors}),
     * stored in the request's baseline when some tier has one.
     *
     * @throws BadInputException when a file or the folder cannot be read, or the baseline's anchor is
     *     another
     */
    public static Floored floor(Flooring request, BiConsumer<Path, String> write) {
        Optional<Baseline> b = request.baseline().map(Ratchet::readBaseline);
        String anchor = request.anchor().orElseGet(() -> b.orElseThrow().anchor());
        if (b.isPresent() && !b.get().anchor().equals(anchor)) {
            throw new BadInputException(
                    request.baseline().get() + ": its anchor is " + b.get().anchor() + ", not " + anchor);
        }
        List<Baseline.Floor> floors =
                Corpus.read(request.snapshots(), request.arch()).floors(anchor, request.exclusions());
        if (floors.isEmpty() || b.isEmpty()) {
            return new Floored(floors, anchor, Optional.empty());
        }
        write.accept(request.baseline().get(), b.get().withFloors(floors).write());
        return new Floored(floors, anchor, request.baseline());
    }

    /** What the budget multiplies the measured spreads by in the demo, as {@code check --budget auto} does. */
    public static final double DEMO_MULTIPLE = 2;

    /**
     * A check of the demo.
     *
     * @param name the snapshot's name ({@code clean}, {@code regressed})
     * @param check its check
     * @param caught for the regressed snapshot, whether its regressed benchmark is among those
     *     flagged; empty for the others
     */
    public record DemoCheck(String name, BaselineCheck check, Optional<Boolean> caught) {}

    /**
     * The demo's corpus, and what perfab made of it.
     *
     * @param dir the folder of the corpus and both baselines
     * @param windowOne the baseline seeded with a window of 1
     * @param windowFive the one seeded with a window of 5, with the measured floor
     * @param floors the measured floor
     * @param checks tonight's snapshots checked against a budget of 5%, then against {@code auto}
     */
    public record Demo(
            Path dir, Baseline windowOne, Baseline windowFive, List<Baseline.Floor> floors, List<DemoCheck> checks) {
        public Demo {
            floors = List.copyOf(floors);
            checks = List.copyOf(checks);
        }

        /** Returns the diff of the two windows. */
        public BaselineDiff diff() {
            return BaselineDiff.of(windowOne, windowFive);
        }
    }

    /**
     * Writes a synthetic corpus of snapshots into {@code dir} (see {@link SyntheticSnapshots}),
     * seeds it with windows of 1 and 5, measures its floor, checks tonight's snapshots, and returns
     * all of it.
     *
     * @param dir the folder to write into; empty for a new temporary folder
     * @param seed the noise's seed
     * @throws BadInputException when the folder already holds a corpus
     */
    public static Demo demo(Optional<Path> dir, long seed, BiConsumer<Path, String> write) throws IOException {
        Path d = dir.isPresent() ? dir.get() : Files.createTempDirectory("perfab-baseline-");
        if (Files.exists(d.resolve("history"))) {
            throw new BadInputException(d + " already holds a corpus (history/); choose an empty folder");
        }
        SyntheticSnapshots.write(d, seed);
        Exclusions ex =
                new Exclusions(List.of(SyntheticSnapshots.SUITE, SyntheticSnapshots.SUITE_COMPILE, "RemovedBenchmark"));
        Corpus corpus = Corpus.read(d.resolve("history"), Optional.empty());
        Baseline one = corpus.seed(SyntheticSnapshots.ANCHOR, 1, DEFAULT_TOLERANCE, ex);
        Baseline five = corpus.seed(SyntheticSnapshots.ANCHOR, 5, DEFAULT_TOLERANCE, ex);
        List<Baseline.Floor> floors =
                Corpus.read(d.resolve("control"), Optional.empty()).floors(SyntheticSnapshots.ANCHOR, ex);
        five = five.withFloors(floors);
        write.accept(d.resolve("baseline-window1.json"), one.write());
        write.accept(d.resolve("baseline.json"), five.write());
        Baseline.Key latest = new Baseline.Key("ubuntu-latest", "amd64");
        List<DemoCheck> checks = new ArrayList<>();
        for (BaselineCheck.Budget budget : List.of(
                BaselineCheck.Budget.of(5),
                BaselineCheck.Budget.auto(five.floor(latest).orElseThrow(), DEMO_MULTIPLE))) {
            for (String name : List.of("clean", "regressed")) {
                Path file = d.resolve("tonight/" + name + ".json");
                BaselineCheck c =
                        BaselineCheck.of(five, readSnapshot(file), file.toString(), budget, ex, DEFAULT_TOLERANCE);
                boolean caught = c.rows().stream()
                        .anyMatch(r -> r.benchmark().equals(SyntheticSnapshots.REGRESSED)
                                && r.status() == BaselineCheck.Status.REGRESSED);
                checks.add(new DemoCheck(name, c, name.equals("regressed") ? Optional.of(caught) : Optional.empty()));
            }
        }
        return new Demo(d, one, five, floors, checks);
    }
}
