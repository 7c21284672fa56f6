package io.kubelix.api.registry;

import io.kubelix.api.request.RequestContext;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.Watch;
import org.osgi.annotation.versioning.ConsumerType;

/** rest.Watcher: watches the context's namespace, or all namespaces when it is empty. */
@ConsumerType
public interface Watcher extends RESTStorage {
    Watch watch(RequestContext ctx, ListOptions options);
}
