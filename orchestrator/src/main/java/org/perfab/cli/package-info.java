/**
 * The {@code perfab} command line. Each command is a thin picocli {@code Callable<Integer>} that
 * turns its options into a request and calls one core method; {@link org.perfab.cli.Main#run}
 * returns the exit code instead of exiting, so tests drive the real command line. One table maps
 * failures to exit codes ({@link org.perfab.cli.ExitCode}). What a command takes from the process
 * (the engine, the environment, the clock, whether output is a terminal) is a
 * {@link org.perfab.cli.Session} handed to it as it is made; no command reaches the root command or
 * calls another, and what two commands share is a class of its own, an option type or a mixin.
 */
package org.perfab.cli;
