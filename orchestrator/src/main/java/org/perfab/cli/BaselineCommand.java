package org.perfab.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.perfab.baseline.Ratchet;
import org.perfab.baseline.SyntheticSnapshots;
import org.perfab.report.BaselinePair;
import org.perfab.report.FloorTable;
import org.perfab.report.Format;
import org.perfab.report.Products;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code perfab baseline}: a ratchet baseline of per-tier floors, seeded from a window of
 * snapshots in ratio space against one anchor benchmark, behind a coherence gate, and checked,
 * ratcheted down and compared in ratio space, so a fast or slow host trips nothing. The work is
 * {@link Ratchet}'s; each subcommand parses, calls it and renders.
 */
@Command(
        name = "baseline",
        mixinStandardHelpOptions = true,
        synopsisSubcommandLabel = "COMMAND",
        description = {
            "A ratchet baseline: per machine key and architecture, a floor for each benchmark, kept as a"
                    + " ratio to one anchor benchmark of the same run. Seed it from a window of snapshots, check every CI"
                    + " run against it within a budget, ratchet it down, and measure the budget's floor."
        },
        subcommands = {
            BaselineSnapshotCommand.class,
            BaselineSeedCommand.class,
            BaselineCheckCommand.class,
            BaselineUpdateCommand.class,
            BaselineCommand.Diff.class,
            BaselineFloorCommand.class,
            BaselineCommand.Demo.class
        })
final class BaselineCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCode.BAD_INPUT;
    }

    /** {@code perfab baseline diff}. */
    @Command(
            name = "diff",
            mixinStandardHelpOptions = true,
            description = {
                "Two baselines side by side: for each floor both have, how far the second's ratio is from"
                        + " the first's, and the share of floors that differ by more than 5%%, 10%% and 25%%."
            })
    static final class Diff implements Callable<Integer> {
        private final Session session;

        @Parameters(index = "0", paramLabel = "FIRST", description = "A baseline.")
        Path first;

        @Parameters(index = "1", paramLabel = "SECOND", description = "Another.")
        Path second;

        @Mixin
        OutputOptions<BaselinePair> output = new OutputOptions<>(Products.BASELINE_DIFF, Format.TEXT);

        Diff(Session session) {
            this.session = session;
        }

        @Override
        public Integer call() {
            output.emit(
                    session,
                    new BaselinePair(
                            Ratchet.diff(first, second),
                            first.getFileName().toString(),
                            second.getFileName().toString()));
            return ExitCode.OK;
        }
    }

    /** {@code perfab baseline demo}. */
    @Command(
            name = "demo",
            mixinStandardHelpOptions = true,
            description = {
                "Write a synthetic corpus of snapshots (four tiers, eight nights each, a uniformly fast host,"
                        + " a mixed capture, noisy kernels) into --dir, seed it with --window 1 and --window 5, and print"
                        + " the seeding report, the difference between the two, the measured floor and a check."
            })
    static final class Demo implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(
                names = "--dir",
                paramLabel = "DIR",
                description = "Where to write it (default: a new temporary folder).")
        Path dir;

        @Option(
                names = "--seed",
                paramLabel = "N",
                defaultValue = "1",
                description = "The noise's seed (default: ${DEFAULT-VALUE}).")
        long seed;

        @Override
        public Integer call() throws IOException {
            Ratchet.Demo demo = Ratchet.demo(Optional.ofNullable(dir), seed, Output::replace);
            PrintWriter out = spec.commandLine().getOut();
            out.print(Products.BASELINE_SEED.render(demo.windowFive(), Format.TEXT));
            out.println();
            out.print(
                    Products.BASELINE_DIFF.render(new BaselinePair(demo.diff(), "window 1", "window 5"), Format.TEXT));
            out.println();
            out.print(
                    Products.BASELINE_FLOORS.render(new FloorTable(demo.floors(), Ratchet.DEMO_MULTIPLE), Format.TEXT));
            out.println();
            for (Ratchet.DemoCheck c : demo.checks()) {
                out.println(c.name() + ".json: "
                        + Products.BASELINE_CHECK
                                .render(c.check(), Format.TEXT)
                                .lines()
                                .findFirst()
                                .orElseThrow()
                        + c.caught()
                                .map(k -> "; the 12% slower " + SyntheticSnapshots.REGRESSED
                                        + (k ? " among them" : " not among them"))
                                .orElse(""));
            }
            out.flush();
            Path d = demo.dir();
            spec.commandLine()
                    .getErr()
                    .println("perfab: the corpus and both baselines are in " + d + "; try 'perfab"
                            + " baseline check --baseline " + d.resolve("baseline.json") + " --snapshot "
                            + d.resolve("tonight/fast-host.json") + " --budget auto'");
            return ExitCode.OK;
        }
    }
}
