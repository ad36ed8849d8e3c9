package org.perfab.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.perfab.ab.AbRequest;
import org.perfab.ab.AbRun;
import org.perfab.ab.RunSettings;
import org.perfab.failure.BadInputException;
import org.perfab.model.ResultsJson;
import org.perfab.model.RunResults;
import org.perfab.model.Sharding;
import org.perfab.report.Format;
import org.perfab.report.Products;
import org.perfab.report.Report;
import org.perfab.stats.Verdict;
import org.perfab.workload.Workload;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code perfab ab}: the same-runner A/B of a pull request's merge-base and head. */
@Command(
        name = "ab",
        mixinStandardHelpOptions = true,
        description = {
            "Build and benchmark the merge-base of BASE and HEAD (the baseline) and HEAD"
                    + " (the candidate) side by side on this machine, N trials each, interleaved, and"
                    + " classify every cell. The harness is the head's, the code is each side's own: every"
                    + " trial runs in its side's own tree, with the head's harness files copied into the"
                    + " base's."
        },
        footer = {
            "",
            "Writes OUT/results.json, OUT/comment.md, OUT/trials.jsonl (one line per trial,"
                    + " as it ends), OUT/logs/ and OUT/work/.",
            "",
            "Examples:",
            "  perfab ab                                    (HEAD against the default branch)",
            "  perfab ab --base origin/main --trials 5",
            "  perfab ab --head WORKTREE                    (try a change before committing it)"
        })
final class AbCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    private final Session session;

    @Mixin
    ThresholdOptions thresholds;

    @Mixin
    Verbosity verbosity;

    @Option(
            names = "--repo",
            paramLabel = "DIR",
            description = "The git repository, or any folder in its working tree (default: .).")
    Path repo;

    @Option(
            names = "--base",
            paramLabel = "REF",
            description = "The target branch or release; the "
                    + "baseline is merge-base(BASE, HEAD) (default: the repository's default branch, where origin/HEAD"
                    + " points, else the one of main, master, trunk and develop it has).")
    String base;

    @Option(
            names = "--head",
            paramLabel = "REF",
            description = "The candidate: a branch, tag or commit, or"
                    + " WORKTREE: the working tree as it is, uncommitted and untracked files included (those git would"
                    + " not ignore), snapshotted as a commit on top of HEAD that no ref names (default: HEAD).")
    String head;

    @Option(
            names = "--workload",
            paramLabel = "PATH",
            description = "The workload file's path in the head's tree, from the folder perfab runs in (else from"
                    + " the tree's root; default: " + AbRequest.DEFAULT_WORKLOAD + " at the root).")
    String workload;

    @Option(
            names = "--trials",
            paramLabel = "N",
            description = "Counted trials per side (default: the"
                    + " preset's, else the workload's, else 5, or 2 where every measure is a count).")
    Integer trials;

    @Option(
            names = "--adaptive",
            paramLabel = "MAX|off",
            converter = OptionValues.Adaptive.class,
            description = "Adaptive trials: after the first round, while a cell is undecided (inconclusive, too noisy,"
                    + " or its interval still reaches the bar), run another round of as many trials, up to MAX per side."
                    + " The looks share alpha, so the false-alarm rate stays at alpha; off runs the first round only"
                    + " (default: the workload's adaptive, else " + Workload.DEFAULT_ADAPTIVE + " with one build per"
                    + " side).")
    Integer adaptive;

    @Option(
            names = "--budget",
            paramLabel = "DURATION",
            converter = OptionValues.Budget.class,
            description = "The time trials may take in all (90s, 20m, 1h): no round of adaptive trials starts that"
                    + " would pass it, judging by the trials so far (default: no limit).")
    Duration budget;

    @Option(
            names = "--shard",
            paramLabel = "K/N",
            converter = OptionValues.Shard.class,
            description = "Measure the K-th of N slices of the benchmarks the harness lists (a benchmark's slice is a"
                    + " hash of its name), each slice an A/B of its own on this machine; 'perfab report' of every"
                    + " shard's results.json gives one table.")
    Sharding.Shard shard;

    @Option(
            names = "--shard-times",
            paramLabel = "RESULTS",
            description = "With --shard: cut the suite at equal time, as each benchmark took in the results.json of"
                    + " an earlier run (merged shards, a shard or a whole run), not at equal count. Every shard of one"
                    + " A/B is given the same file.")
    Path shardTimes;

    @Option(
            names = "--builds",
            paramLabel = "K",
            description = "Builds per side; trials take turns among them, and with 2 or more the median of each"
                    + " build decides (default: the preset's, else the workload's, else 1).")
    Integer builds;

    /**
     * Returns each benchmark's time in a trial pair of the run in {@code file}; empty for no file, or a
     * file perfab cannot read or whose harness gave no benchmark's time (said on standard error: the
     * suite is cut by count).
     */
    private static Map<String, Double> shardTimes(CommandSpec spec, boolean sharded, Path file) {
        if (file == null) {
            return Map.of();
        }
        if (!sharded) {
            throw new ParameterException(
                    spec.commandLine(), "--shard-times says where to cut the suite into shards: give --shard K/N too");
        }
        Map<String, Double> times;
        try {
            times = RunResults.benchmarkTimes(ResultsJson.read(file).trials());
        } catch (BadInputException e) {
            // Where to cut is the file's only say: a file gone or of another perfab (a stale cache)
            // costs the run its balance, not its measurements. Every shard given it reads it alike.
            spec.commandLine()
                    .getErr()
                    .println("perfab: --shard-times: " + e.getMessage() + "; the suite is cut by count");
            return Map.of();
        }
        if (times.isEmpty()) {
            spec.commandLine()
                    .getErr()
                    .println(
                            "perfab: --shard-times " + file + ": no trial there gives a"
                                    + " benchmark's own time (its harness's output does not say it), so the suite is cut by count");
        }
        return times;
    }

    @Option(
            names = "--preset",
            paramLabel = "KIND",
            defaultValue = "pr",
            converter = Preset.Chosen.class,
            completionCandidates = Preset.Chosen.class,
            description = "pr (the workload's trials, 1 build) or release (20 trials, 3 builds per side, padded"
                    + " environments); --trials, --builds and --env-padding override it (default: ${DEFAULT-VALUE}).")
    Preset preset;

    /** {@code --preset} by its former name, which scripts still pass; help shows only {@code --preset}. */
    @Option(
            names = "--profile",
            paramLabel = "KIND",
            hidden = true,
            converter = Preset.Chosen.class,
            completionCandidates = Preset.Chosen.class)
    Preset formerPreset;

    @Option(
            names = "--noise",
            paramLabel = "FILE",
            description = "The noise.json of an A/A run (--base X --head X writes one): mark the cells whose change"
                    + " lies inside their noise floor at this run's size.")
    Path noise;

    @Option(
            names = "--env-padding",
            negatable = true,
            description = "Give each trial an environment variable of random length (0-4095 bytes, seeded and"
                    + " recorded): the environment's size moves stack alignment, which the build cannot vary"
                    + " (default: on in the release preset).")
    Boolean padding;

    @Option(
            names = "--out",
            paramLabel = "DIR",
            defaultValue = "perfab-out",
            description = "Where the run writes (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(
            names = "--cache",
            paramLabel = "DIR",
            description = "Reuse a side's build when its tree, build command and environment match one"
                    + " kept in DIR (the merge-base rarely changes between pushes).")
    Path cache;

    @Option(
            names = "--seed",
            paramLabel = "S",
            description = "Shuffle which side goes first in each pair, from this seed (default: the workload's,"
                    + " else alternate).")
    Long seed;

    @Option(
            names = "--resume",
            description = "Continue the interrupted run in --out with every setting it began"
                    + " with (repository, refs, workload, trials, builds, looks, budget, seed, padding, shard, thresholds,"
                    + " noise, fail-on); its budget counts the time its trials took before. An option given again must say"
                    + " the same, or is refused; --cache, --format, --quiet and --verbose may differ.")
    boolean resume;

    @Option(
            names = "--force",
            description = "Write into an --out that holds files perfab did not write"
                    + " (beside them: perfab never deletes or replaces what it did not make).")
    boolean force;

    @Mixin
    FormatOption<Report> format = new FormatOption<>(Products.AB, Format.TEXT);

    @Option(
            names = "--fail-on",
            paramLabel = "VERDICT",
            completionCandidates = FailOn.Names.class,
            description = "Exit 1 when a cell has this verdict: regression or inconclusive. Repeatable.")
    List<String> failOn = new ArrayList<>();

    AbCommand(Session session) {
        this.session = session;
    }

    /** Returns the preset given by its name or by its former one; given by both, they must agree. */
    private Preset preset() {
        if (formerPreset == null) {
            return preset;
        }
        if (formerPreset != preset && spec.commandLine().getParseResult().hasMatchedOption("--preset")) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--profile " + formerPreset.name().toLowerCase(Locale.ROOT) + " contradicts --preset "
                            + preset.name().toLowerCase(Locale.ROOT) + ": --profile is its former name; give"
                            + " --preset alone");
        }
        return formerPreset;
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        List<Verdict> failing = FailOn.parse(spec, failOn);
        // A resumed run takes what is not given from its plan: only what the command line says is passed.
        RunSettings settings = RunSettings.given(
                        Optional.ofNullable(trials),
                        Optional.ofNullable(builds),
                        Optional.ofNullable(adaptive),
                        Optional.ofNullable(budget),
                        Optional.ofNullable(padding),
                        thresholds.overrides())
                .over(preset().settings());
        AbRequest request = AbRequest.of(
                        repo == null && !resume ? Path.of(".") : repo,
                        Optional.ofNullable(base),
                        head == null && !resume ? "HEAD" : head,
                        out)
                .workload(workload == null && !resume ? AbRequest.DEFAULT_WORKLOAD : workload)
                .settings(settings)
                .cache(Optional.ofNullable(cache))
                .seed(Optional.ofNullable(seed))
                .resume(resume)
                .force(force)
                .failOn(failing)
                .noise(Optional.ofNullable(noise))
                .shard(Optional.ofNullable(shard))
                .shardTimes(shardTimes(spec, shard != null, shardTimes))
                .build();
        Progress.Level level = verbosity.level(spec);
        PrintStream err = new PrintStream(new WriterStream(spec.commandLine().getErr()), true, StandardCharsets.UTF_8);
        RunResults results = AbRun.run(request, session.run(err, level));
        Report report = session.report(Report.of(results));
        format.emit(session, report, Optional.empty(), Optional.of(out.resolve("comment.md")));
        report.noComparison().ifPresent(none -> err.println("perfab: warning: " + none));
        if (level != Progress.Level.QUIET) {
            err.println("perfab: results in " + out.resolve("results.json") + ", the comment in "
                    + out.resolve("comment.md"));
        }
        // The run's own: a resumed run fails on what it began with.
        return FailOn.exitCode(results.table(), results.settings().failOn());
    }
}
