package org.perfab.report;

import java.util.Locale;

/** The ways a comparison can be written out, each with its {@link Renderer}. */
public enum Format {
    /** An aligned table for a terminal. */
    TEXT(new TextRenderer()),
    /** The machine-readable form, schema {@code perfab/comparison/v1}. */
    JSON(new JsonRenderer()),
    /** A Markdown table for a pull request or a job summary. */
    MARKDOWN(new MarkdownRenderer());

    private final Renderer renderer;

    Format(Renderer renderer) {
        this.renderer = renderer;
    }

    /** Returns the renderer of this format. */
    public Renderer renderer() {
        return renderer;
    }

    /** The name used on the command line: {@code text}, {@code json}, {@code markdown}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
