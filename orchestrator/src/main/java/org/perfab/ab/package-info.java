/**
 * The same-runner A/B: from two refs to a classified table. {@link org.perfab.ab.AbRun} checks
 * out the merge-base and the head into directories of their own ({@link org.perfab.ab.SideDir}),
 * builds each into its own private output folder ({@link org.perfab.ab.Builder}), runs the
 * harness for every slot of the trial order ({@link org.perfab.ab.TrialOrder},
 * {@link org.perfab.ab.TrialRunner}), appends each trial to {@code trials.jsonl} the moment it ends
 * ({@link org.perfab.ab.TrialLog}), and writes {@code results.json} and {@code comment.md}.
 */
package org.perfab.ab;
