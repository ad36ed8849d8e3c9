package org.perfab.ingest;

import java.util.List;
import java.util.Map;

/**
 * What a tool's output says besides its values (see {@link MeasurementFormat#context}): for go
 * test, the header Go prints before the results ({@code goos}, {@code goarch}, {@code cpu},
 * {@code pkg}) and each benchmark's iteration counts ({@code b.N}), an output of the timing loop
 * that moves when the cost per operation does. Every map is empty where the format does not say.
 *
 * @param header the header's fields, by name
 * @param iterations each benchmark's counts, in file order, by the cell name perfab reads it as
 * @param seconds each benchmark's time in the run, by that name: its counts times its {@code ns/op}
 */
public record RunContext(Map<String, String> header, Map<String, List<Long>> iterations, Map<String, Double> seconds) {
    public RunContext {
        header = Map.copyOf(header);
        iterations = Map.copyOf(iterations);
        seconds = Map.copyOf(seconds);
    }
}
