package org.perfab.compare;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.perfab.failure.BadInputException;
import org.perfab.failure.RunFailedException;
import org.perfab.ingest.Formats;
import org.perfab.ingest.MeasurementFormat;
import org.perfab.model.Cell;
import org.perfab.model.CellComparison;
import org.perfab.model.CellId;
import org.perfab.model.CellValues;
import org.perfab.model.ComparisonTable;
import org.perfab.model.Judge;
import org.perfab.model.RunResults;
import org.perfab.model.Shards;
import org.perfab.model.Side;
import org.perfab.stats.KnownTests;
import org.perfab.stats.ThresholdSettings;
import org.perfab.stats.Thresholds;
import org.perfab.stats.Verdict;
import org.perfab.workload.CellGlob;

/** Classifies the cells of two sets of measurement files, like benchstat. */
public final class Compare {
    private Compare() {}

    /**
     * What to compare.
     *
     * @param base the baseline's files; each value of a cell is one more trial
     * @param head the candidate's files
     * @param format the format of every file; empty to detect each file's own
     * @param thresholds the verdict rules' settings
     * @param profiles cells shown but never classified
     */
    public record Request(
            List<Path> base,
            List<Path> head,
            Optional<MeasurementFormat> format,
            Thresholds thresholds,
            List<CellGlob> profiles) {
        public Request {
            base = List.copyOf(base);
            head = List.copyOf(head);
            Objects.requireNonNull(format, "format");
            Objects.requireNonNull(thresholds, "thresholds");
            profiles = List.copyOf(profiles);
            if (base.isEmpty() || head.isEmpty()) {
                throw new IllegalArgumentException("each side needs at least one file");
            }
        }
    }

    /**
     * Reads every file of the request and returns the classified table. Nothing is returned
     * unless every file reads cleanly.
     *
     * @throws BadInputException naming the file, line and cell of the first problem, or the two
     *     places where one cell is given two units or directions
     */
    public static ComparisonTable table(Request request) {
        List<Path> files = new ArrayList<>(request.base());
        files.addAll(request.head());
        try {
            return read(request, files);
        } catch (OutOfMemoryError e) {
            throw tooBig(files);
        }
    }

    private static ComparisonTable read(Request request, List<Path> files) {
        return ComparisonTable.of(
                label(request.base()),
                label(request.head()),
                values(request, files),
                request.thresholds(),
                cell -> request.profiles().stream().anyMatch(g -> g.matches(cell)),
                KnownTests.PERFAB);
    }

    /**
     * Returns the values of the files grouped by cell, each a trial of its side, counted in file
     * order, every cell in one unit (see {@link FileTrials#merge}).
     */
    private static List<CellValues> values(Request request, List<Path> files) {
        List<FileTrials> read = readAll(request, files);
        if (read.stream().allMatch(f -> f.size() == 0)) {
            throw new BadInputException("no file holds a measurement (" + label(files) + "): nothing to compare");
        }
        return FileTrials.merge(read);
    }

    /** What perfab holds, in bytes, for each byte of go test text it reads (measured: 1.9 GB for 2 x 188 MiB). */
    static final long BYTES_HELD_PER_BYTE_READ = 6;

    /** Returns the failure of inputs too big for the heap, naming each with its size and the heap to give. */
    public static RunFailedException tooBig(List<Path> files) {
        long total = 0;
        List<String> sized = new ArrayList<>();
        for (Path f : files) {
            long size;
            try {
                size = Files.size(f);
            } catch (IOException e) {
                size = 0;
            }
            total += size;
            sized.add(f + " (" + size / (1024 * 1024) + " MiB)");
        }
        long heap = Runtime.getRuntime().maxMemory() / (1024 * 1024);
        long needed = Math.max(heap / 1024 + 1, total * BYTES_HELD_PER_BYTE_READ / (1024 * 1024 * 1024) + 1);
        return new RunFailedException("out of memory: " + String.join(" and ", sized) + " do not fit in " + heap
                + " MiB of heap; give perfab about " + needed + " GiB (JAVA_TOOL_OPTIONS=-Xmx" + needed
                + "g), or compare fewer runs at once");
    }

    /** Returns whether {@code file} holds nothing but white space. */
    private static boolean empty(Path file) {
        try (var in = BadInputException.open(file)) {
            byte[] start = in.readNBytes(4096);
            return in.read() < 0 && new String(start, StandardCharsets.UTF_8).isBlank();
        } catch (IOException e) {
            throw BadInputException.unreadable(file, e);
        }
    }

    /**
     * Returns the values of each file, in order: the files are read at once, one a core, since a
     * base and a head of hundreds of thousands of lines each take a core a while. The first file
     * that fails fails the whole, with its own message.
     */
    private static List<FileTrials> readAll(Request request, List<Path> files) {
        int threads = Math.max(1, Math.min(files.size(), Runtime.getRuntime().availableProcessors()));
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "perfab-read");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<FileTrials>> futures = new ArrayList<>();
            for (int i = 0; i < files.size(); i++) {
                Path file = files.get(i);
                Side side = i < request.base().size() ? Side.BASE : Side.HEAD;
                futures.add(pool.submit(() -> {
                    if (empty(file)) {
                        throw new BadInputException(file + ": the file is empty: it holds no measurements (did the"
                                + " benchmark write its output somewhere else?)");
                    }
                    MeasurementFormat f = request.format().orElseGet(() -> Formats.detect(file));
                    try {
                        return new FileTrials(file, f, side).read();
                    } catch (IllegalArgumentException | ArithmeticException e) {
                        throw new BadInputException(file + ": " + e.getMessage(), e);
                    }
                }));
            }
            List<FileTrials> read = new ArrayList<>();
            for (Future<FileTrials> f : futures) {
                try {
                    read.add(f.get());
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof RuntimeException r) {
                        throw r;
                    }
                    if (e.getCause() instanceof Error err) {
                        throw err;
                    }
                    throw new IllegalStateException(e.getCause());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while reading", e);
                }
            }
            return read;
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Classifies the measurements of a saved run again: under its own thresholds where
     * {@code overrides} say nothing, its profile cells kept, and {@code profiles} added.
     *
     * @throws BadInputException when the thresholds that result are not valid together
     */
    public static ComparisonTable reclassify(RunResults run, ThresholdSettings overrides, List<CellGlob> profiles) {
        Thresholds t;
        try {
            t = overrides.over(run.table().thresholds());
        } catch (IllegalArgumentException e) {
            throw new BadInputException("thresholds: " + e.getMessage());
        }
        Set<Cell> savedProfiles = new HashSet<>();
        run.table().rows().forEach(r -> {
            if (r.comparison().verdict() == Verdict.PROFILE) {
                savedProfiles.add(r.cell());
            }
        });
        Predicate<Cell> isProfile =
                cell -> savedProfiles.contains(cell) || profiles.stream().anyMatch(g -> g.matches(cell));
        // Shards merged: each cell judged at the looks its own shard took, all of them together. What the
        // run knew beside its measurements (functions whose counts moved, noise floors, rows counted
        // instead) stays with each row.
        Map<CellId, CellComparison> saved = new HashMap<>();
        run.table().rows().forEach(r -> saved.put(r.cell().id(), r));
        List<List<RunResults.TrialRecord>> byShard = Shards.trialsByShard(run);
        ComparisonTable judged = Judge.table(
                        run.table().baseLabel(), run.table().headLabel(), byShard, t, isProfile)
                .withWarnings(run.table().warnings())
                .withFunctions(r -> Optional.ofNullable(saved.get(r.cell().id()))
                        .map(CellComparison::functions)
                        .orElse(List.of()))
                .withNoiseFloors(r -> Optional.ofNullable(saved.get(r.cell().id()))
                        .map(CellComparison::noiseFloor)
                        .orElse(Double.NaN))
                .countedInstead(r -> Optional.ofNullable(saved.get(r.cell().id()))
                        .map(CellComparison::countedInstead)
                        .orElse(false));
        return run.sharding()
                .map(s -> Shards.withUnmeasured(judged, s, byShard))
                .orElse(judged);
    }

    /**
     * Returns {@code table} with only the rows whose cell matches one of {@code cells}, judged as
     * they were among all the cells (a run's cells judged together stay judged together); the whole
     * table when {@code cells} is empty.
     *
     * @throws BadInputException when no cell matches, naming the patterns
     */
    public static ComparisonTable only(ComparisonTable table, List<CellGlob> cells) {
        if (cells.isEmpty()) {
            return table;
        }
        List<CellComparison> rows = table.rows().stream()
                .filter(r -> cells.stream().anyMatch(g -> g.matches(r.cell())))
                .toList();
        if (rows.isEmpty()) {
            throw new BadInputException("no cell matches "
                    + cells.stream().map(g -> "'" + g + "'").collect(Collectors.joining(" or ")) + " (the cells: "
                    + table.rows().stream()
                            .limit(10)
                            .map(r -> r.cell().id().toString())
                            .collect(Collectors.joining(", "))
                    + (table.rows().size() > 10 ? ", ..." : "") + ")");
        }
        return new ComparisonTable(
                table.baseLabel(), table.headLabel(), table.thresholds(), rows, table.warnings(), table.pairing());
    }

    private static String label(List<Path> files) {
        return files.stream().map(Path::toString).collect(Collectors.joining(", "));
    }
}
