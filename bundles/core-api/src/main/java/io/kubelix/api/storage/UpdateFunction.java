package io.kubelix.api.storage;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * The update step of {@link StorageInterface#guaranteedUpdate}: given the current object (a fresh
 * copy, or null when absent and not-found is ignored), returns the object to store. It may be
 * called more than once, so it must not have side effects beyond its result. Throwing aborts
 * the update and reaches the caller unchanged.
 */
@ConsumerType
@FunctionalInterface
public interface UpdateFunction {
    ObjectNode apply(ObjectNode current, long currentRevision);
}
