package io.kubelix.api.registry;

import io.kubelix.api.request.RequestContext;

/** rest.Updater: replaces an object (PUT), and through {@link UpdatedObjectInfo} patches it. */
public interface Updater extends RESTStorage {
    UpdateResult update(RequestContext ctx, String name, UpdatedObjectInfo objInfo, UpdateOptions options);
}
