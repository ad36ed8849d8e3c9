package org.perfab.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.perfab.ab.MachineProbe;
import org.perfab.baseline.Corpus;
import org.perfab.baseline.SnapshotSources;
import org.perfab.demo.SyntheticSnapshots;
import org.perfab.failure.BadInputException;
import org.perfab.ingest.MeasurementFormat;
import org.perfab.model.Baseline;
import org.perfab.model.BaselineCheck;
import org.perfab.model.BaselineDiff;
import org.perfab.model.Exclusions;
import org.perfab.model.Snapshot;
import org.perfab.report.BaselineRenderer;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code perfab baseline}: a ratchet baseline of per-tier floors, seeded from a window of
 * snapshots in ratio space against one anchor benchmark, behind a coherence gate, and checked,
 * ratcheted down and compared in ratio space, so a fast or slow host trips nothing.
 */
@Command(name = "baseline", mixinStandardHelpOptions = true, synopsisSubcommandLabel = "COMMAND",
        description = {"A ratchet baseline: per machine key and architecture, a floor for each benchmark, kept as a"
                + " ratio to one anchor benchmark of the same run. Seed it from a window of snapshots, check every CI"
                + " run against it within a budget, ratchet it down, and measure the budget's floor."},
        subcommands = {BaselineCommand.SnapshotCommand.class, BaselineCommand.Seed.class, BaselineCommand.Check.class,
            BaselineCommand.Update.class, BaselineCommand.Diff.class, BaselineCommand.Floor.class,
            BaselineCommand.Demo.class})
final class BaselineCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCode.BAD_INPUT;
    }

    static final double DEFAULT_TOLERANCE = 5;

    /** The exclusion prefixes every command that reads benchmarks takes. */
    static final class ExclusionOptions {
        @Option(names = "--exclude", paramLabel = "PREFIX", description = "Leave out benchmarks whose names start with"
                + " PREFIX. Repeatable.")
        List<String> prefixes = new ArrayList<>();

        @Option(names = "--exclusions", paramLabel = "FILE", description = "A file of prefixes to leave out, one a line"
                + " (# starts a comment).")
        Path file;

        Exclusions exclusions(CommandSpec spec) {
            Exclusions e;
            try {
                e = new Exclusions(prefixes);
            } catch (IllegalArgumentException ex) {
                throw new ParameterException(spec.commandLine(), "--exclude: " + ex.getMessage());
            }
            return file == null ? e : e.and(Exclusions.parse(BadInputException.read(file)));
        }
    }

    static Baseline readBaseline(Path file) {
        return Baseline.read(BadInputException.read(file), file.toString());
    }

    static Snapshot readSnapshot(Path file) {
        return Snapshot.read(BadInputException.read(file), file.toString());
    }

    static Optional<String> arch(CommandSpec spec, String text) {
        if (text == null) {
            return Optional.empty();
        }
        return Optional.of(Snapshot.arch(text).orElseThrow(() -> new ParameterException(spec.commandLine(),
                "--arch '" + text + "' is not an architecture perfab knows (amd64, arm64, 386, arm, riscv64, ...)")));
    }

    static void tolerance(CommandSpec spec, double tolerance) {
        if (!(tolerance > 0) || Double.isInfinite(tolerance)) {
            throw new ParameterException(spec.commandLine(), "--coherence-tolerance must be a percentage above 0, got "
                    + tolerance);
        }
    }

    /** {@code perfab baseline snapshot}. */
    @Command(name = "snapshot", mixinStandardHelpOptions = true,
            description = {"Write one CI run's measurements on one machine as a snapshot (perfab/snapshot/v1): from"
                    + " go test -bench output (its goarch and cpu header, and b.N), any format perfab reads, or a"
                    + " results.json of 'perfab ab' (the head's trials)."})
    static final class SnapshotCommand implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        /** Where the measurements come from: one of the two. */
        static final class Source {
            @Option(names = "--from", required = true, paramLabel = "FILE", description = "A benchmark tool's output.")
            Path file;

            @Option(names = "--results", required = true, paramLabel = "RESULTS", description = "A results.json of"
                    + " 'perfab ab'.")
            Path results;
        }

        @ArgGroup(exclusive = true, multiplicity = "1")
        Source source;

        @Option(names = "--format-in", paramLabel = "FORMAT", completionCandidates = InputFormats.class,
                description = "The format of --from (default: detected): ${COMPLETION-CANDIDATES}.")
        String formatIn;

        @Option(names = "--machine", required = true, paramLabel = "KEY", description = "The machine key: the runner"
                + " class (tier) whose snapshots are comparable.")
        String machine;

        @Option(names = "--arch", paramLabel = "ARCH", description = "The architecture (default: Go's goarch, else"
                + " this machine's).")
        String arch;

        @Option(names = "--cpu", paramLabel = "MODEL", description = "The processor model (default: Go's cpu, the"
                + " results' machine, else this one's).")
        String cpu;

        @Option(names = "--commit", paramLabel = "SHA", description = "The commit (default: the results' head, else"
                + " $GITHUB_SHA).")
        String commit;

        @Option(names = "--date", paramLabel = "DATE", description = "The run's day, ISO (default: today, UTC).")
        String date;

        @Option(names = "--metric", paramLabel = "METRIC", description = "The metric to keep, a cost (default: time,"
                + " else the only one).")
        String metric;

        @Option(names = "--dir", paramLabel = "DIR", description = "Write it into DIR as DATE-SHA-MACHINESLUG.json.")
        Path dir;

        @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write it to FILE (default: print"
                + " it).")
        Path output;

        @Option(names = "--replace", description = "With --dir, write over the snapshot of the same day, commit and"
                + " machine already there (a rerun of that day's job); without it, one with other values is refused.")
        boolean replace;

        @Override
        public Integer call() {
            LocalDate day = Output.day(spec, date);
            if (dir != null && output != null) {
                throw new ParameterException(spec.commandLine(), "give --dir or -o, not both");
            }
            Map<String, String> env = System.getenv();
            SnapshotSources.Stamp stamp = new SnapshotSources.Stamp(machine, arch(spec, arch), Optional.ofNullable(cpu),
                    Optional.ofNullable(commit).or(() -> source.file != null ? Optional.ofNullable(env.get("GITHUB_SHA"))
                            : Optional.empty()), day);
            SnapshotSources.Made made;
            if (source.file != null) {
                Optional<MeasurementFormat> in = formatIn == null ? Optional.empty() : Optional.of(MeasurementFormat
                        .byId(formatIn).orElseThrow(() -> new ParameterException(spec.commandLine(), "--format-in:"
                                + " unknown format '" + formatIn + "' (known: " + MeasurementFormat.names() + ")")));
                made = SnapshotSources.fromFile(source.file, in, Optional.ofNullable(metric), stamp,
                        MachineProbe.probe(env).cpu());
            } else {
                made = SnapshotSources.fromResults(ReportCommand.read(source.results), source.results.toString(),
                        Optional.ofNullable(metric), stamp);
            }
            Snapshot s = made.snapshot();
            if (!made.zero().isEmpty()) {
                int n = made.zero().size();
                spec.commandLine().getErr().println("perfab: left out " + n + " benchmark" + (n == 1 ? "" : "s")
                        + " whose value is 0 (a ratio needs a cost above 0): " + String.join(", ", made.zero().subList(0,
                                Math.min(10, n))) + (n > 10 ? ", …" : ""));
            }
            if (dir != null) {
                String name;
                try {
                    name = s.fileName();
                } catch (IllegalArgumentException e) {
                    throw new BadInputException("--dir: " + e.getMessage() + "; give it with --commit");
                }
                Path file = dir.resolve(name);
                if (Files.exists(file)) {
                    Snapshot there = readSnapshot(file);
                    if (!there.machine().equals(s.machine())) {
                        throw new BadInputException(file + " holds a snapshot of the machine '" + there.machine()
                                + "', whose file name is the one of '" + s.machine() + "': give machine keys that"
                                + " differ in letters or digits, not only in case, spaces or punctuation");
                    }
                    if (there.equals(s)) {
                        spec.commandLine().getErr().println("perfab: " + file + " already holds this snapshot");
                        return ExitCode.OK;
                    }
                    if (!replace) {
                        throw new BadInputException(file + " already holds another snapshot of '" + s.machine()
                                + "' for " + s.date() + " and commit " + s.commit() + " (a rerun of that day's job?):"
                                + " give --replace to keep this one instead");
                    }
                }
                Output.replace(file, s.write());
                spec.commandLine().getErr().println("perfab: wrote " + file + " (" + s.benchmarks().size()
                        + " benchmarks)");
                return ExitCode.OK;
            }
            if (output != null) {
                Output.replace(output, s.write());
                return ExitCode.OK;
            }
            Output.print(spec, s.write(), null);
            return ExitCode.OK;
        }
    }

    /** {@code perfab baseline seed}. */
    @Command(name = "seed", mixinStandardHelpOptions = true,
            description = {"Seed the floors of every tier (machine key and architecture) from the newest --window"
                    + " snapshots under --snapshots: each benchmark's ratio to the anchor, the median over the window,"
                    + " the value derived back from it and the window's anchor. A snapshot whose ratios sit more than"
                    + " --coherence-tolerance off the rest of its window together is rejected; a benchmark in under"
                    + " half of it is not seeded. Tiers already in -o and not seeded now are kept."})
    static final class Seed implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--snapshots", required = true, paramLabel = "DIR", description = "The folder of snapshots"
                + " (DATE-SHA-MACHINESLUG.json, in subfolders too).")
        Path snapshots;

        @Option(names = "--anchor", paramLabel = "NAME", description = "The benchmark every ratio is against (default:"
                + " the anchor of -o when it exists).")
        String anchor;

        @Option(names = "--window", paramLabel = "N", defaultValue = "5", description = "Snapshots per tier, the newest"
                + " (default: ${DEFAULT-VALUE}; 1 seeds from the newest alone).")
        int window;

        @Option(names = "--coherence-tolerance", paramLabel = "PERCENT", defaultValue = "5", description = "How far a"
                + " snapshot's ratios may sit off the rest of its window (default: ${DEFAULT-VALUE}).")
        double tolerance;

        @Option(names = "--arch", paramLabel = "ARCH", description = "Seed only snapshots whose content is of ARCH.")
        String arch;

        @Mixin
        ExclusionOptions exclusions;

        @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text", description = "The report: text,"
                + " markdown or json (default: ${DEFAULT-VALUE}).")
        BaselineRenderer.Form format;

        @Option(names = {"-o", "--output"}, required = true, paramLabel = "FILE", description = "The baseline file;"
                + " when it exists, its other tiers and measured floors are kept.")
        Path output;

        @Override
        public Integer call() {
            if (window < 1 || window > 1000) {
                throw new ParameterException(spec.commandLine(), "--window must be from 1 to 1000, got " + window);
            }
            tolerance(spec, tolerance);
            Optional<Baseline> existing = Files.exists(output) ? Optional.of(readBaseline(output)) : Optional.empty();
            String a = anchor != null ? anchor : existing.map(Baseline::anchor).orElseThrow(() -> new ParameterException(
                    spec.commandLine(), "--anchor NAME is needed: " + output + " does not exist yet"));
            Exclusions ex = exclusions.exclusions(spec);
            if (ex.excludes(a)) {
                throw new ParameterException(spec.commandLine(), "the anchor " + a + " is excluded by a prefix");
            }
            Corpus corpus = Corpus.read(snapshots, arch(spec, arch));
            Baseline seeded = corpus.seed(a, window, tolerance, ex);
            Baseline result;
            try {
                result = existing.map(b -> b.with(seeded)).orElse(seeded);
            } catch (IllegalArgumentException e) {
                throw new BadInputException(output + ": " + e.getMessage());
            }
            Output.print(spec, BaselineRenderer.seed(seeded, format), null);
            if (seeded.tiers().isEmpty()) {
                spec.commandLine().getErr().println("perfab: no tier was seeded from " + snapshots + (corpus.tiers()
                        .isEmpty() ? ": it holds no snapshot" + (arch == null ? "" : " of " + arch) : "") + "; "
                        + output + " is unchanged");
                return ExitCode.BAD_INPUT;
            }
            Output.replace(output, result.write());
            spec.commandLine().getErr().println("perfab: wrote " + output + " (" + result.tiers().size() + " tiers, "
                    + result.entries().size() + " floors)");
            return ExitCode.OK;
        }
    }

    /** {@code perfab baseline check}. */
    @Command(name = "check", mixinStandardHelpOptions = true,
            description = {"Check a snapshot against the floors of its tier, in ratio space: each benchmark's ratio to"
                    + " the snapshot's own anchor against its stored ratio. OK, REGRESSED (past the budget), NEW (no"
                    + " floor) or MISSING (a floor, no benchmark). Exits 0 whatever it finds, unless --fail-on."})
    static final class Check implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--baseline", required = true, paramLabel = "FILE", description = "The baseline.")
        Path baseline;

        @Option(names = "--snapshot", required = true, paramLabel = "FILE", description = "The snapshot to check.")
        Path snapshot;

        @Option(names = "--budget", paramLabel = "PERCENT|auto", defaultValue = "5", description = "How far above its"
                + " floor a ratio may go, in percent (default: ${DEFAULT-VALUE}). auto: from the tier's measured floor"
                + " ('perfab baseline floor --baseline'), each benchmark gets --budget-multiple times its own spread"
                + " between the control snapshots, at least that times the tier's median spread; a benchmark the"
                + " controls lacked gets that times the tier's 95th percentile.")
        String budget;

        @Option(names = "--budget-multiple", paramLabel = "X", defaultValue = "2", description = "What --budget auto"
                + " multiplies the measured spreads by (default: ${DEFAULT-VALUE}).")
        double multiple;

        @Option(names = "--coherence-tolerance", paramLabel = "PERCENT", defaultValue = "5", description = "How far the"
                + " snapshot's ratios may move together before the check warns that its anchor did (default:"
                + " ${DEFAULT-VALUE}).")
        double tolerance;

        @Mixin
        ExclusionOptions exclusions;

        @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text", description = "text, markdown, json"
                + " or github (default: ${DEFAULT-VALUE}); github also writes the job summary and regressed=, missing=,"
                + " new=, ok= to $GITHUB_OUTPUT.")
        BaselineRenderer.Form format;

        @Option(names = "--fail-on", paramLabel = "STATUS", completionCandidates = Failing.class,
                description = "Exit 1 when a benchmark is regressed, missing or new. Repeatable.")
        List<BaselineCheck.Status> failOn = new ArrayList<>();

        /** The statuses --fail-on takes: every one but OK. */
        static final class Failing implements Iterable<String> {
            @Override
            public Iterator<String> iterator() {
                return Arrays.stream(BaselineCheck.Status.values()).filter(v -> v != BaselineCheck.Status.OK)
                        .map(v -> v.name().toLowerCase(Locale.ROOT)).iterator();
            }
        }

        @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write the check to FILE.")
        Path output;

        @Override
        public Integer call() {
            tolerance(spec, tolerance);
            if (failOn.contains(BaselineCheck.Status.OK)) {
                throw new ParameterException(spec.commandLine(), "--fail-on takes regressed, missing or new");
            }
            Baseline b = readBaseline(baseline);
            Snapshot s = readSnapshot(snapshot);
            Baseline.Key key = new Baseline.Key(s.machine(), s.arch());
            BaselineCheck.Budget applied;
            if (budget.equalsIgnoreCase("auto")) {
                if (!(multiple > 0) || Double.isInfinite(multiple)) {
                    throw new ParameterException(spec.commandLine(), "--budget-multiple must be above 0, got "
                            + multiple);
                }
                Baseline.Floor floor = b.floor(key).orElseThrow(() -> new BadInputException(baseline + ": no measured"
                        + " floor for " + key + ", so --budget auto has nothing to multiply; measure one with 'perfab"
                        + " baseline floor --snapshots CONTROL_DIR --baseline " + baseline + "'"));
                applied = BaselineCheck.Budget.auto(floor, multiple);
            } else {
                try {
                    applied = BaselineCheck.Budget.of(Double.parseDouble(budget));
                } catch (IllegalArgumentException e) {
                    throw new ParameterException(spec.commandLine(), "--budget '" + budget + "' is not a percentage"
                            + " >= 0 or auto");
                }
            }
            BaselineCheck c;
            try {
                c = BaselineCheck.of(b, s, snapshot.toString(), applied, exclusions.exclusions(spec),
                        tolerance);
            } catch (IllegalArgumentException e) {
                throw new BadInputException(e.getMessage());
            }
            String text = BaselineRenderer.check(c, format);
            if (format == BaselineRenderer.Form.GITHUB) {
                Map<String, String> env = System.getenv();
                try {
                    GithubActions.appendToSummary(env, "the baseline check", BaselineRenderer.check(c,
                            BaselineRenderer.Form.MARKDOWN), "'perfab baseline check --format markdown' prints it");
                    String outputs = env.get("GITHUB_OUTPUT");
                    if (outputs != null && !outputs.isBlank()) {
                        StringBuilder o = new StringBuilder();
                        BaselineRenderer.counts(c).forEach((k, v) -> o.append(k).append('=').append(v).append('\n'));
                        Files.writeString(Path.of(outputs), o, StandardCharsets.UTF_8,
                                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                    }
                } catch (IOException e) {
                    throw Output.cannotWrite("GitHub's step files", e);
                }
            }
            Output.print(spec, text, output);
            return failOn.stream().anyMatch(st -> c.count(st) > 0) ? ExitCode.VERDICT : ExitCode.OK;
        }
    }

    /** {@code perfab baseline update}. */
    @Command(name = "update", mixinStandardHelpOptions = true,
            description = {"Ratchet floors down: every benchmark a snapshot held below its floor takes the snapshot's"
                    + " ratio. A snapshot whose ratios all moved together past --coherence-tolerance (its anchor caught"
                    + " a tail) changes nothing. New benchmarks are not added: seed to add them."})
    static final class Update implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--baseline", required = true, paramLabel = "FILE", description = "The baseline, rewritten"
                + " in place unless -o.")
        Path baseline;

        @Option(names = "--snapshot", required = true, paramLabel = "FILE", description = "A snapshot; repeatable,"
                + " taken in order.")
        List<Path> snapshots;

        @Option(names = "--coherence-tolerance", paramLabel = "PERCENT", defaultValue = "5", description = "(default:"
                + " ${DEFAULT-VALUE}).")
        double tolerance;

        @Mixin
        ExclusionOptions exclusions;

        @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write the baseline to FILE.")
        Path output;

        @Override
        public Integer call() {
            tolerance(spec, tolerance);
            Baseline b = readBaseline(baseline);
            Exclusions ex = exclusions.exclusions(spec);
            int lowered = 0;
            for (Path p : snapshots) {
                Snapshot s = readSnapshot(p);
                BaselineCheck c;
                try {
                    c = BaselineCheck.of(b, s, p.getFileName().toString(), BaselineCheck.Budget.of(0), ex, tolerance);
                } catch (IllegalArgumentException e) {
                    throw new BadInputException(e.getMessage());
                }
                String where = p + " (" + c.key() + ")";
                if (!c.known()) {
                    spec.commandLine().getOut().println(where + ": the baseline has no floors for this tier; seed it");
                    continue;
                }
                if (c.incoherent()) {
                    spec.commandLine().getOut().println(where + ": not taken: its ratios moved together by "
                            + String.format(Locale.ROOT, "%+.1f%%", c.offset()) + ", past the coherence tolerance of "
                            + tolerance + "%; its anchor likely caught a tail");
                    continue;
                }
                List<Baseline.Entry> down = c.ratcheted(b);
                b = b.withEntries(down);
                lowered += down.size();
                int fresh = c.count(BaselineCheck.Status.NEW);
                spec.commandLine().getOut().println(where + ": " + down.size() + " floor" + (down.size() == 1 ? "" : "s")
                        + " ratcheted down" + (fresh == 0 ? "" : "; " + fresh + " new benchmark" + (fresh == 1 ? "" : "s")
                        + " not added (seed to add them)"));
            }
            Path to = output == null ? baseline : output;
            Output.replace(to, b.write());
            spec.commandLine().getErr().println("perfab: " + lowered + " floor" + (lowered == 1 ? "" : "s") + " lowered;"
                    + " wrote " + to);
            return ExitCode.OK;
        }
    }

    /** {@code perfab baseline diff}. */
    @Command(name = "diff", mixinStandardHelpOptions = true,
            description = {"Two baselines side by side: for each floor both have, how far the second's ratio is from"
                    + " the first's, and the share of floors that differ by more than 5%%, 10%% and 25%%."})
    static final class Diff implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "FIRST", description = "A baseline.")
        Path first;

        @Parameters(index = "1", paramLabel = "SECOND", description = "Another.")
        Path second;

        @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text", description = "text, markdown or json"
                + " (default: ${DEFAULT-VALUE}).")
        BaselineRenderer.Form format;

        @Override
        public Integer call() {
            BaselineDiff d;
            try {
                d = BaselineDiff.of(readBaseline(first), readBaseline(second));
            } catch (IllegalArgumentException e) {
                throw new BadInputException(first + " and " + second + ": " + e.getMessage());
            }
            Output.print(spec, BaselineRenderer.diff(d, first.getFileName().toString(), second.getFileName().toString(),
                    format == BaselineRenderer.Form.GITHUB ? BaselineRenderer.Form.MARKDOWN : format), null);
            return ExitCode.OK;
        }
    }

    /** {@code perfab baseline floor}. */
    @Command(name = "floor", mixinStandardHelpOptions = true,
            description = {"Measure the floor under the budget: given control snapshots of builds that cannot differ"
                    + " (a comment-only edit, or one commit run again), print per tier how far their ratios spread"
                    + " over every pair. With --baseline, store it there for 'check --budget auto'."})
    static final class Floor implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--snapshots", required = true, paramLabel = "DIR", description = "The control snapshots.")
        Path snapshots;

        @Option(names = "--anchor", paramLabel = "NAME", description = "The anchor (default: the baseline's).")
        String anchor;

        @Option(names = "--arch", paramLabel = "ARCH", description = "Only snapshots whose content is of ARCH.")
        String arch;

        @Option(names = "--baseline", paramLabel = "FILE", description = "Store the floors in this baseline.")
        Path baseline;

        @Option(names = "--budget-multiple", paramLabel = "X", defaultValue = "2", description = "What --budget auto"
                + " multiplies the spreads by, for the table's budgets (default: ${DEFAULT-VALUE}).")
        double multiple;

        @Mixin
        ExclusionOptions exclusions;

        @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text", description = "text, markdown or json"
                + " (default: ${DEFAULT-VALUE}).")
        BaselineRenderer.Form format;

        @Override
        public Integer call() {
            Optional<Baseline> b = baseline == null ? Optional.empty() : Optional.of(readBaseline(baseline));
            String a = anchor != null ? anchor : b.map(Baseline::anchor).orElseThrow(() -> new ParameterException(
                    spec.commandLine(), "--anchor NAME is needed without --baseline"));
            if (b.isPresent() && !b.get().anchor().equals(a)) {
                throw new BadInputException(baseline + ": its anchor is " + b.get().anchor() + ", not " + a);
            }
            List<Baseline.Floor> floors = Corpus.read(snapshots, arch(spec, arch)).floors(a,
                    exclusions.exclusions(spec));
            Output.print(spec, BaselineRenderer.floors(floors, multiple, format == BaselineRenderer.Form.GITHUB
                    ? BaselineRenderer.Form.MARKDOWN : format), null);
            if (floors.isEmpty()) {
                spec.commandLine().getErr().println("perfab: no tier under " + snapshots + " has two control snapshots"
                        + " with " + a);
                return ExitCode.BAD_INPUT;
            }
            if (b.isPresent()) {
                Output.replace(baseline, b.get().withFloors(floors).write());
                spec.commandLine().getErr().println("perfab: stored " + floors.size() + " floor" + (floors.size() == 1
                        ? "" : "s") + " in " + baseline);
            }
            return ExitCode.OK;
        }
    }

    /** {@code perfab baseline demo}. */
    @Command(name = "demo", mixinStandardHelpOptions = true,
            description = {"Write a synthetic corpus of snapshots (four tiers, eight nights each, a uniformly fast host,"
                    + " a mixed capture, noisy kernels) into --dir, seed it with --window 1 and --window 5, and print"
                    + " the seeding report, the difference between the two, the measured floor and a check."})
    static final class Demo implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--dir", paramLabel = "DIR", description = "Where to write it (default: a new temporary"
                + " folder).")
        Path dir;

        @Option(names = "--seed", paramLabel = "N", defaultValue = "1", description = "The noise's seed (default:"
                + " ${DEFAULT-VALUE}).")
        long seed;

        @Override
        public Integer call() throws IOException {
            Path d = dir != null ? dir : Files.createTempDirectory("perfab-baseline-");
            if (Files.exists(d.resolve("history"))) {
                throw new BadInputException(d + " already holds a corpus (history/); choose an empty folder");
            }
            SyntheticSnapshots.write(d, seed);
            var out = spec.commandLine().getOut();
            Exclusions ex = new Exclusions(List.of(SyntheticSnapshots.SUITE, SyntheticSnapshots.SUITE_COMPILE,
                    "RemovedBenchmark"));
            Corpus corpus = Corpus.read(d.resolve("history"), Optional.empty());
            Baseline one = corpus.seed(SyntheticSnapshots.ANCHOR, 1, DEFAULT_TOLERANCE, ex);
            Baseline five = corpus.seed(SyntheticSnapshots.ANCHOR, 5, DEFAULT_TOLERANCE, ex);
            List<Baseline.Floor> floors = Corpus.read(d.resolve("control"), Optional.empty())
                    .floors(SyntheticSnapshots.ANCHOR, ex);
            five = five.withFloors(floors);
            Output.replace(d.resolve("baseline-window1.json"), one.write());
            Output.replace(d.resolve("baseline.json"), five.write());
            out.print(BaselineRenderer.seed(five, BaselineRenderer.Form.TEXT));
            out.println();
            out.print(BaselineRenderer.diff(BaselineDiff.of(one, five), "window 1", "window 5",
                    BaselineRenderer.Form.TEXT));
            out.println();
            out.print(BaselineRenderer.floors(floors, 2, BaselineRenderer.Form.TEXT));
            out.println();
            Baseline.Key latest = new Baseline.Key("ubuntu-latest", "amd64");
            for (BaselineCheck.Budget budget : List.of(BaselineCheck.Budget.of(5),
                    BaselineCheck.Budget.auto(five.floor(latest).orElseThrow(), 2))) {
                for (String name : List.of("clean", "regressed")) {
                    Path file = d.resolve("tonight/" + name + ".json");
                    BaselineCheck c = BaselineCheck.of(five, readSnapshot(file), file.toString(), budget, ex,
                            DEFAULT_TOLERANCE);
                    boolean caught = c.rows().stream().anyMatch(r -> r.benchmark().equals(SyntheticSnapshots.REGRESSED)
                            && r.status() == BaselineCheck.Status.REGRESSED);
                    out.println(name + ".json: " + BaselineRenderer.count(c) + (name.equals("regressed") ? "; the 12%"
                            + " slower " + SyntheticSnapshots.REGRESSED + (caught ? " among them" : " not among them")
                            : ""));
                }
            }
            out.flush();
            spec.commandLine().getErr().println("perfab: the corpus and both baselines are in " + d + "; try 'perfab"
                    + " baseline check --baseline " + d.resolve("baseline.json") + " --snapshot " + d.resolve(
                            "tonight/fast-host.json") + " --budget auto'");
            return ExitCode.OK;
        }
    }
}
