package io.kubelix.api.registry;

import io.kubelix.api.request.RequestContext;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.ListResult;
import org.osgi.annotation.versioning.ConsumerType;

/** rest.Lister: lists the objects of the context's namespace, or of all namespaces when it is empty. */
@ConsumerType
public interface Lister extends RESTStorage {
    ListResult list(RequestContext ctx, ListOptions options);
}
