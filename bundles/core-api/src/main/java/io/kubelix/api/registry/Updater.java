package io.kubelix.api.registry;

import io.kubelix.api.request.RequestContext;
import org.osgi.annotation.versioning.ConsumerType;

/** rest.Updater: replaces an object (PUT), and through {@link UpdatedObjectInfo} patches it. */
@ConsumerType
public interface Updater extends RESTStorage {
    UpdateResult update(RequestContext ctx, String name, UpdatedObjectInfo objInfo, UpdateOptions options);
}
