package io.kubelix.resource.core.namespace;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Optional;

/**
 * Reads namespaces for admission. A service private to this bundle (its package is not exported):
 * {@link io.kubelix.resource.core.CoreRESTStorageProvider} registers it because it owns the namespace Store, and
 * {@link NamespaceLifecycle} consumes it, so the two share the Store through DS alone.
 */
public interface NamespaceLister {

    /**
     * @param name the namespace
     * @param live true to read the latest state from storage, false to accept the watch cache's
     * @return the namespace, or empty when it does not exist
     * @throws io.kubelix.api.errors.StatusException 503 when the namespace Store is not built yet
     */
    Optional<ObjectNode> get(String name, boolean live);
}
