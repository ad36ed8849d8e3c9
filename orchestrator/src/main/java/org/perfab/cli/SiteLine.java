package org.perfab.cli;

import org.perfab.series.SeriesSite;

/** The line that says what a series' site holds and where it is, as {@code series site} and {@code series demo} print it. */
final class SiteLine {
    private SiteLine() {}

    /** Returns the line for {@code w}: {@code perfab: wrote the site of 120 keys over 23 runs (...); open ...}. */
    static String of(SeriesSite.Written w) {
        return "perfab: wrote the site of " + w.keys() + " key" + (w.keys() == 1 ? "" : "s") + " over " + w.runs()
                + " run" + (w.runs() == 1 ? "" : "s") + " (" + w.files() + " files, " + (w.bytes() + 1023) / 1024
                + " KiB); open " + w.index();
    }
}
