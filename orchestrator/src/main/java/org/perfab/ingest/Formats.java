package org.perfab.ingest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.perfab.failure.BadInputException;

/**
 * Every format perfab reads, one instance each, and how one is found: by its name or from a file's
 * start. They are kept here, not in {@link MeasurementFormat}: an interface with default methods is
 * initialized before any class that implements it, so a thread creating a format and another first
 * touching the interface could each wait for the other's class to finish initializing, for ever;
 * and the interface knows none of its implementations.
 */
public final class Formats {
    /** The text of {@code go test -bench} ({@code go}). */
    public static final MeasurementFormat GO = new GoBench();

    /** Google Benchmark's JSON ({@code google-benchmark}). */
    public static final MeasurementFormat GOOGLE_BENCHMARK = new GoogleBenchmarkJson();

    /** pytest-benchmark's JSON ({@code pytest-benchmark}). */
    public static final MeasurementFormat PYTEST_BENCHMARK = new PytestBenchmarkJson();

    /** JMH's JSON ({@code jmh}). */
    public static final MeasurementFormat JMH = new JmhJson();

    /** The text of Rust's built-in bench harness, {@code cargo bench} ({@code libtest}). */
    public static final MeasurementFormat LIBTEST = new LibtestBench();

    /** Every format perfab reads, in the order detection tries them. */
    public static final List<MeasurementFormat> ALL = List.of(
            PerfabJson.INSTANCE,
            new HyperfineJson(),
            GO,
            GOOGLE_BENCHMARK,
            JMH,
            PYTEST_BENCHMARK,
            new CriterionJson(),
            new BenchmarkDotNetJson(),
            LIBTEST,
            new Catch2Xml(),
            new BenchmarkJs(),
            new CsvFormat(CsvFormat.Columns.DEFAULT));

    private Formats() {}

    /** Returns the perfab-json format ({@code schema: perfab/measurements/v1}). */
    public static MeasurementFormat perfabJson() {
        return PerfabJson.INSTANCE;
    }

    /** Returns the format called {@code id}, or empty. */
    public static Optional<MeasurementFormat> byId(String id) {
        return ALL.stream().filter(f -> f.id().equals(id)).findFirst();
    }

    /** Returns the names of every format, comma-separated, for messages. */
    public static String names() {
        return ALL.stream().map(MeasurementFormat::id).collect(Collectors.joining(", "));
    }

    /**
     * Returns the format of {@code file}, from its first 64 KiB (a byte order mark left out). JSON
     * that no format recognises is taken as perfab-json, so that its errors are reported precisely.
     *
     * @throws BadInputException naming the file when no format recognises it
     */
    public static MeasurementFormat detect(Path file) {
        String head;
        try (var in = BadInputException.open(file)) {
            head = BadInputException.withoutByteOrderMark(new String(in.readNBytes(65536), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw BadInputException.unreadable(file, e);
        }
        for (MeasurementFormat f : ALL) {
            if (f.recognises(head)) {
                return f;
            }
        }
        String start = head.stripLeading();
        if (start.startsWith("{") || start.startsWith("[")) {
            // JSON that no tool's format claims: perfab's own, whose reader says what is wrong where.
            return PerfabJson.INSTANCE;
        }
        throw new BadInputException(file + ": not a format perfab knows (" + names() + "); name it with --format-in");
    }
}
