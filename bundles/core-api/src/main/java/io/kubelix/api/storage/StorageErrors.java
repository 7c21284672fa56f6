package io.kubelix.api.storage;

import io.kubelix.api.errors.StatusCause;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;

import java.util.List;

/** The errors of resourceVersions a backend cannot serve, worded as kube-apiserver's storage words them. */
public final class StorageErrors {

    private StorageErrors() {
    }

    /** A revision the backend has not reached yet (storage.NewTooLargeResourceVersionError): 504, retry in 1s. */
    public static StatusException tooLargeResourceVersion(long requested, long current) {
        return new StatusException(StatusReason.TIMEOUT, 504,
                "Too large resource version: " + requested + ", current: " + current,
                new StatusException.Details(null, null, null,
                        List.of(new StatusCause("ResourceVersionTooLarge", "Too large resource version", "")), 1),
                null);
    }

    /** A revision older than what the backend retains: 410 Expired, the client lists again. */
    public static StatusException tooOldResourceVersion(long requested) {
        return StatusException.resourceExpired("too old resource version: " + requested);
    }

    /** As {@link #tooOldResourceVersion(long)}, naming the oldest revision still retained. */
    public static StatusException tooOldResourceVersion(long requested, long oldestRetained) {
        return StatusException.resourceExpired("too old resource version: " + requested + " (" + oldestRetained + ")");
    }

    /** A continue token whose revision is no longer retained, when no other token can be offered. */
    public static StatusException continueExpired() {
        return StatusException.resourceExpired("The provided continue parameter is too old to display a consistent"
                + " list result. You can start a new list without the continue parameter.");
    }

    /**
     * A continue token whose revision is no longer retained (kube's inconsistent continue): the
     * 410 carries a token that lists the rest from where {@code expired} stopped, at the current
     * revision, for clients that accept objects changed between the pages.
     */
    public static StatusException continueExpired(ContinueToken expired) {
        return StatusException.resourceExpired("The provided continue parameter is too old to display a consistent"
                + " list result. You can start a new list without the continue parameter, or use the continue token"
                + " in this response to retrieve the remainder of the results. Continuing with the provided token"
                + " results in an inconsistent list - objects that were created, modified, or deleted between the"
                + " time the first chunk was returned and now may show up in the list.",
                expired.atLatest().encode());
    }
}
