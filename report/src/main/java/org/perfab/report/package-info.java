/**
 * Every rendering of a run or a comparison, and nothing else: a {@link org.perfab.report.Report}
 * (a classified {@link org.perfab.model.ComparisonTable}, and the run when there is one) goes in, a
 * {@link org.perfab.report.Format} picks the {@link org.perfab.report.Renderer}, and text comes out:
 * for a terminal, for machines, for a pull request, for a browser. The browser's page opens with a
 * forest plot, every cell's change and its 95% interval against the thresholds, regressions first:
 * the one picture to look at before any table.
 *
 * <p>Renderers own all formatting: numbers are formatted here, under {@link java.util.Locale#ROOT},
 * never by the model types. Every rendering is deterministic: rows are sorted explicitly and JSON
 * properties come in a fixed order under a {@code schema} field. Cell names, warnings and paths
 * come from the code under test and are untrusted: every renderer escapes and bounds them.
 */
package org.perfab.report;
