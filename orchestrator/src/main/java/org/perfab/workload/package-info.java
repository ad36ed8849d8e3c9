/**
 * The workload file: what to build, which harness drives the trials, how many, and what each cell
 * is ({@link org.perfab.workload.Workload}, read by {@link org.perfab.workload.WorkloadLoader}).
 * A pull request controls this file, so it is read strictly: an unknown key, a bad value or a
 * wrong type is an error that names the file, line and column.
 */
package org.perfab.workload;
