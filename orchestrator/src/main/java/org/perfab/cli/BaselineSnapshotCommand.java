package org.perfab.cli;

import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.perfab.baseline.Ratchet;
import org.perfab.baseline.SnapshotSources;
import org.perfab.ingest.Formats;
import org.perfab.ingest.MeasurementFormat;
import org.perfab.model.Snapshot;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code perfab baseline snapshot}. */
@Command(
        name = "snapshot",
        mixinStandardHelpOptions = true,
        description = {
            "Write one CI run's measurements on one machine as a snapshot (perfab/snapshot/v1): from"
                    + " go test -bench output (its goarch and cpu header, and b.N), any format perfab reads, or a"
                    + " results.json of 'perfab ab' (the head's trials)."
        })
final class BaselineSnapshotCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    private final Session session;

    /** Where the measurements come from: one of the two. */
    static final class Source {
        @Option(names = "--from", required = true, paramLabel = "FILE", description = "A benchmark tool's output.")
        Path file;

        @Option(
                names = "--results",
                required = true,
                paramLabel = "RESULTS",
                description = "A results.json of 'perfab ab'.")
        Path results;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Source source;

    @Option(
            names = "--format-in",
            paramLabel = "FORMAT",
            completionCandidates = InputFormats.class,
            description = "The format of --from (default: detected): ${COMPLETION-CANDIDATES}.")
    String formatIn;

    @Option(
            names = "--machine",
            required = true,
            paramLabel = "KEY",
            description = "The machine key: the runner class (tier) whose snapshots are comparable.")
    String machine;

    @Option(
            names = "--arch",
            paramLabel = "ARCH",
            converter = OptionValues.Arch.class,
            description = "The architecture (default: Go's goarch, else this machine's).")
    String arch;

    @Option(
            names = "--cpu",
            paramLabel = "MODEL",
            description = "The processor model (default: Go's cpu, the results' machine, else this one's).")
    String cpu;

    @Option(
            names = "--commit",
            paramLabel = "SHA",
            description = "The commit (default: the results' head, else $GITHUB_SHA).")
    String commit;

    @Option(
            names = "--date",
            paramLabel = "DATE",
            converter = OptionValues.Day.class,
            description = "The run's day, ISO (default: today, UTC).")
    LocalDate date;

    @Option(
            names = "--metric",
            paramLabel = "METRIC",
            description = "The metric to keep, a cost (default: time, else the only one).")
    String metric;

    @Option(names = "--dir", paramLabel = "DIR", description = "Write it into DIR as DATE-SHA-MACHINESLUG.json.")
    Path dir;

    @Option(
            names = {"-o", "--output"},
            paramLabel = "FILE",
            description = "Write it to FILE (default: print it).")
    Path output;

    @Option(
            names = "--replace",
            description =
                    "With --dir, write over the snapshot of the same day, commit and"
                            + " machine already there (a rerun of that day's job); without it, one with other values is refused.")
    boolean replace;

    BaselineSnapshotCommand(Session session) {
        this.session = session;
    }

    @Override
    public Integer call() {
        LocalDate day = date != null ? date : LocalDate.now(session.clock());
        if (dir != null && output != null) {
            throw new ParameterException(spec.commandLine(), "give --dir or -o, not both");
        }
        SnapshotSources.Stamp stamp = new SnapshotSources.Stamp(
                machine, Optional.ofNullable(arch), Optional.ofNullable(cpu), Optional.ofNullable(commit), day);
        Ratchet.Source from = source.file != null
                ? new Ratchet.ToolOutput(source.file, formatIn())
                : new Ratchet.AbResults(source.results);
        Ratchet.Snapped snapped = Ratchet.snapshot(
                new Ratchet.Snapshotting(
                        from, stamp, Optional.ofNullable(metric), Optional.ofNullable(dir), replace, session.env()),
                Output::replace);
        Snapshot s = snapped.made().snapshot();
        if (!snapped.made().zero().isEmpty()) {
            int n = snapped.made().zero().size();
            spec.commandLine()
                    .getErr()
                    .println("perfab: left out " + n + " benchmark" + (n == 1 ? "" : "s")
                            + " whose value is 0 (a ratio needs a cost above 0): "
                            + String.join(", ", snapped.made().zero().subList(0, Math.min(10, n)))
                            + (n > 10 ? ", …" : ""));
        }
        if (snapped.filed().isPresent()) {
            Path file = snapped.filed().get();
            spec.commandLine()
                    .getErr()
                    .println(
                            snapped.already()
                                    ? "perfab: " + file + " already holds this snapshot"
                                    : "perfab: wrote " + file + " ("
                                            + s.benchmarks().size() + " benchmarks)");
            return ExitCode.OK;
        }
        if (output != null) {
            Output.replace(output, s.write());
            return ExitCode.OK;
        }
        Output.print(spec, s.write(), null);
        return ExitCode.OK;
    }

    private Optional<MeasurementFormat> formatIn() {
        return formatIn == null
                ? Optional.empty()
                : Optional.of(Formats.byId(formatIn)
                        .orElseThrow(() -> new ParameterException(
                                spec.commandLine(),
                                "--format-in: unknown format '" + formatIn + "' (known: " + Formats.names() + ")")));
    }
}
