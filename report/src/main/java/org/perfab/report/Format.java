package org.perfab.report;

import java.util.Locale;
import java.util.Optional;

/**
 * The ways perfab writes out what it found, one for every product ({@link Product} says which it
 * supports). The A/B table supports every one, and its renderer of each is kept here.
 */
public enum Format {
    /** An aligned table for a terminal. */
    TEXT(new TextRenderer()),
    /** The machine-readable form, each product's own schema. */
    JSON(new JsonRenderer()),
    /** The pull-request comment, in Markdown; also the job summary. */
    MARKDOWN(new MarkdownRenderer()),
    /** GitHub Actions annotations; the command also writes the job summary and the step's outputs. */
    GITHUB(new GithubRenderer()),
    /** One self-contained HTML file: the table, and a plot of every trial of every cell. */
    HTML(new HtmlRenderer()),
    /** One row per line, comma-separated (RFC 4180), for a spreadsheet: where the product is a table. */
    CSV(new AbCsvRenderer()),
    /** JUnit XML, which CI systems show as tests: a test case per cell. */
    JUNIT(new JunitRenderer());

    // Note: the A/B table's renderers live here rather than in Products so that this enum depends
    // on no other product and Products (which names this enum) on no cycle.
    private final Renderer<Report> renderer;

    Format(Renderer<Report> renderer) {
        this.renderer = renderer;
    }

    /** Returns the A/B table's renderer of this format (see {@link Products#AB}). */
    public Renderer<Report> renderer() {
        return renderer;
    }

    /**
     * Returns the A/B table's renderer of this format for a terminal that shows colour when
     * {@code colour}: text with coloured verdicts; every other format is the same either way.
     */
    public Renderer<Report> renderer(boolean colour) {
        return this == TEXT && colour ? new TextRenderer(true) : renderer;
    }

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
