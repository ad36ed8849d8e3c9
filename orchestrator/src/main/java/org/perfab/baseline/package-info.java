/**
 * The ratchet baseline: {@link org.perfab.baseline.Ratchet} is its core, one method per step (make
 * a snapshot, seed, check, update, diff, measure the floor, the demo), each a request in and a
 * value out for the command line to render. Snapshots are made from a benchmark tool's output or
 * an A/B's results ({@link org.perfab.baseline.SnapshotSources}); a folder of snapshots is read
 * into tiers, seeded in ratio space or measured for the floor under a budget
 * ({@link org.perfab.baseline.Corpus}). The reduction itself is in {@code stats}
 * ({@code RatioSpace}); the baseline, a check against it and a diff of two are in {@code model}.
 */
package org.perfab.baseline;
