/**
 * The nightly series: {@link org.perfab.series.Nightly} is its core, one method per thing done to
 * a series (record tonight's ratios on the main branch only, merge another history, check a run,
 * replay the rules, measure its noise), each a request in and a value out for the command line to
 * render; {@link org.perfab.series.Curation} says which runs to leave out first. Tonight's
 * ratios ({@link org.perfab.model.Series}) come from {@link org.perfab.series.SeriesSources}: each
 * cell's head/base ratio from an A/B's results, each cell against the baseline cell its workload
 * names ({@code ratio_to}), or the ratios another tool wrote to a CSV. The rules that find steps
 * and drifts in the series are in {@code stats}, what one run's check found in {@code model}.
 * {@link org.perfab.series.SeriesSite} writes the series' static site: every key's chart, its
 * movements marked on the nights a check reports them.
 */
package org.perfab.series;
