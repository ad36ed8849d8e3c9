package org.perfab.cli;

import java.util.Iterator;
import org.perfab.ingest.Formats;
import org.perfab.ingest.MeasurementFormat;

/**
 * The names of the formats perfab reads, in the order detection tries them: what {@code --format-in}
 * takes, lists in its help ({@code ${COMPLETION-CANDIDATES}}) and completes. A format added to
 * {@link Formats#ALL} shows up here by itself.
 */
final class InputFormats implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
        return Formats.ALL.stream().map(MeasurementFormat::id).iterator();
    }
}
