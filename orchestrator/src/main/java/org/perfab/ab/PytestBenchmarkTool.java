package org.perfab.ab;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.perfab.ingest.Formats;
import org.perfab.ingest.MeasurementFormat;

/**
 * pytest-benchmark: its output is read as {@link Formats#PYTEST_BENCHMARK}; its benchmarks
 * are listed with {@code --collect-only}, and a slice of them runs with {@code --deselect} of every
 * other, each added at the command's end. Its benchmarks are counted only as a whole.
 */
final class PytestBenchmarkTool implements HarnessTool {
    @Override
    public String knobs() {
        return "-k (fewer benchmarks) and --benchmark-max-time";
    }

    @Override
    public MeasurementFormat format() {
        return Formats.PYTEST_BENCHMARK;
    }

    @Override
    public Optional<Slicer> slicer(List<String> argv) {
        // Verbosity -1 last: the node ids, one a line, whatever -q or -v the command has.
        return Optional.of(new Appending(argv, List.of("--collect-only", "--verbosity=-1")) {
            @Override
            public List<String> names(List<String> lines) {
                return lines.stream()
                        .filter(l -> l.contains("::") && !l.isBlank() && !Character.isWhitespace(l.charAt(0)))
                        .map(String::strip)
                        .toList();
            }

            @Override
            public List<String> run(List<String> slice, List<String> all) {
                Set<String> kept = Set.copyOf(slice);
                List<String> added = new ArrayList<>();
                all.stream().filter(n -> !kept.contains(n)).forEach(n -> {
                    added.add("--deselect");
                    added.add(n);
                });
                return HarnessTool.appended(argv, added);
            }
        });
    }

    /** Returns empty: perfab does not count pytest-benchmark's benchmarks one at a time. */
    @Override
    public Optional<PerBenchmark> counter(
            List<String> run, Optional<Pattern> only, Duration timeout, Consumer<String> notes) {
        return Optional.empty();
    }
}
