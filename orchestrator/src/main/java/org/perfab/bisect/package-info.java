/**
 * {@code perfab bisect}: a binary search along the first-parent commits from a good commit to a
 * bad one, each step a same-runner A/B ({@link org.perfab.ab.AbRun}) of the good commit against
 * the candidate, and the edge it finds rebuilt with perturbed layouts before a commit is blamed
 * ({@link org.perfab.bisect.Bisect}).
 */
package org.perfab.bisect;
