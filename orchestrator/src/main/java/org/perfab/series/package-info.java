/**
 * Tonight's ratios for a nightly series ({@link org.perfab.model.Series}): each cell's head/base
 * ratio from an A/B's results, each cell against the baseline cell its workload names
 * ({@code ratio_to}), or the ratios another tool wrote to a CSV. The rules that find steps and
 * drifts in the series are in {@code stats}, what one run's check found in {@code model}.
 */
package org.perfab.series;
