/**
 * The results model and every rendering of it. A {@link org.perfab.report.ComparisonTable} is the
 * classified form of a set of {@link org.perfab.report.Measurement}s; a
 * {@link org.perfab.report.Format} picks the {@link org.perfab.report.Renderer} that turns it into
 * text for a terminal, JSON for machines, or Markdown for a pull request.
 *
 * <p>Renderers own all formatting: numbers are formatted here, under {@link java.util.Locale#ROOT},
 * never by the model types. Every rendering is deterministic: rows are sorted explicitly and JSON
 * properties come in a fixed order under a {@code schema} field. Cell names come from the code
 * under test and are untrusted: renderers for Markdown and HTML escape them.
 */
package org.perfab.report;
