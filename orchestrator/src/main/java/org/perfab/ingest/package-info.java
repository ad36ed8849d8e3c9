/**
 * Format adapters: each turns one file a harness wrote into {@link org.perfab.ingest.Reading}s
 * (cell, value, and where in the file it came from), behind the one small interface
 * {@link org.perfab.ingest.MeasurementFormat}. Adapters validate strictly and name the file, line
 * and column of anything wrong; they never guess a direction the unit does not tell
 * ({@link org.perfab.model.Units}).
 */
package org.perfab.ingest;
