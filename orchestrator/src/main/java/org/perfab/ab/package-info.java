/**
 * The same-runner A/B: from two refs to a classified table. {@link org.perfab.ab.AbRun} locks the
 * run's folder ({@link org.perfab.ab.RunDir}), checks out the merge-base and the head into
 * directories of their own ({@link org.perfab.ab.SideDir}), copies the head's harness files into
 * the base's tree ({@link org.perfab.ab.HarnessFiles}), builds each into its own private output
 * folder ({@link org.perfab.ab.Builder}), runs the harness in each side's own tree for every slot
 * of the trial order ({@link org.perfab.ab.TrialOrder}, {@link org.perfab.ab.TrialRunner}),
 * appends each trial to {@code trials.jsonl} the moment it ends ({@link org.perfab.ab.TrialLog}),
 * and writes {@code results.json} and {@code comment.md}. With adaptive trials, each later round
 * runs only the benchmarks of the cells still undecided, through the harness's own filter
 * ({@link org.perfab.ab.Slices}), and costs their share of the last round ({@link org.perfab.ab.Rounds}).
 * As it goes, a run tells its caller ({@link org.perfab.ab.Events}) what is left of it, priced by
 * the trials so far ({@link org.perfab.ab.Rounds} again: the first estimate comes from the warm-ups),
 * and after each look that leaves cells open what the look decided, writing the table so far as
 * partial results. What perfab knows of each benchmark tool is one {@link org.perfab.ab.HarnessTool}:
 * its reader, how its benchmarks are listed and filtered, and whether and how each is counted on its
 * own ({@link org.perfab.ab.PerBenchmark}); shards, later looks and counting all go through it, and a
 * tree counted once is counted no more ({@link org.perfab.ab.CountCache}). The run's plan
 * ({@link org.perfab.ab.Plan}, {@code run.json}) keeps every setting it began with, and a resumed
 * run goes on with them, a setting given again held to the run's ({@link org.perfab.ab.Resume}).
 * The harness is the head's, the code is each side's own.
 */
package org.perfab.ab;
