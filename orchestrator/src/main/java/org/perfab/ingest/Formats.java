package org.perfab.ingest;

import java.util.List;

/**
 * Every format perfab reads, one instance each. They are kept here, not in static fields of
 * {@link MeasurementFormat}: an interface with default methods is initialized before any class that
 * implements it, so a thread creating a format and another first touching the interface could each
 * wait for the other's class to finish initializing, for ever.
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
    public static final List<MeasurementFormat> ALL = List.of(PerfabJson.INSTANCE, new HyperfineJson(), GO, GOOGLE_BENCHMARK, JMH,
            PYTEST_BENCHMARK, new CriterionJson(), new BenchmarkDotNetJson(), LIBTEST, new Catch2Xml(),
            new BenchmarkJs(), new CsvFormat(CsvFormat.Columns.DEFAULT));

    private Formats() {
    }
}
