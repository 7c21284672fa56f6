package io.kubelix.api.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.storage.Preconditions;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * rest.UpdatedObjectInfo: computes the new object from the current one. A PUT returns its body;
 * a PATCH applies its patch to the current object. It may be called again when a concurrent write
 * forces a retry.
 */
@ConsumerType
@FunctionalInterface
public interface UpdatedObjectInfo {
    /**
     * @param old the current object, or null when it does not exist (create on update)
     */
    ObjectNode updatedObject(RequestContext ctx, ObjectNode old);

    /**
     * Preconditions(): what the current object must satisfy before the update is computed, checked
     * as a storage precondition (a mismatch is a 409 Conflict). A PUT whose body carries a
     * {@code metadata.uid} requires that uid, as kube-apiserver's DefaultUpdatedObjectInfo does; the
     * default is none.
     */
    default Preconditions preconditions() {
        return Preconditions.NONE;
    }
}
