package io.kubelix.api.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.request.RequestContext;
import org.osgi.annotation.versioning.ConsumerType;

/** rest.Creater. */
@ConsumerType
public interface Creater extends RESTStorage {
    /**
     * Creates the object: defaults, validation and admission, then storage (unless dry run).
     *
     * @return the object as stored
     * @throws io.kubelix.api.errors.StatusException 409 AlreadyExists, 422 Invalid, ...
     */
    ObjectNode create(RequestContext ctx, ObjectNode obj, CreateOptions options);
}
