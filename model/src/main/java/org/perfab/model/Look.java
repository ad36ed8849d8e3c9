package org.perfab.model;

/**
 * The look of a run with adaptive trials whose statistics stand for a cell (see
 * {@link org.perfab.stats.Sequential}).
 *
 * @param look which look, from 1
 * @param looks how many looks the run took
 * @param trials the trials per side it looked at
 * @param alpha the alpha of that look, its share of the run's
 */
public record Look(int look, int looks, int trials, double alpha) {}
