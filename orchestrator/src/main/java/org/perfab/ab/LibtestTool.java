package org.perfab.ab;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.perfab.ingest.Formats;
import org.perfab.ingest.MeasurementFormat;

/**
 * Rust's built-in bench harness ({@code #[bench]}, run by {@code cargo bench}): its output is read as
 * {@link Formats#LIBTEST}; its benchmarks are listed with {@code cargo bench -- --list}, whose lines
 * read {@code NAME: benchmark} (a test's, {@code NAME: test}), and a slice of them runs with
 * {@code -- --exact NAME...}, libtest taking each name as a filter of its own. Only a harness that is
 * {@code cargo ... bench} itself is taken apart; its benchmarks are counted only as a whole.
 */
final class LibtestTool implements HarnessTool {
    @Override
    public String knobs() {
        return "a filter of fewer benchmarks after '--'";
    }

    @Override
    public MeasurementFormat format() {
        return Formats.LIBTEST;
    }

    @Override
    public Optional<Slicer> slicer(List<String> argv) {
        if (argv.size() < 2 || !Path.of(argv.get(0)).getFileName().toString().equals("cargo")) {
            return Optional.empty();
        }
        int dashes = argv.indexOf("--");
        if (!(dashes < 0 ? argv : argv.subList(0, dashes)).contains("bench")) {
            return Optional.empty();
        }
        return Optional.of(new Slicer() {
            @Override
            public List<String> list() {
                return toBinaries(argv, List.of("--list"));
            }

            @Override
            public List<String> names(List<String> lines) {
                return lines.stream()
                        .map(String::strip)
                        .filter(l -> l.endsWith(": benchmark") || l.endsWith(": bench"))
                        .map(l -> l.substring(0, l.lastIndexOf(": ")))
                        .toList();
            }

            @Override
            public List<String> run(List<String> slice, List<String> all) {
                List<String> added = new ArrayList<>(List.of("--exact"));
                added.addAll(slice);
                return toBinaries(argv, added);
            }
        });
    }

    /** Returns {@code argv} with {@code added} given to the bench binaries: after its {@code --}, or a new one. */
    private static List<String> toBinaries(List<String> argv, List<String> added) {
        List<String> out = new ArrayList<>(argv);
        if (!argv.contains("--")) {
            out.add("--");
        }
        out.addAll(added);
        return out;
    }

    /** Returns empty: perfab does not count libtest's benchmarks one at a time. */
    @Override
    public Optional<PerBenchmark> counter(
            List<String> run, Optional<Pattern> only, Duration timeout, Consumer<String> notes) {
        return Optional.empty();
    }
}
