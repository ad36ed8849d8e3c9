/**
 * Format adapters: each turns one file a harness wrote into {@link org.perfab.ingest.Reading}s
 * (cell, value, and where in the file it came from), behind the one small interface
 * {@link org.perfab.ingest.MeasurementFormat}. Adapters validate strictly and name the file, line
 * and column of anything wrong; they never guess a direction the unit does not tell
 * ({@link org.perfab.model.Units}). A format also says what a workload must know of its tool's
 * benchmarks when it is read: whether they are counted one at a time, and what a harness's command
 * needs for that; listing, filtering and counting them is the A/B's, in {@code org.perfab.ab}.
 */
package org.perfab.ingest;
