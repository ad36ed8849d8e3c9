/**
 * {@code perfab calibrate}'s core: how often perfab's verdicts are right. {@link
 * org.perfab.calibrate.Calibrate} simulates trials with the noise of shared runners and judges
 * them every way {@link org.perfab.stats.Calibration} knows, through the same
 * {@link org.perfab.stats.ShiftTest} seam the A/B uses, then runs real A/Bs of commits with known
 * slowdowns on this machine; it returns one value, {@link org.perfab.model.CalibrationFigures},
 * which {@link org.perfab.report.Products#CALIBRATE} renders. The command only parses, calls, and
 * renders.
 */
package org.perfab.calibrate;
