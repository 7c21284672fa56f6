package io.kubelix.api.registry;

import io.kubelix.api.request.RequestContext;
import org.osgi.annotation.versioning.ConsumerType;

/** rest.GracefulDeleter. */
@ConsumerType
public interface GracefulDeleter extends RESTStorage {
    DeleteResult delete(RequestContext ctx, String name, DeleteOptions options);
}
