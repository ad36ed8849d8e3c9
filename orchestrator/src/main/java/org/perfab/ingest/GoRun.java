package org.perfab.ingest;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What the text of {@code go test -bench} says besides its values: the header Go prints before
 * the results ({@code goos}, {@code goarch}, {@code cpu}, {@code pkg}) and each benchmark's
 * iteration counts ({@code b.N}), an output of the timing loop that moves when the cost per
 * operation does.
 *
 * @param header the header's fields, by name
 * @param iterations each benchmark's counts, in file order, by the cell name perfab reads it as
 * @param seconds each benchmark's time in the run, by that name: its counts times its {@code ns/op}
 */
public record GoRun(Map<String, String> header, Map<String, List<Long>> iterations, Map<String, Double> seconds) {
    public GoRun {
        header = Map.copyOf(header);
        iterations = Map.copyOf(iterations);
        seconds = Map.copyOf(seconds);
    }

    /** The context of a run whose times are not known. */
    public GoRun(Map<String, String> header, Map<String, List<Long>> iterations) {
        this(header, iterations, Map.of());
    }

    /** Returns the context of the Go output in {@code file}. */
    public static GoRun of(Path file) {
        return GoBench.context(file);
    }
}
