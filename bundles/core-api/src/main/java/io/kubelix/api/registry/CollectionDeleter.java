package io.kubelix.api.registry;

import io.kubelix.api.request.RequestContext;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.ListResult;
import org.osgi.annotation.versioning.ConsumerType;

/** rest.CollectionDeleter: deletes every object the list options select; returns what was deleted. */
@ConsumerType
public interface CollectionDeleter extends RESTStorage {
    ListResult deleteCollection(RequestContext ctx, DeleteOptions options, ListOptions listOptions);
}
