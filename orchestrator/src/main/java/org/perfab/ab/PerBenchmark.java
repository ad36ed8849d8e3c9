package org.perfab.ab;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.perfab.exec.Processes;

/**
 * Counts each named benchmark of a harness on its own, per operation, under Valgrind, with no
 * change to the benchmarks: the counter of a tool that has one ({@link HarnessTool#counter}), go
 * test's and Google Benchmark's, found by {@link HarnessTools#counter}. The benchmarks
 * are found once, in the first side's first trial; each trial then counts every one of them on its
 * side.
 */
interface PerBenchmark {
    /**
     * A benchmark to count.
     *
     * @param name its name as its tool knows it ({@code BenchmarkSum64/4B}, {@code BM_Sum/16})
     * @param cell its cell's name, as perfab names the tool's timed cells
     * @param iterations the iterations it is counted over, where perfab chooses them; 0 where the tool does
     */
    record Benchmark(String name, String cell, long iterations) {}

    /**
     * What one operation of a benchmark executed.
     *
     * @param instructions its instructions
     * @param estimatedCycles its estimate of cycles (see {@link org.perfab.exec.Counters})
     * @param byFunction its instructions by function ({@code FILE:FUNCTION})
     */
    record PerOp(double instructions, double estimatedCycles, Map<String, Double> byFunction) {}

    /** Runs a command of a trial. */
    interface Exec {
        Processes.Outcome run(Processes.Command command) throws InterruptedException;
    }

    /** Where a command's output goes: files in the trial's logs, by a part's name. */
    interface Logs {
        Path out(String part);

        Path err(String part);
    }

    /** Why counting could not go on: a message for the trial's failure. */
    final class Failure extends Exception {
        Failure(String message) {
            super(message);
        }
    }

    /**
     * Readies the side of {@code tree} unless it is ready: its programs built, where the tool builds
     * them, and its benchmarks added to those found on the other side.
     *
     * @param out the side's private build folder
     * @param env the trial's environment
     */
    void prepare(Path tree, Path out, Map<String, String> env, Logs logs, Exec exec)
            throws Failure, IOException, InterruptedException;

    /**
     * Returns what decides a benchmark's count besides its side's sources and the toolchain: the
     * flags its programs are built and run with, and how perfab counts it.
     */
    String recipe();

    /**
     * Returns the tool's version and target as it runs in {@code tree}, as text: a part of the
     * count cache's key. Empty where the tool is built into what the build wrote.
     */
    String toolchain(Path tree, Map<String, String> env, Logs logs, Exec exec) throws IOException, InterruptedException;

    /**
     * Counts each benchmark {@code iterations} names over its iterations there, in place of those
     * perfab would choose: the count cache's, so that a side counted fresh is counted as the other
     * side was. Called before any side is readied; a tool that chooses its own iterations ignores it.
     */
    default void prefer(Map<String, Long> iterations) {}

    /** Returns the benchmarks found, in the order the tool runs them; empty before the first side is ready. */
    List<Benchmark> benchmarks();

    /**
     * Counts one operation of {@code benchmark} on the side of {@code tree}: Valgrind's files go into
     * {@code counts}, its logs into {@code vlogs}. Empty when the side has no such benchmark.
     */
    Optional<PerOp> count(
            Benchmark benchmark, Path tree, Map<String, String> env, Path counts, Path vlogs, Logs logs, Exec exec)
            throws Failure, IOException, InterruptedException;

    /**
     * Returns {@code known} with the benchmarks of {@code found} it lacks after it: each side's
     * benchmarks join the run's as the side is readied, so a benchmark a pull request adds (or
     * removes) is counted on the side that has it, and its cell is one-sided.
     */
    static List<Benchmark> join(List<Benchmark> known, List<Benchmark> found) {
        List<Benchmark> all = new java.util.ArrayList<>(known);
        for (Benchmark b : found) {
            if (all.stream().noneMatch(k -> k.name().equals(b.name()))) {
                all.add(b);
            }
        }
        return List.copyOf(all);
    }

    /** Returns {@code name} as a regular expression (RE2's, POSIX's) that matches it and nothing else. */
    static String quote(String name) {
        StringBuilder q = new StringBuilder();
        for (char ch : name.toCharArray()) {
            if ("\\.+*?()|[]{}^$".indexOf(ch) >= 0) {
                q.append('\\');
            }
            q.append(ch);
        }
        return q.toString();
    }
}
