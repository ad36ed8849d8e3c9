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
 */
public record GoRun(Map<String, String> header, Map<String, List<Long>> iterations) {
    public GoRun {
        header = Map.copyOf(header);
        iterations = Map.copyOf(iterations);
    }

    /** Returns the context of the Go output in {@code file}. */
    public static GoRun of(Path file) {
        return GoBench.context(file);
    }
}
