/**
 * The {@code perfab} command line. Each command is a thin picocli {@code Callable<Integer>} that
 * turns its options into a request and calls one core method; {@link org.perfab.cli.Main#run}
 * returns the exit code instead of exiting, so tests drive the real command line. One table maps
 * failures to exit codes ({@link org.perfab.cli.ExitCode}).
 */
package org.perfab.cli;
