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
 * JMH: its output is read as {@link Formats#JMH}; its benchmarks are listed with
 * {@code -l}, and a slice of them runs with {@code -e} excluding every other, each added at the
 * command's end. Its benchmarks are counted only as a whole.
 */
final class JmhTool implements HarnessTool {
    @Override
    public String knobs() {
        return "a pattern of fewer benchmarks after the jar, and JMH's -wi, -w, -i, -r and -f";
    }

    @Override
    public MeasurementFormat format() {
        return Formats.JMH;
    }

    @Override
    public Optional<Slicer> slicer(List<String> argv) {
        return Optional.of(new Appending(argv, List.of("-l")) {
            @Override
            public List<String> names(List<String> lines) {
                // "Benchmarks:" and then a name per line.
                List<String> names = new ArrayList<>();
                boolean listing = false;
                for (String l : lines) {
                    String t = l.strip();
                    if (t.startsWith("Benchmarks:")) {
                        listing = true;
                    } else if (listing && !t.isEmpty() && !t.contains(" ")) {
                        names.add(t);
                    }
                }
                return names;
            }

            @Override
            public List<String> run(List<String> slice, List<String> all) {
                // JMH's patterns include: one more would add to those the harness gives. Leaving
                // out the others keeps exactly the slice of what it lists.
                Set<String> kept = Set.copyOf(slice);
                List<String> others =
                        all.stream().filter(n -> !kept.contains(n)).toList();
                return others.isEmpty() ? argv : HarnessTool.appended(argv, List.of("-e", HarnessTool.regex(others)));
            }
        });
    }

    /** Returns empty: perfab does not count JMH's benchmarks one at a time. */
    @Override
    public Optional<PerBenchmark> counter(
            List<String> run, Optional<Pattern> only, Duration timeout, Consumer<String> notes) {
        return Optional.empty();
    }
}
