/**
 * The git side of an A/B, behind JGit: resolving the refs a user types (naming the branches an
 * unknown one could have meant), the repository's default branch when no base is typed, finding
 * the merge-base, and writing a commit's tree (submodules included) into a fresh directory of its
 * own ({@link org.perfab.git.GitRepo}). Nothing here runs the {@code git} program or touches the
 * repository's own working tree.
 */
package org.perfab.git;
