package io.kubelix.api.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.request.RequestContext;

/**
 * rest.UpdatedObjectInfo: computes the new object from the current one. A PUT returns its body;
 * a PATCH applies its patch to the current object. It may be called again when a concurrent write
 * forces a retry.
 */
@FunctionalInterface
public interface UpdatedObjectInfo {
    /**
     * @param old the current object, or null when it does not exist (create on update)
     */
    ObjectNode updatedObject(RequestContext ctx, ObjectNode old);
}
