package org.perfab.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.perfab.ab.AbRequest;
import org.perfab.ab.OutLock;
import org.perfab.ab.RunSettings;
import org.perfab.bisect.Bisect;
import org.perfab.failure.BadInputException;
import org.perfab.model.Bisection;
import org.perfab.model.BisectionJson;
import org.perfab.report.Format;
import org.perfab.report.Products;
import org.perfab.stats.ThresholdSettings;
import org.perfab.workload.CellGlob;
import org.perfab.workload.Workload;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code perfab bisect}: the first commit that made a cell worse, or why there is none. */
@Command(
        name = "bisect",
        mixinStandardHelpOptions = true,
        description = {
            "Search the first-parent commits from GOOD to BAD for the first that made a cell worse, each"
                    + " step a same-runner A/B of GOOD against the candidate. A step is bad only when it shows a real"
                    + " share (half, in ratio) of the change BAD shows, and good only when it rules that out. With"
                    + " build.perturb, BAD is measured over shifted layouts, and so is a step that layout could decide."
                    + " The edge it finds is rebuilt with perturbed layouts before a commit is named; when the change"
                    + " does not hold to one commit, it says so, and why (code layout or noise)."
        },
        footer = {
            "",
            "Writes OUT/bisect.json and each step's run under OUT/steps/.",
            "",
            "Example:",
            "  perfab bisect --repo . --good v1.4.0 --bad main --cell 'publish/1KiB/*:throughput' --trials 15"
        })
final class BisectCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    private final Session session;

    @Mixin
    Verbosity verbosity;

    @Option(names = "--repo", paramLabel = "DIR", description = "The git repository (default: .).")
    Path repo;

    @Option(names = "--good", required = true, paramLabel = "REF", description = "A commit without the change.")
    String good;

    @Option(
            names = "--bad",
            required = true,
            paramLabel = "REF",
            description = "A commit with it, GOOD on its first-parent line.")
    String bad;

    @Option(
            names = "--cell",
            required = true,
            paramLabel = "GLOB",
            description = "The cells to follow: NAME or NAME:METRIC, * within a segment, ** across.")
    String cell;

    @Option(
            names = "--workload",
            paramLabel = "PATH",
            description = "The workload file in each commit's tree (default: " + AbRequest.DEFAULT_WORKLOAD + ").")
    String workload;

    @Option(
            names = "--trials",
            paramLabel = "N",
            description = "Counted trials per side of each A/B's first round (default: the workload's).")
    Integer trials;

    @Option(
            names = "--builds",
            paramLabel = "K",
            description = "Builds per side, when the workload shifts layout (build.perturb), of the check, of a"
                    + " search step that layout could decide and of the commit the search ends at, measured again"
                    + " (default: " + Preset.BISECT_BUILDS + ").")
    Integer builds;

    @Option(
            names = "--min-effect",
            paramLabel = "PCT",
            description = "The smallest change that makes BAD worse than GOOD, in percent (default: "
                    + Preset.BISECT_MIN_EFFECT + "); a commit between is bad when it shows half the change BAD shows.")
    Double effect;

    @Option(
            names = "--adaptive",
            paramLabel = "MAX|off",
            converter = OptionValues.Adaptive.class,
            description = "Give a step that leaves its cell undecided more rounds of trials, up to MAX per side, its"
                    + " looks sharing alpha (see perfab ab --adaptive; default: the workload's adaptive, else "
                    + Workload.DEFAULT_ADAPTIVE + "). An undecided step is never taken for a good one.")
    Integer adaptive;

    @Option(
            names = "--resume",
            description = "Go on with the bisect in --out: its decided steps are reused, an"
                    + " undecided one runs again (with --trials or --builds to decide it).")
    boolean resume;

    @Option(
            names = "--out",
            paramLabel = "DIR",
            defaultValue = "perfab-bisect",
            description = "Where the bisect writes (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--cache", paramLabel = "DIR", description = "Reuse builds kept in DIR.")
    Path cache;

    @Mixin
    OutputOptions<Bisection> output = new OutputOptions<>(Products.BISECT, Format.TEXT);

    BisectCommand(Session session) {
        this.session = session;
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        RunSettings settings = RunSettings.given(
                        Optional.ofNullable(trials),
                        Optional.ofNullable(builds),
                        Optional.ofNullable(adaptive),
                        Optional.empty(),
                        Optional.empty(),
                        ThresholdOptions.checked(
                                spec,
                                () -> new ThresholdSettings(
                                        Optional.empty(), Optional.ofNullable(effect), Optional.empty())))
                .over(Preset.BISECT.settings());
        CellGlob glob;
        try {
            glob = CellGlob.of(cell);
        } catch (IllegalArgumentException e) {
            throw new BadInputException("--cell: " + e.getMessage(), e);
        }
        Path root = out.toAbsolutePath().normalize();
        Path file = root.resolve("bisect.json");
        if (!resume && !Files.exists(root)) {
            try {
                Files.createDirectories(root);
                // Like a run's folder, a bisect's is never part of a working tree's head.
                Files.writeString(root.resolve(".gitignore"), "# a perfab bisect's folder: nothing in it is code\n*\n");
            } catch (IOException e) {
                throw new BadInputException("cannot make --out " + root + ": " + e.getMessage(), e);
            }
        }
        if (!Files.isDirectory(root)) {
            throw new BadInputException("--resume: " + root + " holds no bisect.json to go on from");
        }
        // Held to the end: a second bisect, or a --resume, of this folder while this one runs is refused.
        try (OutLock lock = OutLock.take(root, "--out")) {
            Optional<Bisection> earlier = Optional.empty();
            if (resume) {
                if (!Files.isRegularFile(file)) {
                    throw new BadInputException("--resume: " + root + " holds no bisect.json to go on from");
                }
                earlier = Optional.of(BisectionJson.read(BadInputException.read(file), file.toString()));
            } else if (Files.exists(file)) {
                throw new BadInputException(
                        root + " already holds a bisect: go on with --resume, or choose another --out");
            }
            PrintStream err =
                    new PrintStream(new WriterStream(spec.commandLine().getErr()), true, StandardCharsets.UTF_8);
            Bisection found = Bisect.run(
                    new Bisect.Request(
                            repo == null ? Path.of(".") : repo,
                            good,
                            bad,
                            glob,
                            workload == null ? AbRequest.DEFAULT_WORKLOAD : workload,
                            settings,
                            root,
                            Optional.ofNullable(cache),
                            earlier),
                    session.run(err, verbosity.level(spec)),
                    b -> Output.replace(file, BisectionJson.write(b)));
            output.emit(session, found);
            return found.outcome() == Bisection.Outcome.INTERRUPTED ? ExitCode.INTERRUPTED : ExitCode.OK;
        }
    }
}
