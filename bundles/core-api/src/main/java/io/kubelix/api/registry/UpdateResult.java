package io.kubelix.api.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * @param object  the object as stored
 * @param created true when the update created it (answered 201)
 */
public record UpdateResult(ObjectNode object, boolean created) {
}
