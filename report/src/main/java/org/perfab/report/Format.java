package org.perfab.report;

import java.util.Locale;
import java.util.Optional;

/**
 * The ways perfab writes out what it found. Each {@link Product} says which of them it is
 * rendered in, and renders them; the A/B table ({@link Products#AB}) in every one.
 */
public enum Format {
    /** An aligned table for a terminal. */
    TEXT,
    /** The machine-readable form, each product's own schema. */
    JSON,
    /** The pull-request comment, in Markdown; also the job summary. */
    MARKDOWN,
    /** GitHub Actions annotations; the command also writes the job summary and the step's outputs. */
    GITHUB,
    /** One self-contained HTML file: the table, and a plot of every trial of every cell. */
    HTML,
    /** One row per line, comma-separated (RFC 4180), for a spreadsheet: where the product is a table. */
    CSV,
    /** JUnit XML, which CI systems show as tests: a test case per cell. */
    JUNIT;

    /** The name used on the command line: {@code text}, {@code json}, {@code markdown}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Returns the format whose {@link #id} is {@code id}, in any case; empty when there is none. */
    public static Optional<Format> byId(String id) {
        for (Format f : values()) {
            if (f.id().equals(id.toLowerCase(Locale.ROOT))) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }
}
