/**
 * Running the commands of a workload: argv lists, never shell strings, with a working directory,
 * an environment, a timeout that kills the whole process tree, a session (and where the machine
 * allows, a cgroup) of their own, a sweep of whatever they leave running, a watchdog that kills
 * them should perfab die without a word, and output kept in bounded files
 * ({@link org.perfab.exec.ProcessTrees}). The one place {@link java.lang.ProcessBuilder} is used.
 */
package org.perfab.exec;
