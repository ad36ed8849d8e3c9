/**
 * {@code perfab demo}: a temporary git repository with a small subject, its build, harness and
 * workload, and a feature branch that makes one cell slower and one faster
 * ({@link org.perfab.demo.DemoRepository}). The subject's files ship in the workloads module.
 */
package org.perfab.demo;
