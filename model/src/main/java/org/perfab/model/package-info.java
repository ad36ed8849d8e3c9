/**
 * The data every stage of perfab shares, below all of them: what a cell is ({@link
 * org.perfab.model.Cell}), a measurement of it on one side ({@link org.perfab.model.Measurement}),
 * the trials of a run and the run itself ({@link org.perfab.model.RunResults}), and the classified
 * table ({@link org.perfab.model.ComparisonTable}), where every verdict is computed. A run's table is
 * judged in one place, {@link org.perfab.model.Judge}, whether it comes from the run as it ends, a
 * saved {@code results.json}, merged shards or a re-judgement with other settings. The readers and
 * writers of the files perfab keeps ({@link org.perfab.model.ResultsJson}) live here too, so that
 * what a run writes and what a later command reads back are one definition. Nothing here renders.
 */
package org.perfab.model;
