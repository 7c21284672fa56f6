package io.kubelix.runtime.audit;

/** audit.Level: how much of a request an event records, each level adding to the one before. */
public enum Level {
    /** Not audited. */
    None,
    /** Who, what and when, and the response's status: no bodies. */
    Metadata,
    /** Metadata and the request's object. */
    Request,
    /** Request and the response's object. */
    RequestResponse;

    /** Whether this level records less than {@code other} (audit.Level.Less). */
    public boolean less(Level other) {
        return ordinal() < other.ordinal();
    }
}
