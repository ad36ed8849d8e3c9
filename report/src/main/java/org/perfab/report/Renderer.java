package org.perfab.report;

/** Turns a comparison into the text of one format. Implementations are stateless. */
public interface Renderer {
    /**
     * Returns the whole rendering of {@code table}, ending with a newline. Nothing is written
     * anywhere, so a failure leaves no half-printed output behind.
     */
    String render(ComparisonTable table);
}
