package io.kubelix.api.informer;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.osgi.annotation.versioning.ProviderType;

import java.util.List;
import java.util.Optional;

/**
 * Reads an informer's cache (client-go's {@code GenericLister}): the objects as the informer last
 * saw them, never a request to storage. Before the informer has synced, the cache may be empty or
 * partial. The objects are shared with every other reader and must not be changed (copy with
 * {@code deepCopy()} first).
 */
@ProviderType
public interface GenericLister {

    /** Every cached object, of every namespace for a namespaced resource, ordered by key. */
    List<ObjectNode> list();

    /** A cluster-scoped object by name. */
    Optional<ObjectNode> get(String name);

    /** The objects of one namespace of a namespaced resource. */
    GenericNamespaceLister byNamespace(String namespace);
}
