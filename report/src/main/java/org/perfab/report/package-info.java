/**
 * Every rendering perfab prints, and nothing else. Each thing it renders is a
 * {@link org.perfab.report.Product} in {@link org.perfab.report.Products}: a type (an A/B
 * {@link org.perfab.report.Report}, a table across runners, a bisect, a series check, a baseline check, a
 * plan, ...) and its {@link org.perfab.report.Renderer} of each {@link org.perfab.report.Format} it
 * supports: text for a terminal, JSON for machines, Markdown for a pull request, GitHub annotations,
 * CSV where the product is a table, and for the A/B HTML (opening with a forest plot of every
 * cell's change against the thresholds) and JUnit XML for CI systems. A series' static site is
 * several files, not one text: {@link org.perfab.report.SiteRenderer} makes them.
 *
 * <p>No renderer calls another: what several formats say alike is worded once, in {@code Words}
 * (verdicts, counts, rules), {@code Warnings} and {@code Notes}, the advice for more trials, checked
 * against the run's own settings, in {@code Advice}, and spans of time in
 * {@link org.perfab.report.Spans}; GitHub's workflow commands in {@code Workflow}; escaping in
 * {@link org.perfab.report.Untrusted}. Every figure those words quote is one the table shows, or
 * the run's (its trials per side, its cells), named as what it is. The package has no class cycle
 * (a test reads it with {@code jdeps}).
 *
 * <p>Renderers own all formatting: numbers are formatted here, under {@link java.util.Locale#ROOT},
 * never by the model types. Every rendering is deterministic: rows are sorted explicitly and JSON
 * properties come in a fixed order under a {@code schema} field. Cell names, warnings and paths
 * come from the code under test and are untrusted: every renderer escapes and bounds them.
 */
package org.perfab.report;
