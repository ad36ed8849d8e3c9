package org.perfab.ingest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.perfab.failure.BadInputException;

/**
 * A file format that holds measurements: perfab's own, or the output of a benchmark tool people
 * already use. Each reading is one independent repetition as the tool defines it (Go's
 * {@code -count} lines, hyperfine's runs, Google Benchmark's repetitions, JMH's forks), so that
 * {@code perfab compare} can treat them as samples; {@code perfab ab} averages the repetitions of
 * one trial into that trial's single value.
 */
public interface MeasurementFormat {
    /** The name used in workloads and on the command line, e.g. {@code perfab-json}. */
    String id();

    /**
     * Returns every value in {@code file}, in file order, each in the unit the file gives it; a cell
     * that appears more than once appears once per value. What {@link #read} puts in one unit.
     *
     * @throws BadInputException when the file cannot be read or is not valid in this format; the
     *     message names the file and, where it can, the line, column and cell
     */
    List<Reading> readings(Path file);

    /**
     * Hands every value of {@code file} to {@code each}, as {@link #readings(Path)} returns them; a
     * format that can read a file without a list of all its values overrides this.
     *
     * @throws BadInputException as {@link #readings(Path)} does
     */
    default void readings(Path file, Consumer<Reading> each) {
        readings(file).forEach(each);
    }

    /**
     * Returns every value in {@code file}, in file order, every cell in the unit it was first read
     * in (see {@link Readings#oneUnitPerCell}); a cell that appears more than once appears once per
     * value.
     *
     * @throws BadInputException when the file cannot be read or is not valid in this format, or when
     *     one cell comes with units that do not convert; the message names the file and, where it
     *     can, the line, column and cell
     */
    default List<Reading> read(Path file) {
        return Readings.oneUnitPerCell(readings(file));
    }

    /**
     * Returns how long the run in {@code file} spent in each benchmark, by its cell name, in seconds,
     * where the format says (Go's iterations times ns/op, Google Benchmark's iterations times real
     * time, pytest-benchmark's total, JMH's forks times its iterations' time): what
     * a later run's shards are cut by. Empty for a format that does not say.
     *
     * @throws BadInputException when the file is not valid in this format
     */
    default Map<String, Double> seconds(Path file) {
        return Map.of();
    }

    /**
     * Returns what the run in {@code file} says besides its values, where the format says: go test's
     * header and each benchmark's iteration counts. Empty for a format that does not say.
     *
     * @throws BadInputException when the format reads the file, and cannot
     */
    default RunContext context(Path file) {
        return new RunContext(Map.of(), Map.of(), Map.of());
    }

    /**
     * Returns whether the benchmarks this format's tool names can be counted one at a time, each on
     * its own, per operation ({@code measure: [instructions]} on go test or Google Benchmark): what
     * perfab counts in place of timing the whole harness. False by default.
     */
    default boolean countsEachBenchmark() {
        return false;
    }

    /**
     * Returns what a harness whose command is {@code run} lacks for each of its benchmarks to be
     * counted on its own, in words that follow "needs" in a message; empty when it lacks nothing, or
     * when the format's benchmarks are not counted one at a time (see {@link #countsEachBenchmark}).
     */
    default Optional<String> countingNeeds(List<String> run) {
        return Optional.empty();
    }

    /** Returns whether {@code head} (the start of a file) looks like this format. */
    boolean recognises(String head);

    /** Returns the perfab-json format ({@code schema: perfab/measurements/v1}). */
    static MeasurementFormat perfabJson() {
        return PerfabJson.INSTANCE;
    }

    /** Returns the format called {@code id}, or empty. */
    static Optional<MeasurementFormat> byId(String id) {
        return Formats.ALL.stream().filter(f -> f.id().equals(id)).findFirst();
    }

    /** Returns the names of every format, comma-separated, for messages. */
    static String names() {
        return Formats.ALL.stream().map(MeasurementFormat::id).collect(Collectors.joining(", "));
    }

    /**
     * Returns the format of {@code file}, from its first 64 KiB (a byte order mark left out). JSON
     * that no format recognises is taken as perfab-json, so that its errors are reported precisely.
     *
     * @throws BadInputException naming the file when no format recognises it
     */
    static MeasurementFormat detect(Path file) {
        String head;
        try (var in = BadInputException.open(file)) {
            head = BadInputException.withoutByteOrderMark(new String(in.readNBytes(65536), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw BadInputException.unreadable(file, e);
        }
        for (MeasurementFormat f : Formats.ALL) {
            if (f.recognises(head)) {
                return f;
            }
        }
        String start = head.stripLeading();
        if (start.startsWith("{") || start.startsWith("[")) {
            // JSON that no tool's format claims: perfab's own, whose reader says what is wrong where.
            return PerfabJson.INSTANCE;
        }
        throw new BadInputException(file + ": not a format perfab knows (" + names()
                + "); name it with --format-in");
    }
}
