/**
 * What a workload says about its cells: which cells a policy applies to
 * ({@link org.perfab.workload.CellGlob}).
 */
package org.perfab.workload;
