package io.kubelix.api.storage;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** A check run against the current object just before it is deleted; throwing aborts the delete. */
@FunctionalInterface
public interface ValidateObjectFunction {
    ValidateObjectFunction NONE = obj -> { };

    void validate(ObjectNode current);
}
