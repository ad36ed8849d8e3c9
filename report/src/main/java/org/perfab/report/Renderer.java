package org.perfab.report;

/** Turns a report into the text of one format. Implementations are stateless. */
public interface Renderer {
    /**
     * Returns the whole rendering of {@code report}, ending with a newline. Nothing is written
     * anywhere, so a failure leaves no half-printed output behind.
     */
    String render(Report report);
}
