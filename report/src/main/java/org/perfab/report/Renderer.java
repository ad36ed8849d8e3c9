package org.perfab.report;

/**
 * Turns one value of a product (an A/B report, a table across runners, a bisect, a series check, ...) into
 * the text of one {@link Format}. Implementations are stateless.
 *
 * @param <T> what the product is
 */
@FunctionalInterface
public interface Renderer<T> {
    /**
     * Returns the whole rendering of {@code value}, ending with a newline. Nothing is written
     * anywhere, so a failure leaves no half-printed output behind.
     */
    String render(T value);
}
