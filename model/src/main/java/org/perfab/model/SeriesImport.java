package org.perfab.model;

import java.util.Objects;

/**
 * What {@code perfab series import} did: another history of a series folded into it without
 * duplicates, and the runs left out of both.
 *
 * @param series the series file, as the command named it
 * @param from the other history, as the command named it
 * @param merged the series written, and the readings added, already there, or held by the series
 *     with another ratio (the series' own kept)
 * @param curation the runs left out, of either history
 */
public record SeriesImport(String series, String from, SeriesFile.Merge merged, SeriesCuration curation) {
    public SeriesImport {
        Objects.requireNonNull(series, "series");
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(merged, "merged");
        Objects.requireNonNull(curation, "curation");
    }

    /** Returns the runs the series holds after the import. */
    public int runs() {
        return merged.file().series().runs().size();
    }
}
