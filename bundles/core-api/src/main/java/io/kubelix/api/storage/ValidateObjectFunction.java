package io.kubelix.api.storage;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.osgi.annotation.versioning.ConsumerType;

/** A check run against the current object just before it is deleted; throwing aborts the delete. */
@ConsumerType
@FunctionalInterface
public interface ValidateObjectFunction {
    ValidateObjectFunction NONE = obj -> { };

    void validate(ObjectNode current);
}
