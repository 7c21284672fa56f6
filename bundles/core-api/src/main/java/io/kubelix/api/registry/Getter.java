package io.kubelix.api.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.request.RequestContext;
import org.osgi.annotation.versioning.ConsumerType;

/** rest.Getter. */
@ConsumerType
public interface Getter extends RESTStorage {
    /**
     * @param resourceVersion "" for the most recent state, "0" for any, "N" for not older than N
     * @throws io.kubelix.api.errors.StatusException 404 when the object does not exist
     */
    ObjectNode get(RequestContext ctx, String name, String resourceVersion);
}
