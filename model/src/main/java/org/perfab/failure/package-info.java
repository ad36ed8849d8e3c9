/**
 * The two ways a perfab run goes wrong that are not bugs, each with its exit code: input a user or
 * a pull request got wrong ({@link org.perfab.failure.BadInputException}, exit 2), and a build,
 * git or harness step that failed and left nothing to compare
 * ({@link org.perfab.failure.RunFailedException}, exit 3). Every message names the file, line,
 * cell or trial it is about, so a reader can act on it without a stack trace; where a name was
 * mistyped, it offers the names near it ({@link org.perfab.failure.NearNames}).
 */
package org.perfab.failure;
