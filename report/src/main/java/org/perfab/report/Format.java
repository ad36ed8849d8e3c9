package org.perfab.report;

import java.util.Locale;

/** The ways a comparison can be written out, each with its {@link Renderer}. */
public enum Format {
    /** An aligned table for a terminal. */
    TEXT(new TextRenderer()),
    /** The machine-readable form, schema {@code perfab/comparison/v1}. */
    JSON(new JsonRenderer()),
    /** The pull-request comment, in Markdown; also the job summary. */
    MARKDOWN(new MarkdownRenderer()),
    /** GitHub Actions annotations: a warning per regression, a notice per inconclusive cell. */
    GITHUB(new GithubRenderer()),
    /** One self-contained HTML file: the table, and a plot of every trial of every cell. */
    HTML(new HtmlRenderer());

    private final Renderer renderer;

    Format(Renderer renderer) {
        this.renderer = renderer;
    }

    /** Returns the renderer of this format. */
    public Renderer renderer() {
        return renderer;
    }

    /**
     * Returns the renderer of this format for a terminal that shows colour when {@code colour}:
     * text with coloured verdicts; every other format is the same either way.
     */
    public Renderer renderer(boolean colour) {
        return this == TEXT && colour ? new TextRenderer(true) : renderer;
    }

    /** The name used on the command line: {@code text}, {@code json}, {@code markdown}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
