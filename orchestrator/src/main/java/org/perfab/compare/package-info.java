/**
 * {@code perfab compare}'s core: read measurement files of two sides, place every value on its side
 * as one more trial of its cell, and classify the cells ({@link org.perfab.compare.Compare}).
 */
package org.perfab.compare;
