/**
 * Running the commands of a workload: argv lists, never shell strings, with a working directory,
 * an environment, a timeout that kills the whole process tree, and output kept in files
 * ({@link org.perfab.exec.Processes}). The one place {@link java.lang.ProcessBuilder} is used.
 */
package org.perfab.exec;
