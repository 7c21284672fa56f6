package io.kubelix.api.registry;

import io.kubelix.api.request.RequestContext;

/** rest.GracefulDeleter. */
public interface GracefulDeleter extends RESTStorage {
    DeleteResult delete(RequestContext ctx, String name, DeleteOptions options);
}
