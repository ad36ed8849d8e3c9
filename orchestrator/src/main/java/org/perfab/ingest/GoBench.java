package org.perfab.ingest;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.perfab.model.Cell;
import org.perfab.model.Units;
import org.perfab.stats.Direction;

/**
 * The text of {@code go test -bench}: every {@code BenchmarkName-N  iterations  value unit ...}
 * line is one reading of each of its metrics, so {@code -count 10} gives ten. The {@code Benchmark}
 * prefix and the {@code -N} GOMAXPROCS suffix are dropped from the cell name. {@code ns/op} is
 * metric {@code time}, {@code B/op} {@code alloc-bytes}, {@code allocs/op} {@code allocs},
 * {@code MB/s} {@code throughput}; a custom metric ({@code b.ReportMetric}) keeps its unit as its
 * name; one whose unit is not a known one but ends in {@code /op} is a cost (lower is better), as
 * Go and benchstat take it.
 */
final class GoBench extends ToolFormat {
    private static final Pattern LINE = Pattern.compile("^Benchmark(\\S+)\\s+(\\d+)((?:\\s+\\S+\\s+\\S+)+)\\s*$");
    private static final Pattern PROCS = Pattern.compile("-(\\d+)$");
    private static final Pattern HEADER = Pattern.compile("^(goos|goarch|cpu|pkg):\\s*(.*)$");

    @Override
    public String id() {
        return "go";
    }

    /** Returns the {@code -N} every result line's name ends with, or null when they differ. */
    private static String commonProcsSuffix(String[] lines) {
        String common = null;
        for (String line : lines) {
            Matcher m = LINE.matcher(line.stripTrailing());
            if (!line.startsWith("Benchmark") || !m.matches()) {
                continue;
            }
            Matcher p = PROCS.matcher(m.group(1));
            if (!p.find()) {
                return null;
            }
            if (common == null) {
                common = p.group();
            } else if (!common.equals(p.group())) {
                return null;
            }
        }
        return common;
    }

    /**
     * Returns the cell name of a result line: Go appends -GOMAXPROCS to every name, except when it
     * is 1; a sub-benchmark's own name may end in -1024, so a suffix is dropped only when every line
     * has the same one.
     */
    private static String name(Matcher line, String procs) {
        return procs == null ? line.group(1) : line.group(1).substring(0, line.group(1).length() - procs.length());
    }

    /**
     * Returns the context of a run's text: its header ({@code goos}, {@code goarch}, {@code cpu},
     * {@code pkg}; the first of each) and each benchmark's iteration counts ({@code b.N}), by the
     * cell name {@link #read} gives it.
     */
    static GoRun context(Path file) {
        Map<String, String> header = new LinkedHashMap<>();
        Map<String, List<Long>> iterations = new LinkedHashMap<>();
        String[] lines = text(file).split("\n", -1);
        String procs = commonProcsSuffix(lines);
        for (String raw : lines) {
            String line = raw.stripTrailing();
            Matcher h = HEADER.matcher(line);
            if (h.matches()) {
                header.putIfAbsent(h.group(1), h.group(2).strip());
                continue;
            }
            Matcher m = LINE.matcher(line);
            if (line.startsWith("Benchmark") && m.matches()) {
                try {
                    iterations.computeIfAbsent(name(m, procs), k -> new ArrayList<>()).add(Long.parseLong(m.group(2)));
                } catch (NumberFormatException e) {
                    // A count past a long is no count: the benchmark just has none.
                }
            }
        }
        return new GoRun(header, iterations);
    }

    @Override
    public boolean recognises(String head) {
        return Pattern.compile("(?m)^Benchmark\\S+\\s+\\d+\\s+[0-9.]+ \\S+").matcher(head).find();
    }

    @Override
    public List<Reading> read(Path file) {
        List<Reading> readings = new ArrayList<>();
        String[] lines = text(file).split("\n", -1);
        String procs = commonProcsSuffix(lines);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].stripTrailing();
            if (!line.startsWith("Benchmark")) {
                continue;
            }
            Matcher m = LINE.matcher(line);
            if (!m.matches()) {
                if (line.matches("^Benchmark\\S+\\s*$") || line.contains("--- FAIL") || line.contains("--- SKIP")) {
                    continue; // a name on its own line (its result follows after logs), or a failed benchmark
                }
                throw bad(file, Integer.toString(i + 1), "not a benchmark result line: " + line);
            }
            String name = name(m, procs);
            String[] pairs = m.group(3).trim().split("\\s+");
            for (int k = 0; k + 1 < pairs.length; k += 2) {
                double value;
                try {
                    value = Double.parseDouble(pairs[k]);
                } catch (NumberFormatException e) {
                    throw bad(file, Integer.toString(i + 1), "'" + pairs[k] + "' is not a number in: " + line);
                }
                if (!Double.isFinite(value)) {
                    throw bad(file, Integer.toString(i + 1), "'" + pairs[k] + "' is not a finite number in: " + line);
                }
                String unit = pairs[k + 1];
                String metric = switch (unit) {
                    case "ns/op" -> "time";
                    case "B/op" -> "alloc-bytes";
                    case "allocs/op" -> "allocs";
                    case "MB/s" -> "throughput";
                    default -> unit.toLowerCase(Locale.ROOT);
                };
                // Go's convention, which benchstat follows: a custom metric per operation is a cost.
                var cell = Units.direction(unit).isEmpty() && unit.endsWith("/op")
                        ? new Cell(name, metric, unit, Direction.LOWER_IS_BETTER)
                        : cell(file, Integer.toString(i + 1), name, metric, unit);
                readings.add(new Reading(cell, value, file, i + 1, 1));
            }
        }
        if (readings.isEmpty()) {
            throw bad(file, "", "no benchmark result lines (go test -bench prints lines starting with Benchmark)");
        }
        return normalise(readings);
    }
}
