package org.perfab.ab;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.perfab.ingest.MeasurementFormat;

/**
 * What perfab knows of one benchmark tool: its reader ({@link #format}, the adapter of its output),
 * its lister and filter ({@link #slicer}: how a harness that runs the tool lists its benchmarks and
 * runs some of them, for a shard's slice and a later look's undecided cells, see {@link Slices}),
 * and its counter ({@link #counter}: whether and how each of its benchmarks is counted on its own,
 * see {@link PerBenchmark}). One implementation per tool, each listed in {@link HarnessTools}, which
 * finds a format's tool: the interface knows none of them. A harness of another format
 * (Criterion's, hyperfine's) is listed and filtered as its workload's {@code harness.shard} says, and
 * counted only as a whole.
 *
 * <p>What the workload must know when it is read (whether a format's benchmarks are counted one at
 * a time, and what the harness's command needs for that) is the reader's to say, in
 * {@link MeasurementFormat#countsEachBenchmark} and {@link MeasurementFormat#countingNeeds}: a
 * workload is read below this package.
 */
interface HarnessTool {
    /** Returns the format the tool's output is read in. */
    MeasurementFormat format();

    /**
     * Returns the tool's own options that make a trial shorter, in a few words a run's advice
     * quotes: "-bench (fewer benchmarks) and -benchtime".
     */
    String knobs();

    /**
     * Returns how the harness command {@code run}, the tool's, lists its benchmarks and runs a slice
     * of them; empty when perfab cannot take that command apart.
     */
    Optional<Slicer> slicer(List<String> run);

    /**
     * Returns the counter of each benchmark the harness command {@code run} names, on its own, per
     * operation; empty when the tool's benchmarks are not counted one at a time, or {@code run} is
     * not a command perfab can count them in.
     *
     * @param only the benchmarks to count, of those {@code run} runs, by a search in their names
     * @param timeout how long one of the counter's commands may take
     * @param notes hears what the operator should know of the counting
     * @throws IllegalArgumentException when {@code run} is the tool's command, but one perfab cannot
     *     count a benchmark at a time
     */
    Optional<PerBenchmark> counter(List<String> run, Optional<Pattern> only, Duration timeout, Consumer<String> notes);

    /** How a harness lists its benchmarks, and runs some of them. */
    interface Slicer {
        /** Returns the command that lists the benchmarks. */
        List<String> list();

        /** Returns the benchmarks' names in the listing's standard output, line by line. */
        List<String> names(List<String> lines);

        /** Returns the harness's command that runs {@code slice} of {@code all} the benchmarks, and no other. */
        List<String> run(List<String> slice, List<String> all);

        /**
         * Returns the harness's command that runs {@code slice} of {@code all} the benchmarks, and of
         * them at least the cells named {@code cells}: {@link #run(List, List)}, unless the harness
         * can narrow a benchmark to some of its cells (go test's sub-benchmarks).
         */
        default List<String> run(List<String> slice, List<String> all, Collection<String> cells) {
            return run(slice, all);
        }

        /**
         * Returns a measured benchmark's name (a cell's) as the listing names benchmarks, to find
         * the one it belongs to (see {@link Slices.Owners}): the same name by default.
         */
        default String asListed(String measured) {
            return measured;
        }
    }

    /** A harness listed by its own command with some arguments added. */
    abstract class Appending implements Slicer {
        private final List<String> list;

        Appending(List<String> argv, List<String> listing) {
            this.list = appended(argv, listing);
        }

        @Override
        public List<String> list() {
            return list;
        }

        @Override
        public List<String> names(List<String> lines) {
            return lines.stream().map(String::strip).filter(l -> !l.isEmpty()).toList();
        }
    }

    /** Returns {@code argv} with {@code added} at its end; a {@code sh -c SCRIPT} gets them as the script's {@code "$@"}. */
    static List<String> appended(List<String> argv, List<String> added) {
        List<String> out = new ArrayList<>(argv);
        if (argv.size() == 3
                && (argv.get(0).equals("sh")
                        || argv.get(0).equals("bash")
                        || argv.get(0).endsWith("/sh")
                        || argv.get(0).endsWith("/bash"))
                && argv.get(1).equals("-c")) {
            out.set(2, argv.get(2) + " \"$@\"");
            out.add(Path.of(argv.get(0)).getFileName().toString());
        }
        out.addAll(added);
        return out;
    }

    /** Returns a regular expression that matches each of {@code names} whole, and nothing else. */
    static String regex(List<String> names) {
        StringBuilder s = new StringBuilder("^(");
        for (int i = 0; i < names.size(); i++) {
            if (i > 0) {
                s.append('|');
            }
            for (char c : names.get(i).toCharArray()) {
                if ("\\.[]{}()*+?^$|".indexOf(c) >= 0) {
                    s.append('\\');
                }
                s.append(c);
            }
        }
        return s.append(")$").toString();
    }
}
