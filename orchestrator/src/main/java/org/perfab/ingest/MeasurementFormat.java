package org.perfab.ingest;

import java.nio.file.Path;
import java.util.List;
import org.perfab.failure.BadInputException;

/** A file format that holds measurements: what a harness writes, and what compare reads. */
public interface MeasurementFormat {
    /** The name used in workloads and on the command line, e.g. {@code perfab-json}. */
    String id();

    /**
     * Returns every value in {@code file}, in file order; a cell that appears more than once
     * appears once per value.
     *
     * @throws BadInputException when the file cannot be read or is not valid in this format; the
     *     message names the file and, where it can, the line, column and cell
     */
    List<Reading> read(Path file);

    /** Returns the perfab-json format ({@code schema: perfab/measurements/v1}). */
    static MeasurementFormat perfabJson() {
        return PerfabJson.INSTANCE;
    }
}
