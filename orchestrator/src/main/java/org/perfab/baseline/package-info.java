/**
 * Where a ratchet baseline's data comes from: snapshots made from a benchmark tool's output or an
 * A/B's results ({@link org.perfab.baseline.SnapshotSources}), and a folder of snapshots read into
 * tiers, seeded in ratio space or measured for the floor under a budget
 * ({@link org.perfab.baseline.Corpus}). The reduction itself is in {@code stats}
 * ({@code RatioSpace}); the baseline, a check against it and a diff of two are in {@code model}.
 */
package org.perfab.baseline;
