package org.perfab.ab;

import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.perfab.ingest.MeasurementFormat;
import org.perfab.workload.Workload;

/**
 * Every benchmark tool perfab knows ({@link HarnessTool}), and the tool of a format or a harness.
 * Kept here, not in {@link HarnessTool}: the interface knows none of its implementations, and a
 * class is initialized with each superinterface that declares a default method, so a list of tools
 * in the interface would let a thread making a tool and another reading the list each wait for the
 * other's class to be initialized.
 */
final class HarnessTools {
    /** Every tool perfab knows. */
    static final List<HarnessTool> ALL = List.of(
            new GoTool(), new GoogleBenchmarkTool(), new PytestBenchmarkTool(), new JmhTool(), new LibtestTool());

    private HarnessTools() {}

    /**
     * Returns the tool whose reader {@code format} is (one of {@link org.perfab.ingest.Formats#ALL}); empty
     * for a format of no tool perfab knows.
     */
    static Optional<HarnessTool> of(MeasurementFormat format) {
        return ALL.stream().filter(t -> t.format().equals(format)).findFirst();
    }

    /**
     * Returns the counter of {@code harness}'s benchmarks, its tool's, when the workload counts them
     * one at a time; empty otherwise.
     *
     * @throws IllegalArgumentException when the harness's command cannot be counted a benchmark at a time
     */
    static Optional<PerBenchmark> counter(Workload.Harness harness, Consumer<String> notes) {
        if (!harness.perBenchmark()) {
            return Optional.empty();
        }
        Workload.Read read = (Workload.Read) harness.format();
        return of(read.format())
                .flatMap(t -> t.counter(read.run(), harness.count().benchmarks(), harness.timeout(), notes));
    }
}
