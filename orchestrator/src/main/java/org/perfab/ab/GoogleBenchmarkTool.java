package org.perfab.ab;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.perfab.ingest.Formats;
import org.perfab.ingest.MeasurementFormat;

/**
 * Google Benchmark: its output is read as {@link Formats#GOOGLE_BENCHMARK}; its benchmarks
 * are listed with {@code --benchmark_list_tests}, and a slice of them runs with
 * {@code --benchmark_filter}, each added at the command's end; each benchmark is counted on its own
 * under Callgrind, one loop at a time ({@link GoogleBenchmarkCounts}).
 */
final class GoogleBenchmarkTool implements HarnessTool {
    @Override
    public String knobs() {
        return "--benchmark_filter, --benchmark_min_time and --benchmark_repetitions";
    }

    @Override
    public MeasurementFormat format() {
        return Formats.GOOGLE_BENCHMARK;
    }

    @Override
    public Optional<Slicer> slicer(List<String> argv) {
        return Optional.of(new Appending(argv, List.of("--benchmark_list_tests=true")) {
            @Override
            public List<String> run(List<String> slice, List<String> all) {
                return HarnessTool.appended(argv, List.of("--benchmark_filter=" + HarnessTool.regex(slice)));
            }
        });
    }

    /**
     * Returns the counter of {@code run}'s benchmarks, whatever the command that runs them: Google
     * Benchmark reads the flags perfab counts with from the environment.
     */
    @Override
    public Optional<PerBenchmark> counter(
            List<String> run, Optional<Pattern> only, Duration timeout, Consumer<String> notes) {
        return Optional.of(new GoogleBenchmarkCounts(run, only, timeout));
    }
}
