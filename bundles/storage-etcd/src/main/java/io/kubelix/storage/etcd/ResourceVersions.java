package io.kubelix.storage.etcd;

import io.kubelix.api.errors.StatusCause;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;

import java.util.List;

/** Errors of resourceVersions etcd cannot serve, worded as kube-apiserver's etcd3 store. */
final class ResourceVersions {

    private ResourceVersions() {
    }

    /** A revision etcd has not reached yet (storage.NewTooLargeResourceVersionError): 504, retry in 1s. */
    static StatusException tooLarge(long requested, long current) {
        return new StatusException(StatusReason.TIMEOUT, 504,
                "Too large resource version: " + requested + ", current: " + current,
                new StatusException.Details(null, null, null,
                        List.of(new StatusCause("ResourceVersionTooLarge", "Too large resource version", "")), 1),
                null);
    }

    /** A compacted revision: 410 Expired, the client lists again. */
    static StatusException tooOld(long requested) {
        return StatusException.resourceExpired("too old resource version: " + requested);
    }

    /** A continue token whose revision has been compacted. */
    static StatusException continueExpired() {
        return StatusException.resourceExpired("The provided continue parameter is too old to display a consistent"
                + " list result. You can start a new list without the continue parameter.");
    }
}
