package org.perfab.model;

/** The two sides of an A/B: the baseline and the candidate. */
public enum Side {
    /** The baseline: the merge-base of a pull request, or the old release. */
    BASE("base"),
    /** The candidate: the head of a pull request, or the new release. */
    HEAD("head");

    private final String id;

    Side(String id) {
        this.id = id;
    }

    /** The name used in files: {@code base} or {@code head}. */
    public String id() {
        return id;
    }
}
