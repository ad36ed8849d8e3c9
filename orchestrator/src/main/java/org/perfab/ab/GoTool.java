package org.perfab.ab;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.perfab.failure.BadInputException;
import org.perfab.ingest.Formats;
import org.perfab.ingest.MeasurementFormat;

/**
 * go test: its output is read as {@link Formats#GO}; its benchmarks are its functions that
 * {@code -bench} runs (listed with {@code -list}, or, for a pattern of sub-benchmarks, by running each
 * once), and a slice of them runs with {@code -bench} rewritten to the slice's functions
 * ({@link BenchPattern}); each benchmark is counted on its own
 * under Cachegrind from test binaries perfab builds ({@link GoCounts}). perfab takes the harness's
 * command apart only when it is go test itself ({@code [go, test, ...]}), not a command that runs it.
 */
final class GoTool implements HarnessTool {
    @Override
    public String knobs() {
        return "go test's -bench (a pattern of fewer benchmarks), -benchtime and -count";
    }

    @Override
    public MeasurementFormat format() {
        return Formats.GO;
    }

    /**
     * Returns how go test lists and filters its benchmarks; empty unless {@code run} is go test
     * itself, with {@code -bench}.
     */
    @Override
    public Optional<Slicer> slicer(List<String> run) {
        if (!goTest(run)) {
            return Optional.empty();
        }
        for (int i = 2; i < run.size(); i++) {
            String a = run.get(i);
            if (a.equals("-args") || a.equals("--args")) {
                break;
            }
            String flag = a.replaceFirst("^--?", "").replaceFirst("^test\\.", "");
            if (flag.equals("bench") && i + 1 < run.size()) {
                return Optional.of(new BenchPattern(run, i + 1, "", run.get(i + 1)));
            }
            if (flag.startsWith("bench=")) {
                int eq = a.indexOf('=') + 1;
                return Optional.of(new BenchPattern(run, i, a.substring(0, eq), a.substring(eq)));
            }
        }
        return Optional.empty();
    }

    /**
     * Returns the counter of {@code run}'s benchmarks, when it is go test itself; empty for any other
     * command.
     *
     * @throws IllegalArgumentException when it is go test, but with no {@code -bench}, or a flag
     *     perfab cannot carry into the counted runs
     */
    @Override
    public Optional<PerBenchmark> counter(
            List<String> run, Optional<Pattern> only, Duration timeout, Consumer<String> notes) {
        return goTest(run) ? Optional.of(new GoCounts(run, only, timeout, notes)) : Optional.empty();
    }

    /** Returns whether {@code run} is go test itself: what the reader says counting its benchmarks needs. */
    private boolean goTest(List<String> run) {
        return format().countingNeeds(run).isEmpty();
    }

    /**
     * go test's lister and filter: the functions {@code -bench} runs, and {@code -bench} rewritten to
     * the slice's functions, with their sub-benchmarks as the harness chose them.
     *
     * <p>go matches each level of a benchmark's name by its own part of {@code -bench}, split at its
     * slashes, and {@code -list} names top-level functions only, matching the whole pattern. A pattern
     * of functions alone is listed with {@code -list}; a pattern of sub-benchmarks
     * ({@code Benchmark.*}{@code /fast}) may run nothing of a function (one without a {@code fast}
     * sub-benchmark, or one without sub-benchmarks), which only running it tells: the functions it
     * runs are found by running each once ({@code -benchtime 1x -count 1}, no tests), and their
     * result lines name them. A slice then never holds a function of which its trials would measure
     * nothing.
     *
     * @param argv the harness's command, go test itself
     * @param at where in it the pattern of {@code -bench} is
     * @param prefix what comes before the pattern in that argument: {@code -bench=}, or nothing
     * @param pattern the pattern
     */
    private record BenchPattern(List<String> argv, int at, String prefix, String pattern) implements Slicer {
        /** A cell's name is its function's without {@code Benchmark}, and the sub-benchmark's after a {@code /}. */
        @Override
        public String asListed(String measured) {
            return "Benchmark" + measured;
        }

        @Override
        public List<String> list() {
            if (levels()) {
                // After the command's own flags (go test takes the last of each), before its -args.
                int end = 2;
                while (end < argv.size()
                        && !argv.get(end).equals("-args")
                        && !argv.get(end).equals("--args")) {
                    end++;
                }
                List<String> list = new ArrayList<>(argv);
                list.addAll(end, List.of("-run", "^$", "-benchtime", "1x", "-count", "1"));
                return list;
            }
            List<String> list = new ArrayList<>(argv.subList(0, 2));
            list.add("-list");
            list.add(top());
            list.addAll(argv.subList(2, argv.size()));
            return list;
        }

        /** The function of a result line (or a name line) of a sub-benchmark, as go prints them. */
        private static final Pattern RESULT = Pattern.compile("(Benchmark[\\p{L}\\p{N}_]*)/\\S*(?:\\s.*)?");

        @Override
        public List<String> names(List<String> lines) {
            if (levels()) {
                List<String> names = new ArrayList<>();
                for (String l : lines) {
                    Matcher m = RESULT.matcher(l.strip());
                    if (m.matches()) {
                        names.add(m.group(1));
                    }
                }
                return names.stream().distinct().toList();
            }
            return lines.stream()
                    .map(String::strip)
                    .filter(l -> l.matches("Benchmark[\\p{L}\\p{N}_]*"))
                    .toList();
        }

        /** Returns whether {@code -bench} has a part below the functions: a pattern of sub-benchmarks. */
        private boolean levels() {
            return top().length() < pattern.length();
        }

        @Override
        public List<String> run(List<String> slice, List<String> all) {
            List<String> run = new ArrayList<>(argv);
            run.set(at, prefix + HarnessTool.regex(slice) + pattern.substring(top().length()));
            return run;
        }

        /**
         * Narrows each function to the sub-benchmarks of {@code cells} too, when the workload's
         * {@code -bench} has no level of its own below the functions: go matches each level of a
         * name by its own part, and takes a top-level {@code |} as a choice of whole patterns, so
         * {@code ^(BenchmarkA)$/^(x)$|^(BenchmarkB)$/^(y)$} runs A/x and B/y (and their children)
         * and no sibling a look decided. Functions whose sub-benchmarks are the same share a part; a
         * function without sub-benchmarks (or none of whose cells are named) runs whole. A pattern
         * with a level of its own keeps it: perfab does not intersect patterns.
         */
        @Override
        public List<String> run(List<String> slice, List<String> all, Collection<String> cells) {
            if (levels()) {
                return run(slice, all);
            }
            Map<String, Set<String>> subs = new TreeMap<>();
            slice.forEach(function -> subs.put(function, new TreeSet<>()));
            Set<String> whole = new TreeSet<>();
            for (String cell : cells) {
                int slash = cell.indexOf('/');
                String function = asListed(slash < 0 ? cell : cell.substring(0, slash));
                if (!subs.containsKey(function)) {
                    continue;
                }
                if (slash < 0) {
                    whole.add(function); // a function without sub-benchmarks: its level runs whole
                } else {
                    int next = cell.indexOf('/', slash + 1);
                    subs.get(function).add(cell.substring(slash + 1, next < 0 ? cell.length() : next));
                }
            }
            Map<String, List<String>> bySubs = new TreeMap<>();
            subs.forEach((function, names) -> bySubs.computeIfAbsent(
                            whole.contains(function) || names.isEmpty()
                                    ? ""
                                    : "/" + HarnessTool.regex(List.copyOf(names)),
                            k -> new ArrayList<>())
                    .add(function));
            StringBuilder choice = new StringBuilder();
            bySubs.forEach((level, functions) -> choice.append(choice.length() == 0 ? "" : "|")
                    .append(HarnessTool.regex(functions))
                    .append(level));
            List<String> run = new ArrayList<>(argv);
            run.set(at, prefix + choice);
            return run;
        }

        /**
         * The part of {@code -bench} before its first slash outside brackets and parentheses: what
         * names the functions.
         *
         * @throws BadInputException when the pattern is an alternation of patterns with slashes
         *     ({@code A|B/x}), which go matches as either whole: no one rewrite keeps its meaning
         */
        private String top() {
            int brackets = 0;
            int parens = 0;
            int slash = -1;
            boolean alternation = false;
            for (int i = 0; i < pattern.length(); i++) {
                char c = pattern.charAt(i);
                if (c == '\\') {
                    i++;
                } else if (c == '[') {
                    brackets++;
                } else if (c == ']') {
                    brackets = Math.max(0, brackets - 1);
                } else if (brackets == 0 && c == '(') {
                    parens++;
                } else if (brackets == 0 && c == ')') {
                    parens = Math.max(0, parens - 1);
                } else if (brackets == 0 && parens == 0 && c == '/' && slash < 0) {
                    slash = i;
                } else if (brackets == 0 && parens == 0 && c == '|') {
                    alternation = true;
                }
            }
            if (slash >= 0 && alternation) {
                throw new BadInputException("--shard: go test's -bench " + pattern + " is an alternation of patterns"
                        + " with sub-benchmarks, which perfab cannot narrow to a slice; give the workload's"
                        + " 'harness.shard' (docs/workloads.md) or a pattern without a top-level |");
            }
            return slash < 0 ? pattern : pattern.substring(0, slash);
        }
    }
}
