package io.kubelix.api.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * @param object    the deleted object, or the object marked for deletion when finalizers or a
 *                  grace period keep it
 * @param immediate true when it is gone from storage (answered 200), false when deletion is
 *                  pending (answered 202)
 */
public record DeleteResult(ObjectNode object, boolean immediate) {
}
