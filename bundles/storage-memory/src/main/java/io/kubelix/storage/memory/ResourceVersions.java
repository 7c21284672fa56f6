package io.kubelix.storage.memory;

import io.kubelix.api.errors.StatusCause;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;

import java.util.List;

/** The errors of resourceVersions outside what the store holds, worded as kube-apiserver's. */
final class ResourceVersions {

    private ResourceVersions() {
    }

    /** A revision the store has not reached yet (storage.NewTooLargeResourceVersionError): 504, retry in 1s. */
    static StatusException tooLarge(long requested, long current) {
        String message = "Too large resource version: " + requested + ", current: " + current;
        return new StatusException(StatusReason.TIMEOUT, 504, message,
                new StatusException.Details(null, null, null,
                        List.of(new StatusCause("ResourceVersionTooLarge", "Too large resource version", "")), 1),
                null);
    }

    /** A revision older than the retained window: 410 Expired, the client re-lists. */
    static StatusException tooOld(long requested, long compacted) {
        return StatusException.resourceExpired("too old resource version: " + requested + " (" + compacted + ")");
    }

    /** A continue token whose revision is no longer retained. */
    static StatusException continueExpired() {
        return StatusException.resourceExpired("The provided continue parameter is too old to display a consistent"
                + " list result. You can start a new list without the continue parameter.");
    }
}
