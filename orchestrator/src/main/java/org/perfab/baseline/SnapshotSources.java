package org.perfab.baseline;

import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeSet;
import org.perfab.failure.BadInputException;
import org.perfab.ingest.Formats;
import org.perfab.ingest.MeasurementFormat;
import org.perfab.ingest.Reading;
import org.perfab.ingest.RunContext;
import org.perfab.model.Cell;
import org.perfab.model.Measurement;
import org.perfab.model.RunResults;
import org.perfab.model.Side;
import org.perfab.model.Snapshot;
import org.perfab.stats.Direction;
import org.perfab.stats.Sample;

/**
 * Where a snapshot comes from: the output of a benchmark tool perfab reads (Go's text, with the
 * {@code goarch} and {@code cpu} of its header and each benchmark's {@code b.N}), or the results of
 * a {@code perfab ab} run (the head's trials). One metric makes a snapshot, a cost (lower is
 * better); a benchmark repeated ({@code -count 5}) is its median.
 */
public final class SnapshotSources {
    private SnapshotSources() {}

    /**
     * What a snapshot is stamped with; an empty field is taken from the source, else from this
     * machine.
     *
     * @param machine the machine key (tier)
     * @param arch the architecture
     * @param cpu the processor model
     * @param commit the commit
     * @param date the day
     */
    public record Stamp(
            String machine, Optional<String> arch, Optional<String> cpu, Optional<String> commit, LocalDate date) {
        public Stamp {
            Objects.requireNonNull(machine, "machine");
            Objects.requireNonNull(date, "date");
        }
    }

    /**
     * A snapshot made, and what was left out of it.
     *
     * @param snapshot the snapshot
     * @param zero the benchmarks whose value was 0 (no allocations, say): a ratio needs a cost above 0
     */
    public record Made(Snapshot snapshot, List<String> zero) {
        public Made {
            zero = List.copyOf(zero);
        }
    }

    /**
     * Returns the snapshot of a tool's output.
     *
     * @param format the file's format; detected when empty
     * @param metric the metric to keep; {@code time} when the file has it, else its only one
     * @param thisCpu the processor model of this machine, for when neither the stamp nor the file says
     * @throws BadInputException naming the file when it holds no cost to keep
     */
    public static Made fromFile(
            Path file, Optional<MeasurementFormat> format, Optional<String> metric, Stamp stamp, String thisCpu) {
        MeasurementFormat f = format.orElseGet(() -> Formats.detect(file));
        List<Reading> readings = f.read(file);
        RunContext run = f.context(file);
        Map<String, String> header = run.header();
        Map<String, List<Long>> iterations = run.iterations();
        Map<Cell, List<Double>> values = new LinkedHashMap<>();
        readings.forEach(
                r -> values.computeIfAbsent(r.cell(), k -> new ArrayList<>()).add(r.value()));
        List<String> zero = new ArrayList<>();
        List<Snapshot.Benchmark> benchmarks = benchmarks(file.toString(), values, metric, iterations, zero);
        String arch =
                stamp.arch().or(() -> Optional.ofNullable(header.get("goarch"))).orElseGet(SnapshotSources::thisArch);
        String cpu =
                stamp.cpu().or(() -> Optional.ofNullable(header.get("cpu"))).orElse(thisCpu);
        return new Made(
                snapshot(file.toString(), stamp, arch, cpu, stamp.commit().orElse(""), benchmarks), zero);
    }

    /**
     * Returns the snapshot of a run's results: the head's trials (both sides' in an A/A run), one
     * value per benchmark, the median of its trials.
     */
    public static Made fromResults(RunResults results, String shown, Optional<String> metric, Stamp stamp) {
        Map<Cell, List<Double>> values = new LinkedHashMap<>();
        for (Measurement m : results.measurements()) {
            if (results.provenance().aa() || m.side() == Side.HEAD) {
                values.computeIfAbsent(m.cell(), k -> new ArrayList<>()).add(m.value());
            }
        }
        List<String> zero = new ArrayList<>();
        List<Snapshot.Benchmark> benchmarks = benchmarks(shown, values, metric, Map.of(), zero);
        return new Made(
                snapshot(
                        shown,
                        stamp,
                        stamp.arch().orElseGet(SnapshotSources::thisArch),
                        stamp.cpu().orElse(results.machine().cpu()),
                        stamp.commit().orElse(results.provenance().head().commit()),
                        benchmarks),
                zero);
    }

    private static Snapshot snapshot(
            String shown, Stamp stamp, String arch, String cpu, String commit, List<Snapshot.Benchmark> benchmarks) {
        try {
            return new Snapshot(stamp.machine(), arch, cpu, commit, stamp.date(), benchmarks);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(shown + ": " + e.getMessage());
        }
    }

    private static List<Snapshot.Benchmark> benchmarks(
            String shown,
            Map<Cell, List<Double>> values,
            Optional<String> metric,
            Map<String, List<Long>> iterations,
            List<String> zero) {
        TreeSet<String> metrics = new TreeSet<>();
        values.keySet().forEach(c -> metrics.add(c.metric()));
        String chosen;
        if (metric.isPresent()) {
            chosen = metric.get();
            if (!metrics.contains(chosen)) {
                throw new BadInputException(
                        shown + ": no metric '" + chosen + "' (it has " + String.join(", ", metrics) + ")");
            }
        } else if (metrics.contains("time") || metrics.size() == 1) {
            chosen = metrics.contains("time") ? "time" : metrics.first();
        } else {
            throw new BadInputException(shown + ": it has the metrics " + String.join(", ", metrics)
                    + "; name the one to keep with --metric");
        }
        List<Snapshot.Benchmark> benchmarks = new ArrayList<>();
        for (Map.Entry<Cell, List<Double>> e : values.entrySet()) {
            Cell c = e.getKey();
            if (!c.metric().equals(chosen)) {
                continue;
            }
            if (c.direction() != Direction.LOWER_IS_BETTER) {
                throw new BadInputException(shown + ": metric '" + chosen + "' (" + c.unit() + ") is higher-is-better;"
                        + " a baseline keeps floors of costs (a time, bytes, allocations): choose one with --metric");
            }
            double median = Sample.of(e.getValue().stream()
                            .mapToDouble(Double::doubleValue)
                            .toArray())
                    .median();
            if (median == 0) {
                zero.add(c.name());
                continue;
            }
            List<Long> n = iterations.getOrDefault(c.name(), List.of());
            OptionalLong its = n.isEmpty()
                    ? OptionalLong.empty()
                    : OptionalLong.of(Math.round(
                            Sample.of(n.stream().mapToDouble(Long::doubleValue).toArray())
                                    .median()));
            try {
                benchmarks.add(new Snapshot.Benchmark(c.name(), median, c.unit(), its));
            } catch (IllegalArgumentException ex) {
                throw new BadInputException(shown + ": " + ex.getMessage());
            }
        }
        return benchmarks;
    }

    /** Returns this machine's architecture as Go names it, or its own name when perfab does not know it. */
    static String thisArch() {
        // The JVM's own: a snapshot taken here, of results that do not say, is of this machine.
        String os = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        return Snapshot.arch(os).orElse(os);
    }
}
