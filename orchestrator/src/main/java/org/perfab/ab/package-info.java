/**
 * The same-runner A/B: from two refs to a classified table. The harness is the head's, the code is
 * each side's own.
 *
 * <p>A caller asks for a run with an {@link org.perfab.ab.AbRequest} (its settings checked, then layered
 * once over the workload's and perfab's defaults: {@link org.perfab.ab.RunSettings}, the one layering
 * of every command's run settings) and gives it what it talks to
 * ({@link org.perfab.ab.AbRun.Context}: its events, environment, clock and renderers, and an
 * {@link org.perfab.ab.Engine}: the commands it runs, the signals that stop it, the machine's
 * description). {@link org.perfab.ab.AbRun} then takes the run's folder ({@link org.perfab.ab.RunDir},
 * locked, deleting only what its manifest says it made), has the plan made
 * ({@link org.perfab.ab.Planner}: refs resolved, the head's workload read, written as
 * {@code run.json}, {@link org.perfab.ab.Plan}), and has the sides made ready
 * ({@link org.perfab.ab.Workspace}: each side and build checked out into its own folder,
 * {@link org.perfab.ab.SideDir}, the head's harness files copied into the base's tree,
 * {@link org.perfab.ab.HarnessFiles}, each built into its private output folder or taken from the
 * cache, {@link org.perfab.ab.Builder}). A shard's run measures its slice of the suite the harness
 * lists ({@link org.perfab.ab.Slices}).
 *
 * <p>The trials run in the plan's order, sides alternating ({@link org.perfab.ab.TrialOrder}), one
 * at a time ({@link org.perfab.ab.TrialLoop}, each trial a {@link org.perfab.ab.Trial} run in
 * its side's tree), each appended to {@code trials.jsonl} the moment it ends
 * ({@link org.perfab.ab.TrialLog}) and to what the run has done so far
 * ({@link org.perfab.ab.Ledger}); a trial the machine disturbed is replaced, a bounded number of
 * times. With adaptive trials, each look decides whether another round runs
 * ({@link org.perfab.ab.Looks}): only the benchmarks of the cells still undecided, through the
 * harness's own filter, priced by the trials so far ({@link org.perfab.ab.Rounds}), within the
 * budget; the table so far is written as partial results in between. As it goes, a run tells its
 * caller what is left of it and what each look decided ({@link org.perfab.ab.Events}).
 *
 * <p>The results ({@link org.perfab.ab.Assembly}, a function of what was done: the table judged, the
 * warnings as data) are written as {@code results.json}, {@code comment.md}, {@code report.html}
 * and, for an A/A run, {@code noise.json}: when the run ends, after each look, and when a signal
 * stops it. A resumed run goes on with every setting it began with, a setting given again held to
 * the run's ({@link org.perfab.ab.Resume}).
 *
 * <p>What perfab knows of each benchmark tool is one {@link org.perfab.ab.HarnessTool}, the tools
 * listed in {@link org.perfab.ab.HarnessTools}: its reader, how its benchmarks are listed and
 * filtered, and whether and how each is counted on its own ({@link org.perfab.ab.PerBenchmark});
 * shards, later looks and counting all go through it, and a tree counted once is counted no more
 * ({@link org.perfab.ab.CountCache}).
 */
package org.perfab.ab;
