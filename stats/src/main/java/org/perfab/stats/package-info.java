/**
 * The statistics every perfab verdict rests on: a {@link org.perfab.stats.Sample} of one cell on
 * one side, its {@link org.perfab.stats.Summary}, and the {@link org.perfab.stats.Comparison} of a
 * baseline sample with a candidate sample under Welch's t-test and the verdict rules. The test is a
 * value ({@link org.perfab.stats.ShiftTest}, those perfab knows in
 * {@link org.perfab.stats.KnownTests}): perfab's own rule and those it is measured against go
 * through the same door, each naming its {@link org.perfab.stats.Statistic}, and the verdict rules
 * read only what every test gives. {@link org.perfab.stats.PairedTest} judges the trials in the
 * pairs of the interleaved order, where what the machine did over several trials moved both sides
 * alike ({@link org.perfab.stats.KnownTests#PAIRS}); {@link org.perfab.stats.Pairing} decides, from
 * the spreads and covariances of a run's trials and never their means, whether the pairs or Welch's
 * test judge the run ({@link org.perfab.stats.TrialTest}, the user's choice).
 *
 * <p>The package is pure: it reads no files, knows no output format and keeps no state. Apache
 * Commons Statistics does the distribution and rank arithmetic behind one package-private adapter
 * ({@code Distributions}); none of its types appear in the public API. Quantities that cannot be defined (the mean of an empty sample, a
 * percent change from a zero baseline) are {@code NaN}, never an exception, and a
 * {@link org.perfab.stats.Comparison} says why through its {@link org.perfab.stats.Caveat}s.
 */
package org.perfab.stats;
