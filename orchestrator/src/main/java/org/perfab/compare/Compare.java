package org.perfab.compare;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import org.perfab.failure.BadInputException;
import org.perfab.ingest.MeasurementFormat;
import org.perfab.ingest.Reading;
import org.perfab.report.Cell;
import org.perfab.report.ComparisonTable;
import org.perfab.report.Measurement;
import org.perfab.report.RunResults;
import org.perfab.report.Side;
import org.perfab.stats.Thresholds;
import org.perfab.workload.CellGlob;
import org.perfab.workload.Workload;

/** Classifies the cells of two sets of measurement files, like benchstat. */
public final class Compare {
    private Compare() {
    }

    /**
     * What to compare.
     *
     * @param base the baseline's files; each value of a cell is one more trial
     * @param head the candidate's files
     * @param format the format of every file; empty to detect each file's own
     * @param thresholds the verdict rules' settings
     * @param profiles cells shown but never classified
     */
    public record Request(List<Path> base, List<Path> head, java.util.Optional<MeasurementFormat> format,
            Thresholds thresholds, List<CellGlob> profiles) {
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
        List<Measurement> measurements = new ArrayList<>();
        Map<String, Reading> firstByKey = new HashMap<>();
        Map<Cell, int[]> trials = new HashMap<>();
        for (Side side : Side.values()) {
            for (Path file : side == Side.BASE ? request.base() : request.head()) {
                MeasurementFormat format = request.format().orElseGet(() -> MeasurementFormat.detect(file));
                List<Reading> read;
                try {
                    read = format.read(file);
                } catch (IllegalArgumentException | ArithmeticException e) {
                    throw new BadInputException(file + ": " + e.getMessage(), e);
                }
                for (Reading r0 : read) {
                    Reading r = r0;
                    Reading first0 = firstByKey.get(r.cell().key());
                    if (first0 != null && !first0.cell().equals(r.cell())
                            && first0.cell().direction() == r.cell().direction()) {
                        // The same cell in another unit of its kind (us here, ns there): convert.
                        var converted = org.perfab.ingest.Units.convert(r.value(), r.cell().unit(), first0.cell().unit());
                        if (converted.isPresent()) {
                            r = new Reading(first0.cell(), converted.get(), r.file(), r.line(), r.column());
                        }
                    }
                    int[] counts = trials.get(r.cell());
                    if (counts == null) {
                        Reading first = firstByKey.putIfAbsent(r.cell().key(), r);
                        if (first != null) {
                            throw new BadInputException(r.where() + ": cell '" + r.cell().key()
                                    + "' has " + describe(r.cell()) + " but " + describe(first.cell())
                                    + " at " + first.where());
                        }
                        counts = new int[Side.values().length];
                        trials.put(r.cell(), counts);
                    }
                    int trial = counts[side.ordinal()]++;
                    measurements.add(new Measurement(r.cell(), side, 0, trial, r.value()));
                }
            }
        }
        return ComparisonTable.of(label(request.base()), label(request.head()), measurements,
                request.thresholds(),
                cell -> request.profiles().stream().anyMatch(g -> g.matches(cell)));
    }

    /**
     * Classifies the measurements of a saved run again: under its own thresholds where
     * {@code overrides} say nothing, its profile cells kept, and {@code profiles} added.
     *
     * @throws BadInputException when the thresholds that result are not valid together
     */
    public static ComparisonTable reclassify(RunResults run, Workload.ThresholdSettings overrides,
            List<CellGlob> profiles) {
        Thresholds t;
        try {
            t = overrides.over(run.table().thresholds());
        } catch (IllegalArgumentException e) {
            throw new BadInputException("thresholds: " + e.getMessage());
        }
        java.util.Set<Cell> savedProfiles = new java.util.HashSet<>();
        run.table().rows().forEach(r -> {
            if (r.comparison().verdict() == org.perfab.stats.Verdict.PROFILE) {
                savedProfiles.add(r.cell());
            }
        });
        return ComparisonTable.of(run.table().baseLabel(), run.table().headLabel(), run.measurements(), t,
                cell -> savedProfiles.contains(cell) || profiles.stream().anyMatch(g -> g.matches(cell)))
                .withWarnings(run.table().warnings());
    }

    private static String label(List<Path> files) {
        return files.stream().map(Path::toString).collect(Collectors.joining(", "));
    }

    private static String describe(Cell cell) {
        return "unit '" + cell.unit() + "' (" + cell.direction().id() + " is better)";
    }
}
