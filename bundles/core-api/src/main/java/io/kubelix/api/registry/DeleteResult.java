package io.kubelix.api.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * @param object       the deleted object, or the object marked for deletion when finalizers or a
 *                     grace period keep it
 * @param immediate    true when it is gone from storage (answered 200), false when deletion is
 *                     pending (answered 202)
 * @param returnObject true when a delete that is immediate is answered with the deleted object
 *                     rather than a success Status (see {@link RESTDeleteStrategy#returnDeletedObject()})
 */
public record DeleteResult(ObjectNode object, boolean immediate, boolean returnObject) {
    /** A result whose immediate delete is answered with a success Status, as most resources answer it. */
    public DeleteResult(ObjectNode object, boolean immediate) {
        this(object, immediate, false);
    }
}
