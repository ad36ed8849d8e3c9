package org.perfab.ingest;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.perfab.failure.BadInputException;
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
    private static final Pattern HEADER = Pattern.compile("^(goos|goarch|cpu|pkg):\\s*(.*)$");

    @Override
    public String id() {
        return "go";
    }

    /**
     * Returns the context of a run's text: its header ({@code goos}, {@code goarch}, {@code cpu},
     * {@code pkg}; the first of each) and each benchmark's iteration counts ({@code b.N}), by the
     * cell name {@link #read} gives it.
     */
    static GoRun context(Path file) {
        Map<String, String> header = new LinkedHashMap<>();
        Map<String, List<Long>> iterations = new LinkedHashMap<>();
        String text = BadInputException.read(file);
        String procs = procs(text);
        lines(text, (number, line) -> {
            Matcher h = HEADER.matcher(line.stripTrailing());
            String[] f = line.startsWith("Benchmark") ? fields(line) : null;
            if (h.matches()) {
                header.putIfAbsent(h.group(1), h.group(2).strip());
            } else if (f != null) {
                try {
                    iterations.computeIfAbsent(name(f, procs), k -> new ArrayList<>()).add(Long.parseLong(f[1]));
                } catch (NumberFormatException e) {
                    // A count past a long is no count: the benchmark just has none.
                }
            }
        });
        return new GoRun(header, iterations);
    }

    /** What is done with each line of a text. */
    private interface LineVisitor {
        void line(int number, String line);
    }

    /**
     * Hands each line of {@code text} to {@code visitor} with its number from 1, without an array
     * of them all: a run of 10,000 benchmarks has hundreds of thousands of lines.
     */
    private static void lines(String text, LineVisitor visitor) {
        int start = 0;
        int number = 1;
        while (start <= text.length()) {
            int end = text.indexOf('\n', start);
            if (end < 0) {
                end = text.length();
            }
            visitor.line(number++, text.substring(start, end));
            start = end + 1;
        }
    }

    /**
     * Returns the {@code -N} every result line's name ends with, or null when one has none or they
     * differ: Go appends -GOMAXPROCS to every name, except when it is 1, and a sub-benchmark's own
     * name may end in -1024, so a suffix is dropped only when every line has the same one.
     */
    private static String procs(String text) {
        String[] common = {null};
        boolean[] same = {true};
        lines(text, (number, line) -> {
            String[] f = same[0] && line.startsWith("Benchmark") ? fields(line) : null;
            if (f != null) {
                String suffix = procsSuffix(f[0]);
                if (suffix == null || (common[0] != null && !common[0].equals(suffix))) {
                    same[0] = false;
                } else {
                    common[0] = suffix;
                }
            }
        });
        return same[0] ? common[0] : null;
    }

    /** Returns the cell name of a result line's fields. */
    private static String name(String[] fields, String procs) {
        String raw = fields[0].substring("Benchmark".length());
        return procs == null ? raw : raw.substring(0, raw.length() - procs.length());
    }

    @Override
    public boolean recognises(String head) {
        return Pattern.compile("(?m)^Benchmark\\S+\\s+\\d+\\s+[0-9.]+ \\S+").matcher(head).find();
    }

    /**
     * Returns the fields of a result line, split on spaces and tabs, when it has the shape of one:
     * {@code BenchmarkNAME}, a count, then value and unit pairs; else null. No regular expression:
     * a run of 10,000 benchmarks has hundreds of thousands of lines.
     */
    static String[] fields(String line) {
        List<String> f = new ArrayList<>(8);
        int i = 0;
        int n = line.length();
        while (i < n) {
            while (i < n && (line.charAt(i) == ' ' || line.charAt(i) == '\t')) {
                i++;
            }
            int start = i;
            while (i < n && line.charAt(i) != ' ' && line.charAt(i) != '\t') {
                i++;
            }
            if (i > start) {
                f.add(line.substring(start, i));
            }
        }
        if (f.size() < 4 || f.size() % 2 != 0 || f.get(0).length() <= "Benchmark".length()
                || !f.get(0).startsWith("Benchmark") || f.get(1).chars().anyMatch(c -> c < '0' || c > '9')) {
            return null;
        }
        return f.toArray(String[]::new);
    }

    @Override
    public List<Reading> read(Path file) {
        String text = BadInputException.read(file);
        String procs = procs(text);
        List<Reading> readings = new ArrayList<>();
        // By the name as printed, then by unit: no key is built for each of hundreds of thousands of values.
        Map<String, Map<String, Cell>> cells = new HashMap<>();
        lines(text, (number, raw) -> {
            if (!raw.startsWith("Benchmark")) {
                return;
            }
            String line = raw.stripTrailing();
            String[] f = fields(line);
            if (f == null) {
                if (line.matches("^Benchmark\\S+\\s*$") || line.contains("--- FAIL") || line.contains("--- SKIP")) {
                    return; // a name on its own line (its result follows after logs), or a failed benchmark
                }
                throw bad(file, Integer.toString(number), "not a benchmark result line: " + line);
            }
            Map<String, Cell> byUnit = cells.computeIfAbsent(f[0], k -> new HashMap<>());
            for (int k = 2; k + 1 < f.length; k += 2) {
                double value;
                try {
                    value = Double.parseDouble(f[k]);
                } catch (NumberFormatException e) {
                    throw bad(file, Integer.toString(number), "'" + f[k] + "' is not a number in: " + line);
                }
                if (!Double.isFinite(value)) {
                    throw bad(file, Integer.toString(number), "'" + f[k] + "' is not a finite number in: " + line);
                }
                String unit = f[k + 1];
                Cell cell = byUnit.computeIfAbsent(unit, u -> cell(file, number - 1, name(f, procs), u));
                readings.add(new Reading(cell, value, file, number, 1));
            }
        });
        if (readings.isEmpty()) {
            throw bad(file, "", "no benchmark result lines (go test -bench prints lines starting with Benchmark)");
        }
        return normalise(readings);
    }

    /** Returns the cell of a value in {@code unit}: its metric from the unit, its direction from Go's conventions. */
    private static Cell cell(Path file, int line, String name, String unit) {
        String metric = switch (unit) {
            case "ns/op" -> "time";
            case "B/op" -> "alloc-bytes";
            case "allocs/op" -> "allocs";
            case "MB/s" -> "throughput";
            default -> unit.toLowerCase(Locale.ROOT);
        };
        // Go's convention, which benchstat follows: a custom metric per operation is a cost.
        return Units.direction(unit).isEmpty() && unit.endsWith("/op")
                ? new Cell(name, metric, unit, Direction.LOWER_IS_BETTER)
                : cell(file, Integer.toString(line + 1), name, metric, unit);
    }

    /** Returns the {@code -N} a result line's name field ends with, or null. */
    private static String procsSuffix(String field) {
        int dash = field.lastIndexOf('-');
        if (dash < "Benchmark".length() || dash == field.length() - 1) {
            return null;
        }
        for (int j = dash + 1; j < field.length(); j++) {
            if (field.charAt(j) < '0' || field.charAt(j) > '9') {
                return null;
            }
        }
        return field.substring(dash);
    }
}
