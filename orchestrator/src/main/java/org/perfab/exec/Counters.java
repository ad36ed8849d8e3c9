package org.perfab.exec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Counts of what a command executes, which a busy machine cannot move: instructions under
 * Valgrind's Cachegrind (a simulation: its times mean nothing, its counts are exact), or the CPU's
 * own counters through {@code perf stat} where the kernel and the machine allow them.
 *
 * <p>Cachegrind's estimate of cycles weighs each access by where the simulated caches found it:
 * {@code L1 hits + 5 x last-level hits + 35 x memory accesses}, the weights iai-callgrind uses
 * (after Itamar Turner-Trauring's "Measuring CPU performance in CI"). It is a model, not a
 * machine's timing: it moves with the code's instructions and its cache behaviour, and nothing else.
 */
public final class Counters {
    /** The program that counts instructions. */
    public static final String VALGRIND = "valgrind";
    /** The program that reads the CPU's counters. */
    public static final String PERF = "perf";

    private Counters() {}

    /**
     * Returns {@code argv} run under Cachegrind with its caches simulated, children included: its
     * counts go to {@code out} (a folder, one file per process), Valgrind's own messages to
     * {@code logs} ({@code valgrind.PID.log}), neither into the command's tree.
     */
    public static List<String> cachegrind(Path out, Path logs, List<String> argv) {
        List<String> wrapped = new ArrayList<>(List.of(
                VALGRIND,
                "--tool=cachegrind",
                "--cache-sim=yes",
                "--trace-children=yes",
                "--cachegrind-out-file=" + out.resolve("cachegrind.%p"),
                "--log-file=" + logs.resolve("valgrind.%p.log"),
                "--"));
        wrapped.addAll(argv);
        return wrapped;
    }

    /**
     * What Cachegrind counted of a command and its children.
     *
     * @param instructions instructions executed ({@code Ir})
     * @param estimatedCycles the estimate of cycles (see {@link Counters})
     * @param byFunction instructions by function ({@code FILE:FUNCTION}), over every process
     */
    public record Counted(long instructions, long estimatedCycles, Map<String, Long> byFunction) {
        public Counted {
            byFunction = Map.copyOf(byFunction);
        }
    }

    /**
     * Reads what Cachegrind wrote into {@code out}: the sum over every process's file.
     *
     * @throws IOException when a file does not read, or none holds a summary (the command did not
     *     run under Cachegrind to its end)
     */
    public static Counted read(Path out) throws IOException {
        List<Path> files;
        try (Stream<Path> list = Files.list(out)) {
            files = list.filter(p -> p.getFileName().toString().startsWith("cachegrind."))
                    .sorted()
                    .toList();
        }
        long[] totals = new long[9];
        Map<String, Long> byFunction = new HashMap<>();
        int summaries = 0;
        for (Path f : files) {
            summaries += read(f, totals, byFunction) ? 1 : 0;
        }
        if (summaries == 0) {
            throw new IOException("Cachegrind wrote no counts into " + out);
        }
        return counted(totals, byFunction);
    }

    /**
     * Reads one part of Callgrind's output ({@code --compress-strings=no --compress-pos=no}, its
     * caches simulated): its totals, and each function's own instructions, without those of the
     * functions it called.
     *
     * @throws IOException when the file does not read, or is not Callgrind's
     */
    public static Counted readCallgrind(Path file) throws IOException {
        long[] totals = new long[EVENTS.size()];
        Map<String, Long> byFunction = new HashMap<>();
        if (!read(file, totals, byFunction)) {
            throw new IOException(file + ": Callgrind's file has no totals");
        }
        return counted(totals, byFunction);
    }

    /** Returns where each of {@link #EVENTS} is among the events of a file's {@code events:} line. */
    private static int[] columns(Path file, String line) throws IOException {
        List<String> names = List.of(line.substring(7).trim().split("\\s+"));
        int[] column = new int[EVENTS.size()];
        for (int i = 0; i < EVENTS.size(); i++) {
            column[i] = names.indexOf(EVENTS.get(i));
        }
        if (column[0] < 0) {
            throw new IOException(file + ": Valgrind's events lack Ir: " + line);
        }
        return column;
    }

    /** Returns the counts of {@code totals}, in the order of {@link #EVENTS}, with the estimate of cycles. */
    private static Counted counted(long[] totals, Map<String, Long> byFunction) {
        long ir = totals[0];
        long dr = totals[3];
        long dw = totals[6];
        long l1Misses = totals[1] + totals[4] + totals[7];
        long llMisses = totals[2] + totals[5] + totals[8];
        long l1Hits = ir + dr + dw - l1Misses;
        long llHits = l1Misses - llMisses;
        return new Counted(ir, l1Hits + 5 * llHits + 35 * llMisses, byFunction);
    }

    /** The events of a Cachegrind file with its caches simulated, in the order {@link #read} sums them. */
    private static final List<String> EVENTS =
            List.of("Ir", "I1mr", "ILmr", "Dr", "D1mr", "DLmr", "Dw", "D1mw", "DLmw");

    /**
     * Adds the totals of one file of Cachegrind's, or one part of Callgrind's, to {@code totals}, and
     * each function's own instructions to {@code byFunction}; returns whether it had totals. The two
     * share a format: Callgrind's adds calls, each followed by a line of the callee's cost, which is
     * not the caller's own, and names its totals {@code totals:} as well as {@code summary:}.
     */
    private static boolean read(Path file, long[] totals, Map<String, Long> byFunction) throws IOException {
        int[] column = null;
        String fl = "?";
        String fn = "?";
        boolean summary = false;
        boolean call = false;
        try (var lines = Files.lines(file, StandardCharsets.UTF_8)) {
            for (String line : (Iterable<String>) lines::iterator) {
                if (line.startsWith("events:")) {
                    column = columns(file, line);
                } else if (line.startsWith("fl=")) {
                    fl = line.substring(3);
                } else if (line.startsWith("fn=")) {
                    fn = line.substring(3);
                } else if (line.startsWith("calls=")) {
                    call = true;
                } else if ((line.startsWith("summary:") || line.startsWith("totals:")) && column != null && !summary) {
                    String[] v = line.substring(line.indexOf(':') + 1).trim().split("\\s+");
                    for (int i = 0; i < column.length; i++) {
                        totals[i] += column[i] >= 0 && column[i] < v.length ? Long.parseLong(v[column[i]]) : 0;
                    }
                    summary = true;
                } else if (column != null
                        && !line.isEmpty()
                        && (Character.isDigit(line.charAt(0))
                                || line.charAt(0) == '+'
                                || line.charAt(0) == '-'
                                || line.charAt(0) == '*')) {
                    if (call) {
                        call = false;
                        continue;
                    }
                    // "LINE Ir I1mr ...": the first count after the line number is Ir.
                    String[] v = line.split("\\s+");
                    int at = 1 + column[0];
                    if (at < v.length) {
                        byFunction.merge(fl + ":" + fn, Long.parseLong(v[at]), Long::sum);
                    }
                }
            }
        } catch (NumberFormatException e) {
            throw new IOException(file + ": not Valgrind's counts: " + e.getMessage(), e);
        }
        return summary;
    }

    /**
     * Returns the line of Valgrind's logs in {@code logs} that says why the command did not run to
     * its end under it (a signal, an instruction it cannot simulate, its own error); empty when
     * none says.
     */
    public static Optional<String> why(Path logs) {
        List<Path> files;
        try (Stream<Path> list = Files.list(logs)) {
            files = list.filter(p -> p.getFileName().toString().startsWith("valgrind."))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            return Optional.empty();
        }
        // The most telling first: an instruction it cannot simulate (and where), the signal that
        // ended the command, Valgrind's own complaint.
        String[] found = new String[3];
        for (Path f : files) {
            List<String> lines;
            try {
                lines = Files.readAllLines(f, StandardCharsets.UTF_8);
            } catch (IOException e) {
                continue;
            }
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i).replaceFirst("^==\\d+==\\s*", "").strip();
                String next = i + 1 < lines.size()
                        ? lines.get(i + 1).replaceFirst("^==\\d+==\\s*", "").strip()
                        : "";
                String where = next.startsWith("at ") ? " (" + next + ")" : "";
                if (line.startsWith("valgrind: Unrecognised instruction") && found[0] == null) {
                    found[0] =
                            line.substring("valgrind: ".length()) + where + ": an instruction Valgrind cannot simulate";
                } else if (line.startsWith("Process terminating with default action of signal") && found[1] == null) {
                    found[1] = line;
                } else if (line.startsWith("valgrind: ") && !line.startsWith("valgrind: warning") && found[2] == null) {
                    found[2] = line;
                }
            }
        }
        for (String f : found) {
            if (f != null) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }

    /** Returns {@code argv} run under {@code perf stat}, its counts written to {@code out} as CSV. */
    public static List<String> perfStat(Path out, List<String> argv) {
        List<String> wrapped = new ArrayList<>(
                List.of(PERF, "stat", "-x,", "-e", "instructions:u,cycles:u", "-o", out.toString(), "--"));
        wrapped.addAll(argv);
        return wrapped;
    }

    /**
     * Reads what {@code perf stat -x,} wrote to {@code out}: the counts by event
     * ({@code instructions}, {@code cycles}, without the {@code :u}).
     *
     * @throws IOException when the file does not read, or an event was not counted: the kernel or
     *     the machine refuses the CPU's counters ({@code <not supported>}, {@code <not counted>})
     */
    public static Map<String, Long> readPerf(Path out) throws IOException {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String line : Files.readAllLines(out, StandardCharsets.UTF_8)) {
            String[] f = line.split(",", -1);
            if (line.isBlank() || line.startsWith("#") || f.length < 3) {
                continue;
            }
            String event = f[2].replaceFirst(":.*$", "");
            if (f[0].startsWith("<")) {
                throw new IOException("the CPU's counter " + f[2] + " is " + f[0] + " here: the kernel or the"
                        + " virtual machine refuses it (measure instructions instead: Valgrind counts them)");
            }
            try {
                counts.put(event, Math.round(Double.parseDouble(f[0])));
            } catch (NumberFormatException e) {
                throw new IOException(out + ": not perf stat's output: " + line, e);
            }
        }
        if (counts.isEmpty()) {
            throw new IOException(out + ": perf stat counted nothing");
        }
        return counts;
    }

    /**
     * Returns why the machine {@code commands} run on cannot read the CPU's counters for a command
     * ({@code perf} missing, or the kernel or the virtual machine refusing the counters, as most
     * hosted runners do); empty when it can. It asks by running {@code perf stat true} with them.
     */
    public static Optional<String> hardwareProblem(Commands commands) throws InterruptedException {
        if (!commands.has(PERF)) {
            return Optional.of(missing(PERF));
        }
        Path dir = null;
        try {
            dir = Files.createTempDirectory("perfab-perf-");
            Path out = dir.resolve("perf.csv");
            Path log = dir.resolve("perf.log");
            Processes.Outcome o = commands.run(new Processes.Command(
                    perfStat(out, List.of("true")), dir, Map.of(), Duration.ofSeconds(30), log, log, false));
            if (o.timedOut()) {
                return Optional.of("perf stat did not end within 30 s");
            }
            if (!o.startError().isEmpty() || o.stopped()) {
                return Optional.of("perf stat " + o.failure());
            }
            readPerf(out);
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of(e.getMessage());
        } finally {
            if (dir != null) {
                try (Stream<Path> files = Files.list(dir)) {
                    for (Path f : files.toList()) {
                        Files.deleteIfExists(f);
                    }
                    Files.deleteIfExists(dir);
                } catch (IOException e) {
                    // a temporary folder
                }
            }
        }
    }

    /** Says what to install for {@code program}. */
    public static String missing(String program) {
        return program.equals(VALGRIND)
                ? "valgrind is not installed: measure: [instructions] runs each command under Valgrind's Cachegrind"
                        + " (Debian and Ubuntu: apt-get install valgrind)"
                : "perf is not installed: measure: [hw-instructions, hw-cycles] reads the CPU's counters with perf"
                        + " stat (Debian: apt-get install linux-perf; Ubuntu: apt-get install linux-tools-generic)";
    }
}
